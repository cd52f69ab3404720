//! `POST /api/stripe/webhook`: Stripe's signed events. The signature is checked on the raw
//! body before anything is read; the event id is recorded with the change it makes, so a
//! repeated delivery answers 200 and changes nothing.

use actix_web::{web, HttpRequest, HttpResponse};
use orders::{
    CheckoutService, ConfirmError, OrderId, PaymentNotice, PaymentProvider, ProviderEvent, Release,
    ReleaseError,
};
use serde_json::json;
use stripe_adapter::{CheckoutPaymentStatus, StripeEvent};

use crate::checkout::confirm;
use crate::checkout::CheckoutKit;
use crate::error::ApiError;

fn received() -> HttpResponse {
    HttpResponse::Ok().json(json!({ "received": true }))
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

pub async fn webhook(
    kit: web::Data<CheckoutKit>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let Some(verifier) = kit.webhook.as_ref() else {
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
        .verify(&body, signature, kit.clock_now())
        .inspect_err(|error| tracing::warn!(%error, "stripe webhook refused"))?;
    match event {
        StripeEvent::CheckoutCompleted {
            event_id,
            session_id,
            order_id,
            payment_status,
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
            match confirm(&kit, notice).await {
                // Paid after it expired: recorded for staff (see `confirm`); retrying will
                // not change that, so Stripe is told we have it.
                Ok(_) | Err(ConfirmError::NotFound(_) | ConfirmError::Refused(_)) => Ok(received()),
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
            match kit.service.expire(notice).await {
                Ok(Release::Released(_)) => {
                    kit.stock.on_stock_changed().await;
                    Ok(received())
                }
                Ok(Release::AlreadyClosed(_) | Release::Replayed)
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
        StripeEvent::Other {
            event_id,
            event_type,
        } => {
            tracing::debug!(%event_id, %event_type, "stripe event ignored");
            Ok(received())
        }
    }
}
