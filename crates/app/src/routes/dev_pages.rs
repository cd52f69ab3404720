//! The local stand-ins' pages, on only when the real provider is not configured (never in
//! production): the payment page `/dev/pay/{order_id}` and the Discord sign-in page
//! `/dev/discord/authorize`. Their HTML is the `devpay` adapter's; here they are served, and
//! what their forms post is applied. A paid dev order's page can also play the card holder's
//! bank: a dispute and an early fraud warning, applied as Stripe's webhook would apply them.

use super::path_id::{order_not_found, PathId};
use actix_web::{http::header, web, HttpResponse};
use orders::OrderId;
use orders::{Order, PaymentNotice, PaymentProvider};
use serde::Deserialize;

use super::orders::{cancel_order, Visitor};
use super::stripe_webhook::EventServices;
use crate::checkout::confirm;
use crate::checkout::providers::ShopProviders;
use crate::services::AfterSaleService;
use crate::{
    checkout::{CardPayments, DiscordLink},
    error::ApiError,
};

/// A page of the dev stand-ins (`devpay`), never cached.
fn html(document: String) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(document)
}

fn see_other(location: String) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location))
        .finish()
}

/// The dev order if the dev payment provider is on and this visitor may see it.
async fn dev_order(visitor: &Visitor, card: &CardPayments, id: &str) -> Result<Order, ApiError> {
    if !card.is_dev() {
        return Err(ApiError::NotFound(
            l10n::Text::new("error-not-found").into(),
        ));
    }
    let id = OrderId::from_segment(id).ok_or_else(|| ApiError::NotFound(order_not_found()))?;
    let order = visitor.own_order(id).await?;
    if order.payment.provider != PaymentProvider::Dev {
        return Err(ApiError::NotFound("Order not found.".into()));
    }
    Ok(order)
}

/// `GET /dev/pay/{order_id}`: the order and two buttons, Pay and Cancel.
pub async fn pay_page(
    visitor: Visitor,
    card: web::Data<CardPayments>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let order = dev_order(&visitor, &card, &id).await?;
    Ok(html(devpay::pay_page(&order)))
}

/// `POST /dev/pay/{order_id}/pay`: confirms through the webhook's own call, then /success.
pub async fn pay(
    visitor: Visitor,
    card: web::Data<CardPayments>,
    aftersale: web::Data<AfterSaleService>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let order = dev_order(&visitor, &card, &id).await?;
    let notice = PaymentNotice {
        order_id: order.id,
        provider: PaymentProvider::Dev,
        reference: order.payment.reference.clone().unwrap_or_default(),
        event: None,
        hold: None,
    };
    // paid now, before, or by this very notice: the same place
    confirm(&visitor.checkout, notice).await?;
    // its payment id, as Stripe's would be: a dispute or a fraud warning names it
    aftersale
        .payment_confirmed(order.id, devpay::bank::payment_id(order.id))
        .await?;
    Ok(see_other(format!("/success?order_id={}", order.id)))
}

/// What the card holder's bank does on the dev payment page.
#[derive(Clone, Copy)]
enum BankMove {
    Dispute,
    FraudWarning,
}

/// The bank's `step` on a paid dev order, applied as Stripe's webhook would; back to its page.
async fn bank_move(
    (services, card): (EventServices, web::Data<CardPayments>),
    visitor: Visitor,
    id: web::Path<String>,
    step: BankMove,
) -> Result<HttpResponse, ApiError> {
    let order = dev_order(&visitor, &card, &id).await?;
    let event = match step {
        BankMove::Dispute => devpay::bank::dispute_opened(&order, services.checkout.now()),
        BankMove::FraudWarning => devpay::bank::fraud_warning(&order),
    };
    services.apply(event).await?;
    Ok(see_other(format!("/dev/pay/{}", order.id)))
}

/// `POST /dev/pay/{order_id}/dispute`: the card holder disputes the paid order.
pub async fn dispute(
    services: (EventServices, web::Data<CardPayments>),
    visitor: Visitor,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    bank_move(services, visitor, id, BankMove::Dispute).await
}

/// `POST /dev/pay/{order_id}/fraud-warning`: the card's issuer warns of fraud.
pub async fn fraud_warning(
    services: (EventServices, web::Data<CardPayments>),
    visitor: Visitor,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    bank_move(services, visitor, id, BankMove::FraudWarning).await
}

/// `POST /dev/pay/{order_id}/cancel`: cancels (stock released), then /cancel.
pub async fn cancel(
    visitor: Visitor,
    card: web::Data<CardPayments>,
    providers: web::Data<ShopProviders>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let order = dev_order(&visitor, &card, &id).await?;
    match cancel_order(&visitor.checkout, &providers, &order).await {
        // already cancelled (a second click): the same place
        Ok(_) | Err(ApiError::Conflict(_)) => {}
        Err(other) => return Err(other),
    }
    Ok(see_other(format!("/cancel?order_id={}", order.id)))
}

#[derive(Debug, Deserialize)]
pub struct AuthorizeQuery {
    #[serde(default)]
    pub state: String,
}

/// `GET /dev/discord/authorize?state=...`: pick a demo identity; back to /discord/callback.
pub async fn discord_page(
    discord: web::Data<DiscordLink>,
    query: web::Query<AuthorizeQuery>,
) -> Result<HttpResponse, ApiError> {
    if !discord.is_dev() {
        return Err(ApiError::NotFound(
            l10n::Text::new("error-not-found").into(),
        ));
    }
    Ok(html(devpay::discord_page(&query.state)))
}
