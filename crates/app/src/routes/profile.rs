//! The shopper's profile: who they are and their orders.

use actix_web::{web, HttpResponse};
use serde::Serialize;
use serde_json::json;

use super::auth::UserResponse;
use crate::{
    auth::{CurrentUser, RequireUser},
    error::ApiError,
    state::AppState,
};

/// One order as the profile lists it.
#[derive(Debug, Serialize)]
pub struct ProfileOrder {
    pub id: i64,
    pub total: f64,
    pub status: String,
    pub status_label: String,
    pub created_at: String,
}

/// The user's orders, newest first.
///
/// Checkout fills this in: orders do not exist yet, so there is nothing to list.
async fn orders_for_profile(
    _state: &AppState,
    _user: &CurrentUser,
) -> Result<Vec<ProfileOrder>, ApiError> {
    Ok(Vec::new())
}

pub async fn profile(
    RequireUser(user): RequireUser,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let orders = orders_for_profile(&state, &user).await?;
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
