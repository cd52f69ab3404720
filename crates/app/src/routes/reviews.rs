//! Verified reviews: `POST /api/orders/{id}/review?key=…` (the holder of a delivered order's
//! link, its session or owner), `GET /api/reviews[?product_id=]`, and
//! `POST /api/admin/reviews/{id}/hide` (staff).

use actix_session::Session;
use actix_web::{web, HttpResponse};
use reviews::Review;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::orders::{order_for, KeyQuery};
use crate::auth::{MaybeUser, RequireStaff};
use crate::checkout::ShopCheckout;
use crate::client_ip::ClientIp;
use crate::dto::responses::JsonBodyRefused;
use crate::error::ApiError;
use crate::services::{ReviewService, TrackingService};

/// A verified buyer's review of a delivered order.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ReviewPayload {
    /// Stars, 1 to 5.
    #[schema(minimum = 1, maximum = 5)]
    pub rating: i64,
    /// What the buyer says (trimmed; at most 1000 characters; may be empty).
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub text: String,
}

/// A review as the shop shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReviewResponse {
    pub id: i64,
    #[schema(minimum = 1, maximum = 5)]
    pub rating: u8,
    pub text: String,
    /// The reviewer as shown: the first letters of the Roblox name ("Bu***").
    pub name: String,
    #[schema(format = DateTime)]
    pub created_at: String,
    /// The products of the reviewed order.
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
#[utoipa::path(
    post,
    path = "/api/orders/{id}/review",
    tag = "reviews",
    summary = "Review a delivered order",
    description = "Once per order, after delivery: by the holder of the order's link \
                   (`?key=`), the session that placed it or its logged-in owner.",
    params(
        ("id" = i64, Path, description = "The order's id (anything else answers 404)."),
        KeyQuery,
    ),
    request_body = ReviewPayload,
    responses(
        (status = 201, description = "The review, now shown.", body = ReviewResponse),
        JsonBodyRefused,
        (status = 404, description = "No such order, or not this visitor's (wrong or missing key).", body = crate::error::ErrorBody),
        (status = 409, description = "The order has been reviewed already.", body = crate::error::ErrorBody),
        (status = 422, description = "The order is not delivered (`order`), the rating is not 1 to 5 or missing (`rating`), the text is too long (`text`), or the query string cannot be read.", body = crate::error::ErrorBody),
    ),
    security((), ("session_cookie" = [])),
)]
#[allow(clippy::too_many_arguments)]
pub async fn leave(
    checkout: web::Data<ShopCheckout>,
    tracking: web::Data<TrackingService>,
    reviews: web::Data<ReviewService>,
    session: Session,
    user: MaybeUser,
    id: web::Path<String>,
    query: web::Query<KeyQuery>,
    payload: web::Json<ReviewPayload>,
) -> Result<HttpResponse, ApiError> {
    let order = order_for(
        &checkout,
        &tracking,
        &session,
        &user,
        &id,
        query.key.as_deref(),
    )
    .await?;
    let review = reviews.leave(&order, payload.rating, &payload.text).await?;
    Ok(HttpResponse::Created().json(ReviewResponse::from(&review)))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only the reviews of orders with this product.
    pub product_id: Option<i64>,
}

/// The shop's reviews and their average.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReviewsResponse {
    /// The average rating; `null` without reviews.
    pub average: Option<f64>,
    pub count: usize,
    /// Newest first.
    pub reviews: Vec<ReviewResponse>,
}

/// `GET /api/reviews[?product_id=3]`: `{average, count, reviews}`, newest first, hidden ones
/// left out.
#[utoipa::path(
    get,
    path = "/api/reviews",
    operation_id = "list_reviews",
    tag = "reviews",
    summary = "Verified reviews",
    description = "Every shown review (hidden ones are left out), newest first, with their \
                   average; or those of one product's orders.",
    params(ListQuery),
    responses(
        (status = 200, description = "The reviews.", body = ReviewsResponse),
        (status = 422, description = "`product_id` is not a whole number.", body = crate::error::ErrorBody),
    ),
    security(()),
)]
pub async fn list(
    reviews: web::Data<ReviewService>,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let summary = reviews.summary(query.product_id).await?;
    Ok(HttpResponse::Ok().json(ReviewsResponse {
        average: summary.average,
        count: summary.count,
        reviews: summary.reviews.iter().map(ReviewResponse::from).collect(),
    }))
}

/// Why a review is hidden.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = HideReviewRequest)]
pub struct HidePayload {
    /// 1 to 500 characters (after trimming).
    #[serde(default)]
    #[schema(
        required = true,
        min_length = 1,
        max_length = 500,
        example = "Rude language"
    )]
    pub reason: String,
}

/// A review hidden.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ReviewHidden {
    /// Always true.
    hidden: bool,
    /// The review's id.
    id: i64,
}

/// `POST /api/admin/reviews/{id}/hide` `{reason}` (staff): kept, with who and why.
#[utoipa::path(
    post,
    path = "/api/admin/reviews/{id}/hide",
    operation_id = "admin_hide_review",
    tag = "staff: reviews",
    summary = "Hide a review",
    description = "Takes a review off the shop; it is kept, with who hid it and why (staff).",
    params(("id" = i64, Path, description = "The review's id.", minimum = 1)),
    request_body = HidePayload,
    responses(
        (status = 200, description = "Hidden.", body = ReviewHidden),
        crate::dto::staff::StaffJson,
        (status = 404, description = "No review has this id (or the id is not a positive whole number).", body = crate::error::ErrorBody),
        (status = 422, description = "`reason` missing, blank or longer than 500 characters (or not a string).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
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
    Ok(HttpResponse::Ok().json(ReviewHidden { hidden: true, id }))
}
