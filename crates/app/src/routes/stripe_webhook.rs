//! `POST /api/stripe/webhook`: Stripe's signed events. The signature is checked on the raw
//! body before anything is read; the event id is recorded with the change it makes, so a
//! repeated delivery answers 200 and changes nothing.
//!
//! Handled: `checkout.session.completed` (the order is paid; its payment intent is recorded),
//! `checkout.session.expired`, `charge.refunded`, `charge.dispute.created` and
//! `charge.dispute.closed` (the last three find the order by that payment intent).

use actix_web::{web, HttpRequest, HttpResponse};
use aftersale::{Noticed, ProviderRefund};
use orders::{
    CheckoutService, ConfirmError, DisputeOutcome, OrderError, OrderId, PaymentNotice,
    PaymentProvider, ProviderEvent, Release, ReleaseError,
};
use serde::Serialize;
use shared::Clock as _;
use stripe_adapter::{CheckoutPaymentStatus, DisputeStatus, StripeEvent, WebhookVerifier};

use crate::auth::AppClock;
use crate::checkout::confirm;
use crate::checkout::ShopCheckout;
use crate::dto::responses::CrossSiteRefused;
use crate::error::ApiError;
use crate::services::AfterSaleService;

/// What Stripe hears back when its event is taken (or knowingly ignored).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct WebhookReceived {
    /// Always `true`.
    pub received: bool,
}

/// The largest event body taken (Stripe's events are a few KiB), as actix's own default.
const WEBHOOK_BODY_LIMIT: usize = 256 * 1024;

/// The raw body, in the API's error shape when it is too large or cannot be read (actix's
/// `Bytes` extractor answers those in plain text).
async fn raw_body(payload: web::Payload) -> Result<web::Bytes, ApiError> {
    match payload.to_bytes_limited(WEBHOOK_BODY_LIMIT).await {
        Ok(Ok(body)) => Ok(body),
        Ok(Err(_)) => Err(ApiError::BadRequest(
            "The request body could not be read.".to_owned(),
        )),
        Err(_) => Err(ApiError::PayloadTooLarge(format!(
            "The request body is larger than {WEBHOOK_BODY_LIMIT} bytes."
        ))),
    }
}

fn received() -> HttpResponse {
    HttpResponse::Ok().json(WebhookReceived { received: true })
}

fn stripe_event(event_id: &str) -> ProviderEvent {
    ProviderEvent {
        provider: PaymentProvider::Stripe,
        id: event_id.to_owned(),
    }
}

/// The answer to a refund or dispute event: 200 unless the store failed (Stripe retries).
fn noticed(result: Result<Noticed, OrderError>, event_id: &str) -> Result<HttpResponse, ApiError> {
    match result {
        Ok(Noticed::Changed(order)) => {
            tracing::info!(order = %order.id, %event_id, status = %order.status(), "stripe event applied");
            Ok(received())
        }
        Ok(Noticed::Unchanged) | Err(OrderError::NotFound(_)) => Ok(received()),
        Ok(Noticed::UnknownPayment) => {
            tracing::warn!(%event_id, "stripe event for a payment of no order of ours");
            Ok(received())
        }
        Err(error) => {
            tracing::error!(%event_id, "could not apply a stripe event");
            Err(error.into())
        }
    }
}

fn notice(event_id: &str, session_id: String, order_id: Option<&str>) -> Option<PaymentNotice> {
    let order_id = order_id?.trim().parse::<i64>().ok().filter(|id| *id > 0)?;
    Some(PaymentNotice {
        order_id: OrderId::new(order_id),
        provider: PaymentProvider::Stripe,
        reference: session_id,
        event: Some(ProviderEvent {
            provider: PaymentProvider::Stripe,
            id: event_id.to_owned(),
        }),
    })
}

/// `POST /api/stripe/webhook`: one signed Stripe event.
#[utoipa::path(
    post,
    path = "/api/stripe/webhook",
    tag = "payment provider",
    summary = "Stripe's signed events",
    description = "Called by Stripe, not by browsers. The `Stripe-Signature` header is checked \
                   against the raw body with the webhook secret before anything is read. \
                   Handled: `checkout.session.completed` (the order is paid), \
                   `checkout.session.expired` (its stock goes back), `charge.refunded`, \
                   `charge.dispute.created` and `charge.dispute.closed`; other events, events \
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
    checkout: web::Data<ShopCheckout>,
    verifier: web::Data<Option<WebhookVerifier>>,
    clock: web::Data<AppClock>,
    aftersale: web::Data<AfterSaleService>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let body = raw_body(payload).await?;
    let Some(verifier) = verifier.get_ref() else {
        return Err(ApiError::BadRequest(
            "Stripe webhooks are not configured.".to_owned(),
        ));
    };
    let Some(signature) = req
        .headers()
        .get("Stripe-Signature")
        .and_then(|value| value.to_str().ok())
    else {
        return Err(ApiError::BadRequest(
            "Missing Stripe-Signature header.".to_owned(),
        ));
    };
    let event = verifier
        .verify(&body, signature, clock.now())
        .inspect_err(|error| tracing::warn!(%error, "stripe webhook refused"))?;
    match event {
        StripeEvent::CheckoutCompleted {
            event_id,
            session_id,
            order_id,
            payment_status,
            payment_intent,
        } => {
            if !matches!(
                payment_status,
                CheckoutPaymentStatus::Paid | CheckoutPaymentStatus::NoPaymentRequired
            ) {
                tracing::info!(%event_id, ?payment_status, "checkout completed without payment yet");
                return Ok(received());
            }
            let Some(notice) = notice(&event_id, session_id, order_id.as_deref()) else {
                tracing::info!(%event_id, "checkout session of no order of ours");
                return Ok(received());
            };
            let order = notice.order_id;
            match confirm(&checkout, notice).await {
                Ok(_) => {
                    if let Some(intent) = payment_intent {
                        aftersale
                            .payment_confirmed(order, intent)
                            .await
                            .inspect_err(|_| tracing::error!(%event_id, "could not record a stripe payment intent"))?;
                    }
                    Ok(received())
                }
                // Paid after it expired: recorded for staff (see `confirm`); retrying will
                // not change that, so Stripe is told we have it.
                Err(ConfirmError::NotFound(_) | ConfirmError::Refused(_)) => Ok(received()),
                // the session does not match the order (400), or a failure Stripe retries (500)
                Err(error) => {
                    tracing::warn!(%event_id, error = %error, "stripe payment not applied");
                    Err(error.into())
                }
            }
        }
        StripeEvent::CheckoutExpired {
            event_id,
            session_id,
            order_id,
        } => {
            let Some(notice) = notice(&event_id, session_id, order_id.as_deref()) else {
                return Ok(received());
            };
            match checkout.expire(notice).await {
                Ok(Release::Released(_) | Release::AlreadyClosed(_) | Release::Replayed)
                | Err(
                    ReleaseError::NotFound(_)
                    | ReleaseError::Refused(_)
                    | ReleaseError::UnderReview(_),
                ) => Ok(received()),
                // the session does not match the order (400), or a failure Stripe retries (500)
                Err(error) => {
                    tracing::warn!(%event_id, error = %error, "stripe expiry not applied");
                    Err(error.into())
                }
            }
        }
        StripeEvent::ChargeRefunded {
            event_id,
            payment_intent,
            fully_refunded,
            ..
        } => {
            let Some(payment_id) = payment_intent else {
                return Ok(received());
            };
            let refund = ProviderRefund {
                provider: PaymentProvider::Stripe,
                payment_id,
                whole: fully_refunded,
                event: stripe_event(&event_id),
            };
            noticed(aftersale.provider_refunded(refund).await, &event_id)
        }
        StripeEvent::DisputeCreated {
            event_id,
            payment_intent,
            reason,
            ..
        } => {
            let Some(payment_id) = payment_intent else {
                return Ok(received());
            };
            let opened = aftersale
                .dispute_opened(
                    PaymentProvider::Stripe,
                    payment_id,
                    reason,
                    stripe_event(&event_id),
                )
                .await;
            noticed(opened, &event_id)
        }
        StripeEvent::DisputeClosed {
            event_id,
            payment_intent,
            status,
            ..
        } => {
            let outcome = match status {
                DisputeStatus::Won => DisputeOutcome::Won,
                DisputeStatus::Lost => DisputeOutcome::Lost,
                DisputeStatus::Other(status) => {
                    tracing::info!(%event_id, %status, "dispute closed without an outcome we know");
                    return Ok(received());
                }
            };
            let Some(payment_id) = payment_intent else {
                return Ok(received());
            };
            let closed = aftersale
                .dispute_closed(
                    PaymentProvider::Stripe,
                    payment_id,
                    outcome,
                    stripe_event(&event_id),
                )
                .await;
            noticed(closed, &event_id)
        }
        StripeEvent::Other {
            event_id,
            event_type,
        } => {
            tracing::debug!(%event_id, %event_type, "stripe event ignored");
            Ok(received())
        }
    }
}
