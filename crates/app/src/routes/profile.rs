//! The shopper's profile: who they are and their orders.

use actix_web::{web, HttpResponse};
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::auth::UserResponse;
use crate::{
    auth::{CurrentUser, RequireUser},
    checkout::ShopCheckout,
    error::ApiError,
    error::ErrorBody,
};

pub use super::orders::ProfileOrder;

/// The user's orders, newest first.
async fn orders_for_profile(
    checkout: &ShopCheckout,
    user: &CurrentUser,
) -> Result<Vec<ProfileOrder>, ApiError> {
    super::orders::orders_of_user(checkout, user.id).await
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
    checkout: web::Data<ShopCheckout>,
) -> Result<HttpResponse, ApiError> {
    let orders = orders_for_profile(&checkout, &user).await?;
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
    profile: ExportedProfile,
    /// Their orders, newest first, with every detail they gave with each.
    orders: Vec<ExportedOrder>,
    /// Their help chats, oldest first.
    chats: Vec<ExportedChat>,
}

/// The account itself.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedProfile {
    #[serde(flatten)]
    user: UserResponse,
    /// When the account was created.
    created_at: DateTime<Utc>,
}

/// One order of the shopper, with what they gave to place it and what the shop recorded.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedOrder {
    id: i64,
    /// `pending`, `paid`, `delivered`, `expired`, `cancelled`, `refunded` or `disputed`.
    #[schema(example = "delivered")]
    status: String,
    created_at: DateTime<Utc>,
    #[schema(required = true)]
    paid_at: Option<DateTime<Utc>>,
    #[schema(required = true)]
    delivered_at: Option<DateTime<Utc>>,
    items: Vec<ExportedItem>,
    /// In dollars, as are `discount`, `fee` and `total`.
    subtotal: f64,
    discount: f64,
    fee: f64,
    total: f64,
    #[schema(required = true)]
    promo_code: Option<String>,
    /// `card`, …
    payment_method: String,
    /// The e-mail address the receipt and the order's mail went to.
    email: String,
    /// The Discord account linked for the delivery.
    discord_id: String,
    discord_username: String,
    #[schema(required = true)]
    discord_avatar: Option<String>,
    roblox_username: String,
    /// The client address the order was placed from.
    #[schema(required = true)]
    client_ip: Option<String>,
    /// The Discord thread of its delivery, if one was opened.
    #[schema(required = true)]
    ticket_thread_id: Option<String>,
    /// The problem reported with its delivery, if any.
    #[schema(required = true)]
    ticket_problem: Option<String>,
    /// The review left on it, if any.
    #[schema(required = true)]
    review: Option<ExportedReview>,
}

/// One line of an exported order.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedItem {
    product_id: i64,
    name: String,
    /// In dollars.
    unit_price: f64,
    quantity: i32,
}

/// A review the shopper left.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedReview {
    /// 1 to 5 stars.
    rating: i16,
    text: String,
    /// The name shown with it.
    name: String,
    created_at: DateTime<Utc>,
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

/// Cents fit an f64 exactly, and JSON has no decimal type.
#[allow(clippy::cast_precision_loss)]
fn dollars(cents: i64) -> f64 {
    cents as f64 / 100.0
}

impl From<store::ExportedOrder> for ExportedOrder {
    fn from(exported: store::ExportedOrder) -> Self {
        let order = exported.order;
        ExportedOrder {
            id: order.id,
            status: order.status,
            created_at: order.created_at,
            paid_at: order.paid_at,
            delivered_at: order.delivered_at,
            items: exported
                .lines
                .into_iter()
                .map(|line| ExportedItem {
                    product_id: line.product_id,
                    name: line.name,
                    unit_price: dollars(line.unit_price_cents),
                    quantity: line.quantity,
                })
                .collect(),
            subtotal: dollars(order.subtotal_cents),
            discount: dollars(order.discount_cents),
            fee: dollars(order.fee_cents),
            total: dollars(order.total_cents),
            promo_code: order.promo_code,
            payment_method: order.payment_method,
            email: order.email,
            // an account's own orders always have one: erasure clears it with the account
            discord_id: order.discord_id.unwrap_or_default(),
            discord_username: order.discord_username,
            discord_avatar: order.discord_avatar,
            roblox_username: order.roblox_username,
            client_ip: order.client_ip,
            ticket_thread_id: exported.ticket_thread_id,
            ticket_problem: exported.ticket_problem,
            review: exported.review.map(|review| ExportedReview {
                rating: review.rating,
                text: review.text,
                name: review.name,
                created_at: review.created_at,
            }),
        }
    }
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
    store: web::Data<store::Store>,
) -> Result<HttpResponse, ApiError> {
    let Some(data) = store
        .personal_data(accounts::UserId::new(user.id))
        .await
        .map_err(ApiError::internal)?
    else {
        // erased between the session check and now
        return Err(ApiError::Unauthorized("Please log in.".to_owned()));
    };
    let chats = data
        .chats
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
            profile: ExportedProfile {
                user: UserResponse::from(&user),
                created_at: data.user.created_at,
            },
            orders: data.orders.into_iter().map(ExportedOrder::from).collect(),
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
