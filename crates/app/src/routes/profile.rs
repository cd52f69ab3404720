//! The shopper's profile: who they are and their orders.

use actix_web::{web, HttpResponse};
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::auth::UserResponse;
use crate::{
    auth::{CurrentUser, RequireUser},
    checkout::CheckoutKit,
    error::ApiError,
    openapi::ErrorBody,
};

pub use super::orders::ProfileOrder;

/// The user's orders, newest first.
async fn orders_for_profile(
    kit: &CheckoutKit,
    user: &CurrentUser,
) -> Result<Vec<ProfileOrder>, ApiError> {
    super::orders::orders_of_user(kit, user.id).await
}

/// `GET /api/profile`'s answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProfileResponse {
    user: ProfileUser,
}

/// The user with their orders, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProfileUser {
    #[serde(flatten)]
    user: UserResponse,
    orders: Vec<ProfileOrder>,
}

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
    kit: web::Data<CheckoutKit>,
) -> Result<HttpResponse, ApiError> {
    let orders = orders_for_profile(&kit, &user).await?;
    Ok(HttpResponse::Ok().json(ProfileResponse {
        user: ProfileUser {
            user: UserResponse::from(&user),
            orders,
        },
    }))
}

/// Everything the shop keeps about a shopper (`GET /api/profile/export`).
#[derive(Debug, Serialize, ToSchema)]
pub struct DataExport {
    /// When the export was made (RFC 3339).
    exported_at: DateTime<Utc>,
    profile: UserResponse,
    /// Their orders, newest first.
    orders: Vec<ProfileOrder>,
    /// Their help chats, oldest first.
    chats: Vec<ExportedChat>,
}

/// One help chat of the shopper, with its messages oldest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedChat {
    /// The chat's UUID.
    #[schema(format = "uuid")]
    id: String,
    /// `ai`, `pending`, `connected` or `closed`.
    #[schema(example = "closed")]
    status: String,
    created_at: DateTime<Utc>,
    messages: Vec<ExportedMessage>,
}

/// One message of a help chat.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedMessage {
    /// Who wrote it: `user`, `guest`, `bot`, `admin`, `super_admin` or `system`.
    #[schema(example = "user")]
    sender: String,
    message: String,
    created_at: DateTime<Utc>,
}

/// GET /api/profile/export: everything the shop keeps about the shopper (profile, orders,
/// help chats) as a JSON download.
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
    kit: web::Data<CheckoutKit>,
    store: web::Data<store::Store>,
) -> Result<HttpResponse, ApiError> {
    let orders = orders_for_profile(&kit, &user).await?;
    let chats = store
        .chats_of_user(accounts::UserId::new(user.id))
        .await
        .map_err(ApiError::internal)?;
    let chats = chats
        .into_iter()
        .map(|chat| ExportedChat {
            id: chat.id,
            status: chat.status,
            created_at: chat.created_at,
            messages: chat
                .messages
                .into_iter()
                .map(|(sender, message, created_at)| ExportedMessage {
                    sender,
                    message,
                    created_at,
                })
                .collect(),
        })
        .collect();
    Ok(HttpResponse::Ok()
        .insert_header((
            actix_web::http::header::CONTENT_DISPOSITION,
            "attachment; filename=\"garden-shop-my-data.json\"",
        ))
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .json(DataExport {
            exported_at: Utc::now(),
            profile: UserResponse::from(&user),
            orders,
            chats,
        }))
}

/// The account's password, to confirm the erasure.
#[derive(Debug, serde::Deserialize, ToSchema)]
pub struct DeleteAccount {
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    password: String,
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
    store: web::Data<store::Store>,
    session: actix_session::Session,
    body: web::Json<DeleteAccount>,
) -> Result<HttpResponse, ApiError> {
    if body.password.is_empty() {
        return Err(ApiError::field("password", "Enter your password."));
    }
    accounts
        .delete_own_account(
            accounts::UserId::new(user.id),
            &body.password,
            &client.to_string(),
            store.get_ref(),
        )
        .await?;
    session.purge();
    Ok(HttpResponse::NoContent().finish())
}
