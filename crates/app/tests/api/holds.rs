//! Risk holds, on SQLite and PostgreSQL with a fake Stripe: the card issuer's early fraud
//! warning takes a paid order out of the delivery queue (once, however often Stripe repeats
//! it) until a super_admin releases it or staff refund it, or refunds it at once when the shop
//! says so; a payment whose charge Stripe rates risky is paid on a hold and never claimable
//! before it is released; a risk Stripe cannot tell in time holds nothing.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use accounts::Role;
use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use crate::aftersale::Refunds;
use crate::checkout_support::*;
use crate::helpers::TestApp;

const CHARGE_FIXTURE: &str = include_str!("../../../adapters/stripe/tests/fixtures/charge.json");
const INTENT_FIXTURE: &str =
    include_str!("../../../adapters/stripe/tests/fixtures/payment_intent.json");
const WARNING_FIXTURE: &str =
    include_str!("../../../adapters/stripe/tests/fixtures/early_fraud_warning.json");

/// How the fake Stripe answers for one payment's risk.
#[derive(Clone, Copy)]
enum Risk {
    Level(&'static str),
    /// 503, as Stripe answers when it has a problem.
    Down,
    /// Answers after 5 seconds, long past the shop's deadline.
    Slow,
}

/// `GET /v1/payment_intents/{id}`: the intent with its latest charge, expanded when asked,
/// rated as `risks` says for it (`normal` otherwise).
#[derive(Clone, Default)]
struct Intents {
    risks: Arc<Mutex<HashMap<String, Risk>>>,
}

impl Respond for Intents {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let id = request
            .url
            .path()
            .trim_start_matches("/v1/payment_intents/");
        let risk = self
            .risks
            .lock()
            .unwrap()
            .get(id)
            .copied()
            .unwrap_or(Risk::Level("normal"));
        let level = match risk {
            Risk::Level(level) => level,
            Risk::Down => {
                return ResponseTemplate::new(503).set_body_json(json!({
                    "error": { "type": "api_error", "message": "Stripe had a problem" }
                }))
            }
            Risk::Slow => "normal",
        };
        let mut charge: Value = serde_json::from_str(CHARGE_FIXTURE).unwrap();
        charge["id"] = json!(format!("ch_{id}"));
        charge["payment_intent"] = json!(id);
        charge["outcome"]["type"] = json!("authorized");
        charge["outcome"]["risk_level"] = json!(level);
        let expanded = request
            .url
            .query_pairs()
            .any(|(key, value)| key.starts_with("expand[") && value == "latest_charge");
        let mut intent: Value = serde_json::from_str(INTENT_FIXTURE).unwrap();
        intent["id"] = json!(id);
        intent["latest_charge"] = if expanded {
            charge
        } else {
            charge["id"].clone()
        };
        let answer = ResponseTemplate::new(200).set_body_json(intent);
        match risk {
            Risk::Slow => answer.set_delay(Duration::from_secs(5)),
            _ => answer,
        }
    }
}

struct Shop {
    app: TestApp,
    buyer: reqwest::Client,
    intents: Intents,
    /// The refunds Stripe was asked for.
    refunds: Arc<AtomicUsize>,
    discord: MockServer,
}

async fn shop(backend: Backend, refund_on_fraud_warning: bool) -> Shop {
    let stripe = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/checkout/sessions"))
        .respond_with(Sessions(0.into()))
        .mount(&stripe)
        .await;
    let refunds = Arc::new(AtomicUsize::new(0));
    Mock::given(method("POST"))
        .and(path("/v1/refunds"))
        .respond_with(Refunds {
            failures: 0,
            calls: Arc::clone(&refunds),
        })
        .mount(&stripe)
        .await;
    let intents = Intents::default();
    Mock::given(method("GET"))
        .and(path_regex("^/v1/payment_intents/[A-Za-z0-9_]+$"))
        .respond_with(intents.clone())
        .mount(&stripe)
        .await;
    let discord = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/webhooks/1/token"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&discord)
        .await;
    let uri = stripe.uri();
    let hook = format!("{}/api/webhooks/1/token", discord.uri());
    let app = shop_with(backend, vec![(1, product("Owl", "10.00", Some(10)))], |s| {
        s.stripe.secret_key = "sk_test_fake".to_owned().into();
        s.stripe.webhook_secret = WEBHOOK_SECRET.to_owned().into();
        s.stripe.api_base = uri.clone();
        s.stripe.files_api_base = uri;
        s.discord.notify_webhook_url = hook.into();
        s.checkout.max_pending_orders = 100;
        s.metrics.enabled = true;
        s.payments.refund_on_fraud_warning = refund_on_fraud_warning;
        s.payments.risk_read_timeout_ms = 500;
    })
    .await;
    // keep the fake alive as long as the shop
    std::mem::forget(stripe);
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    Shop {
        app,
        buyer,
        intents,
        refunds,
        discord,
    }
}

fn payment_intent(order: i64) -> String {
    format!("pi_test_order_{order}")
}

/// Places an order of one Owl; Stripe will rate its payment `risk`.
async fn placed_order(shop: &Shop, risk: Risk) -> i64 {
    let response = checkout(&shop.app, &shop.buyer, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(response.status(), 200);
    let id = response.json::<Value>().await.unwrap()["order_id"]
        .as_i64()
        .unwrap();
    shop.intents
        .risks
        .lock()
        .unwrap()
        .insert(payment_intent(id), risk);
    id
}

/// Stripe's `checkout.session.completed` of the order, paid with its payment intent; answered
/// 200.
async fn pay(shop: &Shop, order: i64) {
    let app = &shop.app;
    let session = reference(app, order).await;
    let mut event = stripe_event(
        &format!("evt_paid_{order}"),
        "checkout.session.completed",
        &session,
        order,
    );
    event["data"]["object"]["payment_intent"] = json!(payment_intent(order));
    let paid = deliver(app, &event, WEBHOOK_SECRET, now(app)).await;
    assert_eq!(paid.status(), 200);
    assert_eq!(status(app, order).await, "paid");
}

async fn paid_order(shop: &Shop, risk: Risk) -> i64 {
    let order = placed_order(shop, risk).await;
    pay(shop, order).await;
    order
}

/// Stripe's early fraud warning about the order's payment, delivered `times` times (each 200).
async fn warn(shop: &Shop, event_id: &str, order: i64, times: usize) {
    let mut warning: Value = serde_json::from_str(WARNING_FIXTURE).unwrap();
    warning["charge"] = json!(format!("ch_{}", payment_intent(order)));
    warning["payment_intent"] = json!(payment_intent(order));
    warning["fraud_type"] = json!("unauthorized_use_of_card");
    let event = json!({
        "id": event_id, "object": "event", "type": "radar.early_fraud_warning.created",
        "created": 1_700_000_000, "data": { "object": warning },
    });
    for _ in 0..times {
        let answer = deliver(&shop.app, &event, WEBHOOK_SECRET, now(&shop.app)).await;
        assert_eq!(answer.status(), 200, "{event}");
    }
}

/// The ids `GET /api/admin/orders?filter=…` lists, as staff see it.
async fn listed(app: &TestApp, staff: &reqwest::Client, filter: &str) -> Vec<Value> {
    let list = staff
        .get(app.url(&format!("/api/admin/orders?filter={filter}")))
        .send()
        .await
        .unwrap();
    assert_eq!(list.status(), 200, "{filter}");
    list.json().await.unwrap()
}

async fn listed_ids(app: &TestApp, staff: &reqwest::Client, filter: &str) -> Vec<i64> {
    listed(app, staff, filter)
        .await
        .iter()
        .map(|order| order["id"].as_i64().unwrap())
        .collect()
}

async fn post(app: &TestApp, client: &reqwest::Client, path: &str) -> reqwest::Response {
    client
        .post(app.url(path))
        .json(&json!({}))
        .send()
        .await
        .unwrap()
}

async fn message_of(response: reqwest::Response) -> String {
    response.json::<Value>().await.unwrap()["message"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The order's page as its buyer reads it.
async fn buyer_view(shop: &Shop, order: i64) -> Value {
    let page = shop
        .buyer
        .get(shop.app.url(&format!("/api/orders/{order}")))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    page.json().await.unwrap()
}

/// Every message the staff channel got about `order` once its staff jobs are done.
async fn staff_messages(shop: &Shop, order: i64) -> Vec<String> {
    shop.app.settled_jobs(order, "staff").await;
    shop.discord
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|r| String::from_utf8_lossy(&r.body).to_string())
        .filter(|text| text.contains(&format!("#{order}")))
        .collect()
}

/// The one message the staff channel got about the fraud warning on `order` (there is exactly
/// one), once every message about the order is out; no message says it was refunded at the
/// provider (staff refunded it, or the shop did at the warning).
async fn the_warning_message(shop: &Shop, order: i64) -> String {
    let messages = staff_messages(shop, order).await;
    let warned: Vec<&String> = messages
        .iter()
        .filter(|m| m.contains("early fraud warning"))
        .collect();
    assert_eq!(warned.len(), 1, "{messages:?}");
    assert!(
        !messages
            .iter()
            .any(|m| m.contains("refunded at the provider")),
        "{messages:?}"
    );
    warned[0].clone()
}

/// The audit log's entries of `kind`, as a super_admin reads them.
async fn audited(app: &TestApp, boss: &reqwest::Client, kind: &str) -> Vec<Value> {
    let page: Value = boss
        .get(app.url(&format!("/api/admin/audit?kind={kind}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    page["entries"].as_array().unwrap().clone()
}

fn count(steps: &[String], step: &str) -> usize {
    steps.iter().filter(|s| *s == step).count()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_fraud_warning_takes_a_paid_order_out_of_the_queue_until_a_super_admin_releases_it(
    #[case] backend: Backend,
) {
    let shop = shop(backend, false).await;
    let app = &shop.app;
    let admin = app.client_with_role(Role::Admin).await;
    let boss = app.client_with_role(Role::SuperAdmin).await;
    let order = paid_order(&shop, Risk::Level("normal")).await;
    assert_eq!(listed_ids(app, &admin, "paid").await, [order]);
    assert_eq!(buyer_view(&shop, order).await["being_checked"], false);

    // Stripe repeats itself: the order changes once
    warn(&shop, "evt_efw_1", order, 3).await;
    assert_eq!(status(app, order).await, "paid");
    assert!(listed_ids(app, &admin, "paid").await.is_empty());
    let held = listed(app, &admin, "held").await;
    assert_eq!(held.len(), 1, "{held:?}");
    assert_eq!(held[0]["id"], order);
    assert_eq!(held[0]["hold"]["reason"], "fraud_warning");
    assert_eq!(held[0]["hold"]["reason_label"], "Fraud warning");
    assert!(held[0]["hold"]["since"].is_string(), "{held:?}");
    assert!(listed_ids(app, &admin, "all").await.contains(&order));
    let steps = app.order_steps(order).await;
    assert_eq!(count(&steps, "fraud_warning"), 1, "{steps:?}");
    assert_eq!(count(&steps, "risk_held"), 1, "{steps:?}");

    // nobody can take it from the queue, and the buyer is told only that it is being checked
    let claim = format!("/api/admin/orders/{order}/claim");
    let refused = post(app, &admin, &claim).await;
    assert_eq!(refused.status(), 409);
    assert!(
        message_of(refused)
            .await
            .contains("on hold for a fraud check"),
        "the refusal says why"
    );
    let page = buyer_view(&shop, order).await;
    assert_eq!(page["being_checked"], true);
    assert_eq!(page["queue_position"], Value::Null);
    assert!(!page.to_string().contains("fraud"), "{page}");

    // one message to staff for the warning, and the owner's gauge
    let warned = the_warning_message(&shop, order).await;
    assert!(warned.contains("it is on hold"), "{warned}");
    let metrics = app.client.get(app.url("/metrics")).send().await.unwrap();
    let text = metrics.text().await.unwrap();
    assert!(
        text.contains(r#"shop_orders_held{reason="fraud_warning"} 1"#),
        "{text}"
    );
    assert!(text.contains(r#"shop_orders_held{reason="risk_level"} 0"#));
    assert!(text.contains("shop_paid_orders_waiting 0"), "{text}");
    crate::metrics::promtool_accepts(&text);

    // only a super_admin releases it, from the shop's own pages, once
    let release = format!("/api/admin/orders/{order}/hold/release");
    assert_eq!(post(app, &admin, &release).await.status(), 403);
    let cross_site = boss
        .post(app.url(&release))
        .header("origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(cross_site.status(), 403);
    assert_eq!(
        post(app, &boss, "/api/admin/orders/999999/hold/release")
            .await
            .status(),
        404
    );
    let released = post(app, &boss, &release).await;
    assert_eq!(released.status(), 200);
    let released: Value = released.json().await.unwrap();
    assert_eq!(released["hold"], Value::Null);
    let again = post(app, &boss, &release).await;
    assert_eq!(again.status(), 409);
    assert_eq!(
        message_of(again).await,
        format!("Order #{order} is not on hold.")
    );
    let entries = audited(app, &boss, "order.hold_release").await;
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!(entries[0]["target"], format!("order:{order}"));
    assert_eq!(entries[0]["before"]["hold"], "fraud_warning");
    assert_eq!(entries[0]["after"]["status"], "paid");
    assert_eq!(entries[0]["after"].get("hold"), None, "{entries:?}");

    // back in the queue: claimable, and the buyer has a place in it again
    assert_eq!(listed_ids(app, &admin, "paid").await, [order]);
    assert!(listed_ids(app, &admin, "held").await.is_empty());
    let page = buyer_view(&shop, order).await;
    assert_eq!(page["being_checked"], false);
    assert_eq!(page["queue_position"], 1);
    assert_eq!(post(app, &admin, &claim).await.status(), 200);
    assert_eq!(
        count(&app.order_steps(order).await, "hold_released"),
        1,
        "the release is the order's step"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn staff_refund_a_held_order_once_at_stripe(#[case] backend: Backend) {
    let shop = shop(backend, false).await;
    let app = &shop.app;
    let admin = app.client_with_role(Role::Admin).await;
    let order = paid_order(&shop, Risk::Level("normal")).await;
    warn(&shop, "evt_efw_refund", order, 1).await;
    assert_eq!(listed_ids(app, &admin, "held").await, [order]);

    let refund = format!("/api/admin/orders/{order}/refund");
    let refunded = post(app, &admin, &refund).await;
    assert_eq!(refunded.status(), 200);
    let refunded: Value = refunded.json().await.unwrap();
    assert_eq!(refunded["status"], "refunded");
    assert_eq!(
        refunded["hold"],
        Value::Null,
        "a refunded order is not held"
    );
    assert_eq!(post(app, &admin, &refund).await.status(), 200);
    assert_eq!(shop.refunds.load(Ordering::SeqCst), 1, "refunded once");
    assert!(listed_ids(app, &admin, "held").await.is_empty());
    assert_eq!(buyer_view(&shop, order).await["being_checked"], false);
    // the warning told staff; the refund they made tells nobody
    the_warning_message(&shop, order).await;
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn with_refund_on_fraud_warning_a_warning_refunds_the_order_once(#[case] backend: Backend) {
    let shop = shop(backend, true).await;
    let app = &shop.app;
    let admin = app.client_with_role(Role::Admin).await;
    let order = paid_order(&shop, Risk::Level("normal")).await;

    warn(&shop, "evt_efw_auto", order, 3).await;
    assert_eq!(status(app, order).await, "refunded");
    assert_eq!(shop.refunds.load(Ordering::SeqCst), 1, "refunded once");
    assert!(listed_ids(app, &admin, "held").await.is_empty());
    assert!(listed_ids(app, &admin, "paid").await.is_empty());
    let steps = app.order_steps(order).await;
    assert_eq!(count(&steps, "refunded"), 1, "{steps:?}");
    // no member of staff refunded it: nothing in the audit log
    let boss = app.client_with_role(Role::SuperAdmin).await;
    assert!(audited(app, &boss, "order.refund").await.is_empty());
    // written as the refund is made: either way it says the order is (being) refunded
    let warned = the_warning_message(&shop, order).await;
    assert!(
        warned.contains("and is refunded") || warned.contains("is refunding it at once"),
        "{warned}"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_warning_on_a_delivered_order_holds_nothing_and_tells_staff(#[case] backend: Backend) {
    let shop = shop(backend, true).await;
    let app = &shop.app;
    let admin = app.client_with_role(Role::Admin).await;
    let order = paid_order(&shop, Risk::Level("normal")).await;
    for step in ["claim", "deliver"] {
        let path = format!("/api/admin/orders/{order}/{step}");
        assert_eq!(post(app, &admin, &path).await.status(), 200, "{step}");
    }

    warn(&shop, "evt_efw_late", order, 2).await;
    assert_eq!(status(app, order).await, "delivered");
    assert_eq!(shop.refunds.load(Ordering::SeqCst), 0);
    assert!(listed_ids(app, &admin, "held").await.is_empty());
    let steps = app.order_steps(order).await;
    assert_eq!(count(&steps, "fraud_warning"), 1, "{steps:?}");
    assert_eq!(count(&steps, "risk_held"), 0, "{steps:?}");
    let warned = the_warning_message(&shop, order).await;
    assert!(warned.contains("Delivered order"), "{warned}");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_payment_stripe_rates_elevated_is_held_until_released_and_never_claimable_before(
    #[case] backend: Backend,
) {
    let shop = shop(backend, false).await;
    let app = &shop.app;
    let admin = app.client_with_role(Role::Admin).await;
    let boss = app.client_with_role(Role::SuperAdmin).await;
    let order = placed_order(&shop, Risk::Level("elevated")).await;
    let claim = format!("/api/admin/orders/{order}/claim");

    // paid on its hold: the first answer after the payment already refuses a claim
    pay(&shop, order).await;
    assert_eq!(post(app, &admin, &claim).await.status(), 409);
    assert!(listed_ids(app, &admin, "paid").await.is_empty());
    let held = listed(app, &admin, "held").await;
    assert_eq!(held.len(), 1, "{held:?}");
    assert_eq!(held[0]["hold"]["reason"], "risk_level");
    assert_eq!(held[0]["hold"]["reason_label"], "Risky payment");
    assert_eq!(buyer_view(&shop, order).await["being_checked"], true);
    let steps = app.order_steps(order).await;
    assert_eq!(
        &steps[steps.len() - 2..],
        ["paid", "risk_held"],
        "{steps:?}"
    );

    // staff hear of the risk, not of an order waiting for them
    let messages = staff_messages(&shop, order).await;
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(
        messages[0].contains("Stripe rates the payment's risk as elevated"),
        "{messages:?}"
    );
    let metrics = app.client.get(app.url("/metrics")).send().await.unwrap();
    let text = metrics.text().await.unwrap();
    assert!(text.contains(r#"shop_orders_held{reason="risk_level"} 1"#));

    // a fraud warning on it takes over the hold's reason
    warn(&shop, "evt_efw_risky", order, 1).await;
    assert_eq!(
        listed(app, &admin, "held").await[0]["hold"]["reason"],
        "fraud_warning"
    );
    assert_eq!(count(&app.order_steps(order).await, "risk_held"), 1);

    let released = post(
        app,
        &boss,
        &format!("/api/admin/orders/{order}/hold/release"),
    )
    .await;
    assert_eq!(released.status(), 200);
    assert_eq!(listed_ids(app, &admin, "paid").await, [order]);
    assert_eq!(post(app, &admin, &claim).await.status(), 200);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_payment_whose_risk_stripe_cannot_tell_in_time_goes_into_the_queue(
    #[case] backend: Backend,
) {
    let shop = shop(backend, false).await;
    let app = &shop.app;
    let admin = app.client_with_role(Role::Admin).await;
    let down = paid_order(&shop, Risk::Down).await;
    let slow = placed_order(&shop, Risk::Slow).await;
    let started = std::time::Instant::now();
    pay(&shop, slow).await;
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "the read's deadline is short: {:?}",
        started.elapsed()
    );
    assert_eq!(listed_ids(app, &admin, "paid").await, [down, slow]);
    assert!(listed_ids(app, &admin, "held").await.is_empty());
    for order in [down, slow] {
        assert_eq!(buyer_view(&shop, order).await["being_checked"], false);
    }
}
