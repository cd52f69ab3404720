//! The shopper's profile: who they are and their orders.

use actix_web::{web, HttpResponse};
use serde_json::json;

use super::auth::UserResponse;
use crate::{
    auth::{CurrentUser, RequireUser},
    checkout::CheckoutKit,
    error::ApiError,
};

pub use super::orders::ProfileOrder;

/// The user's orders, newest first.
async fn orders_for_profile(
    kit: &CheckoutKit,
    user: &CurrentUser,
) -> Result<Vec<ProfileOrder>, ApiError> {
    super::orders::orders_of_user(kit, user.id).await
}

pub async fn profile(
    RequireUser(user): RequireUser,
    kit: web::Data<CheckoutKit>,
) -> Result<HttpResponse, ApiError> {
    let orders = orders_for_profile(&kit, &user).await?;
    let fields = UserResponse::from(&user);
    Ok(HttpResponse::Ok().json(json!({
        "user": {
            "id": fields.id,
            "name": fields.name,
            "email": fields.email,
            "account_type": fields.account_type,
            "orders": orders,
        }
    })))
}

/// GET /api/profile/export: everything the shop keeps about the shopper (profile, orders,
/// help chats) as a JSON download.
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
    let fields = UserResponse::from(&user);
    let chats: Vec<serde_json::Value> = chats
        .into_iter()
        .map(|chat| {
            json!({
                "id": chat.id,
                "status": chat.status,
                "created_at": chat.created_at,
                "messages": chat.messages.into_iter().map(|(sender, message, at)| json!({
                    "sender": sender, "message": message, "created_at": at,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    Ok(HttpResponse::Ok()
        .insert_header((
            actix_web::http::header::CONTENT_DISPOSITION,
            "attachment; filename=\"garden-shop-my-data.json\"",
        ))
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .json(json!({
            "exported_at": chrono::Utc::now(),
            "profile": {
                "id": fields.id,
                "name": fields.name,
                "email": fields.email,
                "account_type": fields.account_type,
            },
            "orders": orders,
            "chats": chats,
        })))
}

#[derive(Debug, serde::Deserialize)]
pub struct DeleteAccount {
    #[serde(default)]
    password: String,
}

/// DELETE /api/profile `{"password": "…"}`: erases the account (orders stay for the books
/// without the e-mail and names) and ends every session of it; 204.
pub async fn delete(
    RequireUser(user): RequireUser,
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
            store.get_ref(),
        )
        .await?;
    session.purge();
    Ok(HttpResponse::NoContent().finish())
}
