//! The shopper's profile: who they are and their orders.

use actix_web::{web, HttpResponse};
use orders::CheckoutService as _;

use crate::services::PrivacyService;
use crate::{auth::RequireUser, checkout::ShopCheckout, error::ApiError, error::ErrorBody};
use dto::account::UserResponse;
use dto::order::ProfileOrder;
use dto::profile::{
    DataExport, DeleteAccount, ProfileResponse, ProfileSettings, ProfileUser, UpdateProfile,
};

/// `GET /api/profile`: the logged-in user and their orders.
#[utoipa::path(
    get,
    path = "/api/profile",
    tag = "accounts",
    responses(
        (status = 200, description = "The user and their orders, newest first.", body = ProfileResponse),
        (status = 401, description = "Not logged in.", body = ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn profile(
    RequireUser(user): RequireUser,
    checkout: web::Data<ShopCheckout>,
) -> Result<HttpResponse, ApiError> {
    let orders = checkout.orders_of_user(user.user_id()).await?;
    Ok(HttpResponse::Ok().json(ProfileResponse {
        user: ProfileUser {
            user: UserResponse::from(&user),
            language: user.language.map(|language| language.code().to_owned()),
            // newest first
            orders: orders.iter().map(ProfileOrder::from).collect(),
        },
    }))
}

/// `PATCH /api/profile` `{"language": "pt-BR"}`: the account's settings; the language is the
/// one the account's mail (verification, reset, …) is written in. Anything but a language the
/// shop offers is refused with 422 (`invalid_fields`, under `errors.language`) and nothing
/// changes.
#[utoipa::path(
    patch,
    path = "/api/profile",
    tag = "accounts",
    request_body = UpdateProfile,
    responses(
        (status = 200, description = "The settings as they are now.", body = ProfileSettings),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "Not logged in.", body = ErrorBody),
        (status = 403, description = "A cross-site request.", body = ErrorBody),
        (status = 413, description = "The body is too large.", body = ErrorBody),
        (status = 415, description = "The body is not JSON.", body = ErrorBody),
        (status = 422, description = "Not a language the shop offers.", body = ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn update(
    RequireUser(user): RequireUser,
    accounts: web::Data<crate::auth::AccountsService>,
    body: web::Json<UpdateProfile>,
) -> Result<HttpResponse, ApiError> {
    let mut language = user.language;
    if let Some(asked) = &body.language {
        let chosen = asked
            .parse::<shared::Language>()
            .map_err(|_| ApiError::field("language", l10n::Text::new("error-language-unknown")))?;
        accounts
            .set_language(user.user_id(), chosen)
            .await
            .map_err(ApiError::internal)?;
        language = Some(chosen);
    }
    Ok(HttpResponse::Ok().json(ProfileSettings {
        language: language.map(|language| language.code().to_owned()),
    }))
}

/// GET /api/profile/export: everything the shop keeps about the shopper (the account, the
/// orders with every detail given with them and their reviews, the help chats) as a JSON
/// download.
#[utoipa::path(
    get,
    path = "/api/profile/export",
    tag = "accounts",
    responses(
        (status = 200, description = "The shopper's data as a JSON download (`garden-shop-my-data.json`).", body = DataExport,
            headers(("Content-Disposition" = String, description = "`attachment; filename=\"garden-shop-my-data.json\"`"))),
        (status = 401, description = "Not logged in.", body = ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn export(
    RequireUser(user): RequireUser,
    privacy: web::Data<PrivacyService>,
) -> Result<HttpResponse, ApiError> {
    let Some(export) = privacy
        .export(accounts::UserId::new(user.id))
        .await
        .map_err(ApiError::internal)?
    else {
        // erased between the session check and now
        return Err(ApiError::Unauthorized(
            l10n::Text::new("error-log-in").into(),
        ));
    };
    Ok(HttpResponse::Ok()
        .insert_header((
            actix_web::http::header::CONTENT_DISPOSITION,
            "attachment; filename=\"garden-shop-my-data.json\"",
        ))
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .json(DataExport::of(UserResponse::from(&user), export)))
}

/// DELETE /api/profile `{"password": "…"}`: erases the account (orders stay for the books
/// without the e-mail and names) and ends every session of it; 204. The password check counts
/// in the login's limits (the account's e-mail address and the client address).
#[utoipa::path(
    delete,
    path = "/api/profile",
    tag = "accounts",
    request_body = DeleteAccount,
    responses(
        (status = 204, description = "The account is erased and logged out."),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "Not logged in.", body = ErrorBody),
        (status = 403, description = "A staff account (not deletable here), or a cross-site request.", body = ErrorBody),
        (status = 409, description = "Orders are still waiting for payment or delivery.", body = ErrorBody),
        (status = 413, description = "The body is too large.", body = ErrorBody),
        (status = 415, description = "The body is not JSON.", body = ErrorBody),
        (status = 422, description = "The password is missing or wrong.", body = ErrorBody),
        (status = 429, description = "Too many wrong passwords for this account or from this address (counted with the login's).", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait."))),
    ),
    security(("session_cookie" = [])),
)]
pub async fn delete(
    RequireUser(user): RequireUser,
    client: crate::client_ip::ClientIp,
    accounts: web::Data<crate::auth::AccountsService>,
    session: actix_session::Session,
    body: web::Json<DeleteAccount>,
) -> Result<HttpResponse, ApiError> {
    if body.password.is_empty() {
        return Err(ApiError::field(
            "password",
            l10n::Text::new("error-password-enter"),
        ));
    }
    accounts
        .delete_account(
            accounts::UserId::new(user.id),
            &body.password,
            &client.network_key(),
        )
        .await?;
    session.purge();
    Ok(HttpResponse::NoContent().finish())
}
