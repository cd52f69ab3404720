//! The drop (issue 25): a product released at a set time and capped per Discord account. It
//! is listed before its release (`released: false`) and refused at checkout (409); at its
//! release every instance's list turns it on and the streams hear it; checkouts then sell
//! exactly the stock, at most `max_per_account` per Discord account across instances; unpaid
//! drop orders expire after `checkout.drop_payment_minutes`; a held drop's release cannot move
//! to the future.

use std::time::Duration;

use accounts::Role;
use chrono::{DateTime, SecondsFormat, Utc};
use futures::future::join_all;
use reqwest::Method;
use rstest::rstest;
use serde_json::Value;
use shared::Clock;
use store::Backend;

use crate::admin::multipart;
use crate::checkout_abuse::{discord_accounts, link_account};
use crate::checkout_support::*;
use crate::events::Sse;
use crate::helpers::{eventually, TestApp};

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

fn whole_seconds(at: DateTime<Utc>) -> DateTime<Utc> {
    DateTime::from_timestamp(at.timestamp(), 0).unwrap()
}

fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// The admin's form for product 1, "Dragon", 10.00, with `extra` fields.
fn dragon_form(stock: &str, extra: &[(&str, &str)]) -> Vec<u8> {
    let mut fields = vec![
        ("name", "Dragon"),
        ("price", "10.00"),
        ("category", "Pets"),
        ("stock", stock),
    ];
    fields.extend_from_slice(extra);
    multipart(&fields, None)
}

/// `PUT /api/admin/products/{id}` through `address` with the admin's session.
async fn edit_at(
    address: &str,
    admin: &reqwest::Client,
    id: i64,
    body: Vec<u8>,
) -> reqwest::Response {
    admin
        .request(Method::PUT, format!("{address}/api/admin/products/{id}"))
        .header(
            "Content-Type",
            format!("multipart/form-data; boundary={}", crate::admin::BOUNDARY),
        )
        .body(body)
        .send()
        .await
        .unwrap()
}

async fn edit(app: &TestApp, admin: &reqwest::Client, body: Vec<u8>) -> reqwest::Response {
    edit_at(&app.address, admin, 1, body).await
}

/// Product 1 as `GET /api/products` lists it through `address`.
async fn listed_at(client: &reqwest::Client, address: &str) -> Value {
    let list: Vec<Value> = client
        .get(format!("{address}/api/products"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    list.into_iter()
        .find(|p| p["id"] == 1)
        .expect("product 1 is listed")
}

/// Waits until product 1 is listed as released through `address` (the release watch wakes
/// within a second of the release, or at once when it is due).
async fn until_released(client: &reqwest::Client, address: &str) -> Value {
    eventually(&format!("{address} lists the drop as released"), || async {
        let listed = listed_at(client, address).await;
        if listed["released"] == true {
            Ok(listed)
        } else {
            Err(listed)
        }
    })
    .await
}

/// The addresses to press on: the app's, and on PostgreSQL a second instance's.
async fn instances_of(app: &TestApp, backend: Backend) -> Vec<String> {
    match backend {
        Backend::Postgres => vec![app.address.clone(), app.start_another_instance().await],
        Backend::Sqlite => vec![app.address.clone()],
    }
}

/// `count` browsers linked, ten at a time, to the fake Discord's accounts `first_id` and on:
/// forty accounts, so browser `i` shares the account of browser `i % 40`.
async fn browsers_of_accounts(app: &TestApp, count: usize, first_id: u64) -> Vec<reqwest::Client> {
    let clients: Vec<reqwest::Client> = (0..count).map(|_| browser()).collect();
    for (index, batch) in clients.chunks(10).enumerate() {
        join_all(batch.iter().enumerate().map(|(i, c)| {
            let account = (index * 10 + i) % 40;
            link_account(app, c, first_id + account as u64)
        }))
        .await;
    }
    clients
}

async fn message_of(response: reqwest::Response) -> String {
    let body: Value = response.json().await.unwrap();
    body["message"].as_str().unwrap_or_default().to_owned()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_drop_is_listed_before_its_release_refused_until_then_and_capped_per_account(
    #[case] backend: Backend,
) {
    let app = shop(backend, vec![(1, product("Dragon", "10.00", Some(5)))]).await;
    let admin = app.client_with_role(Role::SuperAdmin).await;
    let release = whole_seconds(app.clock.now() + chrono::Duration::hours(1));
    let saved = edit(
        &app,
        &admin,
        dragon_form(
            "5",
            &[("release_at", &rfc3339(release)), ("max_per_account", "1")],
        ),
    )
    .await;
    assert_eq!(saved.status(), 200);
    let saved: Value = saved.json().await.unwrap();
    assert_eq!(saved["released"], false);
    assert_eq!(saved["max_per_account"], 1);

    // listed, with its release time, not on sale
    let listed = listed_at(&app.client, &app.address).await;
    assert_eq!(listed["released"], false, "{listed}");
    assert_eq!(listed["release_at"], rfc3339(release));
    assert_eq!(listed["max_per_account"], 1);
    let one: Value = app.get_json("/api/products/1").await;
    assert_eq!(one["released"], false);

    // checkout refuses it, whatever the browser thinks of the time
    let shopper = browser();
    link_discord(&app, &shopper, 0).await;
    let early = checkout(&app, &shopper, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(early.status(), 409);
    assert_eq!(
        message_of(early).await,
        format!(
            "This item drops at {}: Dragon is not on sale yet.",
            // whole minutes are written without their seconds
            if release.timestamp() % 60 == 0 {
                release.format("%Y-%m-%d %H:%M UTC")
            } else {
                release.format("%Y-%m-%d %H:%M:%S UTC")
            }
        )
    );
    assert_eq!(stock(&app, 1).await, Some(5), "nothing reserved");

    // its time comes: the list turns it on without any write
    app.clock.advance(Duration::from_secs(3601));
    until_released(&app.client, &app.address).await;
    let bought = checkout(&app, &shopper, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(bought.status(), 200, "{}", bought.text().await.unwrap());

    // the same Discord account from another browser: over its cap
    let again = browser();
    link_discord(&app, &again, 0).await;
    let capped = checkout(&app, &again, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(capped.status(), 409);
    assert_eq!(
        message_of(capped).await,
        "Dragon is limited to 1 per account, and your Discord account already holds 1."
    );
    // another account asking for two at once
    let greedy = browser();
    link_discord(&app, &greedy, 1).await;
    let two = checkout(&app, &greedy, &payload(&[(1, 2)], 20.0)).await;
    assert_eq!(two.status(), 409);
    assert_eq!(
        message_of(two).await,
        "Dragon is limited to 1 per account, and your Discord account already holds 0."
    );
    assert_eq!(
        stock(&app, 1).await,
        Some(4),
        "one sold, the refusals took nothing"
    );

    // an order holds its units now: the release cannot move to the future
    let later = app.clock.now() + chrono::Duration::hours(2);
    let moved = edit(
        &app,
        &admin,
        dragon_form("4", &[("release_at", &rfc3339(later))]),
    )
    .await;
    assert_eq!(moved.status(), 409);
    assert_eq!(
        message_of(moved).await,
        "Orders already hold units of this drop: its release time cannot move to the future."
    );
    assert_eq!(
        listed_at(&app.client, &app.address).await["release_at"],
        rfc3339(release),
        "nothing changed"
    );
    // an earlier time, or none, is fine; a form without the fields keeps them
    let sooner = release - chrono::Duration::minutes(30);
    let moved = edit(
        &app,
        &admin,
        dragon_form("4", &[("release_at", &rfc3339(sooner))]),
    )
    .await;
    assert_eq!(moved.status(), 200);
    let kept = edit(&app, &admin, dragon_form("4", &[])).await;
    let kept: Value = kept.json().await.unwrap();
    assert_eq!(kept["release_at"], rfc3339(sooner));
    assert_eq!(kept["max_per_account"], 1);
    let cleared = edit(
        &app,
        &admin,
        dragon_form("4", &[("release_at", ""), ("max_per_account", "")]),
    )
    .await;
    let cleared: Value = cleared.json().await.unwrap();
    assert_eq!(cleared["release_at"], Value::Null);
    assert_eq!(cleared["max_per_account"], Value::Null);
    assert_eq!(cleared["released"], true);

    // bad values: 422 on their fields, nothing written
    let bad = edit(
        &app,
        &admin,
        dragon_form(
            "4",
            &[("release_at", "next friday"), ("max_per_account", "21")],
        ),
    )
    .await;
    assert_eq!(bad.status(), 422);
    let body: Value = bad.json().await.unwrap();
    assert!(body["errors"]["release_at"].is_array(), "{body}");
    assert!(body["errors"]["max_per_account"].is_array(), "{body}");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn unpaid_drop_orders_expire_after_the_drop_window_and_give_their_units_back(
    #[case] backend: Backend,
) {
    let app = shop(
        backend,
        vec![
            (1, product("Dragon", "10.00", Some(3))),
            (2, product("Owl", "5.00", Some(3))),
        ],
    )
    .await;
    let admin = app.client_with_role(Role::SuperAdmin).await;
    let released = app.clock.now() - chrono::Duration::minutes(1);
    let saved = edit(
        &app,
        &admin,
        dragon_form("3", &[("release_at", &rfc3339(released))]),
    )
    .await;
    assert_eq!(saved.status(), 200);
    let shopper = browser();
    link_discord(&app, &shopper, 0).await;
    let drop_order = checkout(&app, &shopper, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(drop_order.status(), 200);
    let other = browser();
    link_discord(&app, &other, 1).await;
    let plain_order = checkout(&app, &other, &payload(&[(2, 1)], 5.0)).await;
    assert_eq!(plain_order.status(), 200);
    assert_eq!(stock(&app, 1).await, Some(2));

    app.clock.advance(Duration::from_secs(9 * 60));
    assert_eq!(
        app.sweeper.run_once().await.unwrap(),
        0,
        "inside the window"
    );
    app.clock.advance(Duration::from_secs(61));
    assert_eq!(
        app.sweeper.run_once().await.unwrap(),
        1,
        "the drop's order, not the ordinary one"
    );
    assert_eq!(stock(&app, 1).await, Some(3), "its unit is back");
    assert_eq!(
        stock(&app, 2).await,
        Some(2),
        "the ordinary order still holds its unit"
    );
    assert_eq!(
        count(&app, "SELECT COUNT(*) FROM orders WHERE status = 'expired'").await,
        1
    );
    // and the list shows the unit back on sale
    eventually("the list shows the unit back", || async {
        let listed = listed_at(&app.client, &app.address).await;
        if listed["stock"] == 3 {
            Ok(())
        } else {
            Err(listed)
        }
    })
    .await;
}

/// Fifty browsers press checkout at once for a drop of 30 with a cap of one: forty Discord
/// accounts, ten of them in two browsers. On PostgreSQL the presses are split between two
/// instances.
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_parallel_buyers_get_exactly_the_stock_and_at_most_one_each(
    #[case] backend: Backend,
) {
    let (_discord, base) = discord_accounts().await;
    let app = shop_with(
        backend,
        vec![(1, product("Dragon", "10.00", Some(30)))],
        |s| {
            s.discord.client_id = "client-1".into();
            s.discord.client_secret = "secret-1".to_owned().into();
            s.discord.authorize_url = "https://discord.example/oauth2/authorize".into();
            s.discord.api_base = base;
            s.checkout.max_pending_per_ip = 10_000;
        },
    )
    .await;
    let admin = app.client_with_role(Role::SuperAdmin).await;
    let released = app.clock.now() - chrono::Duration::seconds(1);
    let saved = edit(
        &app,
        &admin,
        dragon_form(
            "30",
            &[("release_at", &rfc3339(released)), ("max_per_account", "1")],
        ),
    )
    .await;
    assert_eq!(saved.status(), 200);
    let instances = instances_of(&app, backend).await;
    // browsers 40..50 share the accounts of browsers 0..10
    let clients = browsers_of_accounts(&app, 50, 700_000).await;
    let body = payload(&[(1, 1)], 10.0);
    let answers = join_all(clients.iter().enumerate().map(|(i, client)| {
        let address = &instances[i % instances.len()];
        client
            .post(format!("{address}/api/stripe/checkout"))
            .json(&body)
            .send()
    }))
    .await;
    let mut placed = 0;
    for answer in answers {
        let answer = answer.unwrap();
        match answer.status().as_u16() {
            200 => placed += 1,
            409 => {}
            other => panic!("unexpected {other}: {}", answer.text().await.unwrap()),
        }
    }
    assert_eq!(placed, 30, "exactly the stock was sold");
    assert_eq!(stock(&app, 1).await, Some(0));
    assert_eq!(
        count(
            &app,
            "SELECT COALESCE(SUM(l.quantity), 0) FROM order_lines l \
             JOIN orders o ON o.id = l.order_id WHERE o.status = 'pending' AND l.product_id = 1"
        )
        .await,
        30
    );
    assert_eq!(
        count(
            &app,
            "SELECT COALESCE(MAX(n), 0) FROM (SELECT COUNT(*) AS n FROM orders \
             GROUP BY discord_id) per_account"
        )
        .await,
        1,
        "no Discord account holds two"
    );
}

/// At the release, the streams of both instances hear `products` without any write, and both
/// instances list the drop as released.
#[tokio::test]
async fn on_postgres_the_release_reaches_the_streams_of_every_instance() {
    let app = shop(
        Backend::Postgres,
        vec![(1, product("Dragon", "10.00", Some(5)))],
    )
    .await;
    let other = app.start_another_instance().await;
    let admin = app.client_with_role(Role::SuperAdmin).await;
    // whole seconds, as the form sends it
    let release = whole_seconds(app.clock.now() + chrono::Duration::seconds(3));
    let saved = edit_at(
        &app.address,
        &admin,
        1,
        dragon_form("5", &[("release_at", &rfc3339(release))]),
    )
    .await;
    assert_eq!(saved.status(), 200);
    // both lists show it as coming (the other hears the edit)
    eventually("the other instance hears the edit", || async {
        let listed = listed_at(&app.client, &other).await;
        if listed["release_at"] == rfc3339(release) {
            Ok(())
        } else {
            Err(listed)
        }
    })
    .await;
    assert_eq!(listed_at(&app.client, &other).await["released"], false);

    // the streams start after the edit's own event (an instance may pass it on to its streams
    // a moment after it answered the edit)
    let edited = count(&app, "SELECT MAX(id) FROM push_events").await;
    let client = app.new_client();
    let mut streams = vec![
        Sse::open_from(&app.address, &client, "", Some(edited)).await,
        Sse::open_from(&other, &client, "", Some(edited)).await,
    ];
    for stream in &mut streams {
        assert_eq!(stream.event().await.event.as_deref(), Some("ready"));
    }
    for stream in &mut streams {
        let heard = stream
            .events_until(|frame| frame.event.as_deref() == Some("products"))
            .await;
        assert!(!heard.is_empty());
        assert!(Utc::now() >= release, "heard before the release: {heard:?}");
    }
    for address in [&app.address, &other] {
        let listed = listed_at(&app.client, address).await;
        assert_eq!(listed["released"], true, "{address}: {listed}");
    }
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM products WHERE release_announced_at IS NOT NULL"
        )
        .await,
        1
    );
}

/// A shop with Dragon (product 1, 30 in stock, on sale, one per account), Owl (2, unlimited)
/// and a bundle of both (3, 30 in stock), whose unpaid-order caps stay out of the way; its
/// Discord is the fake of many accounts at `discord_base`.
async fn drop_and_bundle_shop(backend: Backend, discord_base: String) -> TestApp {
    let mut dragon = product("Dragon", "10.00", Some(30));
    dragon.release_at = DateTime::from_timestamp(1_600_000_000, 0);
    dragon.max_per_account = Some(1);
    let mut bundle = product("Dragon Bundle", "12.00", Some(30));
    bundle.related_ids = vec![catalog::ProductId::new(1), catalog::ProductId::new(2)];
    shop_with(
        backend,
        vec![(1, dragon), (2, product("Owl", "5.00", None)), (3, bundle)],
        |settings| {
            settings.stripe.webhook_secret = WEBHOOK_SECRET.to_owned().into();
            settings.checkout.max_pending_orders = 10_000;
            settings.checkout.max_pending_per_ip = 10_000;
            settings.discord.client_id = "client-1".into();
            settings.discord.client_secret = "secret-1".to_owned().into();
            settings.discord.authorize_url = "https://discord.example/oauth2/authorize".into();
            settings.discord.api_base = discord_base;
        },
    )
    .await
}

async fn order_id(response: reqwest::Response) -> i64 {
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(status, 200, "{body}");
    body["order_id"].as_i64().expect("an order id")
}

/// How long order `id` has to be paid: its `pay_by` after its placement.
async fn payment_window(app: &TestApp, id: i64) -> Option<chrono::Duration> {
    use sea_orm::{ConnectionTrait, Statement};
    let db = app.store.connection();
    let row = db
        .query_one(Statement::from_string(
            db.get_database_backend(),
            format!("SELECT created_at, pay_by FROM orders WHERE id = {id}"),
        ))
        .await
        .unwrap()
        .unwrap();
    let placed: DateTime<Utc> = row.try_get_by_index(0).unwrap();
    let pay_by: Option<DateTime<Utc>> = row.try_get_by_index(1).unwrap();
    pay_by.map(|at| at - placed)
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_drop_inside_a_bundle_counts_against_its_cap_and_pays_within_the_drop_window(
    #[case] backend: Backend,
) {
    let (_discord, base) = discord_accounts().await;
    let app = drop_and_bundle_shop(backend, base).await;
    // the attack: an account holding its one Dragon buys the bundle that contains it
    let holder = browser();
    link_account(&app, &holder, 710_001).await;
    order_id(checkout(&app, &holder, &payload(&[(1, 1)], 10.0)).await).await;
    let bundled = checkout(&app, &holder, &payload(&[(3, 1)], 12.0)).await;
    assert_eq!(bundled.status(), 409);
    assert_eq!(
        message_of(bundled).await,
        "Dragon is limited to 1 per account, and your Discord account already holds 1."
    );
    // twenty bundles at once are twenty Dragons
    let hoarder = browser();
    link_account(&app, &hoarder, 710_002).await;
    let twenty = checkout(&app, &hoarder, &payload(&[(3, 20)], 240.0)).await;
    assert_eq!(twenty.status(), 409);
    assert_eq!(
        message_of(twenty).await,
        "Dragon is limited to 1 per account, and your Discord account already holds 0."
    );
    assert_eq!(stock(&app, 1).await, Some(29), "only the first Dragon sold");

    // one bundle is fine, and its order pays within the drop's window (10 minutes)
    let id = order_id(checkout(&app, &hoarder, &payload(&[(3, 1)], 12.0)).await).await;
    assert_eq!(
        payment_window(&app, id).await,
        Some(chrono::Duration::minutes(10)),
        "the bundle's order has the drop's payment window"
    );
    assert_eq!(stock(&app, 1).await, Some(28));

    // the parts stored with the line count, not what the bundle holds later
    {
        use sea_orm::ConnectionTrait;
        app.store
            .connection()
            .execute_unprepared("DELETE FROM bundle_items WHERE bundle_id = 3 AND product_id = 1")
            .await
            .unwrap();
    }
    let alone = checkout(&app, &hoarder, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(alone.status(), 409);
    assert_eq!(
        message_of(alone).await,
        "Dragon is limited to 1 per account, and your Discord account already holds 1."
    );
    assert_eq!(stock(&app, 1).await, Some(28), "the refusals took nothing");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn relinking_another_discord_account_keeps_a_shop_account_and_a_browser_to_a_drop_cap(
    #[case] backend: Backend,
) {
    let (_discord, base) = discord_accounts().await;
    let app = drop_and_bundle_shop(backend, base).await;
    let unlink = |client: &reqwest::Client| client.delete(app.url("/api/discord/identity")).send();
    // logged in: bought with Discord account E, unlinked, linked F, bought again
    let email = format!("cap-{}@example.com", uuid::Uuid::new_v4().simple());
    app.create_user(&email, crate::helpers::TEST_PASSWORD, Role::Customer)
        .await;
    let customer = browser();
    app.login(&customer, &email, crate::helpers::TEST_PASSWORD)
        .await;
    link_account(&app, &customer, 720_001).await;
    order_id(checkout(&app, &customer, &payload(&[(1, 1)], 10.0)).await).await;
    assert_eq!(unlink(&customer).await.unwrap().status(), 200);
    link_account(&app, &customer, 720_002).await;
    let again = checkout(&app, &customer, &payload(&[(3, 1)], 12.0)).await;
    assert_eq!(again.status(), 409);
    assert_eq!(
        message_of(again).await,
        "Dragon is limited to 1 per account, and your shop account already holds 1."
    );
    // the same shop account from another browser, with a third Discord account
    let elsewhere = browser();
    app.login(&elsewhere, &email, crate::helpers::TEST_PASSWORD)
        .await;
    link_account(&app, &elsewhere, 720_003).await;
    let capped = checkout(&app, &elsewhere, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(capped.status(), 409);
    assert_eq!(
        message_of(capped).await,
        "Dragon is limited to 1 per account, and your shop account already holds 1."
    );

    // a guest: the browser session keeps the count across its Discord accounts
    let guest = browser();
    link_account(&app, &guest, 720_004).await;
    order_id(checkout(&app, &guest, &payload(&[(3, 1)], 12.0)).await).await;
    assert_eq!(unlink(&guest).await.unwrap().status(), 200);
    link_account(&app, &guest, 720_005).await;
    let relinked = checkout(&app, &guest, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(relinked.status(), 409);
    assert_eq!(
        message_of(relinked).await,
        "Dragon is limited to 1 per account, and this browser already holds 1."
    );
    assert_eq!(stock(&app, 1).await, Some(28), "two Dragons sold, no more");
}

/// Forty Discord accounts, each in two browsers at once: one presses the drop, the other the
/// bundle that holds it; on PostgreSQL the presses are split between two instances. Each
/// account ends with exactly one unit of the drop, however it was bought.
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_presses_of_a_drop_and_its_bundle_leave_each_account_one_unit(
    #[case] backend: Backend,
) {
    let (_discord, base) = discord_accounts().await;
    let app = drop_and_bundle_shop(backend, base).await;
    {
        use sea_orm::ConnectionTrait;
        app.store
            .connection()
            .execute_unprepared("UPDATE products SET stock = 100 WHERE id IN (1, 3)")
            .await
            .unwrap();
    }
    let instances = instances_of(&app, backend).await;
    // browsers 40..80 share the accounts of browsers 0..40
    let clients = browsers_of_accounts(&app, 80, 730_000).await;
    let drop_alone = payload(&[(1, 1)], 10.0);
    let bundle = payload(&[(3, 1)], 12.0);
    let answers = join_all(clients.iter().enumerate().map(|(i, client)| {
        let address = &instances[i % instances.len()];
        client
            .post(format!("{address}/api/stripe/checkout"))
            .json(if i < 40 { &drop_alone } else { &bundle })
            .send()
    }))
    .await;
    let mut placed = 0;
    for answer in answers {
        let answer = answer.unwrap();
        match answer.status().as_u16() {
            200 => placed += 1,
            409 => {}
            other => panic!("unexpected {other}: {}", answer.text().await.unwrap()),
        }
    }
    assert_eq!(placed, 40, "one order per account");
    assert_eq!(
        count(
            &app,
            "SELECT COALESCE(MAX(n), 0) FROM (SELECT o.discord_id, SUM(l.quantity) AS n \
             FROM orders o JOIN order_lines l ON l.order_id = o.id \
             WHERE l.product_id IN (1, 3) GROUP BY o.discord_id) per_account"
        )
        .await,
        1,
        "no Discord account holds two Dragons, alone or bundled"
    );
    assert_eq!(
        stock(&app, 1).await,
        Some(60),
        "forty Dragons taken, alone or bundled"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_drop_held_inside_a_bundle_cannot_move_its_release_to_the_future(
    #[case] backend: Backend,
) {
    let (_discord, base) = discord_accounts().await;
    let app = drop_and_bundle_shop(backend, base).await;
    let buyer = browser();
    link_account(&app, &buyer, 740_001).await;
    order_id(checkout(&app, &buyer, &payload(&[(3, 1)], 12.0)).await).await;
    let admin = app.client_with_role(Role::SuperAdmin).await;
    let later = app.clock.now() + chrono::Duration::hours(2);
    let moved = edit(
        &app,
        &admin,
        dragon_form("29", &[("release_at", &rfc3339(later))]),
    )
    .await;
    assert_eq!(moved.status(), 409);
    assert_eq!(
        message_of(moved).await,
        "Orders already hold units of this drop: its release time cannot move to the future."
    );
}
