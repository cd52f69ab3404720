//! Verified reviews: `POST /api/orders/{id}/review?key=…` (the holder of a delivered order's
//! link, its session or owner), `GET /api/reviews[?product_id=]`, and
//! `POST /api/admin/reviews/{id}/hide` (staff).

use super::path_id::{Id, ReviewId};
use actix_web::{web, HttpResponse};
use orders::OrderId;

use super::orders::Visitor;
use crate::auth::RequireStaff;
use crate::client_ip::ClientIp;
use crate::error::ApiError;
use crate::services::ReviewService;
use dto::order::KeyQuery;
use dto::responses::JsonBodyRefused;
use dto::reviews::{
    HidePayload, ListQuery, ReviewHidden, ReviewPayload, ReviewResponse, ReviewsResponse,
};

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
pub async fn leave(
    visitor: Visitor,
    reviews: web::Data<ReviewService>,
    query: web::Query<KeyQuery>,
    payload: web::Json<ReviewPayload>,
    Id(id): Id<OrderId>,
) -> Result<HttpResponse, ApiError> {
    let order = visitor.order(id, query.key.as_deref()).await?;
    let review = reviews.leave(&order, payload.rating, &payload.text).await?;
    Ok(HttpResponse::Created().json(ReviewResponse::from(&review)))
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
        dto::staff::StaffJson,
        (status = 404, description = "No review has this id (or the id is not a positive whole number).", body = crate::error::ErrorBody),
        (status = 422, description = "`reason` missing, blank or longer than 500 characters (or not a string).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn hide(
    RequireStaff(staff): RequireStaff,
    ip: ClientIp,
    reviews: web::Data<ReviewService>,
    payload: web::Json<HidePayload>,
    Id(ReviewId(id)): Id<ReviewId>,
) -> Result<HttpResponse, ApiError> {
    reviews.hide(id, &staff.actor(ip), &payload.reason).await?;
    Ok(HttpResponse::Ok().json(ReviewHidden { hidden: true, id }))
}
