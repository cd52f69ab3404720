//! After the sale, on SQLite and PostgreSQL: refunds through a fake Stripe, Stripe's
//! `charge.refunded` and `charge.dispute.*` events (signed, replay-safe), and the blocklist
//! (its calls, and checkout refusing a blocked buyer with nothing reserved).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use accounts::Role;
use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use crate::checkout_support::*;
use crate::helpers::{eventually, TestApp};

const REFUND_FIXTURE: &str = include_str!("../../../adapters/stripe/tests/fixtures/refund.json");
const CHARGE_FIXTURE: &str = include_str!("../../../adapters/stripe/tests/fixtures/charge.json");
const DISPUTE_FIXTURE: &str = include_str!("../../../adapters/stripe/tests/fixtures/dispute.json");

/// A fake refunds endpoint: the first `failures` calls fail with a 500, the rest succeed.
pub(crate) struct Refunds {
    pub(crate) failures: usize,
    pub(crate) calls: Arc<AtomicUsize>,
}

impl Respond for Refunds {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        let n = self.calls.fetch_add(1, Ordering::SeqCst);
        if n < self.failures {
            return ResponseTemplate::new(500).set_body_json(json!({
                "error": { "type": "api_error", "message": "Stripe had a problem" }
            }));
        }
        let mut refund: Value = serde_json::from_str(REFUND_FIXTURE).unwrap();
        refund["id"] = json!(format!("re_test_{n}"));
        ResponseTemplate::new(200).set_body_json(refund)
    }
}

struct Shop {
    app: TestApp,
    buyer: reqwest::Client,
    stripe: MockServer,
    discord: MockServer,
}

async fn stripe_shop(backend: Backend, refund_failures: usize) -> Shop {
    let stripe = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/checkout/sessions"))
        .respond_with(Sessions(0.into()))
        .mount(&stripe)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/refunds"))
        .respond_with(Refunds {
            failures: refund_failures,
            calls: Arc::new(AtomicUsize::new(0)),
        })
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
        s.stripe.api_base = uri;
        s.discord.notify_webhook_url = hook.into();
        s.checkout.max_pending_orders = 100;
    })
    .await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    Shop {
        app,
        buyer,
        stripe,
        discord,
    }
}

fn payment_intent(order: i64) -> String {
    format!("pi_test_order_{order}")
}

/// Places an order of one Owl and pays it through a signed `checkout.session.completed`
/// carrying its payment intent.
async fn paid_order(shop: &Shop) -> i64 {
    let app = &shop.app;
    let response = checkout(app, &shop.buyer, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(response.status(), 200);
    let id = response.json::<Value>().await.unwrap()["order_id"]
        .as_i64()
        .unwrap();
    let session = reference(app, id).await;
    let mut event = stripe_event(
        &format!("evt_paid_{id}"),
        "checkout.session.completed",
        &session,
        id,
    );
    event["data"]["object"]["payment_intent"] = json!(payment_intent(id));
    let paid = deliver(app, &event, WEBHOOK_SECRET, now(app)).await;
    assert_eq!(paid.status(), 200);
    assert_eq!(status(app, id).await, "paid");
    id
}

fn charge_event(event_id: &str, order: i64, whole: bool) -> Value {
    let mut charge: Value = serde_json::from_str(CHARGE_FIXTURE).unwrap();
    charge["payment_intent"] = json!(payment_intent(order));
    charge["refunded"] = json!(whole);
    json!({
        "id": event_id, "object": "event", "type": "charge.refunded",
        "created": 1_700_000_000, "data": { "object": charge },
    })
}

fn dispute_event(event_id: &str, kind: &str, order: i64, status: &str) -> Value {
    let mut dispute: Value = serde_json::from_str(DISPUTE_FIXTURE).unwrap();
    dispute["payment_intent"] = json!(payment_intent(order));
    dispute["status"] = json!(status);
    dispute["reason"] = json!("fraudulent");
    json!({
        "id": event_id, "object": "event", "type": kind,
        "created": 1_700_000_000, "data": { "object": dispute },
    })
}

/// Delivers the same signed event `times` times; every delivery answers 200.
async fn deliver_times(app: &TestApp, event: &Value, times: usize) {
    for _ in 0..times {
        let response = deliver(app, event, WEBHOOK_SECRET, now(app)).await;
        assert_eq!(response.status(), 200, "{event}");
    }
}

async fn post(
    client: &reqwest::Client,
    app: &TestApp,
    path: &str,
    body: Value,
) -> reqwest::Response {
    client.post(app.url(path)).json(&body).send().await.unwrap()
}

/// The staff channel's messages, once there are at least `count`.
async fn staff_messages(discord: &MockServer, count: usize) -> Vec<String> {
    eventually(&format!("staff hear {count} messages"), || async {
        let texts: Vec<String> = discord
            .received_requests()
            .await
            .unwrap()
            .iter()
            .map(|r| String::from_utf8_lossy(&r.body).to_string())
            .collect();
        if texts.len() >= count {
            Ok(texts)
        } else {
            Err(texts)
        }
    })
    .await
}

async fn refund_requests(stripe: &MockServer) -> Vec<Request> {
    stripe
        .received_requests()
        .await
        .unwrap()
        .into_iter()
        .filter(|r| r.url.path() == "/v1/refunds")
        .collect()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_refund_goes_through_stripe_and_only_its_200_refunds_the_order(#[case] backend: Backend) {
    let shop = stripe_shop(backend, 1).await;
    let app = &shop.app;
    let order = paid_order(&shop).await;
    let staff = app.client_with_role(Role::Admin).await;
    let auditor = app.client_with_role(Role::SuperAdmin).await;
    let refund = format!("/api/admin/orders/{order}/refund");
    let refunds_audited = || async {
        let page: Value = auditor
            .get(app.url("/api/admin/audit?kind=order.refund"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        page["entries"].as_array().unwrap().clone()
    };

    // Stripe fails: 502, the order stays paid
    let failed = post(&staff, app, &refund, json!({})).await;
    assert_eq!(failed.status(), 502);
    let body: Value = failed.json().await.unwrap();
    assert!(body["message"]
        .as_str()
        .unwrap()
        .contains("nothing changed"));
    assert_eq!(body["errors"], json!({}));
    assert_eq!(status(app, order).await, "paid");
    assert!(
        refunds_audited().await.is_empty(),
        "a failed refund is not audited"
    );

    // Stripe refunds: the order is refunded, the answer is the queue's order
    let refunded = post(&staff, app, &refund, json!({})).await;
    assert_eq!(refunded.status(), 200);
    let body: Value = refunded.json().await.unwrap();
    assert_eq!(body["status"], "refunded");
    assert_eq!(body["status_label"], "Refunded");
    assert_eq!(status(app, order).await, "refunded");
    let audited = refunds_audited().await;
    assert_eq!(audited.len(), 1, "{audited:#?}");
    assert_eq!(audited[0]["target"], format!("order:{order}"));
    assert!(audited[0]["actor"]["name"]
        .as_str()
        .unwrap()
        .starts_with("admin"));
    assert_eq!(audited[0]["before"]["status"], "paid");
    assert_eq!(audited[0]["after"]["status"], "refunded");

    let sent = refund_requests(&shop.stripe).await;
    assert_eq!(sent.len(), 2, "one failed call, one that refunded");
    for request in &sent {
        assert_eq!(
            request.headers["idempotency-key"].to_str().unwrap(),
            format!("refund-order-{order}"),
            "the same key every time"
        );
        let body = String::from_utf8(request.body.clone()).unwrap();
        let form: std::collections::HashMap<String, String> =
            reqwest::Url::parse(&format!("http://stripe.test/?{body}"))
                .unwrap()
                .query_pairs()
                .into_owned()
                .collect();
        assert_eq!(form["payment_intent"], payment_intent(order));
    }

    // Stripe's own charge.refunded for that refund changes nothing more; refunding again
    // does not call Stripe again
    deliver_times(app, &charge_event("evt_refunded_echo", order, true), 2).await;
    assert_eq!(status(app, order).await, "refunded");
    let again = post(&staff, app, &refund, json!({})).await;
    assert_eq!(again.status(), 200);
    assert_eq!(refund_requests(&shop.stripe).await.len(), 2);

    // a pending order cannot be refunded, nor can a shopper refund
    let response = checkout(app, &shop.buyer, &payload(&[(1, 1)], 10.0)).await;
    let pending = response.json::<Value>().await.unwrap()["order_id"]
        .as_i64()
        .unwrap();
    let refused = post(
        &staff,
        app,
        &format!("/api/admin/orders/{pending}/refund"),
        json!({}),
    )
    .await;
    assert_eq!(refused.status(), 409);
    let shopper = app.client_with_role(Role::Customer).await;
    assert_eq!(post(&shopper, app, &refund, json!({})).await.status(), 403);
    assert_eq!(refund_requests(&shop.stripe).await.len(), 2);
    // Stripe's echo, the refund again and the refused ones wrote no more entries
    assert_eq!(refunds_audited().await.len(), 1);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_refund_made_in_the_stripe_dashboard_refunds_the_order_once(#[case] backend: Backend) {
    let shop = stripe_shop(backend, 0).await;
    let app = &shop.app;
    let order = paid_order(&shop).await;
    let events_before = app.count_rows("processed_events").await;

    // a partial refund only tells staff, once
    deliver_times(app, &charge_event("evt_partial", order, false), 3).await;
    assert_eq!(status(app, order).await, "paid");

    // a forged one (wrong secret) changes nothing
    let forged = deliver(
        app,
        &charge_event("evt_forged", order, true),
        "whsec_someone_else",
        now(app),
    )
    .await;
    assert_eq!(forged.status(), 400);
    assert_eq!(status(app, order).await, "paid");

    deliver_times(app, &charge_event("evt_whole", order, true), 5).await;
    assert_eq!(status(app, order).await, "refunded");
    assert_eq!(
        app.count_rows("processed_events").await,
        events_before + 2,
        "each event recorded once"
    );
    // a payment of no order of ours is acknowledged
    let mut stranger = charge_event("evt_stranger", order, true);
    stranger["data"]["object"]["payment_intent"] = json!("pi_not_ours");
    deliver_times(app, &stranger, 1).await;

    // each recorded with its change and sent once through the outbox
    let sent = |step: &str| (step.to_owned(), "sent".to_owned());
    assert_eq!(
        app.settled_jobs(order, "staff").await,
        [sent("paid"), sent("partly_refunded"), sent("refunded")]
    );
    let messages = staff_messages(&shop.discord, 3).await;
    assert_eq!(messages.len(), 3, "{messages:?}");
    let about = |needle: &str| messages.iter().filter(|m| m.contains(needle)).count();
    assert_eq!(about("partly refunded"), 1, "{messages:?}");
    assert_eq!(
        about("refunded at the provider: do not deliver"),
        1,
        "{messages:?}"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_dispute_blocks_the_buyer_and_holds_the_order_until_it_is_won(#[case] backend: Backend) {
    let shop = stripe_shop(backend, 0).await;
    let app = &shop.app;
    let disputed = paid_order(&shop).await;
    let delivered = paid_order(&shop).await;
    let staff = app.client_with_role(Role::Admin).await;
    let deliver_path = |id: i64| format!("/api/admin/orders/{id}/deliver");
    let claimed = post(
        &staff,
        app,
        &format!("/api/admin/orders/{delivered}/claim"),
        json!({}),
    )
    .await;
    assert_eq!(claimed.status(), 200);
    let done = post(&staff, app, &deliver_path(delivered), json!({})).await;
    assert_eq!(done.status(), 200);

    let opened = dispute_event(
        "evt_dispute_1",
        "charge.dispute.created",
        disputed,
        "needs_response",
    );
    deliver_times(app, &opened, 4).await;
    assert_eq!(status(app, disputed).await, "disputed");

    // what the shop verified blocks: the Discord account, and the address for 30 days; what
    // the buyer typed is flagged for staff (it could be a stranger's); each once
    let admin = app.client_with_role(Role::SuperAdmin).await;
    let list: Value = admin
        .get(app.url("/api/admin/blocklist"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut blocked: Vec<(String, String, String, bool)> = list["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            assert_eq!(e["reason"], format!("chargeback on order #{disputed}"));
            assert_eq!(e["added_by"], Value::Null);
            (
                e["kind"].as_str().unwrap().to_owned(),
                e["value"].as_str().unwrap().to_owned(),
                e["status"].as_str().unwrap().to_owned(),
                !e["expires_at"].is_null(),
            )
        })
        .collect();
    blocked.sort();
    let entry = |kind: &str, value: &str, status: &str, expires: bool| {
        (
            kind.to_owned(),
            value.to_owned(),
            status.to_owned(),
            expires,
        )
    };
    assert_eq!(
        blocked,
        [
            entry(
                "discord_id",
                garden_app::DEMO_IDENTITIES[0].0,
                "active",
                false
            ),
            entry("email", "buyer@example.com", "flagged", false),
            entry("ip", "127.0.0.1", "active", true),
            entry("roblox_username", "builder_bob", "flagged", false),
        ]
    );
    assert_eq!(list["total"], 4);

    // a disputed order cannot be delivered (nor claimed)
    let refused = post(&staff, app, &deliver_path(disputed), json!({})).await;
    assert_eq!(refused.status(), 409);
    assert_eq!(
        refused.json::<Value>().await.unwrap()["message"],
        "An order that is Disputed cannot become Delivered."
    );
    // nor refunded: the dispute decides where the money goes
    let refund = post(
        &staff,
        app,
        &format!("/api/admin/orders/{disputed}/refund"),
        json!({}),
    )
    .await;
    assert_eq!(refund.status(), 409);
    // and the buyer cannot order again
    let stock_before = stock(app, 1).await;
    let again = checkout(app, &shop.buyer, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(again.status(), 403);
    assert_eq!(stock(app, 1).await, stock_before);

    // won: back to paid, once, whatever arrives after
    let won = dispute_event("evt_dispute_won", "charge.dispute.closed", disputed, "won");
    deliver_times(app, &won, 3).await;
    assert_eq!(status(app, disputed).await, "paid");
    let late = dispute_event(
        "evt_dispute_late",
        "charge.dispute.closed",
        disputed,
        "lost",
    );
    deliver_times(app, &late, 1).await;
    assert_eq!(status(app, disputed).await, "paid");
    let claim_disputed = format!("/api/admin/orders/{disputed}/claim");
    assert_eq!(
        post(&staff, app, &claim_disputed, json!({})).await.status(),
        200
    );
    let now_delivered = post(&staff, app, &deliver_path(disputed), json!({})).await;
    assert_eq!(now_delivered.status(), 200);

    // a delivered order disputed and lost stays disputed
    let opened = dispute_event(
        "evt_dispute_2",
        "charge.dispute.created",
        delivered,
        "needs_response",
    );
    deliver_times(app, &opened, 2).await;
    assert_eq!(status(app, delivered).await, "disputed");
    let lost = dispute_event(
        "evt_dispute_lost",
        "charge.dispute.closed",
        delivered,
        "lost",
    );
    deliver_times(app, &lost, 2).await;
    assert_eq!(status(app, delivered).await, "disputed");
    {
        use orders::OrderRepository;
        let order = app
            .store
            .order(orders::OrderId::new(delivered))
            .await
            .unwrap();
        let dispute = order.dispute.unwrap();
        assert_eq!(dispute.previous, orders::OrderStatus::Delivered);
        assert_eq!(dispute.outcome, Some(orders::DisputeOutcome::Lost));
    }
    let queue: Vec<Value> = staff
        .get(app.url("/api/admin/orders?filter=all"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(queue
        .iter()
        .any(|o| o["id"] == delivered && o["status_label"] == "Disputed"));

    // staff heard of each dispute and of the win, once each, through the outbox
    let sent = |step: &str| (step.to_owned(), "sent".to_owned());
    assert_eq!(
        app.settled_jobs(disputed, "staff").await,
        [sent("paid"), sent("disputed"), sent("dispute_won")]
    );
    assert_eq!(
        app.settled_jobs(delivered, "staff").await,
        [sent("paid"), sent("disputed"), sent("dispute_lost")]
    );
    let messages = staff_messages(&shop.discord, 6).await;
    assert_eq!(messages.len(), 6, "{messages:?}");
    let about = |needle: &str| messages.iter().filter(|m| m.contains(needle)).count();
    assert_eq!(
        about(&format!(
            "Order #{disputed} is disputed (fraudulent): do not deliver it."
        )),
        1,
        "{messages:?}"
    );
    assert_eq!(
        about(&format!("Order #{delivered} is disputed")),
        1,
        "{messages:?}"
    );
    assert_eq!(
        about(&format!("dispute on order #{disputed} was won")),
        1,
        "{messages:?}"
    );
    assert_eq!(
        about(&format!("dispute on order #{delivered} was lost")),
        1,
        "{messages:?}"
    );
}

/// A session id for the help chat.
fn chat_session() -> String {
    format!("session-{}", uuid::Uuid::new_v4().simple())
}

/// A review of order `order` with `rating`, as the order page leaves it.
async fn reviewed(app: &TestApp, order: i64, rating: u8) {
    use reviews::ReviewRepository;
    let added = app
        .store
        .add_review(reviews::NewReview {
            order_id: orders::OrderId::new(order),
            rating,
            text: format!("{rating} stars"),
            name: "Bu***".into(),
            created_at: chrono::Utc::now(),
        })
        .await
        .unwrap();
    assert!(added.is_some());
}

/// What `/api/reviews` shows: how many, the average, and the ratings newest first.
async fn public_reviews(app: &TestApp) -> (u64, Value, Vec<i64>) {
    let all = app.get_json("/api/reviews").await;
    let ratings = all["reviews"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["rating"].as_i64().unwrap())
        .collect();
    (
        all["count"].as_u64().unwrap(),
        all["average"].clone(),
        ratings,
    )
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_review_leaves_the_list_and_the_average_while_its_order_is_refunded_or_disputed(
    #[case] backend: Backend,
) {
    let shop = stripe_shop(backend, 0).await;
    let app = &shop.app;
    let staff = app.client_with_role(Role::Admin).await;
    let mut delivered = Vec::new();
    for _ in 0..3 {
        let order = paid_order(&shop).await;
        for action in ["claim", "deliver"] {
            let done = post(
                &staff,
                app,
                &format!("/api/admin/orders/{order}/{action}"),
                json!({}),
            )
            .await;
            assert_eq!(done.status(), 200, "{action}");
        }
        delivered.push(order);
    }
    let [kept, refunded, disputed] = delivered[..] else {
        unreachable!()
    };
    reviewed(app, kept, 5).await;
    reviewed(app, refunded, 1).await;
    reviewed(app, disputed, 3).await;
    assert_eq!(public_reviews(app).await.0, 3);

    deliver_times(app, &charge_event("evt_refund", refunded, true), 1).await;
    assert_eq!(status(app, refunded).await, "refunded");
    let opened = dispute_event(
        "evt_open",
        "charge.dispute.created",
        disputed,
        "needs_response",
    );
    deliver_times(app, &opened, 1).await;
    assert_eq!(status(app, disputed).await, "disputed");
    assert_eq!(public_reviews(app).await, (1, json!(5.0), vec![5]));
    // on its product's page too
    assert_eq!(app.get_json("/api/reviews?product_id=1").await["count"], 1);

    // a dispute won returns the order, and its review with it
    let won = dispute_event("evt_won", "charge.dispute.closed", disputed, "won");
    deliver_times(app, &won, 1).await;
    assert_eq!(status(app, disputed).await, "delivered");
    let (count, average, mut ratings) = public_reviews(app).await;
    ratings.sort_unstable();
    assert_eq!((count, average, ratings), (2, json!(4.0), vec![3, 5]));
}

/// The blocklist's entries, newest first.
async fn blocklist_entries(app: &TestApp, admin: &reqwest::Client) -> Vec<Value> {
    let list: Value = admin
        .get(app.url("/api/admin/blocklist"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    list["entries"].as_array().unwrap().clone()
}

/// Checkout from `address` (the shop trusts the local proxy's X-Forwarded-For).
async fn checkout_from(app: &TestApp, buyer: &reqwest::Client, address: &str) -> u16 {
    buyer
        .post(app.url("/api/stripe/checkout"))
        .header("X-Forwarded-For", address)
        .json(&payload(&[(1, 1)], 10.0))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_chargeback_blocks_what_the_shop_verified_and_flags_what_the_buyer_typed(
    #[case] backend: Backend,
) {
    let shop = stripe_shop(backend, 0).await;
    let app = &shop.app;
    let order = paid_order(&shop).await;
    let opened = dispute_event("evt_d", "charge.dispute.created", order, "needs_response");
    deliver_times(app, &opened, 2).await;
    assert_eq!(status(app, order).await, "disputed");
    let admin = app.client_with_role(Role::SuperAdmin).await;
    let entries = blocklist_entries(app, &admin).await;
    use accounts::Clock;
    let of = |kind: &str| entries.iter().find(|e| e["kind"] == kind).unwrap().clone();
    // the address for 30 days from the dispute
    let expires: chrono::DateTime<chrono::Utc> =
        serde_json::from_value(of("ip")["expires_at"].clone()).unwrap();
    let in_30_days = app.clock.now() + chrono::Duration::days(30);
    assert!((expires - in_30_days).num_seconds().abs() < 5, "{expires}");

    // a stranger whose e-mail and Roblox name a chargeback typed is not blocked by them
    let stranger = browser();
    link_discord(app, &stranger, 1).await;
    let ip_entry = of("ip")["id"].as_i64().unwrap();
    let removed = admin
        .delete(app.url(&format!("/api/admin/blocklist/{ip_entry}")))
        .send()
        .await
        .unwrap();
    assert_eq!(removed.status(), 204);
    let placed = checkout(app, &stranger, &payload(&[(1, 1)], 10.0)).await;
    let placed_status = placed.status();
    assert_eq!(
        placed_status,
        200,
        "flagged entries block nothing: {}",
        placed.text().await.unwrap()
    );

    // staff confirm the flagged e-mail: from then on it blocks, and the audit log says so
    let email = of("email");
    let confirmed = post(
        &admin,
        app,
        &format!("/api/admin/blocklist/{}/confirm", email["id"]),
        json!({}),
    )
    .await;
    assert_eq!(confirmed.status(), 200);
    let confirmed: Value = confirmed.json().await.unwrap();
    assert_eq!(confirmed["status"], "active");
    assert_eq!(confirmed["canonical"], "buyer@example.com");
    let refused = checkout(app, &stranger, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(refused.status(), 403);
    // confirming twice changes nothing; an unknown entry is 404
    let again = post(
        &admin,
        app,
        &format!("/api/admin/blocklist/{}/confirm", email["id"]),
        json!({}),
    )
    .await;
    assert_eq!(again.status(), 200);
    let unknown = post(
        &admin,
        app,
        "/api/admin/blocklist/999999/confirm",
        json!({}),
    )
    .await;
    assert_eq!(unknown.status(), 404);
    let staff = app.client_with_role(Role::Admin).await;
    let forbidden = post(
        &staff,
        app,
        &format!(
            "/api/admin/blocklist/{}/confirm",
            of("roblox_username")["id"]
        ),
        json!({}),
    )
    .await;
    assert_eq!(forbidden.status(), 403, "super_admin only");
    let confirmations = app
        .count_where("audit_log", "kind = 'blocklist.confirm'")
        .await;
    assert_eq!(confirmations, 1);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_entry_blocks_every_spelling_of_its_inbox_and_an_ipv6_entry_its_network(
    #[case] backend: Backend,
) {
    let app = shop_with(backend, vec![(1, product("Owl", "10.00", Some(50)))], |s| {
        s.server.trusted_proxies = vec!["127.0.0.1/32".into()];
    })
    .await;
    let admin = app.client_with_role(Role::SuperAdmin).await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    // the buyer checks out as buyer@example.com; staff blocked a tagged spelling of it
    let added = post(
        &admin,
        &app,
        "/api/admin/blocklist",
        json!({ "kind": "email", "value": "Buyer+Deals@Example.com", "reason": "fraud" }),
    )
    .await;
    assert_eq!(added.status(), 201);
    let entry: Value = added.json().await.unwrap();
    assert_eq!(entry["value"], "buyer+deals@example.com");
    assert_eq!(entry["canonical"], "buyer@example.com");
    assert_eq!(entry["status"], "active");
    assert_eq!(checkout_from(&app, &buyer, "203.0.113.9").await, 403);
    let removed = admin
        .delete(app.url(&format!("/api/admin/blocklist/{}", entry["id"])))
        .send()
        .await
        .unwrap();
    assert_eq!(removed.status(), 204);

    // an IPv6 entry covers its /64: the next address in it is refused, the next /64 is not
    let added = post(
        &admin,
        &app,
        "/api/admin/blocklist",
        json!({ "kind": "ip", "value": "2001:db8:5:6::1", "reason": "fraud" }),
    )
    .await;
    assert_eq!(added.status(), 201);
    assert_eq!(
        checkout_from(&app, &buyer, "2001:db8:5:6:abcd::99").await,
        403
    );
    assert_eq!(checkout_from(&app, &buyer, "2001:db8:5:7::1").await, 200);
    assert_eq!(
        blocklist_entries(&app, &admin).await[0]["canonical"],
        Value::Null,
        "only e-mail entries have a canonical form"
    );
}

/// Issue 32 item 10: `"blocked"@gmail.com` reaches blocked@gmail.com's inbox.
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_email_entry_blocks_its_quoted_spellings_too(#[case] backend: Backend) {
    let app = shop(backend, vec![(1, product("Owl", "10.00", Some(50)))]).await;
    let admin = app.client_with_role(Role::SuperAdmin).await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let added = post(
        &admin,
        &app,
        "/api/admin/blocklist",
        json!({ "kind": "email", "value": "blocked@gmail.com", "reason": "fraud" }),
    )
    .await;
    assert_eq!(added.status(), 201);
    let as_typed = |email: &str| {
        let mut body = payload(&[(1, 1)], 10.0);
        body["email"] = json!(email);
        body
    };
    for email in [
        "\"blocked\"@gmail.com",
        "\"b.locked+x\"@googlemail.com",
        "\"bl\"ocked@gmail.com",
    ] {
        let refused = checkout(&app, &buyer, &as_typed(email)).await;
        assert_eq!(refused.status(), 403, "{email}");
    }
    assert_eq!(
        app.count_rows("orders").await,
        0,
        "a refused checkout writes nothing"
    );
    assert_eq!(stock(&app, 1).await, Some(50));
    // an entry typed quoted matches the plain spelling
    let added = post(
        &admin,
        &app,
        "/api/admin/blocklist",
        json!({ "kind": "email", "value": "\"Quoted\"@Example.com", "reason": "fraud" }),
    )
    .await;
    assert_eq!(added.status(), 201);
    let entry: Value = added.json().await.unwrap();
    assert_eq!(entry["canonical"], "quoted@example.com");
    let refused = checkout(&app, &buyer, &as_typed("quoted@example.com")).await;
    assert_eq!(refused.status(), 403);
    let allowed = checkout(&app, &buyer, &as_typed("someone@example.com")).await;
    assert_eq!(allowed.status(), 200);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn each_blocked_identity_is_refused_at_checkout_with_nothing_reserved(
    #[case] backend: Backend,
) {
    let app = shop(backend, vec![(1, product("Owl", "10.00", Some(5)))]).await;
    let admin = app.client_with_role(Role::SuperAdmin).await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let discord_id = garden_app::DEMO_IDENTITIES[0].0;
    // as typed by staff: any case, spaces, an IPv4-mapped address
    for (kind, value) in [
        ("email", " BUYER@Example.com "),
        ("discord_id", discord_id),
        ("roblox_username", "BUILDER_BOB"),
        ("ip", "::ffff:127.0.0.1"),
    ] {
        let added = post(
            &admin,
            &app,
            "/api/admin/blocklist",
            json!({ "kind": kind, "value": value, "reason": "fraud" }),
        )
        .await;
        assert_eq!(added.status(), 201, "{kind}");
        let entry: Value = added.json().await.unwrap();

        let refused = checkout(&app, &buyer, &payload(&[(1, 2)], 20.0)).await;
        assert_eq!(refused.status(), 403, "{kind}");
        let body: Value = refused.json().await.unwrap();
        assert_eq!(
            body,
            json!({
                "message": "We can't take this order. Please contact support.",
                "code": "forbidden",
                "errors": {},
            }),
            "{kind}: nothing says which entry matched"
        );
        assert_eq!(stock(&app, 1).await, Some(5), "{kind}: nothing reserved");
        assert_eq!(app.count_rows("orders").await, 0, "{kind}");

        // the help chat stays open to them
        let chat = post(
            &buyer,
            &app,
            "/api/chat/start-ai",
            json!({ "session_id": chat_session() }),
        )
        .await;
        assert_eq!(chat.status(), 200, "{kind}");

        let removed = admin
            .delete(app.url(&format!("/api/admin/blocklist/{}", entry["id"])))
            .send()
            .await
            .unwrap();
        assert_eq!(removed.status(), 204);
    }
    // nothing blocked any more: the order goes through
    let placed = checkout(&app, &buyer, &payload(&[(1, 2)], 20.0)).await;
    assert_eq!(placed.status(), 200);
    assert_eq!(stock(&app, 1).await, Some(3));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_blocklist_is_for_super_admins_and_checks_what_it_is_given(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let entry = json!({ "kind": "email", "value": "a@b.co", "reason": "fraud" });
    for (client, expected) in [
        (app.new_client(), 401),
        (app.client_with_role(Role::Customer).await, 403),
        (app.client_with_role(Role::Admin).await, 403),
    ] {
        let list = client
            .get(app.url("/api/admin/blocklist"))
            .send()
            .await
            .unwrap();
        assert_eq!(list.status(), expected);
        let add = post(&client, &app, "/api/admin/blocklist", entry.clone()).await;
        assert_eq!(add.status(), expected);
        let remove = client
            .delete(app.url("/api/admin/blocklist/1"))
            .send()
            .await
            .unwrap();
        assert_eq!(remove.status(), expected);
    }
    assert_eq!(app.count_rows("blocklist").await, 0);

    let admin = app.client_with_role(Role::SuperAdmin).await;
    for (body, field) in [
        (
            json!({ "kind": "phone", "value": "1", "reason": "x" }),
            "kind",
        ),
        (json!({ "value": "a@b.co", "reason": "x" }), "kind"),
        (
            json!({ "kind": "email", "value": "nope", "reason": "x" }),
            "value",
        ),
        (
            json!({ "kind": "ip", "value": "10.0.0.300", "reason": "x" }),
            "value",
        ),
        (
            json!({ "kind": "discord_id", "value": "12ab", "reason": "x" }),
            "value",
        ),
        (
            json!({ "kind": "roblox_username", "value": "a b", "reason": "x" }),
            "value",
        ),
        (
            json!({ "kind": "email", "value": "a@b.co", "reason": " " }),
            "reason",
        ),
        (
            json!({ "kind": "email", "value": "a@b.co", "reason": "x".repeat(201) }),
            "reason",
        ),
    ] {
        let refused = post(&admin, &app, "/api/admin/blocklist", body.clone()).await;
        assert_eq!(refused.status(), 422, "{body}");
        let answer: Value = refused.json().await.unwrap();
        assert!(answer["errors"][field].is_array(), "{body}: {answer}");
    }
    assert_eq!(app.count_rows("blocklist").await, 0);

    let added = post(&admin, &app, "/api/admin/blocklist", entry.clone()).await;
    assert_eq!(added.status(), 201);
    let added: Value = added.json().await.unwrap();
    assert_eq!(added["kind"], "email");
    assert_eq!(added["value"], "a@b.co");
    assert!(added["added_by"]["name"]
        .as_str()
        .unwrap()
        .starts_with("super_admin"));
    assert!(added["created_at"].is_string());
    let same = post(
        &admin,
        &app,
        "/api/admin/blocklist",
        json!({ "kind": "email", "value": "A@B.CO", "reason": "again" }),
    )
    .await;
    assert_eq!(same.status(), 409);

    let list: Value = admin
        .get(app.url("/api/admin/blocklist"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(list["total"], 1);
    assert_eq!(list["entries"][0]["id"], added["id"]);

    let path = format!("/api/admin/blocklist/{}", added["id"]);
    assert_eq!(
        admin.delete(app.url(&path)).send().await.unwrap().status(),
        204
    );
    assert_eq!(
        admin.delete(app.url(&path)).send().await.unwrap().status(),
        404
    );
    assert_eq!(
        admin
            .delete(app.url("/api/admin/blocklist/nope"))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
    assert_eq!(app.count_rows("blocklist").await, 0);
}
