//! Checkout through HTTP on SQLite and PostgreSQL: the dev payment provider end to end, the
//! contract's refusals, stock that is never oversold under concurrency, the sweeper, Stripe
//! against a fake Stripe, and production's refusal to start with the local stand-ins.

use std::time::Duration;

use futures::future::join_all;
use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::checkout_support::*;
use crate::helpers::{eventually, TestApp};

async fn order_id_of(response: reqwest::Response) -> i64 {
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    body["order_id"].as_i64().unwrap()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_shopper_pays_on_the_dev_page_and_the_order_turns_paid(#[case] backend: Backend) {
    let app = shop(
        backend,
        vec![
            (1, product("Raccoon", "10.00", Some(5))),
            (2, product("Sheckles", "2.50", None)),
        ],
    )
    .await;
    let client = browser();
    link_discord(&app, &client, 0).await;

    let response = checkout(&app, &client, &payload(&[(1, 2), (2, 1)], 22.5)).await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    let id = body["order_id"].as_i64().unwrap();
    assert_eq!(
        body["url"],
        format!("/dev/pay/{id}"),
        "the dev provider's page by a same-origin path: it works on whatever host the shopper \
         used (127.0.0.1, a LAN address), not only on site.public_url"
    );
    assert_eq!(stock(&app, 1).await, Some(3), "reserved at checkout");
    // the storefront sees the reservation at once
    let raccoon = app.get_json("/api/products/1").await;
    assert_eq!(raccoon["stock"], 3);

    let order: Value = client
        .get(app.url(&format!("/api/orders/{id}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(order["status"], "pending");
    assert_eq!(order["status_label"], "Pending");
    assert_eq!(order["subtotal"], 22.5);
    assert_eq!(order["discount"], 0.0);
    // (22.50 + 0.30) / 0.956 = 23.849... -> 23.85
    assert_eq!(order["total"], 23.85);
    assert_eq!(order["fee"], 1.35);
    assert_eq!(order["roblox_username"], "Builder_Bob");
    assert_eq!(
        order["items"][0],
        json!({"id": 1, "name": "Raccoon", "qty": 2, "unit_price": 10.0, "unit_price_paid": 10.0})
    );
    // paid in the base currency
    assert_eq!(order["currency"], "USD");
    assert_eq!(order["amount_paid"], 23.85);
    assert_eq!(order["rate"], "1");
    assert!(order["paid_at"].is_null());

    let page = client
        .get(app.url(&format!("/dev/pay/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains(&format!("action=\"/dev/pay/{id}/pay\"")));
    assert!(html.contains(&format!("action=\"/dev/pay/{id}/cancel\"")));
    assert!(html.contains("$23.85"));
    assert!(
        !html.contains("<script"),
        "no script: the CSP allows none inline"
    );

    // a same-origin form post, as the browser sends it
    let paid = client
        .post(app.url(&format!("/dev/pay/{id}/pay")))
        .header("Origin", &app.address)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .send()
        .await
        .unwrap();
    assert_eq!(paid.status(), 303);
    assert_eq!(
        paid.headers()["location"],
        format!("/success?order_id={id}").as_str()
    );
    assert_eq!(status(&app, id).await, "paid");
    let order: Value = client
        .get(app.url(&format!("/api/orders/{id}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(order["status_label"], "Paid");
    assert!(order["paid_at"].is_string());
    assert_eq!(
        stock(&app, 1).await,
        Some(3),
        "a sale keeps the reservation"
    );

    // another site's form cannot pay or cancel
    let foreign = client
        .post(app.url(&format!("/dev/pay/{id}/cancel")))
        .header("Origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status(), 403);
    assert_eq!(status(&app, id).await, "paid");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn cancel_on_the_dev_page_releases_the_stock_once(#[case] backend: Backend) {
    let app = shop(backend, vec![(1, product("Raccoon", "10.00", Some(5)))]).await;
    let client = browser();
    link_discord(&app, &client, 0).await;
    let id = order_id_of(checkout(&app, &client, &payload(&[(1, 2)], 20.0)).await).await;
    assert_eq!(stock(&app, 1).await, Some(3));

    let cancelled = client
        .post(app.url(&format!("/dev/pay/{id}/cancel")))
        .header("Origin", &app.address)
        .send()
        .await
        .unwrap();
    assert_eq!(cancelled.status(), 303);
    assert_eq!(
        cancelled.headers()["location"],
        format!("/cancel?order_id={id}").as_str()
    );
    assert_eq!(stock(&app, 1).await, Some(5));
    assert_eq!(status(&app, id).await, "cancelled");

    // the /cancel page cancels again: 409, and the stock is not released twice
    let again = app
        .post_json(&client, &format!("/api/orders/{id}/cancel"), &json!({}))
        .await;
    assert_eq!(again.status(), 409);
    assert_eq!(stock(&app, 1).await, Some(5));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn only_the_creating_session_or_the_owner_sees_and_cancels_an_order(
    #[case] backend: Backend,
) {
    let app = shop(backend, vec![(1, product("Raccoon", "10.00", Some(5)))]).await;
    let owner = app.client_with_role(accounts::Role::Customer).await;
    link_discord(&app, &owner, 1).await;
    let id = order_id_of(checkout(&app, &owner, &payload(&[(1, 1)], 10.0)).await).await;

    let stranger = browser();
    let seen = stranger
        .get(app.url(&format!("/api/orders/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(seen.status(), 404);
    let cancel = app
        .post_json(&stranger, &format!("/api/orders/{id}/cancel"), &json!({}))
        .await;
    assert_eq!(cancel.status(), 404);
    assert_eq!(app.get("/api/orders/999999").await.status(), 404);
    assert_eq!(app.get("/api/orders/abc").await.status(), 404);

    // the profile lists it with its label; the user id came from the session, not the payload
    let profile: Value = owner
        .get(app.url("/api/profile"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let orders = profile["user"]["orders"].as_array().unwrap();
    assert_eq!(orders.len(), 1);
    assert_eq!(orders[0]["id"], id);
    assert_eq!(orders[0]["status"], "pending");
    assert_eq!(orders[0]["status_label"], "Pending");
    assert_eq!(orders[0]["total"], 10.77);

    let cancelled = app
        .post_json(&owner, &format!("/api/orders/{id}/cancel"), &json!({}))
        .await;
    assert_eq!(cancelled.status(), 200);
    let body: Value = cancelled.json().await.unwrap();
    assert_eq!(body["status"], "cancelled");
    assert_eq!(body["status_label"], "Cancelled");
    assert_eq!(stock(&app, 1).await, Some(5));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn checkout_refuses_what_the_contract_refuses(#[case] backend: Backend) {
    let app = shop(
        backend,
        vec![
            (1, product("Raccoon", "10.00", Some(2))),
            (2, product("T-Rex", "5.00", Some(0))),
        ],
    )
    .await;
    let client = browser();

    // no linked Discord account: 422 with the spec's message
    let response = checkout(&app, &client, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(response.status(), 422);
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body["message"],
        "Please enter your Roblox username and email, and link Discord."
    );
    assert!(body["errors"]["discord"].is_array());

    link_discord(&app, &client, 0).await;
    let mut missing = payload(&[(1, 1)], 10.0);
    missing["email"] = json!("  ");
    missing["roblox_username"] = Value::Null;
    let response = checkout(&app, &client, &missing).await;
    assert_eq!(response.status(), 422);
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body["message"],
        "Please enter your Roblox username and email, and link Discord."
    );
    assert!(body["errors"]["email"].is_array());
    assert!(body["errors"]["roblox_username"].is_array());

    let mut malformed = payload(&[(1, 1)], 10.0);
    malformed["roblox_username"] = json!("a b");
    let response = checkout(&app, &client, &malformed).await;
    assert_eq!(response.status(), 422);

    // stock: the spec's lines
    let response = checkout(&app, &client, &payload(&[(1, 3), (2, 1)], 35.0)).await;
    assert_eq!(response.status(), 409);
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body["message"],
        "Please fix the following issues before continuing:"
    );
    assert_eq!(
        body["problems"],
        json!([
            "- Raccoon has only 2 in stock, but you selected 3.",
            "- T-Rex is out of stock."
        ])
    );

    // a total off by more than a cent: the fresh cart
    let response = checkout(&app, &client, &payload(&[(1, 1)], 9.98)).await;
    assert_eq!(response.status(), 409);
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body["message"],
        "Prices have changed. Please review your order."
    );
    assert_eq!(body["cart"]["total"], 10.0);
    assert_eq!(body["cart"]["grand_total"], 10.77);
    assert_eq!(body["cart"]["fee"], 0.77);
    assert_eq!(
        body["cart"]["lines"],
        json!([{"id": 1, "name": "Raccoon", "unit_price": 10.0, "qty": 1, "line_total": 10.0,
            "unit_price_paid": 10.0}])
    );
    assert_eq!(body["cart"]["currency"], "USD");
    assert_eq!(body["cart"]["paid"]["grand_total"], 10.77);
    // a cent off is fine
    let response = checkout(&app, &client, &payload(&[(1, 1)], 9.99)).await;
    assert_eq!(response.status(), 200);

    assert_eq!(
        stock(&app, 1).await,
        Some(1),
        "only the accepted order reserved"
    );
    assert_eq!(stock(&app, 2).await, Some(0));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_forged_discord_id_is_ignored(#[case] backend: Backend) {
    let app = shop(backend, vec![(1, product("Raccoon", "10.00", Some(5)))]).await;
    let client = browser();
    let linked = link_discord(&app, &client, 2).await;
    let mut body = payload(&[(1, 1)], 10.0);
    body["discord_id"] = json!("123456789012345678");
    let id = order_id_of(checkout(&app, &client, &body).await).await;

    use orders::OrderRepository;
    let order = app.store.order(orders::OrderId::new(id)).await.unwrap();
    assert_eq!(
        order.buyer.discord.as_ref().unwrap().discord_id.as_str(),
        linked["discord_id"].as_str().unwrap()
    );
    assert_eq!(order.buyer.discord.as_ref().unwrap().username, "petkeeper");
    assert_eq!(
        order.buyer.user_id, None,
        "the payload's user_id is ignored too"
    );
}

/// 200 shoppers, each with their own session and linked Discord account.
async fn shoppers(app: &TestApp, count: usize) -> Vec<reqwest::Client> {
    let mut clients = Vec::with_capacity(count);
    for chunk in 0..count.div_ceil(20) {
        let batch: Vec<reqwest::Client> =
            (0..20.min(count - chunk * 20)).map(|_| browser()).collect();
        join_all(
            batch
                .iter()
                .enumerate()
                .map(|(i, c)| link_discord(app, c, i % 3)),
        )
        .await;
        clients.extend(batch);
    }
    clients
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_hundred_concurrent_checkouts_sell_exactly_the_ten_in_stock(#[case] backend: Backend) {
    let app = uncapped_shop(backend, vec![(1, product("Raccoon", "10.00", Some(10)))]).await;
    let clients = shoppers(&app, 200).await;

    let body = payload(&[(1, 1)], 10.0);
    let answers = join_all(clients.iter().map(|client| checkout(&app, client, &body))).await;
    let mut sold = 0;
    let mut refused = 0;
    for answer in answers {
        match answer.status().as_u16() {
            200 => sold += 1,
            409 => {
                let body: Value = answer.json().await.unwrap();
                assert_eq!(body["problems"], json!(["- Raccoon is out of stock."]));
                refused += 1;
            }
            other => panic!("unexpected {other}: {}", answer.text().await.unwrap()),
        }
    }
    assert_eq!(sold, 10);
    assert_eq!(refused, 190);
    assert_eq!(stock(&app, 1).await, Some(0));
    let pending = count(&app, "SELECT COUNT(*) FROM orders WHERE status = 'pending'").await;
    assert_eq!(pending, 10);
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

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_bundle_and_its_components_sold_at_once_never_oversell(#[case] backend: Backend) {
    let mut bundle = product("Starter Bundle", "15.00", Some(5));
    bundle.related_ids = vec![catalog::ProductId::new(1), catalog::ProductId::new(2)];
    let app = uncapped_shop(
        backend,
        vec![
            (1, product("Owl", "10.00", Some(4))),
            (2, product("Bee", "8.00", None)),
            (3, bundle),
        ],
    )
    .await;
    let clients = shoppers(&app, 40).await;
    let app = &app;
    let answers = join_all(clients.iter().enumerate().map(|(i, client)| {
        let body = if i % 2 == 0 {
            payload(&[(3, 1)], 15.0)
        } else {
            payload(&[(1, 1)], 10.0)
        };
        async move { checkout(app, client, &body).await.status().as_u16() }
    }))
    .await;
    let sold = answers.iter().filter(|s| **s == 200).count();
    assert!(
        answers.iter().all(|s| *s == 200 || *s == 409),
        "{answers:?}"
    );
    // every sale takes one owl (a bundle takes one with it): 4 owls, 4 sales
    assert_eq!(sold, 4, "{answers:?}");
    assert_eq!(stock(app, 1).await, Some(0));
    let bundles_sold = 5 - stock(app, 3).await.unwrap();
    assert!((0..=4).contains(&bundles_sold));
    assert_eq!(stock(app, 2).await, None, "unlimited stays unlimited");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_sweeper_expires_stale_orders_and_releases_their_stock_once(#[case] backend: Backend) {
    let app = shop(backend, vec![(1, product("Raccoon", "10.00", Some(5)))]).await;
    let client = browser();
    link_discord(&app, &client, 0).await;
    let stale = order_id_of(checkout(&app, &client, &payload(&[(1, 2)], 20.0)).await).await;
    let paid = order_id_of(checkout(&app, &client, &payload(&[(1, 1)], 10.0)).await).await;
    client
        .post(app.url(&format!("/dev/pay/{paid}/pay")))
        .send()
        .await
        .unwrap();
    assert_eq!(stock(&app, 1).await, Some(2));

    assert_eq!(
        app.sweeper.run_once().await.unwrap(),
        0,
        "nothing is stale yet"
    );
    app.clock.advance(Duration::from_secs(29 * 60));
    assert_eq!(
        app.sweeper.run_once().await.unwrap(),
        0,
        "still inside the window"
    );
    app.clock.advance(Duration::from_secs(7 * 60));
    assert_eq!(app.sweeper.run_once().await.unwrap(), 1);
    assert_eq!(status(&app, stale).await, "expired");
    assert_eq!(status(&app, paid).await, "paid");
    assert_eq!(stock(&app, 1).await, Some(4));
    assert_eq!(app.get_json("/api/products/1").await["stock"], 4);

    assert_eq!(app.sweeper.run_once().await.unwrap(), 0, "released once");
    assert_eq!(stock(&app, 1).await, Some(4));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn card_checkout_opens_a_stripe_session_with_cents_fee_expiry_and_our_order_id(
    #[case] backend: Backend,
) {
    let stripe = fake_stripe_session("cs_test_fake").await;
    let uri = stripe.uri();
    let mut seeds = product("Seed Pack", "3.33", Some(10));
    seeds.delete_after_out_of_stock = false;
    let app = shop_with(
        backend,
        vec![(1, product("Raccoon", "10.00", Some(5))), (2, seeds)],
        |settings| {
            settings.stripe.secret_key = "sk_test_fake".to_owned().into();
            settings.stripe.webhook_secret = WEBHOOK_SECRET.to_owned().into();
            settings.stripe.api_base = uri;
        },
    )
    .await;
    let promo = app.client_with_role(accounts::Role::SuperAdmin).await;
    let created = app
        .post_json(
            &promo,
            "/api/admin/promo-codes",
            &json!({"code": "spring", "discount_percent": 10, "expires_at": null}),
        )
        .await;
    assert_eq!(created.status(), 201);

    let client = browser();
    link_discord(&app, &client, 0).await;
    // 2 x 10.00 + 3 x 3.33 = 29.99; 10% off = 26.99 (half-up); card: (26.99 + 0.30) / 0.956 = 28.55
    let mut body = payload(&[(1, 2), (2, 3)], 26.99);
    body["promo_code"] = json!("spring");
    let before = now(&app);
    let response = checkout(&app, &client, &body).await;
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.unwrap();
    let id = answer["order_id"].as_i64().unwrap();
    assert_eq!(
        answer["url"],
        "https://checkout.stripe.com/c/pay/cs_test_fake"
    );
    assert_eq!(reference(&app, id).await, "cs_test_fake");

    let requests = stripe.received_requests().await.unwrap();
    let sent = form(&requests[0].body);
    assert_eq!(requests[0].headers["authorization"], "Bearer sk_test_fake");
    assert_eq!(sent["mode"], "payment");
    assert_eq!(sent["client_reference_id"], id.to_string());
    assert_eq!(sent["metadata[order_id]"], id.to_string());
    assert_eq!(sent["customer_email"], "buyer@example.com");
    assert_eq!(
        sent["success_url"],
        format!("http://localhost:8080/success?order_id={id}")
    );
    assert_eq!(
        sent["cancel_url"],
        format!("http://localhost:8080/cancel?order_id={id}")
    );
    let expires: i64 = sent["expires_at"].parse().unwrap();
    assert!(
        (before + 30 * 60..=before + 32 * 60).contains(&expires),
        "expires 30 minutes on (with a minute's margin): {expires} vs {before}"
    );
    assert_eq!(sent["line_items[0][price_data][currency]"], "usd");
    assert_eq!(
        sent["line_items[0][price_data][product_data][name]"],
        "Raccoon"
    );
    // each unit at its discounted price, rounded (9.00 and 3.00); the cent the rounding gained
    // (27.00 against the order's 26.99) is given back by one Raccoon at 8.99
    assert_eq!(sent["line_items[0][price_data][unit_amount]"], "899");
    assert_eq!(sent["line_items[0][quantity]"], "1");
    assert_eq!(sent["line_items[1][price_data][unit_amount]"], "900");
    assert_eq!(sent["line_items[1][quantity]"], "1");
    assert_eq!(sent["line_items[2][price_data][unit_amount]"], "300");
    assert_eq!(sent["line_items[2][quantity]"], "3");
    assert_eq!(
        sent["line_items[3][price_data][product_data][name]"],
        "Processing fee"
    );
    assert_eq!(sent["line_items[3][quantity]"], "1");
    // the lines are the order's items total, the fee line its fee: 26.99 + 1.56 = 28.55
    assert_eq!(sent["line_items[3][price_data][unit_amount]"], "156");
    let order: Value = client
        .get(app.url(&format!("/api/orders/{id}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(order["total"], 28.55);
    assert_eq!(order["discount"], 3.0);

    // the dev page is off when Stripe is configured
    assert_eq!(
        client
            .get(app.url(&format!("/dev/pay/{id}")))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn when_stripe_fails_the_order_is_cancelled_and_its_stock_released(#[case] backend: Backend) {
    let stripe = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/checkout/sessions"))
        .respond_with(ResponseTemplate::new(500).set_body_json(json!({
            "error": {"type": "api_error", "message": "Something went wrong"}
        })))
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
    let response = checkout(&app, &client, &payload(&[(1, 2)], 20.0)).await;
    assert_eq!(response.status(), 502);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["message"], "Payment failed.");
    assert_eq!(stock(&app, 1).await, Some(5));
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM orders WHERE status = 'cancelled'"
        )
        .await,
        1
    );
    assert_eq!(app.get_json("/api/products/1").await["stock"], 5);
}

#[tokio::test]
async fn production_refuses_to_start_without_stripe_and_discord() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let mut settings = app.settings.clone();
    settings.environment = garden_app::Environment::Production;
    settings.session.key = crate::helpers::PRODUCTION_TEST_SESSION_KEY
        .to_owned()
        .into();
    settings.mail.smtp_host = "127.0.0.1".into();
    settings.mail.smtp_tls = garden_app::SmtpTls::None;

    let error = garden_app::Application::build(settings.clone())
        .await
        .err()
        .expect("production refuses the local stand-ins");
    let message = format!("{error:#}");
    assert!(message.contains("stripe.secret_key"), "{message}");
    assert!(message.contains("stripe.webhook_secret"), "{message}");
    assert!(message.contains("discord.client_id"), "{message}");

    settings.stripe.secret_key = "sk_live_x".to_owned().into();
    settings.stripe.webhook_secret = "whsec_x".to_owned().into();
    settings.discord.client_id = "123".into();
    settings.discord.client_secret = "secret".to_owned().into();
    settings.roblox.users_api_base = "https://users.roblox.com".into();
    assert!(garden_app::Application::build(settings).await.is_ok());
}

/// The statements one checkout sends, and its answer's status.
async fn statements_of(app: &TestApp, client: &reqwest::Client, body: &Value) -> (u64, u16) {
    use std::sync::atomic::Ordering;
    let before = app.db_queries.load(Ordering::SeqCst);
    let status = checkout(app, client, body).await.status().as_u16();
    (app.db_queries.load(Ordering::SeqCst) - before, status)
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn once_the_database_refused_a_sold_out_product_the_rest_are_refused_before_it(
    #[case] backend: Backend,
) {
    // no background statement (catalog re-read, chat versions and purge, mail queue) during
    // the measurements
    let app = quiet_shop(
        backend,
        vec![
            (1, product("Raccoon", "10.00", Some(3))),
            (2, product("Owl", "10.00", Some(0))),
        ],
    )
    .await;
    let shopper = shoppers(&app, 1).await.remove(0);
    // what linking Discord set off (its events, heard back through NOTIFY on PostgreSQL) ends
    // before statements are counted
    settle(&app).await;
    // what the snapshot shows as sold out from the start: refused before the product lookup
    let (known_sold_out, status) = statements_of(&app, &shopper, &payload(&[(2, 1)], 10.0)).await;
    assert_eq!(status, 409);

    // the raccoons sell out behind the snapshot's back (another instance, not yet heard)
    count(
        &app,
        "UPDATE products SET stock = 0 WHERE id = 1 RETURNING id",
    )
    .await;
    let raccoon = payload(&[(1, 1)], 10.0);
    let (first, status) = statements_of(&app, &shopper, &raccoon).await;
    assert_eq!(status, 409);
    assert!(
        first > known_sold_out,
        "{first} vs {known_sold_out}: the database judged"
    );
    // that refusal taught checkout: the next ones cost what a known sold-out product costs
    for _ in 0..3 {
        let (next, status) = statements_of(&app, &shopper, &raccoon).await;
        assert_eq!((next, status), (known_sold_out, 409));
    }
    let refused = checkout(&app, &shopper, &raccoon).await;
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["problems"], json!(["- Raccoon is out of stock."]));

    // a restock sells again at once
    let admin = app.client_with_role(accounts::Role::SuperAdmin).await;
    let restocked = app
        .post_json(
            &admin,
            "/api/admin/products/1/inventory",
            &json!({"inventory": 2}),
        )
        .await;
    assert_eq!(restocked.status(), 200);
    assert_eq!(checkout(&app, &shopper, &raccoon).await.status(), 200);
    assert_eq!(stock(&app, 1).await, Some(1));
}

#[rstest]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_restock_on_another_instance_sells_again_where_a_refusal_taught_sold_out(
    #[case] backend: Backend,
) {
    let app = shop_with(
        backend,
        vec![(1, product("Raccoon", "10.00", Some(1)))],
        |settings| {
            settings.checkout.max_pending_orders = 10_000;
            settings.catalog.refresh_seconds = 3_600;
        },
    )
    .await;
    let shopper = shoppers(&app, 1).await.remove(0);
    let raccoon = payload(&[(1, 1)], 10.0);
    count(
        &app,
        "UPDATE products SET stock = 0 WHERE id = 1 RETURNING id",
    )
    .await;
    assert_eq!(checkout(&app, &shopper, &raccoon).await.status(), 409);

    // the other instance restocks to what this one's list still shows (so the list does not
    // change here); this one hears it and forgets what it learned
    let other = app.start_another_instance().await;
    let admin = app.client_with_role(accounts::Role::SuperAdmin).await;
    let restocked = admin
        .post(format!("{other}/api/admin/products/1/inventory"))
        .json(&json!({"inventory": 1}))
        .send()
        .await
        .unwrap();
    assert_eq!(restocked.status(), 200);
    eventually("sold again once the restock was heard", || async {
        match checkout(&app, &shopper, &raccoon).await.status().as_u16() {
            200 => Ok(()),
            refused => Err(refused),
        }
    })
    .await;
    assert_eq!(stock(&app, 1).await, Some(0));
}
