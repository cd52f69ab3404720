//! Shared by the checkout, webhook, identity and promo tests: products, a linked Discord
//! account, the order payload, signed webhook deliveries.

use cart_pricing::Money;
use catalog::{Product, ProductDraft, ProductId, ProductRepository, Stock};
use garden_app::Settings;
use serde_json::{json, Value};
use store::testing::TestDatabase;
use store::Backend;

use crate::helpers::{eventually, Options, TestApp};

pub const WEBHOOK_SECRET: &str = "whsec_test_secret";

pub fn product(name: &str, price: &str, stock: Option<u32>) -> ProductDraft {
    ProductDraft {
        max_per_account: None,
        release_at: None,
        name: name.into(),
        description: String::new(),
        price: Money::parse(price).unwrap(),
        category: "Pets".into(),
        image: None,
        stock: stock.map_or(Stock::Unlimited, Stock::Finite),
        weight: None,
        mutation: None,
        savings: None,
        sort_order: None,
        delete_after_out_of_stock: false,
        related_ids: vec![],
        dupe_warning: false,
    }
}

/// A shop with these products (ids as given), started with `configure`'s settings.
pub async fn shop_with(
    backend: Backend,
    products: Vec<(i64, ProductDraft)>,
    configure: impl FnOnce(&mut Settings),
) -> TestApp {
    let database = TestDatabase::create(backend).await;
    let store = store::Store::new(database.connection.clone(), shared::clock::SystemClock);
    store
        .insert_with_ids(
            products
                .into_iter()
                .map(|(id, draft)| (ProductId::new(id), draft))
                .collect(),
        )
        .await
        .unwrap();
    TestApp::spawn_with(database, Options::demo_data(false), configure).await
}

/// A shop with these products and the local providers (dev payment page, dev Discord).
pub async fn shop(backend: Backend, products: Vec<(i64, ProductDraft)>) -> TestApp {
    shop_with(backend, products, |settings| {
        settings.stripe.webhook_secret = WEBHOOK_SECRET.to_owned().into();
    })
    .await
}

/// A shop whose caps on unpaid orders are out of the way: tests of other rules (stock under
/// concurrency) link 200 browsers to the three demo Discord accounts from one address.
pub async fn uncapped_shop(backend: Backend, products: Vec<(i64, ProductDraft)>) -> TestApp {
    shop_with(backend, products, |settings| {
        settings.stripe.webhook_secret = WEBHOOK_SECRET.to_owned().into();
        settings.checkout.max_pending_orders = 10_000;
        settings.checkout.max_pending_per_ip = 10_000;
    })
    .await
}

/// A shop whose background loops (catalog refresh, chat version refresh, chat purge, buyer
/// mail) wait an hour between rounds, so the app's statement counter sees only the requests a
/// test sends; its caps on unpaid orders are out of the way of tests that place several.
pub async fn quiet_shop(backend: Backend, products: Vec<(i64, ProductDraft)>) -> TestApp {
    let app = shop_with(backend, products, |settings| {
        settings.stripe.webhook_secret = WEBHOOK_SECRET.to_owned().into();
        settings.checkout.max_pending_orders = 10_000;
        settings.checkout.max_pending_per_ip = 10_000;
        settings.catalog.refresh_seconds = 3600;
        settings.chat.version_refresh_ms = 3_600_000;
        settings.chat.purge_every_seconds = 3600;
        settings.mail.queue_poll_ms = 3_600_000;
        // every products event published before the change's answer: the statements a
        // request sends are counted in its own window
        settings.events.products_every_ms = 0;
    })
    .await;
    settle(&app).await;
    app
}

/// Waits until the start's own work and what the test set off so far has ended before a test
/// counts statements: the loops that start with a round have run it and none is in a round,
/// and every stored event has been heard (on PostgreSQL through NOTIFY or the listener's
/// catch-up), each after its hook (the snapshot refresh a product event triggers) ran.
pub async fn settle(app: &TestApp) {
    use garden_app::Loop;
    for first_round_at_start in [Loop::Sweep, Loop::Outbox, Loop::ChatPurge, Loop::EventPurge] {
        app.rounds.finished(first_round_at_start, 1).await;
    }
    let latest = {
        use sea_orm::{ConnectionTrait, Statement};
        let db = app.store.connection();
        let row = db
            .query_one(Statement::from_string(
                db.get_database_backend(),
                "SELECT COALESCE(MAX(id), 0) AS latest FROM push_events",
            ))
            .await
            .unwrap()
            .unwrap();
        row.try_get::<i64>("", "latest").unwrap()
    };
    eventually(&format!("event {latest} is heard"), || async {
        let heard = app.events.last_id();
        if heard >= latest {
            Ok(())
        } else {
            Err(heard)
        }
    })
    .await;
    for each in garden_app::Loop::ALL {
        app.rounds.between_rounds(each).await;
    }
}

/// A client without automatic redirects (the tests look at each Location), keeping cookies.
pub fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// The `state` query value of an authorize Location.
pub fn state_of(location: &str) -> String {
    let url = reqwest::Url::parse(&format!("http://x{location}"))
        .or_else(|_| reqwest::Url::parse(location))
        .unwrap();
    url.query_pairs()
        .find(|(k, _)| k == "state")
        .map(|(_, v)| v.into_owned())
        .unwrap()
}

/// Links demo identity `which` (0..3) of the dev sign-in page to this client's session.
pub async fn link_discord(app: &TestApp, client: &reqwest::Client, which: usize) -> Value {
    let response = client
        .get(app.url("/api/discord/authorize"))
        .send()
        .await
        .unwrap();
    // clients that follow redirects land on the dev page itself
    let location = if response.status() == 302 {
        response.headers()["location"].to_str().unwrap().to_owned()
    } else {
        assert_eq!(response.status(), 200);
        let url = response.url();
        format!("{}?{}", url.path(), url.query().unwrap())
    };
    assert!(
        location.starts_with("/dev/discord/authorize?state="),
        "{location}"
    );
    let (id, _) = garden_app::DEMO_IDENTITIES[which];
    let response = app
        .post_json(
            client,
            "/api/discord-auth",
            &json!({ "code": format!("dev-{id}"), "state": state_of(&location) }),
        )
        .await;
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

/// The spec's order payload; `total` is the items' total after discount, before the fee.
pub fn payload(items: &[(i64, u32)], total: f64) -> Value {
    json!({
        "discord_id": "999999999999999999",
        "email": "buyer@example.com",
        "roblox_username": "Builder_Bob",
        "items": items.iter().map(|(id, qty)| json!({
            "id": id, "name": "whatever the browser says", "description": "",
            "price": 0.01, "qty": qty, "stock": 1000, "weight": null, "mutation": null,
        })).collect::<Vec<_>>(),
        "total": total,
        "user_id": 12345,
    })
}

pub async fn checkout(app: &TestApp, client: &reqwest::Client, body: &Value) -> reqwest::Response {
    app.post_json(client, "/api/stripe/checkout", body).await
}

/// A product as the database has it now (stock, archived).
pub async fn stored(app: &TestApp, id: i64) -> Product {
    app.store.product(ProductId::new(id)).await.unwrap()
}

pub async fn stock(app: &TestApp, id: i64) -> Option<i64> {
    stored(app, id).await.stock.count()
}

/// An order's status as the database has it.
pub async fn status(app: &TestApp, order_id: i64) -> String {
    use orders::OrderRepository;
    app.store
        .order(orders::OrderId::new(order_id))
        .await
        .unwrap()
        .status()
        .as_str()
        .to_owned()
}

/// The provider reference stored with an order.
pub async fn reference(app: &TestApp, order_id: i64) -> String {
    use orders::OrderRepository;
    app.store
        .order(orders::OrderId::new(order_id))
        .await
        .unwrap()
        .payment
        .reference
        .unwrap()
}

/// A Stripe event as Stripe sends it.
pub fn stripe_event(event_id: &str, kind: &str, session_id: &str, order_id: i64) -> Value {
    json!({
        "id": event_id,
        "object": "event",
        "type": kind,
        "created": 1_700_000_000,
        "data": { "object": {
            "id": session_id,
            "object": "checkout.session",
            "client_reference_id": order_id.to_string(),
            "metadata": { "order_id": order_id.to_string() },
            "payment_status": if kind == "checkout.session.completed" { "paid" } else { "unpaid" },
            "status": if kind == "checkout.session.completed" { "complete" } else { "expired" },
        }},
    })
}

/// Posts an event signed with `secret` at `timestamp` (seconds).
pub async fn deliver(
    app: &TestApp,
    event: &Value,
    secret: &str,
    timestamp: i64,
) -> reqwest::Response {
    let body = serde_json::to_vec(event).unwrap();
    let signature = stripe_adapter::signature_header(secret, timestamp, &body);
    app.client
        .post(app.url("/api/stripe/webhook"))
        .header("Stripe-Signature", signature)
        .header("Content-Type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap()
}

/// Now, by the app's clock (tests move it forward).
pub fn now(app: &TestApp) -> i64 {
    use accounts::Clock;
    app.clock.now().timestamp()
}

/// A checkout session as Stripe answers it (the stripe adapter's fixture).
pub const SESSION_FIXTURE: &str =
    include_str!("../../../adapters/stripe/tests/fixtures/checkout_session.json");

/// A fake Stripe session endpoint giving each new session the id `cs_test_{n}`.
pub struct Sessions(pub std::sync::atomic::AtomicUsize);

impl wiremock::Respond for Sessions {
    fn respond(&self, _: &wiremock::Request) -> wiremock::ResponseTemplate {
        let n = self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let mut session: Value = serde_json::from_str(SESSION_FIXTURE).unwrap();
        session["id"] = json!(format!("cs_test_{n}"));
        session["url"] = json!(format!("https://checkout.stripe.com/c/pay/cs_test_{n}"));
        wiremock::ResponseTemplate::new(200).set_body_json(session)
    }
}

/// A form-encoded body (what async-stripe sends) as its fields.
pub fn form(body: &[u8]) -> std::collections::HashMap<String, String> {
    let url = reqwest::Url::parse(&format!("http://x/?{}", String::from_utf8_lossy(body))).unwrap();
    url.query_pairs().into_owned().collect()
}

/// A fake Stripe that opens one checkout session, `session_id`, whose page is on
/// checkout.stripe.com.
pub async fn fake_stripe_session(session_id: &str) -> wiremock::MockServer {
    use wiremock::matchers::{method, path};
    let stripe = wiremock::MockServer::start().await;
    let mut session: Value = serde_json::from_str(SESSION_FIXTURE).unwrap();
    session["id"] = json!(session_id);
    session["url"] = json!(format!("https://checkout.stripe.com/c/pay/{session_id}"));
    wiremock::Mock::given(method("POST"))
        .and(path("/v1/checkout/sessions"))
        .respond_with(wiremock::ResponseTemplate::new(200).set_body_json(session))
        .expect(1)
        .mount(&stripe)
        .await;
    stripe
}
