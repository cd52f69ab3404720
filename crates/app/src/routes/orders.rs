//! A buyer's orders: `GET /api/orders/{id}` and `POST /api/orders/{id}/cancel`, for the
//! session that created the order or its logged-in owner (404 for anyone else, so order ids
//! cannot be probed). `GET /api/orders/{id}?key=…` opens the order in any browser with the key
//! of its link (the receipt's), with its timeline and place in the delivery queue.

use super::path_id::Id;
use actix_session::Session;
use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use futures::future::LocalBoxFuture;
use std::future::{self, Ready};

use super::bundle::data;
use orders::{CheckoutService, Closed, Closing, Order, OrderId, Viewer};

use crate::checkout::providers::ShopProviders;
use crate::checkout::ShopCheckout;
use crate::client_ip::ClientIp;
use dto::responses::CrossSiteRefused;
use std::time::Duration;

use shared::Rule;

use crate::limits::RateLimits;
use crate::outbox::TicketService;
use crate::services::{DeliveryQueueService, TrackingService};
use crate::settings::DeliverySettings;
use crate::{auth::MaybeUser, error::ApiError};
use dto::order::{KeyQuery, OrderResponse, TrackedOrderResponse};

/// The session key listing the orders this session created (newest last).
const SESSION_ORDERS: &str = "order_ids";
/// How many order ids a session remembers.
const REMEMBERED_ORDERS: usize = 50;

pub(crate) use super::path_id::order_not_found;

/// Remembers that this session created the order.
pub(crate) fn remember_order(session: &Session, id: OrderId) -> Result<(), ApiError> {
    let mut ids = session_orders(session);
    ids.retain(|known| *known != id.get());
    ids.push(id.get());
    if ids.len() > REMEMBERED_ORDERS {
        ids.drain(..ids.len() - REMEMBERED_ORDERS);
    }
    session
        .insert(SESSION_ORDERS, ids)
        .map_err(|e| ApiError::internal(anyhow::anyhow!("could not remember the order: {e}")))
}

pub(crate) fn session_orders(session: &Session) -> Vec<i64> {
    session
        .get::<Vec<i64>>(SESSION_ORDERS)
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// The visitor of an order's page as their request names them (`orders::Viewer` holds the rule).
fn viewer(session: &Session, user: &MaybeUser, key: Option<&str>) -> Viewer {
    Viewer {
        session_orders: session_orders(session),
        user: user.0.as_ref().map(|user| user.user_id()),
        key: key.map(str::to_owned),
    }
}

/// The order's page as its visitor sees it, never cached.
async fn tracked_page(tracking: &TrackingService, order: Order) -> Result<HttpResponse, ApiError> {
    let tracked = tracking.track(order).await?;
    Ok(HttpResponse::Ok()
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .insert_header(("Referrer-Policy", "no-referrer"))
        .json(TrackedOrderResponse::from(&tracked)))
}

/// `GET /api/orders/{id}` (its session or owner) or `GET /api/orders/{id}?key=…` (anyone with
/// the link).
#[utoipa::path(
    get,
    path = "/api/orders/{id}",
    operation_id = "show_order",
    tag = "orders",
    summary = "An order, its timeline and its place in the queue",
    description = "For the session that placed the order, its logged-in owner, or anyone with \
                   the key of its link (`?key=`). Anyone else gets 404, as for an order that does \
                   not exist, so order ids cannot be probed. Answered with \
                   `Cache-Control: no-store`.",
    params(
        ("id" = i64, Path, description = "The order's id (anything else answers 404)."),
        KeyQuery,
    ),
    responses(
        (status = 200, description = "The order.", body = TrackedOrderResponse),
        (status = 404, description = "No such order, or not this visitor's (wrong or missing key).", body = crate::error::ErrorBody),
        (status = 422, description = "The query string cannot be read (a parameter given twice).", body = crate::error::ErrorBody),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn show(
    visitor: Visitor,
    query: web::Query<KeyQuery>,
    Id(id): Id<OrderId>,
) -> Result<HttpResponse, ApiError> {
    let order = visitor.order(id, query.key.as_deref()).await?;
    tracked_page(&visitor.tracking, order).await
}

/// A buyer's step on the order's page.
#[derive(Clone, Copy)]
enum BuyerStep {
    /// "I'm in the game".
    Ready,
    /// "I got my items".
    Received,
}

/// What a buyer's action on the order's page takes besides the order: the delivery queue, and
/// the limit of actions per order and hour.
pub struct BuyerActions {
    delivery: web::Data<DeliveryQueueService>,
    limits: web::Data<RateLimits>,
    settings: web::Data<DeliverySettings>,
}

impl FromRequest for BuyerActions {
    type Error = actix_web::Error;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        future::ready((|| {
            Ok(BuyerActions {
                delivery: data(req)?,
                limits: data(req)?,
                settings: data(req)?,
            })
        })())
    }
}

/// Who is asking about an order, with what they need to see it.
pub struct Visitor {
    pub(crate) checkout: web::Data<ShopCheckout>,
    pub(crate) tracking: web::Data<TrackingService>,
    pub(crate) session: Session,
    pub(crate) user: MaybeUser,
}

impl FromRequest for Visitor {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            Ok(Visitor {
                checkout: data(&req)?,
                tracking: data(&req)?,
                session: Session::extract(&req).await?,
                user: MaybeUser::extract(&req).await?,
            })
        })
    }
}

impl Visitor {
    /// The order if this visitor may see it as its buyer (its session or owner, not a key);
    /// 404 otherwise.
    pub(crate) async fn own_order(&self, id: OrderId) -> Result<Order, ApiError> {
        // an order of someone else answers as one that does not exist
        let order = self.checkout.order(id).await?;
        match viewer(&self.session, &self.user, None).owns(&order) {
            true => Ok(order),
            false => Err(ApiError::NotFound(order_not_found())),
        }
    }

    /// The order if this visitor may see it: its session or owner, or the right key of its
    /// link (compared in constant time with the stored hash). 404 otherwise, the same for an
    /// unknown order, a wrong key and another order's key.
    pub(crate) async fn order(&self, id: OrderId, key: Option<&str>) -> Result<Order, ApiError> {
        let order = self.checkout.order(id).await?;
        let viewer = viewer(&self.session, &self.user, key);
        match viewer
            .may_see(&order, |key| self.tracking.key_opens(id, key))
            .await?
        {
            true => Ok(order),
            false => Err(ApiError::NotFound(order_not_found())),
        }
    }

    /// The order a buyer acts on from its page (its session, owner or key; 404 otherwise),
    /// each action counted per order and hour under `bucket`
    /// (`delivery.ready_per_order_per_hour`; 429 beyond).
    async fn order_to_act_on(
        &self,
        id: OrderId,
        key: Option<&str>,
        bucket: &str,
        actions: &BuyerActions,
    ) -> Result<Order, ApiError> {
        let order = self.order(id, key).await?;
        let per_hour = actions.settings.ready_per_order_per_hour;
        actions
            .limits
            .check(
                bucket,
                &order.id.to_string(),
                Rule::new(per_hour, Duration::from_secs(3600)),
            )
            .await?;
        Ok(order)
    }

    /// The buyer's `step` on the order `id` from `client`, each kind counted apart; answers
    /// the order as its page shows it.
    async fn says(
        &self,
        step: BuyerStep,
        actions: &BuyerActions,
        (id, key): (OrderId, Option<&str>),
        client: ClientIp,
    ) -> Result<HttpResponse, ApiError> {
        let bucket = match step {
            BuyerStep::Ready => "order_ready",
            BuyerStep::Received => "order_received",
        };
        let order = self.order_to_act_on(id, key, bucket, actions).await?;
        let from = Some(client.to_string());
        let delivery = &actions.delivery;
        match step {
            BuyerStep::Ready => delivery.buyer_ready(order.id, from).await?,
            BuyerStep::Received => delivery.buyer_received(order.id, from).await?,
        }
        tracked_page(&self.tracking, order).await
    }
}

/// `POST /api/orders/{id}/ready`: the buyer is in the game.
#[utoipa::path(
    post,
    path = "/api/orders/{id}/ready",
    operation_id = "order_buyer_ready",
    tag = "orders",
    summary = "Tell staff the buyer is in the game",
    description = "For whoever may see the order (its session, its logged-in owner, or `?key=`). \
                   Once per claim: a release by staff lets the buyer say it again. The staff \
                   queue lists ready buyers first. At most `delivery.ready_per_order_per_hour` \
                   calls per order per hour.",
    params(
        ("id" = i64, Path, description = "The order's id (anything else answers 404)."),
        KeyQuery,
    ),
    responses(
        (status = 200, description = "Staff know; the order as its page shows it.", body = TrackedOrderResponse),
        CrossSiteRefused,
        (status = 404, description = "No such order, or not this visitor's (wrong or missing key).", body = crate::error::ErrorBody),
        (status = 409, description = "Already said for this claim, or the order is not paid and waiting.", body = crate::error::ErrorBody),
        (status = 422, description = "The query string cannot be read (a parameter given twice).", body = crate::error::ErrorBody),
        (status = 429, description = "Too many calls for this order; see `Retry-After`.", body = crate::error::ErrorBody),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn ready(
    visitor: Visitor,
    actions: BuyerActions,
    query: web::Query<KeyQuery>,
    client: ClientIp,
    Id(id): Id<OrderId>,
) -> Result<HttpResponse, ApiError> {
    let key = query.key.as_deref();
    visitor
        .says(BuyerStep::Ready, &actions, (id, key), client)
        .await
}

/// `POST /api/orders/{id}/received`: the buyer got their items.
#[utoipa::path(
    post,
    path = "/api/orders/{id}/received",
    operation_id = "order_buyer_received",
    tag = "orders",
    summary = "Confirm the items arrived",
    description = "For whoever may see the order (its session, its logged-in owner, or `?key=`). \
                   Once, after the delivery: the time and the client address are kept for the \
                   order's record (a dispute's evidence). A link in a mail never calls it. At \
                   most `delivery.ready_per_order_per_hour` calls per order per hour.",
    params(
        ("id" = i64, Path, description = "The order's id (anything else answers 404)."),
        KeyQuery,
    ),
    responses(
        (status = 200, description = "Recorded; the order as its page shows it.", body = TrackedOrderResponse),
        CrossSiteRefused,
        (status = 404, description = "No such order, or not this visitor's (wrong or missing key).", body = crate::error::ErrorBody),
        (status = 409, description = "Not delivered (yet), or already confirmed.", body = crate::error::ErrorBody),
        (status = 422, description = "The query string cannot be read (a parameter given twice).", body = crate::error::ErrorBody),
        (status = 429, description = "Too many calls for this order; see `Retry-After`.", body = crate::error::ErrorBody),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn received(
    visitor: Visitor,
    actions: BuyerActions,
    query: web::Query<KeyQuery>,
    client: ClientIp,
    Id(id): Id<OrderId>,
) -> Result<HttpResponse, ApiError> {
    let key = query.key.as_deref();
    visitor
        .says(BuyerStep::Received, &actions, (id, key), client)
        .await
}

/// Cancels a pending order: its payment page is closed at the provider, then its stock and
/// promo use go back at once. 409 when it is not pending (or was paid before its page closed,
/// or is held for staff review); 503 when the provider could not close the page (the order
/// stays pending).
pub(crate) async fn cancel_order(
    checkout: &ShopCheckout,
    providers: &ShopProviders,
    order: &Order,
) -> Result<Order, ApiError> {
    match checkout
        .close_unpaid(order, Closing::Cancelled, providers)
        .await?
    {
        Closed::Released(order) => Ok(*order),
        Closed::Paid => Err(ApiError::Conflict(
            l10n::Text::new("error-paid-cannot-cancel").into(),
        )),
    }
}

/// `POST /api/orders/{id}/cancel`: pending -> cancelled, stock released.
#[utoipa::path(
    post,
    path = "/api/orders/{id}/cancel",
    tag = "orders",
    summary = "Cancel an unpaid order",
    description = "For the session that placed the order or its logged-in owner (the link's \
                   key does not cancel). The payment page is closed at the provider first; then \
                   the stock and the promo code's use go back at once.",
    params(("id" = i64, Path, description = "The order's id (anything else answers 404).")),
    responses(
        (status = 200, description = "Cancelled.", body = OrderResponse),
        (status = 400, description = "The provider's payment is not this order's.", body = crate::error::ErrorBody),
        CrossSiteRefused,
        (status = 404, description = "No such order, or not this visitor's.", body = crate::error::ErrorBody),
        (status = 409, description = "The order is not pending any more (paid, also when paid just before its page closed; expired; held for review).", body = crate::error::ErrorBody),
        (status = 503, description = "The provider could not close the payment page; the order stays pending. Try again.", body = crate::error::ErrorBody),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn cancel(
    visitor: Visitor,
    providers: web::Data<ShopProviders>,
    Id(id): Id<OrderId>,
) -> Result<HttpResponse, ApiError> {
    let order = visitor.own_order(id).await?;
    let cancelled = cancel_order(&visitor.checkout, &providers, &order).await?;
    Ok(HttpResponse::Ok().json(OrderResponse::from(&cancelled)))
}

/// `POST /api/orders/{id}/ticket/join`: "I joined, add me to my ticket".
#[utoipa::path(
    post,
    path = "/api/orders/{id}/ticket/join",
    operation_id = "order_ticket_join",
    tag = "orders",
    summary = "Add the buyer to their order's Discord ticket again",
    description = "For whoever may see the order (its session, its logged-in owner, or `?key=`): \
                   after the buyer joined the shop's Discord server, adds them to the order's \
                   ticket (a private thread) and clears the ticket's problem.",
    params(
        ("id" = i64, Path, description = "The order's id (anything else answers 404)."),
        KeyQuery,
    ),
    responses(
        (status = 200, description = "Added; the order as its page shows it.", body = TrackedOrderResponse),
        CrossSiteRefused,
        (status = 404, description = "No such order, or not this visitor's (wrong or missing key).", body = crate::error::ErrorBody),
        (status = 409, description = "The order has no Discord ticket (Discord tickets are off, or it could not be opened), or the buyer is not in the shop's Discord server yet.", body = crate::error::ErrorBody),
        (status = 422, description = "The query string cannot be read (a parameter given twice).", body = crate::error::ErrorBody),
        (status = 429, description = "Too many calls for this order; see `Retry-After`.", body = crate::error::ErrorBody),
        (status = 503, description = "Discord refused or did not answer; try again in a minute.", body = crate::error::ErrorBody),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn join_ticket(
    visitor: Visitor,
    tickets: web::Data<TicketService>,
    actions: BuyerActions,
    query: web::Query<KeyQuery>,
    Id(id): Id<OrderId>,
) -> Result<HttpResponse, ApiError> {
    let key = query.key.as_deref();
    let order = visitor
        .order_to_act_on(id, key, "order_ticket_join", &actions)
        .await?;
    let Some(desk) = &tickets.0 else {
        return Err(orders::tickets::RejoinError::NoTicket.into());
    };
    desk.rejoin(order.id).await?;
    tracked_page(&visitor.tracking, order).await
}
