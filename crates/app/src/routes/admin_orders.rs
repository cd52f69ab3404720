//! /api/admin/orders...: the staff delivery queue (admin and super_admin).

use super::bundle::data;
use super::path_id::Id;
use std::time::Duration;

use actix_web::{web, HttpResponse};
use chrono::{DateTime, Utc};
use delivery::{QueueFilter, QueuedOrder, ReleaseReason};
use orders::gateways::{RobloxDirectory, RobloxUsername};
use orders::OrderId;

use crate::auth::{RequireStaff, RequireSuperAdmin};
use crate::checkout::providers::ShopProviders;
use crate::checkout::Roblox;
use crate::client_ip::ClientIp;
use crate::error::ApiError;
use crate::services::{AfterSaleService, DeliveryQueueService, TrackingService};
use dto::admin_orders::{
    DeliverRequest, HoldJson, Item, ListQuery, QueuedOrderJson, ReleaseBody, Staff,
};
use dto::lenient::Lenient;
use dto::staff::{StaffOnly, SuperAdminOnly};

/// How long the queue waits for Roblox to name an avatar before showing none.
const AVATAR_TIMEOUT: Duration = Duration::from_secs(2);

/// The buyer's Roblox headshot: the offline stand-in's drawing, or the Roblox API's answer
/// (cached by the adapter) within a short wait; none when Roblox cannot say.
async fn avatar(roblox: &Roblox, username: &str) -> Option<String> {
    let username = RobloxUsername::parse(username).ok()?;
    if roblox.is_local() {
        return Some(roblox::dev_avatar_path(&username));
    }
    match tokio::time::timeout(AVATAR_TIMEOUT, roblox.lookup(username)).await {
        Ok(Ok(Some(profile))) => profile.avatar_url,
        Ok(Ok(None)) => None,
        Ok(Err(error)) => {
            tracing::debug!(error = %error, "no Roblox avatar for the queue");
            None
        }
        Err(_) => None,
    }
}

/// What the queue says of an order besides the order: its place in line, and the promise
/// it is measured against.
#[derive(Clone, Copy)]
struct InLine {
    place: Option<u32>,
    promise_minutes: u32,
}

async fn to_json(
    roblox: &Roblox,
    queue: &DeliveryQueueService,
    order: QueuedOrder,
    now: DateTime<Utc>,
    line: InLine,
) -> QueuedOrderJson {
    let hold = order.held().map(|hold| HoldJson {
        reason: hold.reason.into(),
        reason_label: hold.reason.label(),
        since: hold.since,
    });
    QueuedOrderJson {
        ready_minutes: order.ready_minutes(now),
        no_show: queue.no_show(&order, now),
        queue_position: line.place,
        over_promise: order.over_promise(now, line.promise_minutes),
        ticket_url: queue.ticket_url(&order),
        claimed_at: order.claimed_at,
        buyer_ready_at: order.buyer_ready_at,
        ticket_problem: order.ticket_problem.clone(),
        id: order.id.get(),
        status: order.status.into(),
        status_label: order.status.label(),
        minutes_waiting: order.minutes_waiting(now),
        roblox_avatar_url: avatar(roblox, &order.roblox_username).await,
        items: order
            .items
            .into_iter()
            .map(|item| Item {
                name: item.name,
                qty: item.quantity,
            })
            .collect(),
        total: dto::dollars(order.total),
        currency: order.paid.currency.to_string(),
        amount_paid: dto::in_major_units(order.paid.amount, order.paid.minor_units),
        roblox_username: order.roblox_username,
        discord_username: order.discord_username,
        discord_id: order.discord_id,
        email: order.email,
        created_at: order.created_at,
        paid_at: order.paid_at,
        delivered_at: order.delivered_at,
        claimed_by: order.claimed_by.map(|staff| Staff {
            id: staff.id.get(),
            name: staff.name,
        }),
        proof_id: order.proof_id,
        hold,
    }
}

/// GET /api/admin/orders?filter=paid|delivered|held|all (paid by default; paid ones oldest
/// first).
#[utoipa::path(
    get,
    path = "/api/admin/orders",
    operation_id = "admin_list_orders",
    tag = "staff: orders",
    summary = "The delivery queue",
    description = "Paid orders waiting for delivery (oldest first), or the delivered ones, or \
                   the ones on a risk hold (a fraud warning, a risky payment; oldest hold \
                   first), or all (staff).",
    params(ListQuery),
    responses(
        (status = 200, description = "The orders.", body = Vec<QueuedOrderJson>,
            headers(("Cache-Control" = String, description = "`no-store`"))),
        StaffOnly,
        (status = 422, description = "`filter` is not `paid`, `delivered`, `held` or `all`.", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn list(
    _staff: RequireStaff,
    query: web::Query<ListQuery>,
    view: QueueView,
) -> Result<HttpResponse, ApiError> {
    let filter = match query.filter {
        Lenient::Absent => QueueFilter::default(),
        Lenient::Given(filter) => filter.into(),
        Lenient::Invalid => {
            return Err(ApiError::field(
                "filter",
                "The filter must be paid, delivered, held or all.",
            ))
        }
    };
    let queue = &view.queue;
    let now = queue.now();
    let promise_minutes = view.tracking.estimate_minutes().await;
    let orders = queue.list(filter).await?;
    let body = futures::future::join_all(orders.into_iter().map(|(order, place)| {
        let line = InLine {
            place,
            promise_minutes,
        };
        to_json(&view.roblox, queue, order, now, line)
    }))
    .await;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(body))
}

/// What the queue's answers are made with: the queue, the buyers' Roblox avatars, and the
/// shop's delivery promise (the one the buyers' pages measure against).
pub struct QueueView {
    queue: web::Data<DeliveryQueueService>,
    roblox: web::Data<Roblox>,
    tracking: web::Data<TrackingService>,
}

impl actix_web::FromRequest for QueueView {
    type Error = actix_web::Error;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(req: &actix_web::HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        std::future::ready((|| {
            Ok(QueueView {
                queue: data(req)?,
                roblox: data(req)?,
                tracking: data(req)?,
            })
        })())
    }
}

impl QueueView {
    /// One order as the queue shows it after a staff action (its place in line is only told
    /// in the list).
    async fn answer(&self, order: QueuedOrder) -> HttpResponse {
        let line = InLine {
            place: None,
            promise_minutes: self.tracking.estimate_minutes().await,
        };
        HttpResponse::Ok()
            .json(to_json(&self.roblox, &self.queue, order, self.queue.now(), line).await)
    }
}

/// POST /api/admin/orders/{id}/claim: 409 "Already claimed by Ann." when someone was first.
#[utoipa::path(
    post,
    path = "/api/admin/orders/{id}/claim",
    operation_id = "admin_claim_order",
    tag = "staff: orders",
    summary = "Claim an order",
    description = "Takes a paid order for delivery by the caller; claiming one's own claim \
                   again changes nothing (staff).",
    params(("id" = i64, Path, description = "The order's id.", minimum = 1)),
    responses(
        (status = 200, description = "The order, claimed.", body = QueuedOrderJson),
        StaffOnly,
        (status = 404, description = "No order has this id (or the id is not a positive whole number).", body = crate::error::ErrorBody),
        (status = 409, description = "Someone else claimed it first (\"Already claimed by Ann.\"), it is not paid, or it is on hold for a fraud check.", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn claim(
    RequireStaff(staff): RequireStaff,
    ip: ClientIp,
    view: QueueView,
    Id(id): Id<OrderId>,
) -> Result<HttpResponse, ApiError> {
    let order = view
        .queue
        .claim(id, staff.user_id(), &staff.actor(ip))
        .await?;
    Ok(view.answer(order).await)
}

/// POST /api/admin/orders/{id}/release: only the one who claimed it.
#[utoipa::path(
    post,
    path = "/api/admin/orders/{id}/release",
    operation_id = "admin_release_order",
    tag = "staff: orders",
    summary = "Release a claimed order",
    description = "Lets a claimed order go again, back in line, with the reason its buyer is \
                   shown on the order page and mailed (the `released` step); only the one who \
                   claimed it can. An unclaimed order stays so (staff).",
    params(("id" = i64, Path, description = "The order's id.", minimum = 1)),
    request_body(content = ReleaseBody, content_type = "application/json"),
    responses(
        (status = 200, description = "The order, unclaimed.", body = QueuedOrderJson),
        StaffOnly,
        (status = 404, description = "No order has this id (or the id is not a positive whole number).", body = crate::error::ErrorBody),
        (status = 409, description = "Someone else claimed it (\"Only Ann can release this order.\").", body = crate::error::ErrorBody),
        (status = 422, description = "No reason, or one over 200 characters (`errors.reason`); nothing changed.", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn release(
    RequireStaff(staff): RequireStaff,
    ip: ClientIp,
    body: Option<web::Json<ReleaseBody>>,
    view: QueueView,
    Id(id): Id<OrderId>,
) -> Result<HttpResponse, ApiError> {
    let typed = body
        .and_then(|body| body.into_inner().reason)
        .unwrap_or_default();
    let reason =
        ReleaseReason::parse(&typed).map_err(|message| ApiError::field("reason", message))?;
    let order = view
        .queue
        .release(id, staff.user_id(), reason, &staff.actor(ip))
        .await?;
    Ok(view.answer(order).await)
}

/// POST /api/admin/orders/{id}/deliver `{"proof_id": 3 | null}` (the body may be left out).
#[utoipa::path(
    post,
    path = "/api/admin/orders/{id}/deliver",
    operation_id = "admin_deliver_order",
    tag = "staff: orders",
    summary = "Mark an order delivered",
    description = "Marks a paid order delivered by the caller, optionally with a proof of \
                   delivery, and queues the buyer's e-mail. The body may be left out; a body \
                   that is not JSON is taken as none (staff).",
    params(("id" = i64, Path, description = "The order's id.", minimum = 1)),
    request_body(content = Option<DeliverRequest>, content_type = "application/json"),
    responses(
        (status = 200, description = "The order, delivered.", body = QueuedOrderJson),
        StaffOnly,
        (status = 404, description = "No order has this id (or the id is not a positive whole number).", body = crate::error::ErrorBody),
        (status = 409, description = "It is not paid, someone else claimed it, or it is on hold for a fraud check.", body = crate::error::ErrorBody),
        (status = 422, description = "`proof_id` is not a positive whole number, or no proof has it.", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn deliver(
    RequireStaff(staff): RequireStaff,
    ip: ClientIp,
    body: Option<web::Json<DeliverRequest>>,
    view: QueueView,
    Id(id): Id<OrderId>,
) -> Result<HttpResponse, ApiError> {
    let proof = match body.map(|body| body.into_inner().proof_id) {
        None | Some(Lenient::Absent) => None,
        Some(Lenient::Given(id)) if id > 0 => Some(id),
        Some(_) => {
            return Err(ApiError::field(
                "proof_id",
                "The proof must be a proof's id.",
            ))
        }
    };
    let order = view
        .queue
        .deliver(id, staff.user_id(), proof, &staff.actor(ip))
        .await?;
    Ok(view.answer(order).await)
}

/// POST /api/admin/orders/{id}/refund: refunds the whole payment through the order's provider
/// (Stripe, PayPal or the dev page), then marks the order refunded and answers it; 502 when
/// the provider refuses or fails (nothing changed), 409 when the order cannot be refunded.
#[utoipa::path(
    post,
    path = "/api/admin/orders/{id}/refund",
    operation_id = "admin_refund_order",
    tag = "staff: orders",
    summary = "Refund an order",
    description = "Refunds the whole payment through the order's provider (Stripe, PayPal or \
                   the dev page), then marks the order refunded (staff).",
    params(("id" = i64, Path, description = "The order's id.", minimum = 1)),
    responses(
        (status = 200, description = "The order, refunded.", body = QueuedOrderJson),
        StaffOnly,
        (status = 404, description = "No order has this id (or the id is not a positive whole number).", body = crate::error::ErrorBody),
        (status = 409, description = "The order cannot be refunded (not paid or delivered, or disputed), or its \
            provider cannot be reached from this shop.", body = crate::error::ErrorBody),
        (status = 502, description = "The payment provider refused or failed; nothing changed.", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn refund(
    RequireStaff(staff): RequireStaff,
    ip: ClientIp,
    aftersale: web::Data<AfterSaleService>,
    view: QueueView,
    providers: web::Data<ShopProviders>,
    Id(id): Id<OrderId>,
) -> Result<HttpResponse, ApiError> {
    aftersale
        .refund(id, providers.get_ref(), &staff.actor(ip))
        .await?;
    let order = view.queue.order(id).await?;
    Ok(view.answer(order).await)
}

/// POST /api/admin/orders/{id}/hold/release: an order on a risk hold back in the queue.
#[utoipa::path(
    post,
    path = "/api/admin/orders/{id}/hold/release",
    operation_id = "admin_release_order_hold",
    tag = "staff: orders",
    summary = "Release a held order to the queue",
    description = "Takes a paid order off its risk hold (a fraud warning, a risky payment): it \
                   is back in the delivery queue where its payment put it, claimable again. \
                   Audited as `order.hold_release` (super_admin).",
    params(("id" = i64, Path, description = "The order's id.", minimum = 1)),
    responses(
        (status = 200, description = "The order, back in the queue.", body = QueuedOrderJson),
        SuperAdminOnly,
        (status = 404, description = "No order has this id (or the id is not a positive whole number).", body = crate::error::ErrorBody),
        (status = 409, description = "The order is not on hold (released already, refunded, or never held).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn release_hold(
    RequireSuperAdmin(admin): RequireSuperAdmin,
    ip: ClientIp,
    view: QueueView,
    Id(id): Id<OrderId>,
) -> Result<HttpResponse, ApiError> {
    let order = view.queue.release_hold(id, &admin.actor(ip)).await?;
    Ok(view.answer(order).await)
}
