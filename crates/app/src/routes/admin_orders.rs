//! /api/admin/orders...: the staff delivery queue (admin and super_admin).

use std::time::Duration;

use actix_web::{web, HttpResponse};
use chrono::{DateTime, Utc};
use orders::gateways::{RobloxDirectory, RobloxUsername};
use orders::{OrderId, PaymentProvider, QueueFilter, QueuedOrder};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::auth::RequireStaff;
use crate::checkout::CheckoutKit;
use crate::client_ip::ClientIp;
use crate::error::ApiError;
use crate::services::{AfterSaleService, DeliveryQueueService};

/// How long the queue waits for Roblox to name an avatar before showing none.
const AVATAR_TIMEOUT: Duration = Duration::from_secs(2);

#[derive(Serialize)]
struct Item {
    name: String,
    qty: u32,
}

#[derive(Serialize)]
struct Staff {
    id: i64,
    name: String,
}

#[derive(Serialize)]
struct QueuedOrderJson {
    id: i64,
    status: &'static str,
    status_label: &'static str,
    items: Vec<Item>,
    total: f64,
    roblox_username: String,
    roblox_avatar_url: Option<String>,
    discord_username: String,
    discord_id: String,
    email: String,
    created_at: DateTime<Utc>,
    paid_at: Option<DateTime<Utc>>,
    delivered_at: Option<DateTime<Utc>>,
    minutes_waiting: Option<i64>,
    claimed_by: Option<Staff>,
    proof_id: Option<i64>,
}

/// The buyer's Roblox headshot: the offline stand-in's drawing, or the Roblox API's answer
/// (cached by the adapter) within a short wait; none when Roblox cannot say.
async fn avatar(kit: &CheckoutKit, username: &str) -> Option<String> {
    let username = RobloxUsername::parse(username).ok()?;
    let roblox = &kit.roblox;
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

async fn to_json(kit: &CheckoutKit, order: QueuedOrder, now: DateTime<Utc>) -> QueuedOrderJson {
    QueuedOrderJson {
        id: order.id.get(),
        status: order.status.as_str(),
        status_label: order.status.label(),
        minutes_waiting: order.minutes_waiting(now),
        roblox_avatar_url: avatar(kit, &order.roblox_username).await,
        items: order
            .items
            .into_iter()
            .map(|item| Item {
                name: item.name,
                qty: item.quantity,
            })
            .collect(),
        // Cents fit an f64 exactly, and JSON has no decimal type.
        total: order.total.cents() as f64 / 100.0,
        roblox_username: order.roblox_username,
        discord_username: order.discord_username,
        discord_id: order.discord_id,
        email: order.email,
        created_at: order.created_at,
        paid_at: order.paid_at,
        delivered_at: order.delivered_at,
        claimed_by: order.claimed_by.map(|staff| Staff {
            id: staff.id,
            name: staff.name,
        }),
        proof_id: order.proof_id,
    }
}

#[derive(Deserialize)]
pub struct ListQuery {
    filter: Option<String>,
}

/// GET /api/admin/orders?filter=paid|delivered|all (paid by default; paid ones oldest first).
pub async fn list(
    _staff: RequireStaff,
    query: web::Query<ListQuery>,
    delivery: web::Data<DeliveryQueueService>,
    kit: web::Data<CheckoutKit>,
) -> Result<HttpResponse, ApiError> {
    let filter = match query.filter.as_deref().map(str::trim) {
        None | Some("") => QueueFilter::Paid,
        Some(text) => QueueFilter::parse(text).ok_or_else(|| {
            ApiError::field("filter", "The filter must be paid, delivered or all.")
        })?,
    };
    let queue = &delivery;
    let now = queue.now();
    let orders = queue.list(filter).await?;
    let body =
        futures::future::join_all(orders.into_iter().map(|order| to_json(&kit, order, now))).await;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(body))
}

fn order_id(raw: &str) -> Result<OrderId, ApiError> {
    raw.parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .map(OrderId::new)
        .ok_or_else(|| ApiError::NotFound("Order not found.".to_owned()))
}

async fn answer(kit: &CheckoutKit, order: QueuedOrder) -> HttpResponse {
    let now = kit.clock.clone();
    let now = orders::Clock::now(&now);
    HttpResponse::Ok().json(to_json(kit, order, now).await)
}

/// POST /api/admin/orders/{id}/claim: 409 "Already claimed by Ann." when someone was first.
pub async fn claim(
    RequireStaff(staff): RequireStaff,
    ip: ClientIp,
    path: web::Path<String>,
    delivery: web::Data<DeliveryQueueService>,
    kit: web::Data<CheckoutKit>,
) -> Result<HttpResponse, ApiError> {
    let order = delivery
        .claim(order_id(&path)?, staff.id, &staff.actor(ip))
        .await?;
    Ok(answer(&kit, order).await)
}

/// POST /api/admin/orders/{id}/release: only the one who claimed it.
pub async fn release(
    RequireStaff(staff): RequireStaff,
    ip: ClientIp,
    path: web::Path<String>,
    delivery: web::Data<DeliveryQueueService>,
    kit: web::Data<CheckoutKit>,
) -> Result<HttpResponse, ApiError> {
    let order = delivery
        .release(order_id(&path)?, staff.id, &staff.actor(ip))
        .await?;
    Ok(answer(&kit, order).await)
}

/// POST /api/admin/orders/{id}/deliver `{"proof_id": 3 | null}` (the body may be left out).
pub async fn deliver(
    RequireStaff(staff): RequireStaff,
    ip: ClientIp,
    path: web::Path<String>,
    body: Option<web::Json<Value>>,
    delivery: web::Data<DeliveryQueueService>,
    kit: web::Data<CheckoutKit>,
) -> Result<HttpResponse, ApiError> {
    let id = order_id(&path)?;
    let proof = match body.as_ref().and_then(|b| b.get("proof_id")) {
        None | Some(Value::Null) => None,
        Some(value) => Some(
            value
                .as_i64()
                .filter(|id| *id > 0)
                .ok_or_else(|| ApiError::field("proof_id", "The proof must be a proof's id."))?,
        ),
    };
    let order = delivery
        .deliver(id, staff.id, proof, &staff.actor(ip))
        .await?;
    Ok(answer(&kit, order).await)
}

/// POST /api/admin/orders/{id}/refund: refunds the whole payment through the order's provider
/// (Stripe, PayPal or the dev page), then marks the order refunded and answers it; 502 when
/// the provider refuses or fails (nothing changed), 409 when the order cannot be refunded.
pub async fn refund(
    RequireStaff(staff): RequireStaff,
    ip: ClientIp,
    path: web::Path<String>,
    aftersale: web::Data<AfterSaleService>,
    delivery: web::Data<DeliveryQueueService>,
    kit: web::Data<CheckoutKit>,
) -> Result<HttpResponse, ApiError> {
    let id = order_id(&path)?;
    let actor = staff.actor(ip);
    let provider = aftersale.order(id).await?.payment.provider;
    if provider == kit.card.provider() {
        aftersale.refund(id, &kit.card, &actor).await?;
    } else if let (PaymentProvider::Paypal, Some(paypal)) = (provider, &kit.paypal) {
        aftersale.refund(id, paypal, &actor).await?;
    } else {
        return Err(orders::RefundError::NoProvider(provider).into());
    }
    let order = delivery.order(id).await?;
    Ok(answer(&kit, order).await)
}
