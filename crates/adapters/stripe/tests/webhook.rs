//! Webhook deliveries as Stripe signs them, built from Stripe's fixture objects.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use aftersale::PaymentEvent;
use chrono::{TimeZone, Utc};
use disputes::DisputeFacts;
use garden_stripe::{
    signature_header, CheckoutPaymentStatus, DisputeStatus, StripeEvent, WebhookError,
    WebhookVerifier, HANDLED_EVENTS,
};
use orders::{PaymentProvider, ProviderEvent};
use secrecy::SecretString;

const SECRET: &str = "whsec_test_secret";
const NOW: i64 = 1_760_000_000;
const SESSION_FIXTURE: &str = include_str!("fixtures/checkout_session.json");
const EVENT_FIXTURE: &str = include_str!("fixtures/event.json");
const CHARGE_FIXTURE: &str = include_str!("fixtures/charge.json");
const DISPUTE_FIXTURE: &str = include_str!("fixtures/dispute.json");
const FRAUD_WARNING_FIXTURE: &str = include_str!("fixtures/early_fraud_warning.json");

/// A Stripe event of `event_type` around `object`.
fn event_around(event_type: &str, object: serde_json::Value) -> Vec<u8> {
    let mut event: serde_json::Value = serde_json::from_str(EVENT_FIXTURE).unwrap();
    event["id"] = "evt_456".into();
    event["type"] = event_type.into();
    event["data"]["object"] = object;
    serde_json::to_vec_pretty(&event).unwrap()
}

fn verifier() -> WebhookVerifier {
    WebhookVerifier::new(SecretString::from(SECRET))
}

fn now() -> chrono::DateTime<Utc> {
    Utc.timestamp_opt(NOW, 0).unwrap()
}

/// A Stripe event of `event_type` around Stripe's fixture checkout session.
fn session_event(event_type: &str, payment_status: &str, order_id: Option<&str>) -> Vec<u8> {
    let mut session: serde_json::Value = serde_json::from_str(SESSION_FIXTURE).unwrap();
    session["id"] = "cs_test_77".into();
    session["payment_status"] = payment_status.into();
    session["metadata"] = match order_id {
        Some(id) => serde_json::json!({ "order_id": id }),
        None => serde_json::json!({}),
    };
    session["client_reference_id"] = serde_json::Value::Null;
    let mut event: serde_json::Value = serde_json::from_str(EVENT_FIXTURE).unwrap();
    event["id"] = "evt_123".into();
    event["type"] = event_type.into();
    event["data"]["object"] = session;
    serde_json::to_vec_pretty(&event).unwrap()
}

#[test]
fn a_validly_signed_completed_session_is_read() {
    let body = session_event("checkout.session.completed", "paid", Some("42"));
    let header = signature_header(SECRET, NOW - 10, &body);

    let event = verifier().verify(&body, &header, now()).unwrap();

    assert_eq!(
        event,
        StripeEvent::CheckoutCompleted {
            event_id: "evt_123".into(),
            session_id: "cs_test_77".into(),
            order_id: Some("42".into()),
            payment_status: CheckoutPaymentStatus::Paid,
            payment_intent: Some("pi_1PgafyB7WZ01zgkWSjxsAJo3".into()),
        }
    );
}

#[test]
fn a_refunded_charge_names_its_payment_intent_and_whether_it_is_whole() {
    let mut charge: serde_json::Value = serde_json::from_str(CHARGE_FIXTURE).unwrap();
    charge["payment_intent"] = "pi_test_1".into();
    charge["refunded"] = true.into();
    let body = event_around("charge.refunded", charge.clone());
    let header = signature_header(SECRET, NOW, &body);
    assert_eq!(
        verifier().verify(&body, &header, now()).unwrap(),
        StripeEvent::ChargeRefunded {
            event_id: "evt_456".into(),
            charge_id: "ch_1PgafuB7WZ01zgkWXYmPNZs8".into(),
            payment_intent: Some("pi_test_1".into()),
            fully_refunded: true,
        }
    );
    charge["refunded"] = false.into();
    charge["payment_intent"] = serde_json::json!({ "id": "pi_test_1", "object": "payment_intent" });
    let body = event_around("charge.refunded", charge);
    let header = signature_header(SECRET, NOW, &body);
    assert!(matches!(
        verifier().verify(&body, &header, now()).unwrap(),
        StripeEvent::ChargeRefunded { fully_refunded: false, payment_intent: Some(pi), .. } if pi == "pi_test_1"
    ));
}

/// Stripe's fixture dispute as a `charge.dispute.*` event delivers it, paid with `pi_test_2`.
fn fixture_dispute() -> serde_json::Value {
    let mut dispute: serde_json::Value = serde_json::from_str(DISPUTE_FIXTURE).unwrap();
    dispute["payment_intent"] = "pi_test_2".into();
    dispute
}

/// The fixture dispute's facts with Stripe's `status`.
fn fixture_facts(status: &str) -> DisputeFacts {
    DisputeFacts {
        id: "dp_1Pgc71B7WZ01zgkWMevJiAUx".into(),
        amount_minor: 1000,
        currency: "usd".into(),
        reason: Some("general".into()),
        status: status.into(),
        // evidence_details.due_by = 1723679999
        due_by: Some(Utc.with_ymd_and_hms(2024, 8, 14, 23, 59, 59).unwrap()),
        submitted: false,
    }
}

fn verified(event_type: &str, object: serde_json::Value) -> StripeEvent {
    let body = event_around(event_type, object);
    let header = signature_header(SECRET, NOW, &body);
    verifier().verify(&body, &header, now()).unwrap()
}

#[test]
fn a_new_dispute_carries_its_facts_and_payment_intent() {
    assert_eq!(
        verified("charge.dispute.created", fixture_dispute()),
        StripeEvent::DisputeCreated {
            event_id: "evt_456".into(),
            payment_intent: Some("pi_test_2".into()),
            dispute: fixture_facts("warning_needs_response"),
        }
    );
}

#[test]
fn an_updated_dispute_says_whether_evidence_was_submitted() {
    let mut dispute = fixture_dispute();
    dispute["status"] = "under_review".into();
    dispute["evidence_details"]["submission_count"] = 1.into();
    dispute["evidence_details"]["has_evidence"] = true.into();
    dispute["payment_intent"] =
        serde_json::json!({ "id": "pi_test_2", "object": "payment_intent" });

    assert_eq!(
        verified("charge.dispute.updated", dispute),
        StripeEvent::DisputeUpdated {
            event_id: "evt_456".into(),
            payment_intent: Some("pi_test_2".into()),
            dispute: DisputeFacts {
                submitted: true,
                ..fixture_facts("under_review")
            },
        }
    );
}

#[test]
fn a_dispute_past_evidence_has_no_deadline() {
    let mut dispute = fixture_dispute();
    dispute["status"] = "won".into();
    dispute["evidence_details"]["due_by"] = serde_json::Value::Null;

    let StripeEvent::DisputeClosed { dispute, .. } = verified("charge.dispute.closed", dispute)
    else {
        panic!("not a closed dispute");
    };
    assert_eq!(dispute.due_by, None);
}

#[test]
fn a_closed_dispute_carries_its_outcome_and_facts() {
    for (status, expected) in [
        ("won", DisputeStatus::Won),
        ("warning_closed", DisputeStatus::Won),
        ("lost", DisputeStatus::Lost),
        ("under_review", DisputeStatus::Other("under_review".into())),
    ] {
        let mut dispute = fixture_dispute();
        dispute["status"] = status.into();
        assert_eq!(
            verified("charge.dispute.closed", dispute),
            StripeEvent::DisputeClosed {
                event_id: "evt_456".into(),
                payment_intent: Some("pi_test_2".into()),
                status: expected,
                dispute: fixture_facts(status),
            },
            "{status}"
        );
    }
}

#[test]
fn a_dispute_event_reaches_the_shop_with_the_disputes_facts() {
    let opened = verified("charge.dispute.created", fixture_dispute()).payment_event();
    assert_eq!(
        opened,
        PaymentEvent::DisputeOpened {
            event: ProviderEvent {
                provider: PaymentProvider::Stripe,
                id: "evt_456".into(),
            },
            payment_id: Some("pi_test_2".into()),
            reason: Some("general".into()),
            dispute: Some(fixture_facts("warning_needs_response")),
        }
    );
}

#[test]
fn a_dispute_without_its_amount_is_a_bad_payload() {
    let mut dispute = fixture_dispute();
    dispute.as_object_mut().unwrap().remove("amount");
    let body = event_around("charge.dispute.created", dispute);
    let header = signature_header(SECRET, NOW, &body);
    assert!(matches!(
        verifier().verify(&body, &header, now()),
        Err(WebhookError::BadPayload(_))
    ));
}

#[test]
fn an_early_fraud_warning_names_its_charge_and_kind() {
    let warning: serde_json::Value = serde_json::from_str(FRAUD_WARNING_FIXTURE).unwrap();
    assert_eq!(
        verified("radar.early_fraud_warning.created", warning),
        StripeEvent::FraudWarning {
            event_id: "evt_456".into(),
            warning_id: "issfr_1Pgc79B7WZ01zgkWxwDzEIPX".into(),
            charge_id: Some("ch_1234".into()),
            payment_intent: None,
            fraud_type: Some("misc".into()),
        }
    );
}

#[test]
fn an_early_fraud_warning_finds_its_payment_intent_on_the_warning_or_its_charge() {
    let mut warning: serde_json::Value = serde_json::from_str(FRAUD_WARNING_FIXTURE).unwrap();
    warning["payment_intent"] = "pi_test_3".into();
    warning["fraud_type"] = "unauthorized_use_of_card".into();
    let event = verified("radar.early_fraud_warning.created", warning.clone());
    assert!(
        matches!(&event, StripeEvent::FraudWarning { payment_intent: Some(pi), .. } if pi == "pi_test_3"),
        "{event:?}"
    );

    let mut charge: serde_json::Value = serde_json::from_str(CHARGE_FIXTURE).unwrap();
    charge["payment_intent"] = "pi_test_4".into();
    warning["charge"] = charge;
    warning.as_object_mut().unwrap().remove("payment_intent");
    assert_eq!(
        verified("radar.early_fraud_warning.created", warning).payment_event(),
        PaymentEvent::FraudWarning {
            event: ProviderEvent {
                provider: PaymentProvider::Stripe,
                id: "evt_456".into(),
            },
            payment_id: Some("pi_test_4".into()),
            warning_id: "issfr_1Pgc79B7WZ01zgkWxwDzEIPX".into(),
            charge_id: Some("ch_1PgafuB7WZ01zgkWXYmPNZs8".into()),
            fraud_type: Some("unauthorized_use_of_card".into()),
        }
    );
}

#[test]
fn every_handled_event_type_is_read_as_its_own_event() {
    let dispute = fixture_dispute;
    let warning = || serde_json::from_str::<serde_json::Value>(FRAUD_WARNING_FIXTURE).unwrap();
    let charge = || serde_json::from_str::<serde_json::Value>(CHARGE_FIXTURE).unwrap();
    let session = || serde_json::from_str::<serde_json::Value>(SESSION_FIXTURE).unwrap();
    for event_type in HANDLED_EVENTS {
        let object = match event_type {
            t if t.starts_with("checkout.session.") => session(),
            "charge.refunded" => charge(),
            t if t.starts_with("charge.dispute.") => dispute(),
            "radar.early_fraud_warning.created" => warning(),
            other => panic!("no fixture for {other}"),
        };
        assert!(
            !matches!(verified(event_type, object), StripeEvent::Other { .. }),
            "{event_type}"
        );
    }
}

#[test]
fn an_expired_session_is_read() {
    let body = session_event("checkout.session.expired", "unpaid", Some("9"));
    let header = signature_header(SECRET, NOW, &body);

    let event = verifier().verify(&body, &header, now()).unwrap();

    assert_eq!(
        event,
        StripeEvent::CheckoutExpired {
            event_id: "evt_123".into(),
            session_id: "cs_test_77".into(),
            order_id: Some("9".into()),
        }
    );
}

#[test]
fn an_unpaid_completion_says_so() {
    let body = session_event("checkout.session.completed", "unpaid", Some("42"));
    let header = signature_header(SECRET, NOW, &body);

    let event = verifier().verify(&body, &header, now()).unwrap();

    assert!(matches!(
        event,
        StripeEvent::CheckoutCompleted {
            payment_status: CheckoutPaymentStatus::Unpaid,
            ..
        }
    ));
}

#[test]
fn other_events_are_passed_on_by_type() {
    let body = EVENT_FIXTURE.as_bytes();
    let header = signature_header(SECRET, NOW, body);

    let event = verifier().verify(body, &header, now()).unwrap();

    assert_eq!(
        event,
        StripeEvent::Other {
            event_id: "evt_1Pgc76B7WZ01zgkWwyRHS12y".into(),
            event_type: "plan.created".into(),
        }
    );
}

#[test]
fn a_signature_made_with_another_secret_is_refused() {
    let body = session_event("checkout.session.completed", "paid", Some("42"));
    let header = signature_header("whsec_someone_else", NOW, &body);

    assert_eq!(
        verifier().verify(&body, &header, now()),
        Err(WebhookError::BadSignature)
    );
}

#[test]
fn a_body_changed_after_signing_is_refused() {
    let body = session_event("checkout.session.completed", "paid", Some("42"));
    let header = signature_header(SECRET, NOW, &body);
    let forged = session_event("checkout.session.completed", "paid", Some("43"));

    assert_eq!(
        verifier().verify(&forged, &header, now()),
        Err(WebhookError::BadSignature)
    );
}

#[test]
fn the_signature_covers_the_raw_bytes_not_the_json_meaning() {
    let body = session_event("checkout.session.completed", "paid", Some("42"));
    let header = signature_header(SECRET, NOW, &body);
    // Same JSON, different whitespace: Stripe signs bytes, so this must fail.
    let reformatted =
        serde_json::to_vec(&serde_json::from_slice::<serde_json::Value>(&body).unwrap()).unwrap();

    assert_eq!(
        verifier().verify(&reformatted, &header, now()),
        Err(WebhookError::BadSignature)
    );
}

#[test]
fn a_stale_timestamp_is_refused_even_with_a_valid_signature() {
    let body = session_event("checkout.session.completed", "paid", Some("42"));
    let stale = NOW - 301;
    let header = signature_header(SECRET, stale, &body);

    assert_eq!(
        verifier().verify(&body, &header, now()),
        Err(WebhookError::StaleTimestamp { timestamp: stale })
    );
}

#[test]
fn a_timestamp_at_the_edge_of_the_tolerance_is_accepted() {
    let body = session_event("checkout.session.completed", "paid", Some("42"));
    let header = signature_header(SECRET, NOW - 300, &body);

    assert!(verifier().verify(&body, &header, now()).is_ok());
}

#[test]
fn a_timestamp_far_in_the_future_is_refused() {
    let body = session_event("checkout.session.completed", "paid", Some("42"));
    let header = signature_header(SECRET, NOW + 301, &body);

    assert!(matches!(
        verifier().verify(&body, &header, now()),
        Err(WebhookError::StaleTimestamp { .. })
    ));
}

#[test]
fn any_one_of_several_v1_signatures_may_match() {
    let body = session_event("checkout.session.completed", "paid", Some("42"));
    let good = signature_header(SECRET, NOW, &body);
    let good_v1 = good.split_once(",v1=").unwrap().1;
    let old_secret = signature_header("whsec_old", NOW, &body);
    let old_v1 = old_secret.split_once(",v1=").unwrap().1;

    for header in [
        format!("t={NOW},v1={old_v1},v1={good_v1}"),
        format!("t={NOW},v1={good_v1},v1={old_v1}"),
        format!("t={NOW},v1=nothex,v1={good_v1},v0={old_v1}"),
    ] {
        assert!(verifier().verify(&body, &header, now()).is_ok(), "{header}");
    }
    let none_match = format!("t={NOW},v1={old_v1},v0={good_v1}");
    assert_eq!(
        verifier().verify(&body, &none_match, now()),
        Err(WebhookError::BadSignature)
    );
}

#[test]
fn a_missing_or_garbled_header_is_refused() {
    let body = session_event("checkout.session.completed", "paid", Some("42"));
    for header in ["", "v1=abc", &format!("t={NOW}"), "t=soon,v1=abc"] {
        assert_eq!(
            verifier().verify(&body, header, now()),
            Err(WebhookError::MalformedHeader),
            "{header:?}"
        );
    }
}

#[test]
fn a_signed_body_that_is_not_an_event_is_a_bad_payload() {
    let body = br#"{"hello": "world"}"#;
    let header = signature_header(SECRET, NOW, body);

    assert!(matches!(
        verifier().verify(body, &header, now()),
        Err(WebhookError::BadPayload(_))
    ));
}

#[test]
fn a_session_without_our_order_id_falls_back_to_the_client_reference_then_none() {
    let mut event: serde_json::Value =
        serde_json::from_slice(&session_event("checkout.session.expired", "unpaid", None)).unwrap();
    let body = serde_json::to_vec(&event).unwrap();
    let header = signature_header(SECRET, NOW, &body);
    assert!(matches!(
        verifier().verify(&body, &header, now()).unwrap(),
        StripeEvent::CheckoutExpired { order_id: None, .. }
    ));

    event["data"]["object"]["client_reference_id"] = "17".into();
    let body = serde_json::to_vec(&event).unwrap();
    let header = signature_header(SECRET, NOW, &body);
    assert!(matches!(
        verifier().verify(&body, &header, now()).unwrap(),
        StripeEvent::CheckoutExpired { order_id: Some(id), .. } if id == "17"
    ));
}
