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
