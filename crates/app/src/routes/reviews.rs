//! Verified reviews: `POST /api/orders/{id}/review?key=…` (the holder of a delivered order's
//! link, its session or owner), `GET /api/reviews[?product_id=]`, and
//! `POST /api/admin/reviews/{id}/hide` (staff).

use actix_session::Session;
use actix_web::{web, HttpResponse};
use orders::Review;
use serde::{Deserialize, Serialize};

use super::orders::{order_for, KeyQuery};
use crate::auth::{MaybeUser, RequireStaff};
use crate::checkout::CheckoutKit;
use crate::client_ip::ClientIp;
use crate::error::ApiError;
use crate::services::{ReviewService, TrackingService};

#[derive(Debug, Deserialize)]
pub struct ReviewPayload {
    pub rating: i64,
    #[serde(default)]
    pub text: String,
}

#[derive(Debug, Serialize)]
pub struct ReviewResponse {
    pub id: i64,
    pub rating: u8,
    pub text: String,
    pub name: String,
    pub created_at: String,
    pub product_ids: Vec<i64>,
}

impl From<&Review> for ReviewResponse {
    fn from(review: &Review) -> Self {
        ReviewResponse {
            id: review.id,
            rating: review.rating,
            text: review.text.clone(),
            name: review.name.clone(),
            created_at: review.created_at.to_rfc3339(),
            product_ids: review.product_ids.clone(),
        }
    }
}

/// `POST /api/orders/{id}/review?key=…` `{rating, text}`: 201 once, 409 a second time, 422
/// before delivery or out of bounds, 404 without access.
#[allow(clippy::too_many_arguments)]
pub async fn leave(
    kit: web::Data<CheckoutKit>,
    tracking: web::Data<TrackingService>,
    reviews: web::Data<ReviewService>,
    session: Session,
    user: MaybeUser,
    id: web::Path<String>,
    query: web::Query<KeyQuery>,
    payload: web::Json<ReviewPayload>,
) -> Result<HttpResponse, ApiError> {
    let order = order_for(&kit, &tracking, &session, &user, &id, query.key.as_deref()).await?;
    let review = reviews.leave(&order, payload.rating, &payload.text).await?;
    Ok(HttpResponse::Created().json(ReviewResponse::from(&review)))
}

#[derive(Debug, Deserialize)]
pub struct ListQuery {
    pub product_id: Option<i64>,
}

/// `GET /api/reviews[?product_id=3]`: `{average, count, reviews}`, newest first, hidden ones
/// left out.
pub async fn list(
    reviews: web::Data<ReviewService>,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let summary = reviews.summary(query.product_id).await?;
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "average": summary.average,
        "count": summary.count,
        "reviews": summary.reviews.iter().map(ReviewResponse::from).collect::<Vec<_>>(),
    })))
}

#[derive(Debug, Deserialize)]
pub struct HidePayload {
    #[serde(default)]
    pub reason: String,
}

/// `POST /api/admin/reviews/{id}/hide` `{reason}` (staff): kept, with who and why.
pub async fn hide(
    RequireStaff(staff): RequireStaff,
    ip: ClientIp,
    reviews: web::Data<ReviewService>,
    id: web::Path<String>,
    payload: web::Json<HidePayload>,
) -> Result<HttpResponse, ApiError> {
    let id = id
        .parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| ApiError::NotFound("Review not found.".to_owned()))?;
    reviews.hide(id, &staff.actor(ip), &payload.reason).await?;
    Ok(HttpResponse::Ok().json(serde_json::json!({ "id": id, "hidden": true })))
}
