//! Checkout as a hostile client tries it (issue 11), on SQLite and PostgreSQL: promo codes
//! claimed with the order, caps on unpaid orders and on carts, cancelled orders that cannot be
//! paid afterwards, PayPal captures that do not match, and the per-address limits of the promo
//! check and the Roblox lookup.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use futures::future::join_all;
use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use crate::checkout_support::*;
use crate::helpers::{eventually, TestApp};

async fn order_id_of(response: reqwest::Response) -> i64 {
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(status, 200, "{body}");
    body["order_id"].as_i64().unwrap()
}

async fn count(app: &TestApp, sql: &str) -> i64 {
    use sea_orm::{ConnectionTrait, Statement};
    let db = app.store.connection();
    let row = db
        .query_one(Statement::from_string(db.get_database_backend(), sql))
        .await
        .unwrap()
        .unwrap();
    row.try_get_by_index::<i64>(0).unwrap()
}

async fn create_promo(app: &TestApp, body: Value) {
    let boss = app.client_with_role(accounts::Role::SuperAdmin).await;
    let created = app.post_json(&boss, "/api/admin/promo-codes", &body).await;
    assert_eq!(created.status(), 201);
}

fn with_code(items: &[(i64, u32)], total: f64, code: &str) -> Value {
    let mut body = payload(items, total);
    body["promo_code"] = json!(code);
    body
}

async fn cancel(app: &TestApp, client: &reqwest::Client, id: i64) -> reqwest::Response {
    client
        .post(app.url(&format!("/api/orders/{id}/cancel")))
        .send()
        .await
        .unwrap()
}

// ---- rule 1: promo redemptions are claimed when the order is placed ----

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn three_unpaid_orders_with_a_one_use_half_price_code_get_the_discount_once(
    #[case] backend: Backend,
) {
    let app = shop(backend, vec![(1, product("Raccoon", "10.00", None))]).await;
    create_promo(
        &app,
        json!({"code": "HALF", "discount_percent": 50, "max_uses": 1}),
    )
    .await;
    let client = browser();
    link_discord(&app, &client, 0).await;

    // the attack: three orders with the code before paying any, then pay them all
    let mut placed = Vec::new();
    let mut refused = Vec::new();
    for _ in 0..3 {
        let response = checkout(&app, &client, &with_code(&[(1, 1)], 5.0, "half")).await;
        if response.status() == 200 {
            placed.push(order_id_of(response).await);
        } else {
            assert_eq!(response.status(), 422);
            let body: Value = response.json().await.unwrap();
            refused.push(body);
        }
    }
    assert_eq!(placed.len(), 1, "one order holds the code: {refused:?}");
    for body in &refused {
        assert_eq!(body["message"], "You have already used this promo code.");
        assert_eq!(
            body["errors"]["promo_code"],
            json!(["You have already used this promo code."])
        );
    }
    // another account: the code's one use is taken by the unpaid order
    let friend = browser();
    link_discord(&app, &friend, 1).await;
    let response = checkout(&app, &friend, &with_code(&[(1, 1)], 5.0, "HALF")).await;
    assert_eq!(response.status(), 422);
    assert_eq!(
        response.json::<Value>().await.unwrap()["reason"],
        "This promo code has reached its usage limit."
    );
    for id in &placed {
        let paid = client
            .post(app.url(&format!("/dev/pay/{id}/pay")))
            .send()
            .await
            .unwrap();
        assert_eq!(paid.status(), 303);
    }
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM orders WHERE status = 'paid' AND discount_cents > 0"
        )
        .await,
        1,
        "one order at half price"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_cancelled_or_expired_order_gives_its_promo_use_back(#[case] backend: Backend) {
    let app = shop(backend, vec![(1, product("Raccoon", "10.00", Some(10)))]).await;
    create_promo(
        &app,
        json!({"code": "ONCE", "discount_percent": 10, "max_uses": 1}),
    )
    .await;
    let first = browser();
    link_discord(&app, &first, 0).await;
    let second = browser();
    link_discord(&app, &second, 1).await;
    let body = with_code(&[(1, 1)], 9.0, "ONCE");

    let held = order_id_of(checkout(&app, &first, &body).await).await;
    assert_eq!(checkout(&app, &second, &body).await.status(), 422);
    // the shopper cancels: the use is free again
    assert_eq!(cancel(&app, &first, held).await.status(), 200);
    let taken = order_id_of(checkout(&app, &second, &body).await).await;
    assert_eq!(checkout(&app, &first, &body).await.status(), 422);
    // the sweeper expires it: free again
    app.clock.advance(Duration::from_secs(36 * 60));
    assert_eq!(app.sweeper.run_once().await.unwrap(), 1);
    assert_eq!(status(&app, taken).await, "expired");
    order_id_of(checkout(&app, &first, &body).await).await;
    assert_eq!(
        count(&app, "SELECT COUNT(*) FROM promo_redemptions").await,
        1
    );
}

/// A fake Discord where the code `user-{id}` signs in as the account `{id}`.
pub(crate) struct DiscordAccounts;

impl Respond for DiscordAccounts {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        if request.url.path().ends_with("/oauth2/token") {
            let form = reqwest::Url::parse(&format!(
                "http://x/?{}",
                String::from_utf8_lossy(&request.body)
            ))
            .unwrap();
            let code = form
                .query_pairs()
                .find(|(k, _)| k == "code")
                .map(|(_, v)| v.into_owned())
                .unwrap();
            return ResponseTemplate::new(200).set_body_json(json!({
                "access_token": code, "token_type": "Bearer", "expires_in": 604800,
                "refresh_token": "r", "scope": "identify guilds.join"
            }));
        }
        let token = request.headers["authorization"].to_str().unwrap();
        let id = token.trim_start_matches("Bearer user-");
        ResponseTemplate::new(200)
            .set_body_json(json!({"id": id, "username": format!("racer{id}"), "avatar": null}))
    }
}

/// A fake Discord of [`DiscordAccounts`] (keep the server while the test runs) and its API
/// base for `discord.api_base`.
pub(crate) async fn discord_accounts() -> (MockServer, String) {
    let discord = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/oauth2/token"))
        .respond_with(DiscordAccounts)
        .mount(&discord)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/users/@me"))
        .respond_with(DiscordAccounts)
        .mount(&discord)
        .await;
    let base = format!("{}/api", discord.uri());
    (discord, base)
}

/// Links the Discord account `id` of the fake Discord to this browser.
pub(crate) async fn link_account(app: &TestApp, client: &reqwest::Client, id: u64) {
    let response = client
        .get(app.url("/api/discord/authorize"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 302);
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    let linked = app
        .post_json(
            client,
            "/api/discord-auth",
            &json!({"code": format!("user-{id}"), "state": state_of(&location)}),
        )
        .await;
    assert_eq!(linked.status(), 200);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn twenty_accounts_racing_for_the_last_use_of_a_code_leave_one_winner(
    #[case] backend: Backend,
) {
    let (_discord, base) = discord_accounts().await;
    let app = shop_with(backend, vec![(1, product("Owl", "10.00", None))], |s| {
        s.discord.client_id = "client-1".into();
        s.discord.client_secret = "secret-1".to_owned().into();
        s.discord.authorize_url = "https://discord.example/oauth2/authorize".into();
        s.discord.api_base = base;
    })
    .await;
    create_promo(
        &app,
        json!({"code": "LAST", "discount_percent": 50, "max_uses": 1}),
    )
    .await;
    let clients: Vec<reqwest::Client> = (0..20).map(|_| browser()).collect();
    join_all(
        clients
            .iter()
            .enumerate()
            .map(|(i, c)| link_account(&app, c, 900_000 + i as u64)),
    )
    .await;

    let body = with_code(&[(1, 1)], 5.0, "LAST");
    let answers = join_all(clients.iter().map(|c| checkout(&app, c, &body))).await;
    let mut won = 0;
    for answer in answers {
        match answer.status().as_u16() {
            200 => won += 1,
            422 => assert_eq!(
                answer.json::<Value>().await.unwrap()["reason"],
                "This promo code has reached its usage limit."
            ),
            other => panic!("unexpected {other}: {}", answer.text().await.unwrap()),
        }
    }
    assert_eq!(won, 1, "exactly one of 20 got the last use");
    assert_eq!(count(&app, "SELECT COUNT(*) FROM orders").await, 1);
}

// ---- rule 2: no hoarding ----

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sixty_parallel_checkouts_by_one_account_place_at_most_two(#[case] backend: Backend) {
    let app = shop(backend, vec![(1, product("Raccoon", "10.00", Some(100)))]).await;
    // sixty browsers, one Discord account: the account's cap holds across sessions
    let clients: Vec<reqwest::Client> = (0..60).map(|_| browser()).collect();
    for chunk in clients.chunks(20) {
        join_all(chunk.iter().map(|c| link_discord(&app, c, 0))).await;
    }
    let body = payload(&[(1, 5)], 50.0);
    let answers = join_all(clients.iter().map(|c| checkout(&app, c, &body))).await;
    let mut placed = 0;
    let mut capped = 0;
    for answer in answers {
        match answer.status().as_u16() {
            200 => placed += 1,
            429 => {
                let retry: u64 = answer.headers()["retry-after"]
                    .to_str()
                    .unwrap()
                    .parse()
                    .unwrap();
                // the oldest unpaid order is swept 35 minutes after it was placed
                assert!((30 * 60..=35 * 60).contains(&retry), "{retry}");
                let body: Value = answer.json().await.unwrap();
                assert_eq!(
                    body["message"],
                    "You already have 2 unpaid orders on this Discord account. Pay or cancel \
                     one before placing another."
                );
                capped += 1;
            }
            other => panic!("unexpected {other}: {}", answer.text().await.unwrap()),
        }
    }
    assert_eq!((placed, capped), (2, 58));
    assert_eq!(stock(&app, 1).await, Some(90), "two orders hold stock");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn unpaid_orders_are_capped_per_browser_and_per_address(#[case] backend: Backend) {
    let app = shop_with(
        backend,
        vec![(1, product("Raccoon", "10.00", Some(100)))],
        |s| {
            s.checkout.max_pending_per_ip = 3;
        },
    )
    .await;
    let body = payload(&[(1, 1)], 10.0);

    // one browser, two Discord accounts: the browser's cap
    let client = browser();
    link_discord(&app, &client, 0).await;
    let first = order_id_of(checkout(&app, &client, &body).await).await;
    order_id_of(checkout(&app, &client, &body).await).await;
    link_discord(&app, &client, 1).await;
    let third = checkout(&app, &client, &body).await;
    assert_eq!(third.status(), 429);
    assert!(third.headers().contains_key("retry-after"));
    assert_eq!(
        third.json::<Value>().await.unwrap()["message"],
        "You already have 2 unpaid orders on this browser. Pay or cancel one before placing \
         another."
    );
    // paying one frees a place
    client
        .post(app.url(&format!("/dev/pay/{first}/pay")))
        .send()
        .await
        .unwrap();
    order_id_of(checkout(&app, &client, &body).await).await;

    // another browser and account from the same address: the address's cap (3)
    let other = browser();
    link_discord(&app, &other, 2).await;
    order_id_of(checkout(&app, &other, &body).await).await;
    let over = checkout(&app, &other, &body).await;
    assert_eq!(over.status(), 429);
    assert_eq!(
        over.json::<Value>().await.unwrap()["message"],
        "You already have 3 unpaid orders on this network address. Pay or cancel one before \
         placing another."
    );
    // X-Forwarded-For from an untrusted peer changes nothing
    let forged = other
        .post(app.url("/api/stripe/checkout"))
        .header("X-Forwarded-For", "203.0.113.9")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 429);
    assert_eq!(
        count(&app, "SELECT COUNT(*) FROM orders WHERE status = 'pending'").await,
        3
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_hoarding_cart_is_refused_and_any_cart_is_priced_in_constant_statements(
    #[case] backend: Backend,
) {
    let products: Vec<(i64, catalog::ProductDraft)> = (1..=50)
        .map(|id| (id, product(&format!("Pet {id}"), "1.00", Some(1000))))
        .collect();
    let app = quiet_shop(backend, products).await;
    let client = browser();
    link_discord(&app, &client, 0).await;

    // 2,500 lines (each as short as JSON allows, to fit the 64 KiB body limit): refused before
    // anything is priced
    let mut hoard = payload(&[], 2500.0);
    hoard["items"] = (0..2500)
        .map(|i| json!({"id": i % 50 + 1, "qty": 1}))
        .collect();
    let before = app.db_queries.load(Ordering::SeqCst);
    let started = Instant::now();
    let response = checkout(&app, &client, &hoard).await;
    let took = started.elapsed();
    let statements = app.db_queries.load(Ordering::SeqCst) - before;
    assert_eq!(response.status(), 422);
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body["errors"]["items"],
        json!(["An order can hold at most 50 different products."])
    );
    assert!(took < Duration::from_millis(500), "took {took:?}");
    assert!(
        statements <= 2,
        "no product is read ({statements} statements, the session's only)"
    );

    // 21 of one product (in two lines): refused on the quantity
    let response = checkout(&app, &client, &payload(&[(1, 15), (1, 6)], 21.0)).await;
    assert_eq!(response.status(), 422);
    assert_eq!(
        response.json::<Value>().await.unwrap()["errors"]["qty"],
        json!(["You can buy at most 20 of one product."])
    );
    assert_eq!(count(&app, "SELECT COUNT(*) FROM orders").await, 0);

    // pricing one line and fifty lines takes the same statements
    let statements_for = |items: Vec<(i64, u32)>| {
        let app = &app;
        let client = &client;
        async move {
            let total = items.len() as f64;
            let before = app.db_queries.load(Ordering::SeqCst);
            order_id_of(checkout(app, client, &payload(&items, total)).await).await;
            app.db_queries.load(Ordering::SeqCst) - before
        }
    };
    // the browser's first order does one-time work (its buyer token) that is no part of pricing
    statements_for(vec![(2, 1)]).await;
    let one = statements_for(vec![(1, 1)]).await;
    let fifty = statements_for((1..=50).map(|id| (id, 1)).collect()).await;
    assert_eq!(
        fifty,
        one + 49,
        "a reservation per finite product, nothing else per line ({one} vs {fifty})"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_cart_of_unlimited_products_is_priced_in_the_same_statements_whatever_its_length(
    #[case] backend: Backend,
) {
    let products: Vec<(i64, catalog::ProductDraft)> = (1..=50)
        .map(|id| (id, product(&format!("Seed {id}"), "1.00", None)))
        .collect();
    let app = quiet_shop(backend, products).await;
    let client = browser();
    link_discord(&app, &client, 0).await;
    // One order first: the first checkout of a browser does one-time work (its session's
    // buyer token) that is no part of pricing.
    order_id_of(checkout(&app, &client, &payload(&[(1, 1)], 1.0)).await).await;
    let mut counts = Vec::new();
    for items in [
        vec![(1, 1)],
        (1..=50).map(|id| (id, 1)).collect::<Vec<(i64, u32)>>(),
    ] {
        let total = items.len() as f64;
        let before = app.db_queries.load(Ordering::SeqCst);
        order_id_of(checkout(&app, &client, &payload(&items, total)).await).await;
        counts.push(app.db_queries.load(Ordering::SeqCst) - before);
    }
    assert_eq!(counts[0], counts[1], "1 line vs 50 lines: {counts:?}");
}

// ---- rule 3: cancel means cancelled ----

/// A fake Stripe: sessions `cs_test_{n}`; expiring answers as `expire` says.
struct FakeStripe {
    next: std::sync::atomic::AtomicUsize,
    /// "expired": the session is expired; "complete": Stripe refuses (400) and the session
    /// reads as paid.
    expire: &'static str,
}

fn session(id: &str, status: &str) -> Value {
    let mut session: Value = serde_json::from_str(SESSION_FIXTURE).unwrap();
    session["id"] = json!(id);
    session["url"] = json!(format!("https://checkout.stripe.com/c/pay/{id}"));
    session["status"] = json!(status);
    if status == "complete" {
        session["payment_status"] = json!("paid");
    }
    session
}

impl Respond for FakeStripe {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let path = request.url.path();
        if path == "/v1/checkout/sessions" {
            let n = self.next.fetch_add(1, Ordering::SeqCst);
            return ResponseTemplate::new(200)
                .set_body_json(session(&format!("cs_test_{n}"), "open"));
        }
        let id = path
            .trim_start_matches("/v1/checkout/sessions/")
            .trim_end_matches("/expire");
        match (request.method.as_str(), self.expire) {
            ("POST", "expired") => ResponseTemplate::new(200).set_body_json(session(id, "expired")),
            ("POST", _) => ResponseTemplate::new(400).set_body_json(json!({"error": {
                "type": "invalid_request_error",
                "message": "This Checkout Session is not in an expirable state."
            }})),
            _ => ResponseTemplate::new(200).set_body_json(session(id, self.expire)),
        }
    }
}

async fn stripe_app(backend: Backend, expire: &'static str) -> (TestApp, MockServer) {
    let stripe = MockServer::start().await;
    Mock::given(wiremock::matchers::path_regex("^/v1/checkout/sessions"))
        .respond_with(FakeStripe {
            next: std::sync::atomic::AtomicUsize::new(0),
            expire,
        })
        .mount(&stripe)
        .await;
    let uri = stripe.uri();
    let app = shop_with(
        backend,
        vec![(1, product("Raccoon", "10.00", Some(5)))],
        |s| {
            s.stripe.secret_key = "sk_test_fake".to_owned().into();
            s.stripe.webhook_secret = WEBHOOK_SECRET.to_owned().into();
            s.stripe.api_base = uri;
        },
    )
    .await;
    (app, stripe)
}

async fn expire_calls(stripe: &MockServer) -> Vec<String> {
    stripe
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|r| r.method.as_str() == "POST" && r.url.path().ends_with("/expire"))
        .map(|r| r.url.path().to_owned())
        .collect()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn cancelling_an_order_expires_its_stripe_session(#[case] backend: Backend) {
    let (app, stripe) = stripe_app(backend, "expired").await;
    let client = browser();
    link_discord(&app, &client, 0).await;
    let id = order_id_of(checkout(&app, &client, &payload(&[(1, 2)], 20.0)).await).await;
    assert_eq!(stock(&app, 1).await, Some(3));

    let cancelled = cancel(&app, &client, id).await;
    assert_eq!(cancelled.status(), 200);
    assert_eq!(status(&app, id).await, "cancelled");
    assert_eq!(stock(&app, 1).await, Some(5));
    assert_eq!(
        expire_calls(&stripe).await,
        ["/v1/checkout/sessions/cs_test_0/expire"],
        "the session can no longer be paid"
    );

    // the sweeper's expiry closes the session too
    let stale = order_id_of(checkout(&app, &client, &payload(&[(1, 1)], 10.0)).await).await;
    app.clock.advance(Duration::from_secs(36 * 60));
    assert_eq!(app.sweeper.run_once().await.unwrap(), 1);
    assert_eq!(status(&app, stale).await, "expired");
    assert_eq!(
        expire_calls(&stripe).await,
        [
            "/v1/checkout/sessions/cs_test_0/expire",
            "/v1/checkout/sessions/cs_test_1/expire"
        ]
    );
    assert_eq!(stock(&app, 1).await, Some(5));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_session_paid_before_the_cancel_makes_the_order_paid_not_cancelled(
    #[case] backend: Backend,
) {
    let (app, stripe) = stripe_app(backend, "complete").await;
    let client = browser();
    link_discord(&app, &client, 0).await;
    let id = order_id_of(checkout(&app, &client, &payload(&[(1, 2)], 20.0)).await).await;

    let cancelled = cancel(&app, &client, id).await;
    assert_eq!(cancelled.status(), 409);
    assert_eq!(
        cancelled.json::<Value>().await.unwrap()["message"],
        "This order has been paid and can no longer be cancelled."
    );
    assert_eq!(status(&app, id).await, "paid");
    assert_eq!(stock(&app, 1).await, Some(3), "the sale keeps its stock");
    assert_eq!(expire_calls(&stripe).await.len(), 1);
    // the sweeper, too, pays rather than expires
    let late = order_id_of(checkout(&app, &client, &payload(&[(1, 1)], 10.0)).await).await;
    app.clock.advance(Duration::from_secs(36 * 60));
    assert_eq!(app.sweeper.run_once().await.unwrap(), 0);
    assert_eq!(status(&app, late).await, "paid");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn when_stripe_cannot_expire_the_session_the_order_stays_pending(#[case] backend: Backend) {
    let stripe = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/checkout/sessions"))
        .respond_with(ResponseTemplate::new(200).set_body_json(session("cs_test_down", "open")))
        .mount(&stripe)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/checkout/sessions/cs_test_down/expire"))
        .respond_with(ResponseTemplate::new(503).set_body_json(json!({"error": {
            "type": "api_error", "message": "down"
        }})))
        .mount(&stripe)
        .await;
    let uri = stripe.uri();
    let app = shop_with(
        backend,
        vec![(1, product("Raccoon", "10.00", Some(5)))],
        |s| {
            s.stripe.secret_key = "sk_test_fake".to_owned().into();
            s.stripe.api_base = uri;
        },
    )
    .await;
    let client = browser();
    link_discord(&app, &client, 0).await;
    let id = order_id_of(checkout(&app, &client, &payload(&[(1, 2)], 20.0)).await).await;
    let cancelled = cancel(&app, &client, id).await;
    assert_eq!(cancelled.status(), 503);
    assert_eq!(status(&app, id).await, "pending", "it could still be paid");
    assert_eq!(stock(&app, 1).await, Some(3));
}

/// A fake PayPal whose capture takes `captured` USD with capture status `capture_status`.
async fn paypal_capturing(capture_status: &str, captured: &str) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/oauth2/token"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "access_token": "A21AAtoken", "token_type": "Bearer", "expires_in": 32400
        })))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v2/checkout/orders"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "PAYPAL-ORDER-1",
            "status": "PAYER_ACTION_REQUIRED",
            "links": [{"href": "https://www.paypal.com/checkoutnow?token=PAYPAL-ORDER-1", "rel": "payer-action", "method": "GET"}]
        })))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v2/checkout/orders/PAYPAL-ORDER-1/capture"))
        .respond_with(ResponseTemplate::new(201).set_body_json(json!({
            "id": "PAYPAL-ORDER-1",
            "status": "COMPLETED",
            "purchase_units": [{"payments": {"captures": [{
                "id": "CAP1", "status": capture_status,
                "amount": {"currency_code": "USD", "value": captured}
            }]}}]
        })))
        .mount(&server)
        .await;
    server
}

async fn staff_hook() -> MockServer {
    let discord = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/webhooks/1/token"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&discord)
        .await;
    discord
}

async fn staff_messages(discord: &MockServer, at_least: usize) -> Vec<String> {
    eventually(&format!("staff hear {at_least} messages"), || async {
        let received = discord.received_requests().await.unwrap();
        (received.len() >= at_least).then(|| {
            received
                .iter()
                .map(|r| String::from_utf8_lossy(&r.body).to_string())
                .collect()
        })
    })
    .await
}

#[rstest]
#[case::sqlite(Backend::Sqlite, "COMPLETED", "1.00")]
#[case::postgres(Backend::Postgres, "COMPLETED", "1.00")]
#[case::sqlite_pending(Backend::Sqlite, "PENDING", "21.57")]
#[case::postgres_pending(Backend::Postgres, "PENDING", "21.57")]
#[tokio::test]
async fn a_paypal_capture_that_does_not_match_or_is_pending_is_held_for_staff(
    #[case] backend: Backend,
    #[case] capture_status: &str,
    #[case] captured: &str,
) {
    let paypal = paypal_capturing(capture_status, captured).await;
    let staff = staff_hook().await;
    let (uri, hook) = (
        paypal.uri(),
        format!("{}/api/webhooks/1/token", staff.uri()),
    );
    let app = shop_with(backend, vec![(1, product("Owl", "10.00", Some(3)))], |s| {
        s.paypal.client_id = "pp-client".into();
        s.paypal.client_secret = "pp-secret".to_owned().into();
        s.paypal.api_base = uri;
        s.paypal.enabled = true;
        s.discord.notify_webhook_url = hook.into();
    })
    .await;
    let client = browser();
    link_discord(&app, &client, 0).await;
    let response = app
        .post_json(&client, "/api/checkout/paypal", &payload(&[(1, 2)], 20.0))
        .await;
    let id = order_id_of(response).await;

    let back = client
        .get(app.url(&format!(
            "/api/paypal/return?order_id={id}&token=PAYPAL-ORDER-1"
        )))
        .send()
        .await
        .unwrap();
    assert_eq!(back.status(), 303);
    // never paid on a capture that is not the order's money
    assert_eq!(status(&app, id).await, "pending");
    let order: Value = client
        .get(app.url(&format!("/api/orders/{id}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(order["status"], "pending");
    assert_eq!(order["status_label"], "Payment under review");
    let told = staff_messages(&staff, 1).await;
    assert!(
        told[0].contains(&format!("Order #{id} needs a look")),
        "{told:?}"
    );
    assert!(told[0].contains("http://localhost:8080/admin/orders"));

    // neither the sweeper nor the shopper lets it go: the money may be (or become) ours
    app.clock.advance(Duration::from_secs(60 * 60));
    assert_eq!(app.sweeper.run_once().await.unwrap(), 0);
    assert_eq!(status(&app, id).await, "pending");
    assert_eq!(cancel(&app, &client, id).await.status(), 409);
    assert_eq!(stock(&app, 1).await, Some(1), "its stock stays held");
}

// ---- rule 4: the promo check and the Roblox lookup are limited per address ----

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_burst_of_promo_checks_and_roblox_lookups_is_cut_at_the_limit(#[case] backend: Backend) {
    let app = shop(backend, vec![]).await;
    // both are counted in fixed minutes: start at the beginning of one
    app.to_the_start_of_a_window(Duration::from_secs(60));
    let client = browser();
    link_discord(&app, &client, 0).await;
    let (app_ref, client_ref) = (&app, &client);
    let promo_checks = join_all((0..30).map(|i| async move {
        let body = json!({"promo_code": format!("GUESS{i}")});
        app_ref
            .post_json(client_ref, "/api/validate-promo", &body)
            .await
    }))
    .await;
    let statuses: Vec<u16> = promo_checks.iter().map(|r| r.status().as_u16()).collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == 422).count(),
        10,
        "{statuses:?}"
    );
    assert_eq!(statuses.iter().filter(|s| **s == 429).count(), 20);
    let refused = promo_checks
        .into_iter()
        .find(|r| r.status() == 429)
        .unwrap();
    let retry: u64 = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry));

    let lookups = join_all((0..30).map(|i| async move {
        let body = json!({"username": format!("Player{i}")});
        app_ref
            .post_json(client_ref, "/api/roblox/avatar", &body)
            .await
    }))
    .await;
    let statuses: Vec<u16> = lookups.iter().map(|r| r.status().as_u16()).collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        20,
        "{statuses:?}"
    );
    assert_eq!(statuses.iter().filter(|s| **s == 429).count(), 10);
    assert!(lookups
        .iter()
        .filter(|r| r.status() == 429)
        .all(|r| r.headers().contains_key("retry-after")));

    // ---- rule 5: the sweeper forgets windows older than two days ----
    assert!(count(&app, "SELECT COUNT(*) FROM rate_limits").await > 0);
    app.clock.advance(Duration::from_secs(3 * 24 * 60 * 60));
    app.sweeper.run_once().await.unwrap();
    assert_eq!(count(&app, "SELECT COUNT(*) FROM rate_limits").await, 0);
    // and a new minute lets checks through again
    let again = app
        .post_json(
            &client,
            "/api/validate-promo",
            &json!({"promo_code": "GUESS"}),
        )
        .await;
    assert_eq!(again.status(), 422);
}

// ---- issue 32 item 4: an IPv6 client counts as its /64 in every per-address limit ----

/// The `i`-th address of one IPv6 /64 (2001:db8:32:4::/64): a client rotating through the
/// addresses of its own network, as any IPv6 subscriber may.
fn in_one_64(i: usize) -> String {
    format!("2001:db8:32:4:{:x}:{:x}:{:x}:1", i + 1, i * 31 + 7, i + 100)
}

/// A shop behind a trusted proxy (the local one): `X-Forwarded-For` names the client.
async fn proxied_shop(backend: Backend, discord_api: Option<String>) -> TestApp {
    shop_with(
        backend,
        vec![(1, product("Raccoon", "10.00", Some(1000)))],
        |s| {
            s.stripe.webhook_secret = WEBHOOK_SECRET.to_owned().into();
            s.server.trusted_proxies = vec!["127.0.0.1/32".into()];
            if let Some(base) = discord_api {
                s.discord.client_id = "client-1".into();
                s.discord.client_secret = "secret-1".to_owned().into();
                s.discord.authorize_url = "https://discord.example/oauth2/authorize".into();
                s.discord.api_base = base;
            }
        },
    )
    .await
}

/// POSTs `body` to `path` from `address` (through the trusted proxy).
async fn post_from(
    app: &TestApp,
    client: &reqwest::Client,
    path: &str,
    body: &Value,
    address: &str,
) -> reqwest::Response {
    client
        .post(app.url(path))
        .header("X-Forwarded-For", address)
        .json(body)
        .send()
        .await
        .unwrap()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn promo_checks_and_roblox_lookups_count_an_ipv6_client_by_its_64(#[case] backend: Backend) {
    let app = proxied_shop(backend, None).await;
    // the shipped limits (config/default.toml)
    let promo_limit = app.settings.checkout.promo_checks_per_minute as usize;
    let lookup_limit = app.settings.checkout.roblox_lookups_per_minute as usize;
    assert_eq!((promo_limit, lookup_limit), (10, 20));
    app.to_the_start_of_a_window(Duration::from_secs(60));
    let client = browser();
    link_discord(&app, &client, 0).await;

    // one IPv4 address, then one /64 whose every request comes from a new address of it: both
    // are refused at the same count
    for (who, address) in [
        (
            "ipv4",
            Box::new(|_| "198.51.100.7".to_owned()) as Box<dyn Fn(usize) -> String>,
        ),
        ("ipv6 /64", Box::new(in_one_64)),
    ] {
        for i in 0..promo_limit {
            let body = json!({"promo_code": format!("GUESS{i}")});
            let answer = post_from(&app, &client, "/api/validate-promo", &body, &address(i)).await;
            assert_eq!(answer.status(), 422, "{who}: promo check {i}");
        }
        let body = json!({"promo_code": "GUESS"});
        let refused = post_from(
            &app,
            &client,
            "/api/validate-promo",
            &body,
            &address(promo_limit),
        )
        .await;
        assert_eq!(refused.status(), 429, "{who}: one promo check too many");
        assert!(refused.headers().contains_key("retry-after"));

        for i in 0..lookup_limit {
            let body = json!({"username": format!("Player{i}")});
            let answer = post_from(&app, &client, "/api/roblox/avatar", &body, &address(i)).await;
            assert_eq!(answer.status(), 200, "{who}: lookup {i}");
        }
        let body = json!({"username": "Player"});
        let refused = post_from(
            &app,
            &client,
            "/api/roblox/avatar",
            &body,
            &address(lookup_limit),
        )
        .await;
        assert_eq!(refused.status(), 429, "{who}: one lookup too many");
    }
    // the next /64 is someone else
    let body = json!({"promo_code": "GUESS"});
    let other = post_from(
        &app,
        &client,
        "/api/validate-promo",
        &body,
        "2001:db8:32:5::1",
    )
    .await;
    assert_eq!(other.status(), 422);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn unpaid_orders_count_an_ipv6_client_by_its_64_and_keep_its_whole_address(
    #[case] backend: Backend,
) {
    let (_discord, base) = discord_accounts().await;
    let app = proxied_shop(backend, Some(base)).await;
    // the shipped cap (config/default.toml)
    let cap = app.settings.checkout.max_pending_per_ip as usize;
    assert_eq!(cap, 20);
    let body = payload(&[(1, 1)], 10.0);
    // a browser and a Discord account of its own for every order, each from a new address of
    // one /64: only the address's cap is shared
    let clients: Vec<reqwest::Client> = (0..=cap).map(|_| browser()).collect();
    for (i, client) in clients.iter().enumerate() {
        link_account(&app, client, 320_000 + i as u64).await;
    }
    for (i, client) in clients.iter().take(cap).enumerate() {
        let placed = post_from(&app, client, "/api/stripe/checkout", &body, &in_one_64(i)).await;
        order_id_of(placed).await;
    }
    let over = post_from(
        &app,
        &clients[cap],
        "/api/stripe/checkout",
        &body,
        &in_one_64(cap),
    )
    .await;
    assert_eq!(over.status(), 429);
    assert!(over.headers().contains_key("retry-after"));
    assert_eq!(
        over.json::<Value>().await.unwrap()["message"],
        format!(
            "You already have {cap} unpaid orders on this network address. Pay or cancel one \
             before placing another."
        )
    );
    // each order keeps its client's whole address (evidence), and the /64 it counted under
    assert_eq!(
        count(&app, "SELECT COUNT(DISTINCT client_ip) FROM orders").await,
        cap as i64
    );
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM orders WHERE client_net = '2001:db8:32:4::/64'"
        )
        .await,
        cap as i64
    );
    assert_eq!(
        count(
            &app,
            &format!(
                "SELECT COUNT(*) FROM orders WHERE client_ip = '{}'",
                in_one_64(3)
            )
        )
        .await,
        1
    );
    // the next /64 is someone else
    let other = post_from(
        &app,
        &clients[cap],
        "/api/stripe/checkout",
        &body,
        "2001:db8:32:5::1",
    )
    .await;
    order_id_of(other).await;
}
