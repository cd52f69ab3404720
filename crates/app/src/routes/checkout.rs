//! `POST /api/stripe/checkout` and `POST /api/checkout/paypal`: the server prices the cart
//! from the database, reserves its stock, stores the order as pending and opens the payment
//! provider's page. `GET /api/paypal/return`: the buyer approved a PayPal order; capture it.

use std::collections::BTreeMap;
use std::str::FromStr;

use actix_session::Session;
use actix_web::{http::header, web, HttpResponse};
use cart_pricing::{Decimal, Money, PaymentMethod, PricedCart, Quantity};
use catalog::ProductId;
use chrono::Duration;
use orders::gateways::{
    CaptureOutcome, CheckoutLine, HostedCheckoutRequest, PaymentCapture, PaymentGateway,
};
use orders::{
    Buyer, CheckoutError, CheckoutRequest, CheckoutService, ConfirmError, Confirmation, Email,
    OrderHolder, OrderId, OrderStatus, PaymentNotice, PaymentProvider, PlacedOrder, RequestedItem,
    RobloxUsername, PAYMENT_WINDOW_MINUTES,
};
use serde::Deserialize;
use serde_json::json;

use super::discord::session_identity;
use super::orders::remember_order;
use crate::{
    auth::MaybeUser, checkout, checkout::CheckoutKit, client_ip::ClientIp, dto::dollars,
    error::ApiError,
};

/// The message for missing details (spec §4).
pub const MISSING_DETAILS: &str = "Please enter your Roblox username and email, and link Discord.";
/// What the shopper hears when the provider could not open its page.
pub const PAYMENT_FAILED: &str = "Payment failed.";
const FIX_ISSUES: &str = "Please fix the following issues before continuing:";

/// One line of the spec's order payload; only `id` and `qty` are read (the server knows the
/// rest).
#[derive(Debug, Deserialize)]
pub struct PayloadItem {
    pub id: serde_json::Value,
    pub qty: serde_json::Value,
}

/// The spec's order payload. `discord_id` and `user_id` are ignored: the session decides.
#[derive(Debug, Deserialize)]
pub struct OrderPayload {
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub roblox_username: Option<String>,
    #[serde(default)]
    pub items: Option<Vec<PayloadItem>>,
    #[serde(default)]
    pub total: Option<serde_json::Number>,
    #[serde(default)]
    pub promo_code: Option<String>,
}

fn blank(text: Option<&str>) -> bool {
    text.is_none_or(|t| t.trim().is_empty())
}

fn decimal(number: &serde_json::Number) -> Option<Decimal> {
    let text = number.to_string();
    Decimal::from_str(&text)
        .or_else(|_| Decimal::from_scientific(&text))
        .ok()
}

fn positive_int(value: &serde_json::Value) -> Option<i64> {
    value
        .as_i64()
        .or_else(|| value.as_str().and_then(|s| s.trim().parse().ok()))
        .filter(|n| *n > 0)
}

/// The session key of the browser's buyer token: a random token the orders placed from this
/// browser session carry, so unpaid orders can be capped per browser.
const BUYER_TOKEN: &str = "buyer_token";

/// This browser session's buyer token, or a new one (no order carries it yet), which the
/// session keeps once an order is placed with it (see [`keep_buyer_token`]): a refused
/// checkout writes nothing to the session.
fn buyer_token(session: &Session) -> String {
    session
        .get::<String>(BUYER_TOKEN)
        .ok()
        .flatten()
        .unwrap_or_else(checkout::random_token)
}

/// Keeps the token an order was just placed with, if the session did not have it.
fn keep_buyer_token(session: &Session, token: Option<String>) -> Result<(), ApiError> {
    let Some(token) = token else {
        return Ok(());
    };
    if session.get::<String>(BUYER_TOKEN).ok().flatten() == Some(token.clone()) {
        return Ok(());
    }
    session
        .insert(BUYER_TOKEN, token)
        .map_err(|e| ApiError::internal(anyhow::anyhow!("could not keep the buyer token: {e}")))
}

/// The payload as the checkout service takes it; 422 for anything missing or malformed.
fn parse_request(
    payload: OrderPayload,
    session: &Session,
    user: &MaybeUser,
    client: ClientIp,
    method: PaymentMethod,
    provider: PaymentProvider,
) -> Result<CheckoutRequest, ApiError> {
    let identity = session_identity(session);
    let mut errors: BTreeMap<String, Vec<String>> = BTreeMap::new();
    fn add(errors: &mut BTreeMap<String, Vec<String>>, field: &str, message: &str) {
        errors
            .entry(field.to_owned())
            .or_default()
            .push(message.to_owned());
    }
    if blank(payload.roblox_username.as_deref()) {
        add(
            &mut errors,
            "roblox_username",
            "Enter your Roblox username.",
        );
    }
    if blank(payload.email.as_deref()) {
        add(&mut errors, "email", "Enter your e-mail address.");
    }
    if identity.is_none() {
        add(&mut errors, "discord", "Link your Discord account.");
    }
    if !errors.is_empty() {
        return Err(ApiError::Validation {
            message: MISSING_DETAILS.to_owned(),
            errors,
        });
    }

    let roblox = RobloxUsername::parse(payload.roblox_username.as_deref().unwrap_or_default())
        .map_err(|e| {
            add(
                &mut errors,
                "roblox_username",
                &format!("Your Roblox username {e}."),
            )
        })
        .ok();
    let email = Email::parse(payload.email.as_deref().unwrap_or_default())
        .map_err(|_| add(&mut errors, "email", "Enter a valid e-mail address."))
        .ok();
    let items: Vec<RequestedItem> = payload
        .items
        .unwrap_or_default()
        .iter()
        .filter_map(|item| {
            let id = positive_int(&item.id);
            let quantity = positive_int(&item.qty).and_then(Quantity::new);
            match (id, quantity) {
                (Some(id), Some(quantity)) => Some(RequestedItem {
                    product_id: ProductId::new(id),
                    quantity,
                }),
                _ => {
                    add(
                        &mut errors,
                        "items",
                        "Every item needs a product id and a quantity of 1 to 1000.",
                    );
                    None
                }
            }
        })
        .collect();
    let total = payload.total.as_ref().and_then(decimal);
    if total.is_none() {
        add(&mut errors, "total", "The order total is missing.");
    }
    match (roblox, email, identity, total) {
        (Some(roblox_username), Some(email), Some(discord), Some(client_total))
            if errors.is_empty() =>
        {
            Ok(CheckoutRequest {
                items,
                promo_code: payload.promo_code.filter(|code| !code.trim().is_empty()),
                buyer: Buyer {
                    discord,
                    roblox_username,
                    email,
                    user_id: user.0.as_ref().map(|user| user.id),
                },
                method,
                provider,
                client_total,
                holder: OrderHolder {
                    buyer_token: Some(buyer_token(session)),
                    client_ip: Some(client.to_string()),
                },
            })
        }
        _ => {
            let message = errors
                .values()
                .flatten()
                .next()
                .cloned()
                .unwrap_or_else(|| MISSING_DETAILS.to_owned());
            Err(ApiError::Validation { message, errors })
        }
    }
}

fn priced_cart_json(cart: &PricedCart) -> serde_json::Value {
    json!({
        "lines": cart.lines.iter().map(|line| json!({
            "id": line.product_id,
            "name": line.name,
            "unit_price": dollars(line.unit_price),
            "qty": line.quantity.get(),
            "line_total": dollars(line.total()),
        })).collect::<Vec<_>>(),
        "subtotal": dollars(cart.subtotal),
        "discount_percent": cart.discount_percent.map(|p| p.get()),
        "discount": dollars(cart.discount),
        "total": dollars(cart.total),
        "fee": dollars(cart.fee),
        "grand_total": dollars(cart.grand_total),
    })
}

/// The checkout service's refusals as the contract answers them.
fn refusal(error: CheckoutError) -> Result<HttpResponse, ApiError> {
    match error {
        CheckoutError::EmptyCart | CheckoutError::TooManyLines { .. } => {
            Err(ApiError::field("items", error.to_string()))
        }
        CheckoutError::TooMany { .. } => Err(ApiError::field("qty", error.to_string())),
        CheckoutError::TooManyPending { retry_after, .. } => Err(ApiError::TooManyRequests {
            message: error.to_string(),
            retry_after_secs: u64::try_from(retry_after.num_seconds()).unwrap_or(1).max(1),
        }),
        CheckoutError::Unavailable(products) => Ok(HttpResponse::Conflict().json(json!({
            "message": FIX_ISSUES,
            "problems": products.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "errors": {},
        }))),
        CheckoutError::OutOfStock(problems) => Ok(HttpResponse::Conflict().json(json!({
            "message": FIX_ISSUES,
            "problems": problems.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "errors": {},
        }))),
        CheckoutError::Promo(reason) => Ok(promo_refusal(&reason.to_string())),
        CheckoutError::PriceChanged(cart) => Ok(HttpResponse::Conflict().json(json!({
            "message": "Prices have changed. Please review your order.",
            "cart": priced_cart_json(&cart),
            "errors": {},
        }))),
        CheckoutError::Blocked => Err(ApiError::Forbidden(error.to_string())),
        CheckoutError::Unknown(cause) => Err(ApiError::Internal(cause)),
    }
}

/// 422 with the promo code's reason, in the contract's shape.
pub(crate) fn promo_refusal(reason: &str) -> HttpResponse {
    HttpResponse::UnprocessableEntity().json(json!({
        "message": reason,
        "reason": reason,
        "errors": { "promo_code": [reason] },
    }))
}

fn payment_failed() -> HttpResponse {
    HttpResponse::BadGateway().json(json!({ "message": PAYMENT_FAILED, "errors": {} }))
}

/// What the provider's page shows: each line at its discounted unit price, and a fee line
/// that makes the page's total exactly the order's total.
pub(crate) fn hosted_request(
    placed: &PlacedOrder,
    success_url: String,
    cancel_url: String,
    expires_at: chrono::DateTime<chrono::Utc>,
) -> HostedCheckoutRequest {
    let order = &placed.order;
    let lines: Vec<CheckoutLine> = order
        .lines
        .iter()
        .map(|line| CheckoutLine {
            name: line.name.clone(),
            unit_amount: match placed.cart.discount_percent {
                Some(percent) => line.unit_price.discounted(percent),
                None => line.unit_price,
            },
            quantity: line.quantity,
        })
        .collect();
    let lines_total: Money = lines
        .iter()
        .map(|line| line.unit_amount.times(line.quantity.get()))
        .sum();
    HostedCheckoutRequest {
        order_id: order.id.to_string(),
        lines,
        processing_fee: order
            .amounts
            .total
            .checked_sub(lines_total)
            .unwrap_or(Money::ZERO),
        customer_email: order.buyer.email.to_string(),
        success_url,
        cancel_url,
        expires_at,
    }
}

/// Places the order and opens the provider's page; on any failure after the reservation the
/// order is cancelled (its stock released) and the shopper hears "Payment failed.".
async fn place_and_open<G: PaymentGateway>(
    kit: &CheckoutKit,
    session: &Session,
    request: CheckoutRequest,
    gateway: &G,
    urls: impl FnOnce(OrderId) -> (String, String),
) -> Result<Result<(PlacedOrder, String), HttpResponse>, ApiError> {
    let token = request.holder.buyer_token.clone();
    let placed = match kit.service.place_order(request).await {
        Ok(placed) => placed,
        Err(error) => return refusal(error).map(Err),
    };
    keep_buyer_token(session, token)?;
    kit.stock.on_stock_changed().await;
    let order_id = placed.order.id;
    remember_order(session, order_id)?;

    let (success_url, cancel_url) = urls(order_id);
    // Stripe wants at least 30 minutes from its own clock: a minute of margin.
    let expires_at = kit.clock_now() + Duration::minutes(PAYMENT_WINDOW_MINUTES + 1);
    let opened = match gateway
        .create_checkout(hosted_request(&placed, success_url, cancel_url, expires_at))
        .await
    {
        Ok(opened) => Ok(
            match kit
                .service
                .attach_payment(order_id, opened.provider_reference.clone())
                .await
            {
                Ok(()) => Ok(opened),
                Err(error) => Err((opened, anyhow::Error::new(error))),
            },
        ),
        Err(error) => Err(anyhow::Error::new(error)),
    };
    match opened {
        Ok(Ok(opened)) => Ok(Ok((placed, opened.redirect_url))),
        Ok(Err((opened, error))) => {
            // the page exists but the order does not know it: close it so it cannot be paid
            if let Err(close) = gateway.close_checkout(opened.provider_reference).await {
                tracing::error!(order = %order_id, error = ?close, "could not close the payment page of an order that failed");
            }
            cancel_after_failure(kit, order_id, error).await;
            Ok(Err(payment_failed()))
        }
        Err(error) => {
            cancel_after_failure(kit, order_id, error).await;
            Ok(Err(payment_failed()))
        }
    }
}

/// The payment page could not be opened (or recorded): the order is cancelled, its stock and
/// promo use released.
async fn cancel_after_failure(kit: &CheckoutKit, order_id: OrderId, error: anyhow::Error) {
    tracing::error!(order = %order_id, error = ?error, "the payment page could not be opened; cancelling the order");
    if let Err(cancel) = kit.service.cancel(order_id).await {
        tracing::error!(order = %order_id, error = ?cancel, "could not cancel the order after the failed payment");
    }
    kit.stock.on_stock_changed().await;
}

/// `POST /api/stripe/checkout`: card payment through Stripe Checkout (or the dev page).
pub async fn card(
    kit: web::Data<CheckoutKit>,
    session: Session,
    user: MaybeUser,
    client: ClientIp,
    payload: web::Json<OrderPayload>,
) -> Result<HttpResponse, ApiError> {
    let request = parse_request(
        payload.into_inner(),
        &session,
        &user,
        client,
        PaymentMethod::Card,
        kit.card.provider(),
    )?;
    let public_url = kit.public_url.clone();
    let outcome = place_and_open(&kit, &session, request, &kit.card, |id| {
        (
            format!("{public_url}/success?order_id={id}"),
            format!("{public_url}/cancel?order_id={id}"),
        )
    })
    .await?;
    Ok(match outcome {
        Ok((placed, url)) => {
            HttpResponse::Ok().json(json!({ "url": url, "order_id": placed.order.id.get() }))
        }
        Err(response) => response,
    })
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
    let request = parse_request(
        payload.into_inner(),
        &session,
        &user,
        client,
        PaymentMethod::Paypal,
        PaymentProvider::Paypal,
    )?;
    let public_url = kit.public_url.clone();
    let outcome = place_and_open(&kit, &session, request, gateway, |id| {
        (
            format!("{public_url}/api/paypal/return?order_id={id}"),
            format!("{public_url}/cancel?order_id={id}"),
        )
    })
    .await?;
    Ok(match outcome {
        Ok((placed, url)) => HttpResponse::Ok()
            .json(json!({ "approval_url": url, "order_id": placed.order.id.get() })),
        Err(response) => response,
    })
}

#[derive(Debug, Deserialize)]
pub struct PayPalReturn {
    pub order_id: Option<String>,
    /// PayPal's order id.
    pub token: Option<String>,
}

fn see_other(location: String) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location))
        .finish()
}

/// `GET /api/paypal/return?order_id=42&token=...`: the buyer approved; capture the payment,
/// confirm the order through the same call as Stripe's webhook, and go to /success.
pub async fn paypal_return(
    kit: web::Data<CheckoutKit>,
    query: web::Query<PayPalReturn>,
) -> Result<HttpResponse, ApiError> {
    let not_found = || ApiError::NotFound("Order not found.".to_owned());
    let capture = kit.paypal.as_ref().ok_or_else(not_found)?;
    let id = query
        .order_id
        .as_deref()
        .and_then(|id| id.parse::<i64>().ok())
        .ok_or_else(not_found)?;
    let order = match kit.service.order(OrderId::new(id)).await {
        Ok(order) => order,
        Err(orders::OrderError::NotFound(_)) => return Err(not_found()),
        Err(orders::OrderError::Unknown(e)) => return Err(ApiError::Internal(e)),
    };
    let reference = order.payment.reference.clone().unwrap_or_default();
    if order.payment.provider != PaymentProvider::Paypal
        || reference.is_empty()
        || query.token.as_deref() != Some(reference.as_str())
    {
        return Err(ApiError::BadRequest(
            "This PayPal payment does not belong to this order.".to_owned(),
        ));
    }
    let success = format!("/success?order_id={id}");
    let cancelled = format!("/cancel?order_id={id}");
    match order.status() {
        OrderStatus::Pending => {}
        status if status.was_paid() => return Ok(see_other(success)),
        // expired or cancelled: never take money for an order whose stock is gone
        _ => return Ok(see_other(cancelled)),
    }
    match capture.capture(reference.clone()).await {
        Ok(CaptureOutcome::Completed { amount })
            if !amount
                .as_ref()
                .is_some_and(|amount| amount.is_exactly(order.amounts.total)) =>
        {
            let took = amount.map_or_else(
                || "an amount PayPal did not state".to_owned(),
                |amount| format!("{} {}", amount.value, amount.currency),
            );
            let reason = format!(
                "PayPal captured {took}, but the order's total is {} USD: check the payment \
                 and refund or settle it.",
                order.amounts.total.as_decimal()
            );
            checkout::hold_for_review(&kit, &order, reason).await?;
            return Ok(see_other(success));
        }
        Ok(CaptureOutcome::Completed { .. } | CaptureOutcome::AlreadyCaptured) => {}
        Ok(CaptureOutcome::Pending { reason }) => {
            let reason = format!(
                "PayPal has not released the payment yet (capture {reason}): deliver once it \
                 completes in PayPal, or refund it."
            );
            checkout::hold_for_review(&kit, &order, reason).await?;
            return Ok(see_other(success));
        }
        Ok(CaptureOutcome::NotCompleted { status }) => {
            tracing::warn!(order = id, %status, "paypal did not complete the capture");
            return Ok(see_other(cancelled));
        }
        Err(error) => {
            tracing::error!(order = id, error = ?error, "paypal capture failed");
            return Ok(payment_failed());
        }
    }
    let notice = PaymentNotice {
        order_id: order.id,
        provider: PaymentProvider::Paypal,
        reference,
        event: None,
    };
    match confirm(&kit, notice).await {
        Ok(_) => Ok(see_other(success)),
        Err(ConfirmError::Refused(_)) => Ok(see_other(cancelled)),
        Err(ConfirmError::NotFound(_) | ConfirmError::ReferenceMismatch(_)) => Err(not_found()),
        Err(ConfirmError::Unknown(e)) => Err(ApiError::Internal(e)),
    }
}

/// Applies a provider's confirmation (Stripe webhook, PayPal capture, the dev page) and what
/// goes with a paid order: the snapshot (archived products), the staff notification.
pub(crate) async fn confirm(
    kit: &CheckoutKit,
    notice: PaymentNotice,
) -> Result<Confirmation, ConfirmError> {
    let order_id = notice.order_id;
    let confirmation = kit.service.confirm_paid(notice).await;
    match &confirmation {
        Ok(Confirmation::Paid(order)) => {
            kit.stock.on_stock_changed().await;
            checkout::notify_paid(kit, order);
        }
        Err(ConfirmError::Refused(refused)) => {
            tracing::error!(order = %order_id, ?refused, "a payment arrived for an order that can no longer be paid: refund it");
            checkout::notify_paid_too_late(kit, order_id, refused.from);
        }
        _ => {}
    }
    confirmation
}
