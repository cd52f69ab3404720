//! The line between an order's buyer and the shop's staff on the order page (issue 34 item 5):
//! `GET`/`POST /api/orders/{id}/messages` for whoever may see the order (its session, its
//! logged-in owner, or the key of its link: the same check as the order's page, 404 for anyone
//! else), and `GET`/`POST /api/admin/orders/{id}/messages` for staff. The rules (who may write
//! when, how many a minute) are `delivery::OrderMessages`'; both sides hear each message on
//! their event streams as `order_message`.

use super::path_id::Id;
use actix_web::{web, HttpResponse};
use delivery::MessageAuthor;
use orders::OrderId;

use crate::auth::RequireStaff;
use crate::client_ip::ClientIp;
use crate::error::ApiError;
use crate::routes::orders::Visitor;
use crate::services::OrderMessagesService;
use dto::order::KeyQuery;
use dto::order_messages::{OrderMessagePayload, OrderMessageResponse};
use dto::responses::JsonBodyRefused;
use dto::staff::{StaffJson, StaffOnly};

fn thread_json(messages: &[delivery::OrderMessage]) -> Vec<OrderMessageResponse> {
    messages.iter().map(OrderMessageResponse::from).collect()
}

fn no_store(body: impl serde::Serialize) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .json(body)
}

/// `GET /api/orders/{id}/messages`.
#[utoipa::path(
    get,
    path = "/api/orders/{id}/messages",
    operation_id = "order_messages",
    tag = "orders",
    summary = "The messages between the buyer and staff",
    description = "For whoever may see the order (its session, its logged-in owner, or \
                   `?key=`), oldest first. Anyone else gets 404, as for an order that does not \
                   exist. New ones arrive on the event stream as `order_message`. Answered with \
                   `Cache-Control: no-store`.",
    params(
        ("id" = i64, Path, description = "The order's id (anything else answers 404)."),
        KeyQuery,
    ),
    responses(
        (status = 200, description = "The messages, oldest first.", body = Vec<OrderMessageResponse>),
        (status = 404, description = "No such order, or not this visitor's (wrong or missing key).", body = crate::error::ErrorBody),
        (status = 422, description = "The query string cannot be read (a parameter given twice).", body = crate::error::ErrorBody),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn list(
    buyer: Visitor,
    messages: web::Data<OrderMessagesService>,
    query: web::Query<KeyQuery>,
    Id(id): Id<OrderId>,
) -> Result<HttpResponse, ApiError> {
    let order = buyer.order(id, query.key.as_deref()).await?.id;
    Ok(no_store(thread_json(&messages.thread(order).await?)))
}

/// `POST /api/orders/{id}/messages` `{text}`.
#[utoipa::path(
    post,
    path = "/api/orders/{id}/messages",
    operation_id = "order_message_post",
    tag = "orders",
    summary = "Write to staff about the order",
    description = "For whoever may see the order (its session, its logged-in owner, or \
                   `?key=`): while the order is paid (waiting or claimed) and for \
                   `delivery.messages_days_after_delivery` days (7) after its delivery. Staff \
                   and this order's page hear it at once (`order_message`); with a Discord bot \
                   it is posted in the order's ticket too. At most \
                   `delivery.messages_per_order_per_minute` (10) messages per order and minute \
                   from the buyer's side.",
    params(
        ("id" = i64, Path, description = "The order's id (anything else answers 404)."),
        KeyQuery,
    ),
    request_body = OrderMessagePayload,
    responses(
        (status = 201, description = "Kept and told.", body = OrderMessageResponse),
        JsonBodyRefused,
        (status = 404, description = "No such order, or not this visitor's (wrong or missing key).", body = crate::error::ErrorBody),
        (status = 409, description = "The order is not open for messages: not paid yet, refunded, disputed, closed, or delivered more than 7 days ago.", body = crate::error::ErrorBody),
        (status = 422, description = "`text` empty (after trimming) or longer than 1,000 characters, or the query string cannot be read.", body = crate::error::ErrorBody),
        (status = 429, description = "Too many messages from the buyer's side of this order this minute; see `Retry-After`.", body = crate::error::ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait."))),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn post(
    buyer: Visitor,
    messages: web::Data<OrderMessagesService>,
    query: web::Query<KeyQuery>,
    payload: web::Json<OrderMessagePayload>,
    Id(id): Id<OrderId>,
) -> Result<HttpResponse, ApiError> {
    let order = buyer.order(id, query.key.as_deref()).await?.id;
    let message = messages
        .post(order, MessageAuthor::Buyer, &payload.text)
        .await?;
    Ok(HttpResponse::Created().json(OrderMessageResponse::from(&message)))
}

/// `GET /api/admin/orders/{id}/messages` (staff).
#[utoipa::path(
    get,
    path = "/api/admin/orders/{id}/messages",
    operation_id = "admin_order_messages",
    tag = "staff: orders",
    summary = "The messages between an order's buyer and staff",
    description = "Oldest first (staff). New ones arrive on the staff event stream as \
                   `order_message`.",
    params(("id" = i64, Path, description = "The order's id.", minimum = 1)),
    responses(
        (status = 200, description = "The messages, oldest first.", body = Vec<OrderMessageResponse>),
        StaffOnly,
        (status = 404, description = "No order has this id (or the id is not a positive whole number).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn staff_list(
    _staff: RequireStaff,
    messages: web::Data<OrderMessagesService>,
    Id(order): Id<OrderId>,
) -> Result<HttpResponse, ApiError> {
    Ok(no_store(thread_json(&messages.thread(order).await?)))
}

/// `POST /api/admin/orders/{id}/messages` `{text}` (staff).
#[utoipa::path(
    post,
    path = "/api/admin/orders/{id}/messages",
    operation_id = "admin_order_message_post",
    tag = "staff: orders",
    summary = "Answer an order's buyer",
    description = "Any member of staff, in the same window as the buyer (while the order is \
                   paid and for 7 days after its delivery). The buyer's page hears it at once \
                   (`order_message`); with a Discord bot it is posted in the order's ticket \
                   too. Audited as `order.message`, naming the message by its id only. At most \
                   `delivery.messages_per_order_per_minute` (10) messages per order and minute \
                   from staff.",
    params(("id" = i64, Path, description = "The order's id.", minimum = 1)),
    request_body = OrderMessagePayload,
    responses(
        (status = 201, description = "Kept and told.", body = OrderMessageResponse),
        StaffJson,
        (status = 404, description = "No order has this id (or the id is not a positive whole number).", body = crate::error::ErrorBody),
        (status = 409, description = "The order is not open for messages: not paid yet, refunded, disputed, closed, or delivered more than 7 days ago.", body = crate::error::ErrorBody),
        (status = 422, description = "`text` empty (after trimming) or longer than 1,000 characters.", body = crate::error::ErrorBody),
        (status = 429, description = "Too many messages from staff on this order this minute; see `Retry-After`.", body = crate::error::ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait."))),
    ),
    security(("session_cookie" = [])),
)]
pub async fn staff_post(
    RequireStaff(staff): RequireStaff,
    ip: ClientIp,
    messages: web::Data<OrderMessagesService>,
    payload: web::Json<OrderMessagePayload>,
    Id(order): Id<OrderId>,
) -> Result<HttpResponse, ApiError> {
    let actor = staff.actor(ip);
    let message = messages
        .post(order, MessageAuthor::Staff(&actor), &payload.text)
        .await?;
    Ok(HttpResponse::Created().json(OrderMessageResponse::from(&message)))
}
