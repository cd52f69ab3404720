//! The Stripe adapter against a local fake Stripe (wiremock) answering with Stripe's own
//! fixture objects.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;

use cart_pricing::Quantity;
use chrono::{Duration, TimeZone, Utc};
use garden_stripe::{StripeCheckout, StripeSettings};
use orders::gateways::{
    CheckoutLine, HostedCheckoutRequest, PaymentError, PaymentGateway, RefundRequest,
    SessionClosing,
};
use secrecy::SecretString;
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const SESSION_FIXTURE: &str = include_str!("fixtures/checkout_session.json");
const REFUND_FIXTURE: &str = include_str!("fixtures/refund.json");

fn settings(api_base: &str) -> StripeSettings {
    StripeSettings {
        secret_key: SecretString::from("sk_test_123"),
        webhook_secret: SecretString::from("whsec_test"),
        api_base: api_base.to_owned(),
        files_api_base: api_base.to_owned(),
        instant_payment_method_configuration: String::new(),
    }
}

fn request() -> HostedCheckoutRequest {
    HostedCheckoutRequest {
        order_id: "42".into(),
        currency: "USD".parse().unwrap(),
        minor_units: 2,
        lines: vec![
            CheckoutLine {
                name: "Golden Watering Can".into(),
                unit_amount: 1999,
                quantity: Quantity::new(2).unwrap(),
            },
            CheckoutLine {
                name: "Seed Pack".into(),
                unit_amount: 50,
                quantity: Quantity::new(1).unwrap(),
            },
        ],
        processing_fee: 197,
        customer_email: "buyer@example.com".into(),
        success_url: "http://shop.test/success?order_id=42".into(),
        cancel_url: "http://shop.test/cancel?order_id=42".into(),
        expires_at: Utc.with_ymd_and_hms(2030, 1, 2, 3, 4, 5).unwrap() + Duration::minutes(30),
        instant_only: false,
    }
}

/// Stripe's fixture session with our id and URL, as the fake answers it.
fn session_json(id: &str, url: Option<&str>) -> serde_json::Value {
    let mut session: serde_json::Value = serde_json::from_str(SESSION_FIXTURE).unwrap();
    session["id"] = id.into();
    session["url"] = url.map(Into::into).unwrap_or(serde_json::Value::Null);
    session
}

fn form(body: &[u8]) -> HashMap<String, String> {
    form_urlencoded::parse(body).into_owned().collect()
}

async fn fake_stripe(response: ResponseTemplate) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/checkout/sessions"))
        .and(header("authorization", "Bearer sk_test_123"))
        .respond_with(response)
        .expect(1)
        .mount(&server)
        .await;
    server
}

#[tokio::test]
async fn a_checkout_session_carries_cents_the_fee_line_expiry_and_our_order_id() {
    let server = fake_stripe(ResponseTemplate::new(200).set_body_json(session_json(
        "cs_test_abc",
        Some("https://checkout.stripe.com/c/pay/cs_test_abc"),
    )))
    .await;
    let stripe = StripeCheckout::new(&settings(&server.uri())).unwrap();

    let checkout = stripe.create_checkout(request()).await.unwrap();

    assert_eq!(checkout.provider_reference, "cs_test_abc");
    assert_eq!(
        checkout.redirect_url,
        "https://checkout.stripe.com/c/pay/cs_test_abc"
    );
    let received = server.received_requests().await.unwrap();
    let body = form(&received[0].body);
    let expected: HashMap<String, String> = [
        ("mode", "payment"),
        ("client_reference_id", "42"),
        ("metadata[order_id]", "42"),
        ("customer_email", "buyer@example.com"),
        ("success_url", "http://shop.test/success?order_id=42"),
        ("cancel_url", "http://shop.test/cancel?order_id=42"),
        ("expires_at", "1893555245"), // 2030-01-02T03:34:05Z
        ("line_items[0][price_data][currency]", "usd"),
        ("line_items[0][price_data][unit_amount]", "1999"),
        (
            "line_items[0][price_data][product_data][name]",
            "Golden Watering Can",
        ),
        ("line_items[0][quantity]", "2"),
        ("line_items[1][price_data][currency]", "usd"),
        ("line_items[1][price_data][unit_amount]", "50"),
        ("line_items[1][price_data][product_data][name]", "Seed Pack"),
        ("line_items[1][quantity]", "1"),
        ("line_items[2][price_data][currency]", "usd"),
        ("line_items[2][price_data][unit_amount]", "197"),
        (
            "line_items[2][price_data][product_data][name]",
            "Processing fee",
        ),
        ("line_items[2][quantity]", "1"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect();
    assert_eq!(body, expected);
}

#[tokio::test]
async fn a_session_in_the_shoppers_currency_charges_its_amounts_and_names_no_methods() {
    let server = fake_stripe(ResponseTemplate::new(200).set_body_json(session_json(
        "cs_test_brl",
        Some("https://checkout.stripe.com/c/pay/cs_test_brl"),
    )))
    .await;
    let stripe = StripeCheckout::new(&settings(&server.uri())).unwrap();
    let mut brl = request();
    brl.currency = "BRL".parse().unwrap();
    brl.lines[0].unit_amount = 10690;

    stripe.create_checkout(brl).await.unwrap();

    let received = server.received_requests().await.unwrap();
    let body = form(&received[0].body);
    for line in 0..3 {
        assert_eq!(
            body[&format!("line_items[{line}][price_data][currency]")],
            "brl"
        );
    }
    assert_eq!(body["line_items[0][price_data][unit_amount]"], "10690");
    assert!(
        !body
            .keys()
            .any(|key| key.starts_with("payment_method_types")),
        "Stripe offers every method enabled for the currency: {body:?}"
    );
}

#[tokio::test]
async fn a_base_url_with_a_path_keeps_it() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/stripe/v1/checkout/sessions"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(session_json("cs_1", Some("https://pay.test/cs_1"))),
        )
        .expect(1)
        .mount(&server)
        .await;
    let stripe = StripeCheckout::new(&settings(&format!("{}/stripe", server.uri()))).unwrap();

    let checkout = stripe.create_checkout(request()).await.unwrap();

    assert_eq!(checkout.redirect_url, "https://pay.test/cs_1");
}

#[tokio::test]
async fn a_refused_request_is_a_rejection_with_stripes_message() {
    let server = fake_stripe(ResponseTemplate::new(400).set_body_json(serde_json::json!({
        "error": {
            "type": "invalid_request_error",
            "message": "Invalid email address: nope",
            "param": "customer_email"
        }
    })))
    .await;
    let stripe = StripeCheckout::new(&settings(&server.uri())).unwrap();

    let err = stripe.create_checkout(request()).await.unwrap_err();

    match err {
        PaymentError::Rejected { status, message } => {
            assert_eq!(status, 400);
            assert_eq!(
                message,
                "Invalid email address: nope (param: customer_email)"
            );
        }
        other => panic!("expected a rejection, got {other:?}"),
    }
}

#[tokio::test]
async fn a_bad_key_is_a_rejection() {
    let server = fake_stripe(ResponseTemplate::new(401).set_body_json(serde_json::json!({
        "error": { "type": "invalid_request_error", "message": "Invalid API Key provided" }
    })))
    .await;
    let stripe = StripeCheckout::new(&settings(&server.uri())).unwrap();

    let err = stripe.create_checkout(request()).await.unwrap_err();

    assert!(
        matches!(err, PaymentError::Rejected { status: 401, .. }),
        "{err:?}"
    );
}

#[tokio::test]
async fn a_failure_on_stripes_side_is_unavailable() {
    let server = fake_stripe(ResponseTemplate::new(500).set_body_json(serde_json::json!({
        "error": { "type": "api_error", "message": "Something went wrong" }
    })))
    .await;
    let stripe = StripeCheckout::new(&settings(&server.uri())).unwrap();

    let err = stripe.create_checkout(request()).await.unwrap_err();

    assert!(matches!(err, PaymentError::Unavailable(_)), "{err:?}");
}

#[tokio::test]
async fn an_unreachable_stripe_is_unavailable() {
    // A port nothing listens on: bind one, then free it.
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let stripe = StripeCheckout::new(&settings(&format!("http://{addr}"))).unwrap();

    let err = stripe.create_checkout(request()).await.unwrap_err();

    assert!(matches!(err, PaymentError::Unavailable(_)), "{err:?}");
}

#[tokio::test]
async fn a_session_without_a_url_is_an_error_not_a_redirect_to_nowhere() {
    let server =
        fake_stripe(ResponseTemplate::new(200).set_body_json(session_json("cs_2", None))).await;
    let stripe = StripeCheckout::new(&settings(&server.uri())).unwrap();

    let err = stripe.create_checkout(request()).await.unwrap_err();

    assert!(matches!(err, PaymentError::Unknown(_)), "{err:?}");
}

#[test]
fn an_empty_secret_key_is_refused_up_front() {
    let mut settings = settings("http://127.0.0.1:1");
    settings.secret_key = SecretString::from("  ");
    assert!(StripeCheckout::new(&settings).is_err());
}

fn with_status(id: &str, status: &str) -> serde_json::Value {
    let mut session = session_json(id, None);
    session["status"] = status.into();
    if status == "complete" {
        session["payment_status"] = "paid".into();
    }
    session
}

#[tokio::test]
async fn closing_an_open_session_expires_it_at_stripe() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/checkout/sessions/cs_open/expire"))
        .and(header("authorization", "Bearer sk_test_123"))
        .respond_with(ResponseTemplate::new(200).set_body_json(with_status("cs_open", "expired")))
        .expect(1)
        .mount(&server)
        .await;
    let stripe = StripeCheckout::new(&settings(&server.uri())).unwrap();

    let closing = stripe.close_checkout("cs_open".into()).await.unwrap();

    assert_eq!(closing, SessionClosing::Closed);
}

#[tokio::test]
async fn a_session_stripe_will_not_expire_is_read_to_see_whether_it_was_paid() {
    for (status, expected) in [
        ("complete", SessionClosing::Completed),
        ("expired", SessionClosing::Closed),
        // finished with a voucher that is not paid yet: neither closed nor paid
        ("complete_unpaid", SessionClosing::AwaitingPayment),
    ] {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/v1/checkout/sessions/cs_done/expire"))
            .respond_with(ResponseTemplate::new(400).set_body_json(serde_json::json!({
                "error": {
                    "type": "invalid_request_error",
                    "message": "Only Checkout Sessions with a status in [\"open\"] can be expired."
                }
            })))
            .expect(1)
            .mount(&server)
            .await;
        Mock::given(method("GET"))
            .and(path("/v1/checkout/sessions/cs_done"))
            .respond_with(ResponseTemplate::new(200).set_body_json(match status {
                "complete_unpaid" => {
                    let mut session = with_status("cs_done", "complete");
                    session["payment_status"] = "unpaid".into();
                    session
                }
                _ => with_status("cs_done", status),
            }))
            .expect(1)
            .mount(&server)
            .await;
        let stripe = StripeCheckout::new(&settings(&server.uri())).unwrap();

        assert_eq!(
            stripe.close_checkout("cs_done".into()).await.unwrap(),
            expected,
            "{status}"
        );
    }
}

#[tokio::test]
async fn a_stripe_that_cannot_close_a_session_is_unavailable() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/checkout/sessions/cs_x/expire"))
        .respond_with(ResponseTemplate::new(503).set_body_json(serde_json::json!({
            "error": {"type": "api_error", "message": "down"}
        })))
        .mount(&server)
        .await;
    let stripe = StripeCheckout::new(&settings(&server.uri())).unwrap();

    let error = stripe.close_checkout("cs_x".into()).await.unwrap_err();

    assert!(matches!(error, PaymentError::Unavailable(_)), "{error:?}");
}

fn refund_request(payment_id: Option<&str>) -> RefundRequest {
    RefundRequest {
        order_id: "42".into(),
        provider_reference: Some("cs_test_abc".into()),
        payment_id: payment_id.map(Into::into),
        idempotency_key: "refund-order-42".into(),
    }
}

fn refund_json(status: &str) -> serde_json::Value {
    let mut refund: serde_json::Value = serde_json::from_str(REFUND_FIXTURE).unwrap();
    refund["status"] = status.into();
    refund
}

#[tokio::test]
async fn a_refund_refunds_the_payment_intent_with_the_orders_idempotency_key() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/refunds"))
        .and(header("idempotency-key", "refund-order-42"))
        .respond_with(ResponseTemplate::new(200).set_body_json(refund_json("succeeded")))
        .expect(1)
        .mount(&server)
        .await;
    let stripe = StripeCheckout::new(&settings(&server.uri())).unwrap();

    let receipt = stripe
        .refund(refund_request(Some("pi_test_9")))
        .await
        .unwrap();

    assert_eq!(receipt.refund_id, "re_1Pgc72B7WZ01zgkWqPvrRrPE");
    assert_eq!(receipt.payment_id.as_deref(), Some("pi_test_9"));
    let requests = server.received_requests().await.unwrap();
    let sent = form(&requests[0].body);
    assert_eq!(sent["payment_intent"], "pi_test_9");
    assert_eq!(sent["metadata[order_id]"], "42");
    assert!(!sent.contains_key("amount"), "the whole payment: {sent:?}");
}

#[tokio::test]
async fn without_a_recorded_payment_the_session_names_it() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/checkout/sessions/cs_test_abc"))
        .respond_with(ResponseTemplate::new(200).set_body_json(session_json("cs_test_abc", None)))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/refunds"))
        .respond_with(ResponseTemplate::new(200).set_body_json(refund_json("pending")))
        .expect(1)
        .mount(&server)
        .await;
    let stripe = StripeCheckout::new(&settings(&server.uri())).unwrap();

    let receipt = stripe.refund(refund_request(None)).await.unwrap();

    // the fixture session's payment intent
    assert_eq!(
        receipt.payment_id.as_deref(),
        Some("pi_1PgafyB7WZ01zgkWSjxsAJo3")
    );
}

#[tokio::test]
async fn a_refund_stripe_refuses_or_fails_is_an_error() {
    for (response, unavailable) in [
        (
            ResponseTemplate::new(500).set_body_json(serde_json::json!({
                "error": { "type": "api_error", "message": "boom" }
            })),
            true,
        ),
        (
            ResponseTemplate::new(400).set_body_json(serde_json::json!({
                "error": { "type": "invalid_request_error", "code": "charge_already_refunded",
                           "message": "Charge ch_1 has already been refunded." }
            })),
            false,
        ),
        (
            ResponseTemplate::new(200).set_body_json(refund_json("failed")),
            false,
        ),
    ] {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/v1/refunds"))
            .respond_with(response)
            .mount(&server)
            .await;
        let stripe = StripeCheckout::new(&settings(&server.uri())).unwrap();
        let error = stripe
            .refund(refund_request(Some("pi_test_9")))
            .await
            .unwrap_err();
        match error {
            PaymentError::Unavailable(_) => assert!(unavailable, "{error:?}"),
            PaymentError::Rejected { .. } => assert!(!unavailable, "{error:?}"),
            other => panic!("{other:?}"),
        }
    }
}
