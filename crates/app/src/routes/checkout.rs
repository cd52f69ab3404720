//! `POST /api/stripe/checkout` and `POST /api/checkout/paypal`: the checkout service prices the
//! cart from the database, reserves its stock, stores the order as pending and opens the
//! payment provider's page (`orders::Checkout::place_and_open`). `GET /api/paypal/return`: the
//! buyer approved a PayPal order; the service captures it (`confirm_capture`).

use actix_session::Session;
use actix_web::{http::header, web, HttpResponse};
use cart_pricing::PaymentMethod;
use orders::gateways::PaymentGateway;
use orders::{AccessKey, OpenedCheckout, OrderHolder, OrderId, PaymentProvider, ReturnUrls};
use serde::Deserialize;
use serde_json::json;

use super::discord::session_identity;
use super::orders::{remember_order, ORDER_NOT_FOUND};
use crate::dto::checkout::{CheckoutContext, OrderPayload};
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
        kit.stock.on_stock_changed().await;
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
    Ok(HttpResponse::Ok().json(json!({
        "url": opened.redirect_url,
        "order_id": opened.placed.order.id.get(),
        "order_key": opened.placed.access_key.as_ref().map(AccessKey::expose),
    })))
}

/// `POST /api/checkout/paypal`: PayPal Orders v2, when configured and enabled.
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
    Ok(HttpResponse::Ok().json(json!({
        "approval_url": opened.redirect_url,
        "order_id": opened.placed.order.id.get(),
        "order_key": opened.placed.access_key.as_ref().map(AccessKey::expose),
    })))
}

#[derive(Debug, Deserialize)]
pub struct PayPalReturn {
    pub order_id: Option<String>,
    /// PayPal's order id.
    pub token: Option<String>,
}

/// `GET /api/paypal/return?order_id=42&token=...`: the buyer approved; capture the payment,
/// confirm the order through the same call as Stripe's webhook, and go to /success (or
/// /cancel when nothing was paid).
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
    checkout::after_capture(&kit, id, &captured).await;
    let page = if captured.is_success() {
        "success"
    } else {
        "cancel"
    };
    Ok(HttpResponse::SeeOther()
        .insert_header((header::LOCATION, format!("/{page}?order_id={id}")))
        .finish())
}
