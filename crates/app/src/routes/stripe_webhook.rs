//! `POST /api/stripe/webhook`: Stripe's signed events. The signature is checked on the raw
//! body before anything is read; the Stripe adapter reads the event in the orders domain's
//! words, and the domain's `aftersale::apply_payment_event` decides what it changes (each event
//! once: a repeated delivery answers 200 and changes nothing) and whether Stripe is told it
//! was taken (200) or sends it again (500).

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use shared::Clock as _;
use std::future::{ready, Ready};
use stripe_adapter::WebhookVerifier;

use super::bundle::data;
use crate::auth::AppClock;
use crate::checkout::providers::ShopProviders;
use crate::checkout::ShopCheckout;
use crate::disputes::DisputeService;
use crate::error::ApiError;
use crate::services::AfterSaleService;
use dto::provider::WebhookReceived;
use dto::responses::CrossSiteRefused;

/// The largest event body taken (Stripe's events are a few KiB), as actix's own default.
const WEBHOOK_BODY_LIMIT: usize = 256 * 1024;

/// The raw body, in the API's error shape when it is too large or cannot be read (actix's
/// `Bytes` extractor answers those in plain text).
async fn raw_body(payload: web::Payload) -> Result<web::Bytes, ApiError> {
    match payload.to_bytes_limited(WEBHOOK_BODY_LIMIT).await {
        Ok(Ok(body)) => Ok(body),
        Ok(Err(_)) => Err(ApiError::BadRequest(
            "The request body could not be read.".into(),
        )),
        Err(_) => Err(ApiError::PayloadTooLarge(
            format!("The request body is larger than {WEBHOOK_BODY_LIMIT} bytes.").into(),
        )),
    }
}

/// `POST /api/stripe/webhook`: one signed Stripe event.
#[utoipa::path(
    post,
    path = "/api/stripe/webhook",
    tag = "payment provider",
    summary = "Stripe's signed events",
    description = "Called by Stripe, not by browsers. The `Stripe-Signature` header is checked \
                   against the raw body with the webhook secret before anything is read. \
                   Handled: `checkout.session.completed` (the order is paid; with \
                   `payment_status: unpaid`, a method that confirms later, it awaits its \
                   payment, its stock held until the method's deadline, its `pay_by`), \
                   `checkout.session.async_payment_succeeded` (then paid), \
                   `checkout.session.async_payment_failed` and `checkout.session.expired` \
                   (its stock goes back), `charge.refunded`, \
                   `charge.dispute.created`, `charge.dispute.updated`, \
                   `charge.dispute.closed` (the dispute is kept, and a delivered order's \
                   record staged as evidence) and `radar.early_fraud_warning.created` (a paid \
                   order waiting for delivery goes on a risk hold, or is refunded at once with \
                   `payments.refund_on_fraud_warning`). Before a completed session pays its \
                   order, the payment's latest charge is read (`GET /v1/payment_intents/{id}`, \
                   `payments.risk_read_timeout_ms`): a risk level in \
                   `payments.hold_risk_levels` pays it on a risk hold; a read that fails holds \
                   nothing. Other events, events \
                   about no order of ours and repeated deliveries answer 200 and change nothing. \
                   A 500 (the store failed) makes Stripe deliver the event again.",
    params(
        ("Stripe-Signature" = String, Header, description = "Stripe's signature of the raw body: `t=<unix time>,v1=<hex HMAC-SHA256>`."),
    ),
    request_body(
        content = Object,
        content_type = "application/json",
        description = "A Stripe event object, exactly as Stripe sent it (the signature covers the raw bytes).",
    ),
    responses(
        (status = 200, description = "The event is applied, already applied, or not ours to apply.", body = WebhookReceived),
        CrossSiteRefused,
        (status = 400, description = "Refused: webhooks are not configured, the `Stripe-Signature` header is missing, the signature does not match the body (or is too old), the body cannot be read, or the checkout session is not the order's.", body = crate::error::ErrorBody),
        (status = 413, description = "The body is larger than 256 KiB.", body = crate::error::ErrorBody),
        (status = 500, description = "The event could not be applied now; Stripe retries it.", body = crate::error::ErrorBody),
    ),
    security(()),
)]
pub async fn webhook(
    services: EventServices,
    verifier: web::Data<Option<WebhookVerifier>>,
    clock: web::Data<AppClock>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let body = raw_body(payload).await?;
    let Some(verifier) = verifier.get_ref() else {
        return Err(ApiError::BadRequest(
            "Stripe webhooks are not configured.".into(),
        ));
    };
    let Some(signature) = req
        .headers()
        .get("Stripe-Signature")
        .and_then(|value| value.to_str().ok())
    else {
        return Err(ApiError::BadRequest(
            "Missing Stripe-Signature header.".into(),
        ));
    };
    let event = verifier
        .verify(&body, signature, clock.now())
        .inspect_err(|error| tracing::warn!(%error, "stripe webhook refused"))?;
    services.apply(event.payment_event()).await?;
    Ok(HttpResponse::Ok().json(WebhookReceived { received: true }))
}

/// What a provider's event changes, in the order it changes it: the services it reaches.
pub struct EventServices {
    pub(crate) checkout: web::Data<ShopCheckout>,
    providers: web::Data<ShopProviders>,
    aftersale: web::Data<AfterSaleService>,
    disputes: web::Data<DisputeService>,
    waker: web::Data<crate::disputes::DisputesWaker>,
}

impl FromRequest for EventServices {
    type Error = actix_web::Error;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready((|| {
            Ok(EventServices {
                checkout: data(req)?,
                providers: data(req)?,
                aftersale: data(req)?,
                disputes: data(req)?,
                waker: data(req)?,
            })
        })())
    }
}

impl EventServices {
    /// Applies a provider's event (Stripe's webhook, or the dev payment page's stand-in): the
    /// order's change first, then a dispute's record, its evidence asked for.
    pub(crate) async fn apply(&self, event: aftersale::PaymentEvent) -> Result<(), ApiError> {
        let dispute = reported_dispute(&event);
        let warning = match &event {
            aftersale::PaymentEvent::FraudWarning {
                event,
                payment_id,
                fraud_type,
                ..
            } => Some((event.provider, payment_id.clone(), fraud_type.clone())),
            _ => None,
        };
        aftersale::apply_payment_event(
            self.checkout.get_ref(),
            event,
            self.aftersale.get_ref(),
            self.providers.get_ref(),
        )
        .await?;
        // a delivered order has nothing to hold: the dispute that may follow is prepared for
        if let Some((provider, payment_id, fraud_type)) = warning {
            self.disputes
                .fraud_warned(provider, payment_id, fraud_type)
                .await
                .map_err(ApiError::Internal)?;
            self.waker.0.notify_one();
        }
        // after the order is marked disputed: the dispute's record, and its evidence asked for
        if let Some((provider, payment_id, facts)) = dispute {
            self.disputes
                .reported(provider, payment_id, facts)
                .await
                .map_err(ApiError::Internal)?;
            self.waker.0.notify_one();
        }
        Ok(())
    }
}

/// The dispute a provider's event reports (opened, changed or closed), with its payment.
fn reported_dispute(
    event: &aftersale::PaymentEvent,
) -> Option<(
    orders::PaymentProvider,
    Option<String>,
    ::disputes::DisputeFacts,
)> {
    use aftersale::PaymentEvent;
    match event {
        PaymentEvent::DisputeOpened {
            event,
            payment_id,
            dispute: Some(facts),
            ..
        }
        | PaymentEvent::DisputeClosed {
            event,
            payment_id,
            dispute: Some(facts),
            ..
        }
        | PaymentEvent::DisputeUpdated {
            event,
            payment_id,
            dispute: facts,
        } => Some((event.provider, payment_id.clone(), facts.clone())),
        _ => None,
    }
}
