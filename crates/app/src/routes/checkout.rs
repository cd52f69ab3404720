//! `POST /api/stripe/checkout` and `POST /api/checkout/paypal`: the checkout service prices the
//! cart from the database, reserves its stock, stores the order as pending and opens the
//! payment provider's page (`orders::Checkout::place_and_open`). `GET /api/paypal/return`: the
//! buyer approved a PayPal order; the service captures it (`confirm_capture`).

use actix_session::Session;
use actix_web::{http::header, web, HttpResponse};
use cart_pricing::PaymentMethod;
use orders::gateways::PaymentGateway;
use orders::{OpenedCheckout, OrderHolder, OrderId, PaymentProvider, ReturnUrls};
use serde::Deserialize;
use utoipa::IntoParams;

use super::discord::session_identity;
use super::orders::{remember_order, ORDER_NOT_FOUND};
use crate::dto::checkout::{
    CardCheckoutResponse, CheckoutContext, OrderPayload, PaypalCheckoutResponse,
};
use crate::dto::responses::JsonBodyRefused;
use crate::{
    auth::MaybeUser, checkout, checkout::CheckoutKit, client_ip::ClientIp, error::ApiError,
};

/// The session key of the browser's buyer token: a random token the orders placed from this
/// browser session carry, so unpaid orders can be capped per browser.
const BUYER_TOKEN: &str = "buyer_token";

/// This browser session's buyer token, or a new one that the session keeps once an order is
/// placed with it: a refused checkout writes nothing to the session.
fn buyer_token(session: &Session) -> (String, bool) {
    match session.get::<String>(BUYER_TOKEN).ok().flatten() {
        Some(token) => (token, false),
        None => (checkout::random_token(), true),
    }
}

/// Who is checking out, from the session, the login and the connection.
fn context(
    session: &Session,
    user: &MaybeUser,
    client: ClientIp,
    method: PaymentMethod,
    provider: PaymentProvider,
) -> (CheckoutContext, Option<String>) {
    let (token, new) = buyer_token(session);
    let context = CheckoutContext {
        discord: session_identity(session),
        user_id: user.0.as_ref().map(|user| user.id),
        holder: OrderHolder {
            buyer_token: Some(token.clone()),
            client_ip: Some(client.to_string()),
        },
        method,
        provider,
    };
    (context, new.then_some(token))
}

/// Places the order and opens `gateway`'s page; the session remembers the order (and keeps a
/// new buyer token) once it exists, even when its page then failed and it was cancelled.
async fn open<G: PaymentGateway>(
    kit: &CheckoutKit,
    session: &Session,
    (context, new_token): (CheckoutContext, Option<String>),
    payload: OrderPayload,
    gateway: &G,
    urls: impl FnOnce(OrderId) -> ReturnUrls,
) -> Result<OpenedCheckout, ApiError> {
    let request = payload.into_request(context)?;
    let opened = kit.service.place_and_open(request, gateway, urls).await;
    let placed = match &opened {
        Ok(opened) => Some(opened.placed.order.id),
        Err(orders::OpenCheckoutError::PaymentFailed { order_id, .. }) => Some(*order_id),
        Err(orders::OpenCheckoutError::Refused(_)) => None,
    };
    if let Some(order_id) = placed {
        if let Some(token) = new_token {
            session.insert(BUYER_TOKEN, token).map_err(|e| {
                ApiError::internal(anyhow::anyhow!("could not keep the buyer token: {e}"))
            })?;
        }
        remember_order(session, order_id)?;
    }
    Ok(opened?)
}

/// `POST /api/stripe/checkout`: card payment through Stripe Checkout (or the dev page).
#[utoipa::path(
    post,
    path = "/api/stripe/checkout",
    tag = "checkout",
    summary = "Place an order and pay by card",
    description = "Prices the cart from the catalog, reserves its stock, stores the order as \
                   pending and opens the card payment page (Stripe Checkout, or the shop's dev \
                   page without Stripe keys). The buyer's Discord account is the one linked in \
                   this session (`POST /api/discord-auth`), never one from the body. The session \
                   remembers the order, so `GET /api/orders/{id}` opens it without a key.",
    request_body = OrderPayload,
    responses(
        (status = 200, description = "The order is placed; send the shopper to `url`.", body = CardCheckoutResponse),
        JsonBodyRefused,
        (status = 403, description = "The buyer is on the blocklist, or a cross-site request.", body = crate::openapi::ErrorBody),
        (status = 409, description = "The cart cannot be bought as it is: products gone or short of stock (`problems`, one line each), or the total was not the server's (`cart`, the cart as the server prices it).", body = crate::openapi::ErrorBody),
        (status = 422, description = "Missing details (Roblox username, e-mail, linked Discord), a malformed field, an empty cart, too many lines or too many of one product, or a promo code that does not apply (`reason`).", body = crate::openapi::ErrorBody),
        (status = 429, description = "Too many unpaid orders on this Discord account, from this browser or from this address; `Retry-After` says when to try again.", body = crate::openapi::ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait."))),
        (status = 502, description = "The payment provider could not open its page; the order was cancelled.", body = crate::openapi::ErrorBody),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn card(
    kit: web::Data<CheckoutKit>,
    session: Session,
    user: MaybeUser,
    client: ClientIp,
    payload: web::Json<OrderPayload>,
) -> Result<HttpResponse, ApiError> {
    let provider = kit.card.provider();
    let context = context(&session, &user, client, PaymentMethod::Card, provider);
    let public_url = &kit.public_url;
    let urls = |id| ReturnUrls {
        success_url: format!("{public_url}/success?order_id={id}"),
        cancel_url: format!("{public_url}/cancel?order_id={id}"),
    };
    let opened = open(
        &kit,
        &session,
        context,
        payload.into_inner(),
        &kit.card,
        urls,
    )
    .await?;
    Ok(HttpResponse::Ok().json(CardCheckoutResponse {
        url: opened.redirect_url,
        order_id: opened.placed.order.id.get(),
        order_key: opened
            .placed
            .access_key
            .as_ref()
            .map(|key| key.expose().to_owned()),
    }))
}

/// `POST /api/checkout/paypal`: PayPal Orders v2, when configured and enabled.
#[utoipa::path(
    post,
    path = "/api/checkout/paypal",
    tag = "checkout",
    summary = "Place an order and pay with PayPal",
    description = "As `POST /api/stripe/checkout`, through PayPal (Orders v2) when the shop has \
                   PayPal configured and enabled: the shopper approves at `approval_url`, and \
                   PayPal sends them back to `GET /api/paypal/return`.",
    request_body = OrderPayload,
    responses(
        (status = 200, description = "The order is placed; send the shopper to `approval_url`.", body = PaypalCheckoutResponse),
        JsonBodyRefused,
        (status = 403, description = "The buyer is on the blocklist, or a cross-site request.", body = crate::openapi::ErrorBody),
        (status = 404, description = "PayPal is not available in this shop.", body = crate::openapi::ErrorBody),
        (status = 409, description = "The cart cannot be bought as it is: products gone or short of stock (`problems`), or the total was not the server's (`cart`).", body = crate::openapi::ErrorBody),
        (status = 422, description = "Missing details (Roblox username, e-mail, linked Discord), a malformed field, an empty cart, too many lines or too many of one product, or a promo code that does not apply (`reason`).", body = crate::openapi::ErrorBody),
        (status = 429, description = "Too many unpaid orders on this Discord account, from this browser or from this address; `Retry-After` says when to try again.", body = crate::openapi::ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait."))),
        (status = 502, description = "PayPal could not open its page; the order was cancelled.", body = crate::openapi::ErrorBody),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn paypal(
    kit: web::Data<CheckoutKit>,
    session: Session,
    user: MaybeUser,
    client: ClientIp,
    payload: web::Json<OrderPayload>,
) -> Result<HttpResponse, ApiError> {
    let Some(gateway) = kit.paypal.as_ref() else {
        return Err(ApiError::NotFound(
            "PayPal is not available in this shop.".to_owned(),
        ));
    };
    let provider = PaymentProvider::Paypal;
    let context = context(&session, &user, client, PaymentMethod::Paypal, provider);
    let public_url = &kit.public_url;
    let urls = |id| ReturnUrls {
        success_url: format!("{public_url}/api/paypal/return?order_id={id}"),
        cancel_url: format!("{public_url}/cancel?order_id={id}"),
    };
    let opened = open(&kit, &session, context, payload.into_inner(), gateway, urls).await?;
    Ok(HttpResponse::Ok().json(PaypalCheckoutResponse {
        approval_url: opened.redirect_url,
        order_id: opened.placed.order.id.get(),
        order_key: opened
            .placed
            .access_key
            .as_ref()
            .map(|key| key.expose().to_owned()),
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PayPalReturn {
    /// The shop's order id (an unknown or malformed one answers 404).
    #[param(value_type = Option<i64>, minimum = 1)]
    pub order_id: Option<String>,
    /// PayPal's order id.
    pub token: Option<String>,
}

/// `GET /api/paypal/return?order_id=42&token=...`: the buyer approved; capture the payment,
/// confirm the order through the same call as Stripe's webhook, and go to /success (or
/// /cancel when nothing was paid).
#[utoipa::path(
    get,
    path = "/api/paypal/return",
    tag = "checkout",
    summary = "PayPal sends the shopper back",
    description = "Where PayPal sends the shopper after they approved: the payment is captured, \
                   the order confirmed, and the browser goes on to `/success?order_id=…` (or \
                   `/cancel?order_id=…` when nothing was paid).",
    params(PayPalReturn),
    responses(
        (status = 303, description = "Captured (or not): on to the shop's success or cancel page.",
            headers(("Location" = String, description = "`/success?order_id={id}` or `/cancel?order_id={id}`."))),
        (status = 400, description = "The PayPal order is not this order's payment.", body = crate::openapi::ErrorBody),
        (status = 404, description = "PayPal is not available in this shop, or the order does not exist.", body = crate::openapi::ErrorBody),
        (status = 422, description = "The query string cannot be read (a parameter given twice).", body = crate::openapi::ErrorBody),
        (status = 502, description = "PayPal could not capture the payment.", body = crate::openapi::ErrorBody),
    ),
    security(()),
)]
pub async fn paypal_return(
    kit: web::Data<CheckoutKit>,
    query: web::Query<PayPalReturn>,
) -> Result<HttpResponse, ApiError> {
    let not_found = || ApiError::NotFound(ORDER_NOT_FOUND.to_owned());
    let capture = kit.paypal.as_ref().ok_or_else(not_found)?;
    let id = query
        .order_id
        .as_deref()
        .and_then(|id| id.parse::<i64>().ok())
        .map(OrderId::new)
        .ok_or_else(not_found)?;
    let token = query.token.as_deref().unwrap_or_default();
    let captured = kit
        .service
        .confirm_capture(id, PaymentProvider::Paypal, token, capture)
        .await?;
    let page = if captured.is_success() {
        "success"
    } else {
        "cancel"
    };
    Ok(HttpResponse::SeeOther()
        .insert_header((header::LOCATION, format!("/{page}?order_id={id}")))
        .finish())
}
