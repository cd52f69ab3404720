//! The PayPal adapter against a local fake PayPal (wiremock).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cart_pricing::Quantity;
use chrono::Utc;
use garden_paypal::{PayPalCheckout, PayPalSettings};
use orders::gateways::{
    CaptureOutcome, CapturedAmount, CheckoutLine, HostedCheckoutRequest, PaymentCapture,
    PaymentError, PaymentGateway, RefundRequest,
};
use secrecy::SecretString;
use serde_json::json;
use wiremock::matchers::{body_string, header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn settings(api_base: &str) -> PayPalSettings {
    PayPalSettings {
        client_id: "client-1".into(),
        client_secret: SecretString::from("secret-1"),
        api_base: api_base.to_owned(),
        enabled: true,
        currencies: vec!["USD".into(), "BRL".into()],
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
        processing_fee: 269,
        customer_email: "buyer@example.com".into(),
        success_url: "http://shop.test/success?order_id=42".into(),
        cancel_url: "http://shop.test/cancel?order_id=42".into(),
        expires_at: Utc::now(),
        instant_only: false,
    }
}

/// "client-1:secret-1" in base64, as HTTP basic auth sends it.
const BASIC: &str = "Basic Y2xpZW50LTE6c2VjcmV0LTE=";

async fn mount_token(server: &MockServer, expires_in: u64, times: u64) {
    Mock::given(method("POST"))
        .and(path("/v1/oauth2/token"))
        .and(header("authorization", BASIC))
        .and(body_string("grant_type=client_credentials"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "scope": "https://uri.paypal.com/services/payments/payment",
            "access_token": "A21AAtoken",
            "token_type": "Bearer",
            "app_id": "APP-80W284485P519543T",
            "expires_in": expires_in,
            "nonce": "2024-01-01T00:00:00Z"
        })))
        .expect(times)
        .mount(server)
        .await;
}

fn created_order(id: &str, rel: &str) -> serde_json::Value {
    json!({
        "id": id,
        "status": "PAYER_ACTION_REQUIRED",
        "payment_source": { "paypal": {} },
        "links": [
            { "href": format!("https://api-m.sandbox.paypal.com/v2/checkout/orders/{id}"), "rel": "self", "method": "GET" },
            { "href": format!("https://www.sandbox.paypal.com/checkoutnow?token={id}"), "rel": rel, "method": "GET" }
        ]
    })
}

async fn mount_create(server: &MockServer, response: ResponseTemplate) {
    Mock::given(method("POST"))
        .and(path("/v2/checkout/orders"))
        .and(header("authorization", "Bearer A21AAtoken"))
        .respond_with(response)
        .mount(server)
        .await;
}

fn completed_capture(id: &str, capture_status: &str) -> serde_json::Value {
    json!({
        "id": id,
        "status": "COMPLETED",
        "purchase_units": [{
            "reference_id": "42",
            "payments": { "captures": [{
                "id": "3C679366HH908993F",
                "status": capture_status,
                "amount": { "currency_code": "USD", "value": "43.17" },
                "custom_id": "42"
            }]}
        }],
        "links": []
    })
}

#[tokio::test]
async fn an_order_is_created_with_our_id_the_items_and_the_fee_as_handling() {
    let server = MockServer::start().await;
    mount_token(&server, 32400, 1).await;
    mount_create(
        &server,
        ResponseTemplate::new(200)
            .set_body_json(created_order("5O190127TN364715T", "payer-action")),
    )
    .await;
    let paypal = PayPalCheckout::new(&settings(&server.uri())).unwrap();

    let checkout = paypal.create_checkout(request()).await.unwrap();

    assert_eq!(checkout.provider_reference, "5O190127TN364715T");
    assert_eq!(
        checkout.redirect_url,
        "https://www.sandbox.paypal.com/checkoutnow?token=5O190127TN364715T"
    );
    let requests = server.received_requests().await.unwrap();
    let create = requests
        .iter()
        .find(|r| r.url.path() == "/v2/checkout/orders")
        .unwrap();
    assert_eq!(
        create.headers.get("paypal-request-id").unwrap(),
        "garden-order-42"
    );
    let body: serde_json::Value = serde_json::from_slice(&create.body).unwrap();
    assert_eq!(
        body,
        json!({
            "intent": "CAPTURE",
            "purchase_units": [{
                "reference_id": "42",
                "custom_id": "42",
                "amount": {
                    "currency_code": "USD",
                    "value": "43.17",
                    "breakdown": {
                        "item_total": { "currency_code": "USD", "value": "40.48" },
                        "handling": { "currency_code": "USD", "value": "2.69" }
                    }
                },
                "items": [
                    { "name": "Golden Watering Can", "unit_amount": { "currency_code": "USD", "value": "19.99" }, "quantity": "2", "category": "DIGITAL_GOODS" },
                    { "name": "Seed Pack", "unit_amount": { "currency_code": "USD", "value": "0.50" }, "quantity": "1", "category": "DIGITAL_GOODS" }
                ]
            }],
            "payment_source": { "paypal": {
                "email_address": "buyer@example.com",
                "experience_context": {
                    "return_url": "http://shop.test/success?order_id=42",
                    "cancel_url": "http://shop.test/cancel?order_id=42",
                    "user_action": "PAY_NOW",
                    "shipping_preference": "NO_SHIPPING"
                }
            }}
        })
    );
}

#[tokio::test]
async fn the_older_approve_link_is_understood_too() {
    let server = MockServer::start().await;
    mount_token(&server, 32400, 1).await;
    mount_create(
        &server,
        ResponseTemplate::new(201).set_body_json(created_order("ORDER2", "approve")),
    )
    .await;
    let paypal = PayPalCheckout::new(&settings(&server.uri())).unwrap();

    let checkout = paypal.create_checkout(request()).await.unwrap();

    assert_eq!(
        checkout.redirect_url,
        "https://www.sandbox.paypal.com/checkoutnow?token=ORDER2"
    );
}

#[tokio::test]
async fn the_token_is_fetched_once_and_reused_until_it_expires() {
    let server = MockServer::start().await;
    mount_token(&server, 32400, 1).await;
    mount_create(
        &server,
        ResponseTemplate::new(200).set_body_json(created_order("ORDER1", "payer-action")),
    )
    .await;
    let paypal = PayPalCheckout::new(&settings(&server.uri())).unwrap();

    paypal.create_checkout(request()).await.unwrap();
    paypal.create_checkout(request()).await.unwrap();
    // `expect(1)` on the token endpoint is checked when the server drops.
}

#[tokio::test]
async fn an_expired_token_is_renewed() {
    let server = MockServer::start().await;
    // 30 s is inside the renewal margin: every call needs a new token.
    mount_token(&server, 30, 2).await;
    mount_create(
        &server,
        ResponseTemplate::new(200).set_body_json(created_order("ORDER1", "payer-action")),
    )
    .await;
    let paypal = PayPalCheckout::new(&settings(&server.uri())).unwrap();

    paypal.create_checkout(request()).await.unwrap();
    paypal.create_checkout(request()).await.unwrap();
}

#[tokio::test]
async fn wrong_credentials_are_a_rejection() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/oauth2/token"))
        .respond_with(ResponseTemplate::new(401).set_body_json(json!({
            "error": "invalid_client",
            "error_description": "Client Authentication failed"
        })))
        .mount(&server)
        .await;
    let paypal = PayPalCheckout::new(&settings(&server.uri())).unwrap();

    let err = paypal.create_checkout(request()).await.unwrap_err();

    match err {
        PaymentError::Rejected { status, message } => {
            assert_eq!(status, 401);
            assert_eq!(message, "Client Authentication failed");
        }
        other => panic!("expected a rejection, got {other:?}"),
    }
}

#[tokio::test]
async fn a_refused_order_is_a_rejection_with_paypals_reason() {
    let server = MockServer::start().await;
    mount_token(&server, 32400, 1).await;
    mount_create(
        &server,
        ResponseTemplate::new(422).set_body_json(json!({
            "name": "UNPROCESSABLE_ENTITY",
            "message": "The requested action could not be performed.",
            "details": [{ "issue": "AMOUNT_MISMATCH", "description": "Should equal item_total + handling." }]
        })),
    )
    .await;
    let paypal = PayPalCheckout::new(&settings(&server.uri())).unwrap();

    let err = paypal.create_checkout(request()).await.unwrap_err();

    match err {
        PaymentError::Rejected { status, message } => {
            assert_eq!(status, 422);
            assert!(message.contains("AMOUNT_MISMATCH"), "{message}");
        }
        other => panic!("expected a rejection, got {other:?}"),
    }
}

#[tokio::test]
async fn a_paypal_outage_is_unavailable() {
    let server = MockServer::start().await;
    mount_token(&server, 32400, 1).await;
    mount_create(&server, ResponseTemplate::new(503)).await;
    let paypal = PayPalCheckout::new(&settings(&server.uri())).unwrap();

    let err = paypal.create_checkout(request()).await.unwrap_err();

    assert!(matches!(err, PaymentError::Unavailable(_)), "{err:?}");
}

#[tokio::test]
async fn a_token_revoked_early_is_replaced_once() {
    let server = MockServer::start().await;
    mount_token(&server, 32400, 2).await;
    Mock::given(method("POST"))
        .and(path("/v2/checkout/orders"))
        .respond_with(ResponseTemplate::new(401).set_body_json(json!({
            "name": "AUTHENTICATION_FAILURE", "message": "Authentication failed due to invalid authentication credentials or a missing Authorization header."
        })))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    mount_create(
        &server,
        ResponseTemplate::new(200).set_body_json(created_order("ORDER3", "payer-action")),
    )
    .await;
    let paypal = PayPalCheckout::new(&settings(&server.uri())).unwrap();

    let checkout = paypal.create_checkout(request()).await.unwrap();

    assert_eq!(checkout.provider_reference, "ORDER3");
}

async fn capture_server(response: ResponseTemplate) -> MockServer {
    let server = MockServer::start().await;
    mount_token(&server, 32400, 1).await;
    Mock::given(method("POST"))
        .and(path("/v2/checkout/orders/5O190127TN364715T/capture"))
        .and(header("authorization", "Bearer A21AAtoken"))
        .and(header(
            "paypal-request-id",
            "garden-capture-5O190127TN364715T",
        ))
        .respond_with(response)
        .expect(1)
        .mount(&server)
        .await;
    server
}

#[tokio::test]
async fn a_completed_capture_is_completed() {
    let server = capture_server(
        ResponseTemplate::new(201)
            .set_body_json(completed_capture("5O190127TN364715T", "COMPLETED")),
    )
    .await;
    let paypal = PayPalCheckout::new(&settings(&server.uri())).unwrap();

    let outcome = paypal.capture("5O190127TN364715T".into()).await.unwrap();

    assert_eq!(
        outcome,
        CaptureOutcome::Completed {
            amount: Some(CapturedAmount {
                value: "43.17".into(),
                currency: "USD".into()
            })
        }
    );
}

#[tokio::test]
async fn a_pending_capture_is_pending() {
    let server = capture_server(
        ResponseTemplate::new(201).set_body_json(completed_capture("5O190127TN364715T", "PENDING")),
    )
    .await;
    let paypal = PayPalCheckout::new(&settings(&server.uri())).unwrap();

    let outcome = paypal.capture("5O190127TN364715T".into()).await.unwrap();

    assert_eq!(
        outcome,
        CaptureOutcome::Pending {
            reason: "PENDING".into()
        }
    );
}

#[tokio::test]
async fn a_second_capture_reports_already_captured() {
    let server = capture_server(ResponseTemplate::new(422).set_body_json(json!({
        "name": "UNPROCESSABLE_ENTITY",
        "message": "The requested action could not be performed, semantically incorrect, or failed business validation.",
        "details": [{ "issue": "ORDER_ALREADY_CAPTURED", "description": "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed." }]
    })))
    .await;
    let paypal = PayPalCheckout::new(&settings(&server.uri())).unwrap();

    let outcome = paypal.capture("5O190127TN364715T".into()).await.unwrap();

    assert_eq!(outcome, CaptureOutcome::AlreadyCaptured);
}

#[tokio::test]
async fn an_unapproved_order_is_not_completed() {
    let server = capture_server(ResponseTemplate::new(422).set_body_json(json!({
        "name": "UNPROCESSABLE_ENTITY",
        "details": [{ "issue": "ORDER_NOT_APPROVED", "description": "Payer has not yet approved the Order for payment." }]
    })))
    .await;
    let paypal = PayPalCheckout::new(&settings(&server.uri())).unwrap();

    let outcome = paypal.capture("5O190127TN364715T".into()).await.unwrap();

    assert_eq!(
        outcome,
        CaptureOutcome::NotCompleted {
            status: "ORDER_NOT_APPROVED".into()
        }
    );
}

#[tokio::test]
async fn capturing_an_unknown_order_is_a_rejection() {
    let server = capture_server(ResponseTemplate::new(404).set_body_json(json!({
        "name": "RESOURCE_NOT_FOUND",
        "message": "The specified resource does not exist.",
        "details": [{ "issue": "INVALID_RESOURCE_ID", "description": "Specified resource ID does not exist." }]
    })))
    .await;
    let paypal = PayPalCheckout::new(&settings(&server.uri())).unwrap();

    let err = paypal
        .capture("5O190127TN364715T".into())
        .await
        .unwrap_err();

    assert!(
        matches!(err, PaymentError::Rejected { status: 404, .. }),
        "{err:?}"
    );
}

#[tokio::test]
async fn a_reference_with_slashes_stays_one_path_segment() {
    let server = MockServer::start().await;
    mount_token(&server, 32400, 1).await;
    Mock::given(method("POST"))
        .and(path("/v2/checkout/orders/a%2F..%2Fb/capture"))
        .respond_with(
            ResponseTemplate::new(404).set_body_json(json!({ "name": "RESOURCE_NOT_FOUND" })),
        )
        .expect(1)
        .mount(&server)
        .await;
    let paypal = PayPalCheckout::new(&settings(&server.uri())).unwrap();

    let err = paypal.capture("a/../b".into()).await.unwrap_err();

    assert!(
        matches!(err, PaymentError::Rejected { status: 404, .. }),
        "{err:?}"
    );
}

#[tokio::test]
async fn a_capture_during_an_outage_is_unavailable() {
    let server = capture_server(ResponseTemplate::new(500)).await;
    let paypal = PayPalCheckout::new(&settings(&server.uri())).unwrap();

    let err = paypal
        .capture("5O190127TN364715T".into())
        .await
        .unwrap_err();

    assert!(matches!(err, PaymentError::Unavailable(_)), "{err:?}");
}

#[test]
fn paypal_is_offered_only_when_enabled_and_configured() {
    let mut s = settings("http://127.0.0.1:1");
    assert!(s.is_usable());
    s.enabled = false;
    assert!(!s.is_usable());
    s.enabled = true;
    s.client_secret = SecretString::from("");
    assert!(!s.is_usable());
}

fn refund_request() -> RefundRequest {
    RefundRequest {
        order_id: "42".into(),
        provider_reference: Some("5O190127TN364715T".into()),
        payment_id: None,
        idempotency_key: "refund-order-42".into(),
    }
}

#[tokio::test]
async fn a_refund_finds_the_capture_and_refunds_it_whole_with_the_orders_request_id() {
    let server = MockServer::start().await;
    mount_token(&server, 32400, 1).await;
    Mock::given(method("GET"))
        .and(path("/v2/checkout/orders/5O190127TN364715T"))
        .and(header("authorization", "Bearer A21AAtoken"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(completed_capture("5O190127TN364715T", "COMPLETED")),
        )
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v2/payments/captures/3C679366HH908993F/refund"))
        .and(header("paypal-request-id", "refund-order-42"))
        .and(body_string("{}"))
        .respond_with(ResponseTemplate::new(201).set_body_json(json!({
            "id": "1JU08902781691411", "status": "COMPLETED", "links": []
        })))
        .expect(1)
        .mount(&server)
        .await;
    let paypal = PayPalCheckout::new(&settings(&server.uri())).unwrap();

    let receipt = paypal.refund(refund_request()).await.unwrap();

    assert_eq!(receipt.refund_id, "1JU08902781691411");
    assert_eq!(receipt.payment_id.as_deref(), Some("3C679366HH908993F"));
}

#[tokio::test]
async fn a_refund_paypal_refuses_is_a_rejection() {
    let server = MockServer::start().await;
    mount_token(&server, 32400, 1).await;
    Mock::given(method("POST"))
        .and(path("/v2/payments/captures/CAP1/refund"))
        .respond_with(ResponseTemplate::new(422).set_body_json(json!({
            "name": "UNPROCESSABLE_ENTITY",
            "details": [{ "issue": "CAPTURE_FULLY_REFUNDED", "description": "already refunded" }]
        })))
        .mount(&server)
        .await;
    let paypal = PayPalCheckout::new(&settings(&server.uri())).unwrap();
    let mut request = refund_request();
    request.payment_id = Some("CAP1".into());

    let error = paypal.refund(request).await.unwrap_err();

    assert!(
        matches!(error, PaymentError::Rejected { status: 422, ref message } if message.contains("CAPTURE_FULLY_REFUNDED")),
        "{error:?}"
    );
}
