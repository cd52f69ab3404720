//! `POST /api/stripe/webhook`: Stripe's signed events. The signature is checked on the raw
//! body before anything is read; the event id is recorded with the change it makes, so a
//! repeated delivery answers 200 and changes nothing.
//!
//! Handled: `checkout.session.completed` (the order is paid; its payment intent is recorded),
//! `checkout.session.expired`, `charge.refunded`, `charge.dispute.created` and
//! `charge.dispute.closed` (the last three find the order by that payment intent).

use actix_web::{web, HttpRequest, HttpResponse};
use orders::{
    CheckoutService, ConfirmError, DisputeOutcome, Noticed, OrderId, PaymentNotice,
    PaymentProvider, ProviderEvent, ProviderRefund, Release, ReleaseError,
};
use serde_json::json;
use stripe_adapter::{CheckoutPaymentStatus, DisputeStatus, StripeEvent};

use super::checkout::confirm;
use crate::checkout::CheckoutKit;
use crate::services::AfterSaleService;

fn answer(status: actix_web::http::StatusCode, message: &str) -> HttpResponse {
    HttpResponse::build(status).json(json!({ "message": message, "errors": {} }))
}

fn received() -> HttpResponse {
    HttpResponse::Ok().json(json!({ "received": true }))
}

fn stripe_event(event_id: &str) -> ProviderEvent {
    ProviderEvent {
        provider: PaymentProvider::Stripe,
        id: event_id.to_owned(),
    }
}

/// The answer to a refund or dispute event: 200 unless the store failed (Stripe retries).
fn noticed(result: Result<Noticed, orders::OrderError>, event_id: &str) -> HttpResponse {
    match result {
        Ok(Noticed::Changed(order)) => {
            tracing::info!(order = %order.id, %event_id, status = %order.status(), "stripe event applied");
            received()
        }
        Ok(Noticed::Unchanged) => received(),
        Ok(Noticed::UnknownPayment) => {
            tracing::warn!(%event_id, "stripe event for a payment of no order of ours");
            received()
        }
        Err(orders::OrderError::NotFound(_)) => received(),
        Err(orders::OrderError::Unknown(error)) => {
            tracing::error!(error = ?error, %event_id, "could not apply a stripe event");
            answer(
                actix_web::http::StatusCode::INTERNAL_SERVER_ERROR,
                "Try again later.",
            )
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

pub async fn webhook(
    kit: web::Data<CheckoutKit>,
    aftersale: web::Data<AfterSaleService>,
    req: HttpRequest,
    body: web::Bytes,
) -> HttpResponse {
    use actix_web::http::StatusCode;
    let Some(verifier) = kit.webhook.as_ref() else {
        return answer(
            StatusCode::BAD_REQUEST,
            "Stripe webhooks are not configured.",
        );
    };
    let Some(signature) = req
        .headers()
        .get("Stripe-Signature")
        .and_then(|value| value.to_str().ok())
    else {
        return answer(StatusCode::BAD_REQUEST, "Missing Stripe-Signature header.");
    };
    let event = match verifier.verify(&body, signature, kit.clock_now()) {
        Ok(event) => event,
        Err(error) => {
            tracing::warn!(%error, "stripe webhook refused");
            return answer(
                StatusCode::BAD_REQUEST,
                &format!("Webhook refused: {error}."),
            );
        }
    };
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
                return received();
            }
            let Some(notice) = notice(&event_id, session_id, order_id.as_deref()) else {
                tracing::info!(%event_id, "checkout session of no order of ours");
                return received();
            };
            let order = notice.order_id;
            match confirm(&kit, notice).await {
                Ok(_) => match payment_intent {
                    Some(intent) => match aftersale.payment_confirmed(order, intent).await {
                        Ok(()) => received(),
                        Err(error) => {
                            tracing::error!(error = ?error, %event_id, "could not record a stripe payment intent");
                            answer(StatusCode::INTERNAL_SERVER_ERROR, "Try again later.")
                        }
                    },
                    None => received(),
                },
                Err(ConfirmError::NotFound(_)) => received(),
                // Paid after it expired: recorded for staff (see `confirm`); retrying will
                // not change that, so Stripe is told we have it.
                Err(ConfirmError::Refused(_)) => received(),
                Err(ConfirmError::ReferenceMismatch(order)) => {
                    tracing::warn!(%order, %event_id, "stripe session does not match the order");
                    answer(
                        StatusCode::BAD_REQUEST,
                        "The session does not belong to this order.",
                    )
                }
                Err(ConfirmError::Unknown(error)) => {
                    tracing::error!(error = ?error, %event_id, "could not apply a stripe payment");
                    answer(StatusCode::INTERNAL_SERVER_ERROR, "Try again later.")
                }
            }
        }
        StripeEvent::CheckoutExpired {
            event_id,
            session_id,
            order_id,
        } => {
            let Some(notice) = notice(&event_id, session_id, order_id.as_deref()) else {
                return received();
            };
            match kit.service.expire(notice).await {
                Ok(Release::Released(_)) => {
                    kit.stock.on_stock_changed().await;
                    received()
                }
                Ok(Release::AlreadyClosed(_) | Release::Replayed)
                | Err(
                    ReleaseError::NotFound(_)
                    | ReleaseError::Refused(_)
                    | ReleaseError::UnderReview(_),
                ) => received(),
                Err(ReleaseError::ReferenceMismatch(order)) => {
                    tracing::warn!(%order, %event_id, "stripe session does not match the order");
                    answer(
                        StatusCode::BAD_REQUEST,
                        "The session does not belong to this order.",
                    )
                }
                Err(ReleaseError::Unknown(error)) => {
                    tracing::error!(error = ?error, %event_id, "could not expire an order");
                    answer(StatusCode::INTERNAL_SERVER_ERROR, "Try again later.")
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
                return received();
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
                return received();
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
                    return received();
                }
            };
            let Some(payment_id) = payment_intent else {
                return received();
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
            received()
        }
    }
}
