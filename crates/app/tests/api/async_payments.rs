//! Payment methods that confirm later (issue 36), on SQLite and PostgreSQL with a fake Stripe:
//! a voucher's order awaits its payment with its stock held until the method's deadline, is
//! paid by `checkout.session.async_payment_succeeded` or released by `async_payment_failed` or
//! the deadline, once however often and in whatever order the events come; a drop's session is
//! instant-only; PayPal is offered only in its currencies; a BRL order's refund and dispute are
//! in reais.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use accounts::Role;
use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use crate::checkout_support::*;
use crate::helpers::{eventually, TestApp};

const INTENT_FIXTURE: &str =
    include_str!("../../../adapters/stripe/tests/fixtures/payment_intent.json");
const REFUND_FIXTURE: &str = include_str!("../../../adapters/stripe/tests/fixtures/refund.json");
const DISPUTE_FIXTURE: &str = include_str!("../../../adapters/stripe/tests/fixtures/dispute.json");

/// `GET /v1/payment_intents/{id}`: an intent awaiting its voucher, whose OXXO voucher expires
/// at the time `deadlines` names for it (no next action otherwise); its latest charge none yet.
#[derive(Clone, Default)]
struct Intents {
    deadlines: Arc<Mutex<HashMap<String, i64>>>,
}

impl Respond for Intents {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let id = request
            .url
            .path()
            .trim_start_matches("/v1/payment_intents/");
        let mut intent: Value = serde_json::from_str(INTENT_FIXTURE).unwrap();
        intent["id"] = json!(id);
        intent["status"] = json!("requires_action");
        intent["latest_charge"] = Value::Null;
        intent["next_action"] = match self.deadlines.lock().unwrap().get(id) {
            Some(expires) => json!({
                "type": "oxxo_display_details",
                "oxxo_display_details": {
                    "expires_after": expires,
                    "hosted_voucher_url": "https://payments.stripe.com/oxxo/voucher/x",
                    "number": "12345678901234657890123456789012",
                },
            }),
            None => Value::Null,
        };
        ResponseTemplate::new(200).set_body_json(intent)
    }
}

/// A checkout session as Stripe answers it after its buyer chose a voucher: complete, unpaid.
fn completed_unpaid_session(id: &str) -> Value {
    let mut session: Value = serde_json::from_str(SESSION_FIXTURE).unwrap();
    session["id"] = json!(id);
    session["status"] = json!("complete");
    session["payment_status"] = json!("unpaid");
    session
}

struct Shop {
    app: TestApp,
    buyer: reqwest::Client,
    stripe: MockServer,
    intents: Intents,
}

async fn stripe_shop(backend: Backend, configure: impl FnOnce(&mut garden_app::Settings)) -> Shop {
    let stripe = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/checkout/sessions"))
        .respond_with(Sessions(0.into()))
        .mount(&stripe)
        .await;
    let intents = Intents::default();
    Mock::given(method("GET"))
        .and(path_regex("^/v1/payment_intents/[A-Za-z0-9_]+$"))
        .respond_with(intents.clone())
        .mount(&stripe)
        .await;
    // a completed session cannot be expired: Stripe says so, and tells it as it is
    Mock::given(method("POST"))
        .and(path_regex("^/v1/checkout/sessions/[A-Za-z0-9_]+/expire$"))
        .respond_with(ResponseTemplate::new(400).set_body_json(json!({
            "error": { "type": "invalid_request_error", "message": "Only open sessions can be expired." }
        })))
        .mount(&stripe)
        .await;
    Mock::given(method("GET"))
        .and(path_regex("^/v1/checkout/sessions/[A-Za-z0-9_]+$"))
        .respond_with(|request: &Request| {
            let id = request
                .url
                .path()
                .trim_start_matches("/v1/checkout/sessions/");
            ResponseTemplate::new(200).set_body_json(completed_unpaid_session(id))
        })
        .mount(&stripe)
        .await;
    let uri = stripe.uri();
    let app = shop_with(
        backend,
        vec![
            (1, product("Owl", "10.00", Some(10))),
            (2, product("Bee", "5.00", Some(10))),
            (3, drop_product()),
        ],
        |s| {
            s.stripe.secret_key = "sk_test_fake".to_owned().into();
            s.stripe.webhook_secret = WEBHOOK_SECRET.to_owned().into();
            s.stripe.api_base = uri.clone();
            s.stripe.files_api_base = uri;
            s.checkout.max_pending_orders = 100;
            s.metrics.enabled = true;
            configure(s);
        },
    )
    .await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    Shop {
        app,
        buyer,
        stripe,
        intents,
    }
}

/// Places an order of one Owl ($10.00); its id, key and session.
async fn place(shop: &Shop) -> (i64, String, String) {
    let response = checkout(&shop.app, &shop.buyer, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    let id = body["order_id"].as_i64().unwrap();
    let key = body["order_key"].as_str().unwrap().to_owned();
    (id, key, reference(&shop.app, id).await)
}

/// A session event of `kind` for order `id`, paid with `intent`, its payment `payment_status`.
fn session_event(
    event_id: &str,
    kind: &str,
    session: &str,
    id: i64,
    intent: &str,
    payment_status: &str,
) -> Value {
    let mut event = stripe_event(event_id, kind, session, id);
    event["data"]["object"]["payment_intent"] = json!(intent);
    event["data"]["object"]["payment_status"] = json!(payment_status);
    event["data"]["object"]["status"] = json!("complete");
    event
}

async fn send(app: &TestApp, event: &Value) {
    let response = deliver(app, event, WEBHOOK_SECRET, now(app)).await;
    assert_eq!(response.status(), 200, "{}", event["type"]);
}

async fn order_page(shop: &Shop, id: i64, key: &str) -> Value {
    shop.buyer
        .get(shop.app.url(&format!("/api/orders/{id}?key={key}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// `shop_payments_total` of Stripe for `outcome`.
async fn payments(app: &TestApp, outcome: &str) -> String {
    let metrics = app.client.get(app.url("/metrics")).send().await.unwrap();
    let text = metrics.text().await.unwrap();
    let series = format!("shop_payments_total{{outcome=\"{outcome}\",provider=\"stripe\"}}");
    text.lines()
        .find(|line| line.starts_with(&series))
        .map(|line| line[series.len()..].trim().to_owned())
        .unwrap_or_default()
}

fn steps_named(steps: &[String], step: &str) -> usize {
    steps.iter().filter(|s| s.as_str() == step).count()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_voucher_order_awaits_its_payment_until_the_voucher_is_paid_once(
    #[case] backend: Backend,
) {
    let shop = stripe_shop(backend, |_| {}).await;
    let app = &shop.app;
    let (id, key, session) = place(&shop).await;
    let deadline = now(app) + 3 * 24 * 3600;
    shop.intents
        .deadlines
        .lock()
        .unwrap()
        .insert("pi_oxxo_1".into(), deadline);

    let completed = |event_id: &str| {
        let kind = "checkout.session.completed";
        session_event(event_id, kind, &session, id, "pi_oxxo_1", "unpaid")
    };
    // the same event twice, and the same kind again under a new id
    for event in [
        completed("evt_c1"),
        completed("evt_c1"),
        completed("evt_c2"),
    ] {
        send(app, &event).await;
    }
    assert_eq!(status(app, id).await, "pending", "not paid: no money yet");
    assert_eq!(stock(app, 1).await, Some(9), "its stock stays held");
    let page = order_page(&shop, id, &key).await;
    assert_eq!(page["status"], "pending");
    assert_eq!(page["awaiting_payment"], true);
    let pay_by = chrono::DateTime::parse_from_rfc3339(page["pay_by"].as_str().unwrap()).unwrap();
    assert_eq!(pay_by.timestamp(), deadline, "the voucher's own deadline");
    let steps = app.order_steps(id).await;
    assert_eq!(steps_named(&steps, "awaiting_payment"), 1, "{steps:?}");
    assert_eq!(steps_named(&steps, "paid"), 0, "no receipt, no delivery");
    assert_eq!(payments(app, "awaiting_payment").await, "1");

    // the deadline is far: the sweeper leaves it alone
    app.sweeper.run_once().await.unwrap();
    assert_eq!(status(app, id).await, "pending");

    let succeeded = |event_id: &str| {
        let kind = "checkout.session.async_payment_succeeded";
        session_event(event_id, kind, &session, id, "pi_oxxo_1", "paid")
    };
    for event in [
        succeeded("evt_s1"),
        succeeded("evt_s1"),
        succeeded("evt_s2"),
    ] {
        send(app, &event).await;
    }
    // a completed replayed after the payment changes nothing
    send(app, &completed("evt_c3")).await;
    assert_eq!(status(app, id).await, "paid");
    assert_eq!(stock(app, 1).await, Some(9), "nothing taken or given twice");
    let steps = app.order_steps(id).await;
    assert_eq!(steps_named(&steps, "paid"), 1, "{steps:?}");
    assert_eq!(steps_named(&steps, "awaiting_payment"), 1, "{steps:?}");
    let page = order_page(&shop, id, &key).await;
    assert_eq!(page["awaiting_payment"], false);
    assert_eq!(page["pay_by"], Value::Null);
    assert_eq!(payments(app, "paid").await, "1");
    // the receipt goes once the money is in
    let mails = app.wait_for_outbox(1).await;
    assert_eq!(mails.len(), 1);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_failed_delayed_payment_releases_the_stock_once_and_late_money_goes_to_staff(
    #[case] backend: Backend,
) {
    let shop = stripe_shop(backend, |_| {}).await;
    let app = &shop.app;
    let (id, key, session) = place(&shop).await;
    // Stripe names no deadline: the shop's own, 72 hours
    let placed_at = now(app);
    let kind = "checkout.session.completed";
    send(
        app,
        &session_event("evt_c1", kind, &session, id, "pi_boleto_1", "unpaid"),
    )
    .await;
    let page = order_page(&shop, id, &key).await;
    let pay_by = chrono::DateTime::parse_from_rfc3339(page["pay_by"].as_str().unwrap()).unwrap();
    assert!(
        (pay_by.timestamp() - (placed_at + 72 * 3600)).abs() <= 5,
        "{pay_by} is 72 hours on"
    );

    let failed = |event_id: &str| {
        let kind = "checkout.session.async_payment_failed";
        session_event(event_id, kind, &session, id, "pi_boleto_1", "unpaid")
    };
    for event in [failed("evt_f1"), failed("evt_f1"), failed("evt_f2")] {
        send(app, &event).await;
    }
    assert_eq!(status(app, id).await, "expired");
    assert_eq!(stock(app, 1).await, Some(10), "given back once");
    assert_eq!(payments(app, "expired").await, "1");

    // the money arrives anyway: the order stays released, staff are told to refund it, once
    let succeeded = |event_id: &str| {
        let kind = "checkout.session.async_payment_succeeded";
        session_event(event_id, kind, &session, id, "pi_boleto_1", "paid")
    };
    for event in [
        succeeded("evt_s1"),
        succeeded("evt_s1"),
        succeeded("evt_s2"),
    ] {
        send(app, &event).await;
    }
    assert_eq!(status(app, id).await, "expired");
    assert_eq!(stock(app, 1).await, Some(10));
    let steps = app.order_steps(id).await;
    assert_eq!(steps_named(&steps, "paid_after_expiry"), 1, "{steps:?}");
    assert_eq!(payments(app, "paid_after_expiry").await, "1");
    use orders::OrderRepository;
    let order = app.store.order(orders::OrderId::new(id)).await.unwrap();
    assert_eq!(
        order.payment.payment_id.as_deref(),
        Some("pi_boleto_1"),
        "staff can refund the payment"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_vouchers_deadline_passing_releases_the_order(#[case] backend: Backend) {
    let shop = stripe_shop(backend, |_| {}).await;
    let app = &shop.app;
    let (id, key, session) = place(&shop).await;
    let deadline = now(app) + 2 * 3600;
    shop.intents
        .deadlines
        .lock()
        .unwrap()
        .insert("pi_oxxo_2".into(), deadline);
    let kind = "checkout.session.completed";
    send(
        app,
        &session_event("evt_c1", kind, &session, id, "pi_oxxo_2", "unpaid"),
    )
    .await;
    // past the usual window, within the voucher's: still held
    app.clock.advance(std::time::Duration::from_secs(3600));
    app.sweeper.run_once().await.unwrap();
    assert_eq!(status(app, id).await, "pending");
    assert_eq!(order_page(&shop, id, &key).await["awaiting_payment"], true);

    app.clock.advance(std::time::Duration::from_secs(2 * 3600));
    app.sweeper.run_once().await.unwrap();
    app.sweeper.run_once().await.unwrap();
    assert_eq!(status(app, id).await, "expired", "released, not paid");
    assert_eq!(stock(app, 1).await, Some(10));
    let steps = app.order_steps(id).await;
    assert_eq!(steps_named(&steps, "expired"), 1, "{steps:?}");
    assert_eq!(steps_named(&steps, "paid"), 0, "{steps:?}");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_payment_that_arrives_before_its_completed_session_pays_once(#[case] backend: Backend) {
    let shop = stripe_shop(backend, |_| {}).await;
    let app = &shop.app;
    let (id, _, session) = place(&shop).await;
    let kind = "checkout.session.async_payment_succeeded";
    send(
        app,
        &session_event("evt_s1", kind, &session, id, "pi_3", "paid"),
    )
    .await;
    assert_eq!(status(app, id).await, "paid");
    let kind = "checkout.session.completed";
    send(
        app,
        &session_event("evt_c1", kind, &session, id, "pi_3", "unpaid"),
    )
    .await;
    let failed = "checkout.session.async_payment_failed";
    send(
        app,
        &session_event("evt_f1", failed, &session, id, "pi_3", "unpaid"),
    )
    .await;
    assert_eq!(
        status(app, id).await,
        "paid",
        "an earlier event changes nothing"
    );
    assert_eq!(stock(app, 1).await, Some(9));
    let steps = app.order_steps(id).await;
    assert_eq!(steps_named(&steps, "awaiting_payment"), 0, "{steps:?}");
    assert_eq!(steps_named(&steps, "paid"), 1, "{steps:?}");
}

/// A drop (released an hour ago) at product 3, beside the shop's other products.
fn drop_product() -> catalog::ProductDraft {
    let mut owl = product("Drop Owl", "10.00", Some(5));
    owl.release_at = Some(chrono::Utc::now() - chrono::Duration::hours(1));
    owl
}

/// The form of the `n`th session the fake Stripe was asked to open.
async fn session_form(stripe: &MockServer, n: usize) -> HashMap<String, String> {
    let requests = stripe.received_requests().await.unwrap();
    let opened: Vec<_> = requests
        .iter()
        .filter(|r| r.method.as_str() == "POST" && r.url.path() == "/v1/checkout/sessions")
        .collect();
    form(&opened[n].body)
}

fn names_methods(form: &HashMap<String, String>) -> bool {
    form.keys().any(|key| {
        key.starts_with("payment_method_types")
            || key.starts_with("allowed_payment_method_types")
            || key.starts_with("payment_method_configuration")
    })
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_drops_session_names_the_instant_only_configuration(#[case] backend: Backend) {
    for configuration in ["pmc_instant_1", ""] {
        let shop = stripe_shop(backend, |s| {
            s.stripe.instant_payment_method_configuration = configuration.to_owned();
        })
        .await;
        let app = &shop.app;
        // not a drop: no methods named, Stripe offers every one enabled
        assert_eq!(
            checkout(app, &shop.buyer, &payload(&[(2, 1)], 5.0))
                .await
                .status(),
            200
        );
        let plain = session_form(&shop.stripe, 0).await;
        assert!(!names_methods(&plain), "{plain:?}");
        // a drop: instant methods only
        let response = checkout(app, &shop.buyer, &payload(&[(3, 1)], 10.0)).await;
        assert_eq!(response.status(), 200);
        let dropped = session_form(&shop.stripe, 1).await;
        if configuration.is_empty() {
            assert_eq!(dropped["allowed_payment_method_types[0]"], "card");
            assert!(!dropped.contains_key("payment_method_configuration"));
        } else {
            assert_eq!(dropped["payment_method_configuration"], configuration);
            assert!(!dropped
                .keys()
                .any(|key| key.contains("payment_method_types")));
        }
    }
}

/// The ECB's daily file for today: one euro buys 1.0567 USD and 5.6443 BRL, 158.91 JPY.
fn daily() -> String {
    let day = chrono::Utc::now().date_naive();
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gesmes:Envelope \
         xmlns:gesmes=\"http://www.gesmes.org/xml/2002-08-01\" \
         xmlns=\"http://www.ecb.int/vocabulary/2002-08-01/eurofxref\">\
         <gesmes:subject>Reference rates</gesmes:subject><Cube><Cube time='{day}'>\
         <Cube currency='USD' rate='1.0567'/><Cube currency='JPY' rate='158.91'/>\
         <Cube currency='BRL' rate='5.6443'/></Cube></Cube></gesmes:Envelope>"
    )
}

async fn fake_ecb() -> MockServer {
    let ecb = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/eurofxref-daily.xml"))
        .respond_with(ResponseTemplate::new(200).set_body_string(daily()))
        .mount(&ecb)
        .await;
    ecb
}

async fn site_currencies(app: &TestApp) -> Vec<Value> {
    app.get_json("/api/site").await["currencies"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn paypal_is_offered_and_taken_only_in_its_currencies(#[case] backend: Backend) {
    let ecb = fake_ecb().await;
    let paypal = MockServer::start().await;
    let (rates_url, paypal_uri) = (format!("{}/eurofxref-daily.xml", ecb.uri()), paypal.uri());
    let app = shop_with(
        backend,
        vec![(1, product("Owl", "10.00", Some(10)))],
        move |s| {
            s.currency.rates_url = rates_url;
            s.currency.offered = ["USD", "BRL", "JPY"].map(String::from).to_vec();
            s.currency.check_every_seconds = 1;
            s.paypal.enabled = true;
            s.paypal.client_id = "client-1".into();
            s.paypal.client_secret = "secret-1".to_owned().into();
            s.paypal.api_base = paypal_uri;
            // JPY left out: PayPal cannot take it here
            s.paypal.currencies = ["USD", "BRL"].map(String::from).to_vec();
        },
    )
    .await;
    eventually("JPY is offered", || async {
        site_currencies(&app)
            .await
            .into_iter()
            .any(|c| c["code"] == "JPY")
            .then_some(())
    })
    .await;
    let methods: HashMap<String, Value> = site_currencies(&app)
        .await
        .into_iter()
        .map(|c| (c["code"].as_str().unwrap().to_owned(), c["methods"].clone()))
        .collect();
    assert_eq!(methods["USD"], json!(["card", "paypal"]));
    assert_eq!(methods["BRL"], json!(["card", "paypal"]));
    assert_eq!(methods["JPY"], json!(["card"]));

    let client = browser();
    link_discord(&app, &client, 0).await;
    let mut body = payload(&[(1, 1)], 1694.0);
    body["currency"] = json!("JPY");
    let response = client
        .post(app.url("/api/checkout/paypal"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 422);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["code"], "currency_unavailable");
    assert!(answer["errors"]["currency"].is_array(), "{answer}");
    assert_eq!(app.count_rows("orders").await, 0, "nothing placed");
    assert!(
        paypal.received_requests().await.unwrap().is_empty(),
        "PayPal never asked"
    );
    assert_eq!(stock(&app, 1).await, Some(10));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn without_paypal_every_currency_is_card_only(#[case] backend: Backend) {
    let app = shop(backend, vec![(1, product("Owl", "10.00", Some(10)))]).await;
    let listed = site_currencies(&app).await;
    assert!(!listed.is_empty());
    for currency in listed {
        assert_eq!(currency["methods"], json!(["card"]), "{currency}");
    }
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_brl_orders_refund_and_dispute_are_in_reais(#[case] backend: Backend) {
    let ecb = fake_ecb().await;
    let rates_url = format!("{}/eurofxref-daily.xml", ecb.uri());
    let shop = stripe_shop(backend, move |s| {
        s.currency.rates_url = rates_url;
        s.currency.offered = ["USD", "BRL"].map(String::from).to_vec();
        s.currency.check_every_seconds = 1;
    })
    .await;
    Mock::given(method("POST"))
        .and(path("/v1/refunds"))
        .respond_with(|request: &Request| {
            let sent = form(&request.body);
            let mut refund: Value = serde_json::from_str(REFUND_FIXTURE).unwrap();
            refund["payment_intent"] = json!(sent["payment_intent"]);
            refund["currency"] = json!("brl");
            refund["amount"] = json!(5754);
            refund["status"] = json!("succeeded");
            ResponseTemplate::new(200).set_body_json(refund)
        })
        .mount(&shop.stripe)
        .await;
    let app = &shop.app;
    eventually("BRL is offered", || async {
        site_currencies(app)
            .await
            .into_iter()
            .any(|c| c["code"] == "BRL")
            .then_some(())
    })
    .await;
    // 10.00 at 5.34144 → R$ 53.41; the fee (53.41 + 1.60) / 0.956 = 57.54
    let mut body = payload(&[(1, 1)], 10.0);
    body["currency"] = json!("BRL");
    let response = checkout(app, &shop.buyer, &body).await;
    assert_eq!(response.status(), 409);
    let fresh: Value = response.json().await.unwrap();
    let total = fresh["cart"]["paid"]["total"].as_f64().unwrap();
    body["total"] = json!(total);
    let response = checkout(app, &shop.buyer, &body).await;
    assert_eq!(response.status(), 200);
    let placed: Value = response.json().await.unwrap();
    let id = placed["order_id"].as_i64().unwrap();
    let session = reference(app, id).await;
    let kind = "checkout.session.completed";
    send(
        app,
        &session_event("evt_p1", kind, &session, id, "pi_brl_1", "paid"),
    )
    .await;
    assert_eq!(status(app, id).await, "paid");

    let staff = app.client_with_role(Role::Admin).await;
    let response = staff
        .post(app.url(&format!("/api/admin/orders/{id}/refund")))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{:?}", response.text().await);
    let refunds: Vec<_> = shop
        .stripe
        .received_requests()
        .await
        .unwrap()
        .into_iter()
        .filter(|r| r.url.path() == "/v1/refunds")
        .collect();
    assert_eq!(refunds.len(), 1);
    let sent = form(&refunds[0].body);
    assert_eq!(
        sent["payment_intent"], "pi_brl_1",
        "the BRL payment, in full"
    );
    assert!(
        !sent.contains_key("amount"),
        "no USD figure sent: Stripe refunds the reais paid"
    );
    assert_eq!(status(app, id).await, "refunded");
    let order = order_page(&shop, id, placed["order_key"].as_str().unwrap()).await;
    assert_eq!(order["currency"], "BRL");
    assert_eq!(total, 53.41);
    assert_eq!(order["amount_paid"], 57.54);

    // a dispute of it, as Stripe reports it: in reais
    let mut dispute: Value = serde_json::from_str(DISPUTE_FIXTURE).unwrap();
    dispute["id"] = json!("du_brl_1");
    dispute["payment_intent"] = json!("pi_brl_1");
    dispute["currency"] = json!("brl");
    dispute["amount"] = json!(5754);
    dispute["status"] = json!("needs_response");
    let event = json!({
        "id": "evt_d1", "object": "event", "type": "charge.dispute.created",
        "created": 1_700_000_000, "data": { "object": dispute },
    });
    send(app, &event).await;
    let boss = app.client_with_role(Role::SuperAdmin).await;
    let listed: Vec<Value> = boss
        .get(app.url("/api/admin/disputes"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let kept = listed
        .iter()
        .find(|d| d["dispute_id"] == "du_brl_1")
        .cloned()
        .unwrap();
    assert_eq!(kept["currency"], "BRL");
    assert_eq!(kept["amount"], 57.54);
    assert_eq!(kept["order_id"], id);

    // a zero-decimal currency's amount is whole units, not hundredths
    let mut yen: Value = serde_json::from_str(DISPUTE_FIXTURE).unwrap();
    yen["id"] = json!("du_jpy_1");
    yen["payment_intent"] = json!("pi_elsewhere");
    yen["currency"] = json!("jpy");
    yen["amount"] = json!(1694);
    let event = json!({
        "id": "evt_d2", "object": "event", "type": "charge.dispute.created",
        "created": 1_700_000_000, "data": { "object": yen },
    });
    send(app, &event).await;
    let listed: Vec<Value> = boss
        .get(app.url("/api/admin/disputes"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let kept = listed
        .iter()
        .find(|d| d["dispute_id"] == "du_jpy_1")
        .unwrap();
    assert_eq!(kept["amount"], 1694.0, "{kept}");
}
