//! A verified Stripe event in the orders domain's words ([`aftersale::PaymentEvent`]): which
//! order, which page, which payment. What the shop does with it is the domain's to decide.

use aftersale::PaymentEvent;
use disputes::DisputeFacts;
use orders::{DisputeOutcome, OrderId, PaymentProvider, ProviderEvent};

use crate::{CheckoutPaymentStatus, DisputeStatus, StripeEvent};

fn stripe_event(id: String) -> ProviderEvent {
    ProviderEvent {
        provider: PaymentProvider::Stripe,
        id,
    }
}

/// The order a checkout session names (`metadata.order_id`, or `client_reference_id`); `None`
/// when it names none, or nothing an order id could be.
fn order_id(named: Option<&str>) -> Option<OrderId> {
    let id = named?.trim().parse::<i64>().ok().filter(|id| *id > 0)?;
    Some(OrderId::new(id))
}

/// A dispute opened on `payment_id`, with the bank's reason as Stripe reports it.
fn dispute_opened(
    event: ProviderEvent,
    payment_id: Option<String>,
    dispute: DisputeFacts,
) -> PaymentEvent {
    PaymentEvent::DisputeOpened {
        event,
        payment_id,
        reason: dispute.reason.clone(),
        dispute: Some(dispute),
    }
}

impl StripeEvent {
    /// This event as the orders domain reads it.
    pub fn payment_event(self) -> PaymentEvent {
        let event = stripe_event(self.event_id().to_owned());
        match self {
            StripeEvent::CheckoutCompleted {
                session_id,
                order_id: named,
                payment_status,
                payment_intent,
                ..
            } => PaymentEvent::PageCompleted {
                event,
                order: order_id(named.as_deref()),
                reference: session_id,
                paid: payment_status.is_paid(),
                payment_id: payment_intent,
            },
            // the money of a method that confirms later arrived: paid like a paid page
            StripeEvent::AsyncPaymentSucceeded {
                session_id,
                order_id: named,
                payment_intent,
                ..
            } => PaymentEvent::PageCompleted {
                event,
                order: order_id(named.as_deref()),
                reference: session_id,
                paid: true,
                payment_id: payment_intent,
            },
            // it failed, or its voucher expired unpaid: the order is released like an
            // expired page's
            StripeEvent::AsyncPaymentFailed {
                session_id,
                order_id: named,
                ..
            }
            | StripeEvent::CheckoutExpired {
                session_id,
                order_id: named,
                ..
            } => PaymentEvent::PageExpired {
                event,
                order: order_id(named.as_deref()),
                reference: session_id,
            },
            after_sale => after_sale.after_sale_event(event),
        }
    }

    /// A refund, a dispute, a fraud warning or an event the shop does not act on, as the
    /// orders domain reads it (the checkout session's events are [`payment_event`]'s own).
    ///
    /// [`payment_event`]: Self::payment_event
    fn after_sale_event(self, event: ProviderEvent) -> PaymentEvent {
        match self {
            StripeEvent::ChargeRefunded {
                payment_intent,
                fully_refunded,
                ..
            } => PaymentEvent::Refunded {
                event,
                payment_id: payment_intent,
                whole: fully_refunded,
            },
            StripeEvent::DisputeCreated {
                payment_intent,
                dispute,
                ..
            } => dispute_opened(event, payment_intent, dispute),
            StripeEvent::DisputeUpdated {
                payment_intent,
                dispute,
                ..
            } => PaymentEvent::DisputeUpdated {
                event,
                payment_id: payment_intent,
                dispute,
            },
            StripeEvent::DisputeClosed {
                payment_intent,
                status,
                dispute,
                ..
            } => PaymentEvent::DisputeClosed {
                event,
                payment_id: payment_intent,
                outcome: status.outcome(),
                dispute: Some(dispute),
            },
            StripeEvent::FraudWarning {
                warning_id,
                charge_id,
                payment_intent,
                fraud_type,
                ..
            } => PaymentEvent::FraudWarning {
                event,
                payment_id: payment_intent,
                warning_id,
                charge_id,
                fraud_type,
            },
            StripeEvent::Other {
                event_type: kind, ..
            } => PaymentEvent::Other { event, kind },
            // the checkout session's events are read by `payment_event` itself
            session @ (StripeEvent::CheckoutCompleted { .. }
            | StripeEvent::AsyncPaymentSucceeded { .. }
            | StripeEvent::AsyncPaymentFailed { .. }
            | StripeEvent::CheckoutExpired { .. }) => session.payment_event(),
        }
    }
}

impl CheckoutPaymentStatus {
    /// Whether the money arrived (or none was asked for).
    fn is_paid(&self) -> bool {
        matches!(
            self,
            CheckoutPaymentStatus::Paid | CheckoutPaymentStatus::NoPaymentRequired
        )
    }
}

impl DisputeStatus {
    /// How a closed dispute ended, in the domain's words; `Err` keeps Stripe's word for an
    /// outcome the shop does not know.
    fn outcome(self) -> Result<DisputeOutcome, String> {
        match self {
            DisputeStatus::Won => Ok(DisputeOutcome::Won),
            DisputeStatus::Lost => Ok(DisputeOutcome::Lost),
            DisputeStatus::Other(status) => Err(status),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{TimeZone, Utc};

    fn completed(order_id: Option<&str>, payment_status: &str) -> PaymentEvent {
        StripeEvent::CheckoutCompleted {
            event_id: "evt_1".into(),
            session_id: "cs_1".into(),
            order_id: order_id.map(str::to_owned),
            payment_status: payment_status.into(),
            payment_intent: Some("pi_1".into()),
        }
        .payment_event()
    }

    #[test]
    fn a_completed_session_names_its_order_page_and_payment() {
        assert_eq!(
            completed(Some(" 42 "), "paid"),
            PaymentEvent::PageCompleted {
                event: stripe_event("evt_1".into()),
                order: Some(OrderId::new(42)),
                reference: "cs_1".into(),
                paid: true,
                payment_id: Some("pi_1".into()),
            }
        );
    }

    #[test]
    fn only_paid_and_free_sessions_are_paid() {
        for (status, paid) in [
            ("paid", true),
            ("no_payment_required", true),
            ("unpaid", false),
            ("something_new", false),
        ] {
            let PaymentEvent::PageCompleted { paid: read, .. } = completed(Some("1"), status)
            else {
                panic!("not a completed page");
            };
            assert_eq!(read, paid, "{status}");
        }
    }

    #[test]
    fn a_delayed_payments_success_pays_its_page_and_its_failure_expires_it() {
        let succeeded = StripeEvent::AsyncPaymentSucceeded {
            event_id: "evt_s".into(),
            session_id: "cs_1".into(),
            order_id: Some("42".into()),
            payment_intent: Some("pi_1".into()),
        }
        .payment_event();
        assert_eq!(
            succeeded,
            PaymentEvent::PageCompleted {
                event: stripe_event("evt_s".into()),
                order: Some(OrderId::new(42)),
                reference: "cs_1".into(),
                paid: true,
                payment_id: Some("pi_1".into()),
            }
        );
        let failed = StripeEvent::AsyncPaymentFailed {
            event_id: "evt_f".into(),
            session_id: "cs_1".into(),
            order_id: Some("42".into()),
        }
        .payment_event();
        assert_eq!(
            failed,
            PaymentEvent::PageExpired {
                event: stripe_event("evt_f".into()),
                order: Some(OrderId::new(42)),
                reference: "cs_1".into(),
            }
        );
    }

    #[test]
    fn a_session_that_names_no_order_id_names_no_order() {
        for named in [None, Some(""), Some("abc"), Some("0"), Some("-3")] {
            let PaymentEvent::PageCompleted { order, .. } = completed(named, "paid") else {
                panic!("not a completed page");
            };
            assert_eq!(order, None, "{named:?}");
        }
    }

    fn facts(status: &str) -> DisputeFacts {
        DisputeFacts {
            id: "dp_1".into(),
            amount_minor: 1999,
            currency: "usd".into(),
            reason: Some("fraudulent".into()),
            status: status.into(),
            due_by: Utc.timestamp_opt(1_723_679_999, 0).single(),
            submitted: false,
        }
    }

    #[test]
    fn a_closed_dispute_keeps_an_outcome_the_shop_does_not_know_as_stripes_word() {
        let closed = |status: &str| {
            StripeEvent::DisputeClosed {
                event_id: "evt_2".into(),
                payment_intent: Some("pi_1".into()),
                status: status.into(),
                dispute: facts(status),
            }
            .payment_event()
        };
        let outcome = |event| match event {
            PaymentEvent::DisputeClosed { outcome, .. } => outcome,
            other => panic!("not a closed dispute: {other:?}"),
        };
        assert_eq!(outcome(closed("won")), Ok(DisputeOutcome::Won));
        assert_eq!(outcome(closed("warning_closed")), Ok(DisputeOutcome::Won));
        assert_eq!(outcome(closed("lost")), Ok(DisputeOutcome::Lost));
        assert_eq!(outcome(closed("under_review")), Err("under_review".into()));
    }

    #[test]
    fn refunds_disputes_and_other_events_carry_their_stripe_event() {
        let refunded = StripeEvent::ChargeRefunded {
            event_id: "evt_3".into(),
            charge_id: "ch_1".into(),
            payment_intent: Some("pi_1".into()),
            fully_refunded: false,
        }
        .payment_event();
        assert_eq!(
            refunded,
            PaymentEvent::Refunded {
                event: stripe_event("evt_3".into()),
                payment_id: Some("pi_1".into()),
                whole: false,
            }
        );
        let opened = StripeEvent::DisputeCreated {
            event_id: "evt_4".into(),
            payment_intent: None,
            dispute: facts("needs_response"),
        }
        .payment_event();
        assert_eq!(
            opened,
            PaymentEvent::DisputeOpened {
                event: stripe_event("evt_4".into()),
                payment_id: None,
                reason: Some("fraudulent".into()),
                dispute: Some(facts("needs_response")),
            }
        );
        let other = StripeEvent::Other {
            event_id: "evt_5".into(),
            event_type: "customer.created".into(),
        }
        .payment_event();
        assert_eq!(
            other,
            PaymentEvent::Other {
                event: stripe_event("evt_5".into()),
                kind: "customer.created".into(),
            }
        );
    }

    #[test]
    fn every_dispute_event_carries_the_disputes_facts() {
        let updated = StripeEvent::DisputeUpdated {
            event_id: "evt_6".into(),
            payment_intent: Some("pi_1".into()),
            dispute: facts("under_review"),
        }
        .payment_event();
        assert_eq!(
            updated,
            PaymentEvent::DisputeUpdated {
                event: stripe_event("evt_6".into()),
                payment_id: Some("pi_1".into()),
                dispute: facts("under_review"),
            }
        );
        let closed = StripeEvent::DisputeClosed {
            event_id: "evt_7".into(),
            payment_intent: Some("pi_1".into()),
            status: "lost".into(),
            dispute: facts("lost"),
        }
        .payment_event();
        assert_eq!(
            closed,
            PaymentEvent::DisputeClosed {
                event: stripe_event("evt_7".into()),
                payment_id: Some("pi_1".into()),
                outcome: Ok(DisputeOutcome::Lost),
                dispute: Some(facts("lost")),
            }
        );
    }

    #[test]
    fn an_early_fraud_warning_names_its_warning_charge_payment_and_kind() {
        let warning = StripeEvent::FraudWarning {
            event_id: "evt_8".into(),
            warning_id: "issfr_1".into(),
            charge_id: Some("ch_1".into()),
            payment_intent: Some("pi_1".into()),
            fraud_type: Some("unauthorized_use_of_card".into()),
        }
        .payment_event();
        assert_eq!(
            warning,
            PaymentEvent::FraudWarning {
                event: stripe_event("evt_8".into()),
                payment_id: Some("pi_1".into()),
                warning_id: "issfr_1".into(),
                charge_id: Some("ch_1".into()),
                fraud_type: Some("unauthorized_use_of_card".into()),
            }
        );
    }
}
