//! The handoff from paid to delivered (issue 21), on SQLite and PostgreSQL: staff private
//! server links, claiming needs one and delivering needs a claim, "I'm in the game" once per
//! claim and limited, the link shown only to the order's viewers while it is claimed, every
//! change recorded once as a lifecycle step, and the delivery figures and the promise computed
//! from the recorded times.

use accounts::Role;
use chrono::{DateTime, Duration, Utc};
use rstest::rstest;
use sea_orm::{ConnectionTrait, Statement, Value as SqlValue};
use serde_json::{json, Value};
use store::Backend;

use crate::checkout_support::*;
use crate::helpers::{eventually, TestApp};

const LINK: &str = "https://www.roblox.com/share?code=secret-server-4711&type=Server";

/// Runs `sql` (with `?` placeholders) on the app's database.
async fn exec(app: &TestApp, sql: &str, values: Vec<SqlValue>) {
    let db = app.store.connection();
    let backend = db.get_database_backend();
    let sql = match backend {
        sea_orm::DatabaseBackend::Postgres => {
            let mut n = 0;
            sql.chars()
                .map(|c| {
                    if c == '?' {
                        n += 1;
                        format!("${n}")
                    } else {
                        c.to_string()
                    }
                })
                .collect()
        }
        _ => sql.to_owned(),
    };
    db.execute(Statement::from_sql_and_values(backend, sql, values))
        .await
        .unwrap();
}

async fn pay(app: &TestApp, client: &reqwest::Client, order: i64) {
    let paid = client
        .post(app.url(&format!("/dev/pay/{order}/pay")))
        .header("Origin", &app.address)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .send()
        .await
        .unwrap();
    assert_eq!(paid.status(), 303);
}

/// A paid order placed and paid in `buyer`'s session.
async fn paid_order(app: &TestApp, buyer: &reqwest::Client) -> i64 {
    let response = checkout(app, buyer, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(response.status(), 200);
    let id = response.json::<Value>().await.unwrap()["order_id"]
        .as_i64()
        .unwrap();
    pay(app, buyer, id).await;
    id
}

async fn staff_action(
    app: &TestApp,
    staff: &reqwest::Client,
    order: i64,
    action: &str,
) -> reqwest::Response {
    // a release tells the buyer why
    let body = if action == "release" {
        json!({ "reason": "My game crashed; the next member of staff takes it." })
    } else {
        json!({})
    };
    app.post_json(staff, &format!("/api/admin/orders/{order}/{action}"), &body)
        .await
}

async fn set_link(app: &TestApp, staff: &reqwest::Client, url: &str) -> reqwest::Response {
    staff
        .put(app.url("/api/admin/private-server"))
        .header("Origin", &app.address)
        .json(&json!({ "url": url }))
        .send()
        .await
        .unwrap()
}

async fn order_page(
    app: &TestApp,
    client: &reqwest::Client,
    order: i64,
    key: &str,
) -> reqwest::Response {
    let query = if key.is_empty() {
        String::new()
    } else {
        format!("?key={key}")
    };
    client
        .get(app.url(&format!("/api/orders/{order}{query}")))
        .send()
        .await
        .unwrap()
}

/// The key of the order's link, from its receipt.
async fn key_of(app: &TestApp, order: i64) -> String {
    let marker = format!("/orders/{order}?key=");
    eventually(&format!("the receipt of order {order} is sent"), || async {
        app.outbox_messages().into_iter().find_map(|mail| {
            let start = mail.find(&marker)?;
            Some(mail[start + marker.len()..].chars().take(32).collect())
        })
    })
    .await
}

async fn fast_mail_shop(backend: Backend) -> TestApp {
    shop_with(backend, vec![(1, product("Raccoon", "10.00", None))], |s| {
        s.mail.queue_poll_ms = 50;
        s.metrics.enabled = true;
        s.checkout.max_pending_orders = 50;
    })
    .await
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn claiming_needs_a_private_server_link_and_delivering_needs_a_claim(
    #[case] backend: Backend,
) {
    let app = fast_mail_shop(backend).await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let order = paid_order(&app, &buyer).await;
    let (ann, bo) = (
        app.client_with_role(Role::Admin).await,
        app.client_with_role(Role::Admin).await,
    );
    for staff in [&ann, &bo] {
        let removed = staff
            .delete(app.url("/api/admin/private-server"))
            .header("Origin", &app.address)
            .send()
            .await
            .unwrap();
        assert_eq!(removed.status(), 204);
    }

    let refused = staff_action(&app, &ann, order, "claim").await;
    assert_eq!(refused.status(), 409);
    let body: Value = refused.json().await.unwrap();
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("private server link"),
        "{body}"
    );

    let unclaimed = staff_action(&app, &ann, order, "deliver").await;
    assert_eq!(unclaimed.status(), 409);
    let body: Value = unclaimed.json().await.unwrap();
    assert_eq!(body["message"], "Claim this order first.");

    for bad in [
        "",
        "http://www.roblox.com/share?code=1",
        "https://roblox.com.evil.example/x",
        &format!("https://www.roblox.com/{}", "a".repeat(300)),
    ] {
        let answer = set_link(&app, &ann, bad).await;
        assert_eq!(answer.status(), 422, "{bad}");
        let body: Value = answer.json().await.unwrap();
        assert!(body["errors"]["url"][0].is_string(), "{body}");
    }
    let saved = set_link(&app, &ann, LINK).await;
    assert_eq!(saved.status(), 200);
    assert_eq!(saved.json::<Value>().await.unwrap()["url"], LINK);
    let shown: Value = ann
        .get(app.url("/api/admin/private-server"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(shown["url"], LINK);
    let customer = app.client_with_role(Role::Customer).await;
    let forbidden = customer
        .get(app.url("/api/admin/private-server"))
        .send()
        .await
        .unwrap();
    assert_eq!(forbidden.status(), 403);

    assert_eq!(staff_action(&app, &ann, order, "claim").await.status(), 200);
    set_link(&app, &bo, "https://www.roblox.com/share?code=bo").await;
    let taken = staff_action(&app, &bo, order, "deliver").await;
    assert_eq!(taken.status(), 409);
    let delivered = staff_action(&app, &ann, order, "deliver").await;
    assert_eq!(delivered.status(), 200);
    let body: Value = delivered.json().await.unwrap();
    assert_eq!(body["status"], "delivered");
    assert!(body["claimed_at"].is_string());

    let removed = ann
        .delete(app.url("/api/admin/private-server"))
        .header("Origin", &app.address)
        .send()
        .await
        .unwrap();
    assert_eq!(removed.status(), 204);
    let shown: Value = ann
        .get(app.url("/api/admin/private-server"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(shown["url"], Value::Null);
    // the audit log says the link changed, never what it is
    let db = app.store.connection();
    let rows = db
        .query_all(Statement::from_string(
            db.get_database_backend(),
            "SELECT kind, before, after FROM audit_log WHERE kind = 'staff.private_server'"
                .to_owned(),
        ))
        .await
        .unwrap();
    assert_eq!(
        rows.len(),
        5,
        "both removed theirs; Ann set and removed hers, Bo set his"
    );
    for row in rows {
        let after: Option<String> = row.try_get("", "after").unwrap();
        assert!(!after.unwrap_or_default().contains("roblox.com"));
    }
}

async fn shown_link(app: &TestApp, staff: &reqwest::Client) -> Value {
    let shown: Value = staff
        .get(app.url("/api/admin/private-server"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    shown["url"].clone()
}

/// Issue 32 item 7: the link was kept and posted as typed.
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_private_server_link_is_kept_only_as_a_parsed_roblox_link(#[case] backend: Backend) {
    let app = fast_mail_shop(backend).await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let order = paid_order(&app, &buyer).await;
    let staff = app.client_with_role(Role::Admin).await;
    assert_eq!(set_link(&app, &staff, LINK).await.status(), 200);

    for typed in [
        "https://www.roblox.com/share?code=secret server&type=Server",
        "https://www.roblox.com/share?code=abc @everyone <@&123456789012345678> [click](https://evil.example/)",
        "https://www.roblox.com/share?code=abc@everyone<@&123456789012345678>[click](https://evil.example/)",
        "https://www.roblox.com/share?code=abc\u{202e}revreS=epyt&",
        "https://www.roblox.com/share?code=ab\u{200b}c&type=Server",
        "https://www.roblox.com\\@evil.example/",
        "https://www.roblox.com/share?code=abc\n@everyone",
    ] {
        let answer = set_link(&app, &staff, typed).await;
        assert_eq!(answer.status(), 422, "{typed:?}");
        let body: Value = answer.json().await.unwrap();
        assert!(body["errors"]["url"][0].is_string(), "{typed:?}: {body}");
        // nothing half-written: the link kept before stays
        assert_eq!(shown_link(&app, &staff).await, LINK, "{typed:?}");
    }

    // kept, shown and handed to the buyer in its parsed form, not as typed
    let typed = "  HTTPS://WWW.ROBLOX.COM/share?code=secret-server-4711&type=Server ";
    let saved = set_link(&app, &staff, typed).await;
    assert_eq!(saved.status(), 200);
    assert_eq!(saved.json::<Value>().await.unwrap()["url"], LINK);
    assert_eq!(shown_link(&app, &staff).await, LINK);
    assert_eq!(
        staff_action(&app, &staff, order, "claim").await.status(),
        200
    );
    let page: Value = order_page(&app, &buyer, order, "")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(page["delivery"]["private_server_url"], LINK, "{page}");

    // a link kept as typed before these checks is shown and posted to no one
    exec(
        &app,
        "UPDATE users SET private_server_url = ? WHERE private_server_url = ?",
        vec![
            "https://www.roblox.com\\@evil.example/ @everyone".into(),
            LINK.into(),
        ],
    )
    .await;
    assert_eq!(shown_link(&app, &staff).await, Value::Null);
    let page: Value = order_page(&app, &buyer, order, "")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        page["delivery"]["private_server_url"],
        Value::Null,
        "{page}"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_private_server_link_reaches_only_the_orders_viewers_while_it_is_claimed(
    #[case] backend: Backend,
) {
    let logs = crate::helpers::captured_logs();
    let app = fast_mail_shop(backend).await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let order = paid_order(&app, &buyer).await;
    let other_buyer = browser();
    link_discord(&app, &other_buyer, 1).await;
    let other_order = paid_order(&app, &other_buyer).await;
    let key = key_of(&app, order).await;
    let staff = app.client_with_role(Role::Admin).await;
    set_link(&app, &staff, LINK).await;

    let before: Value = order_page(&app, &browser(), order, &key)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(before["delivery"]["private_server_url"], Value::Null);
    assert_eq!(before["delivery"]["staff_name"], Value::Null);
    assert_eq!(before["estimate_minutes"], 10);

    assert_eq!(
        staff_action(&app, &staff, order, "claim").await.status(),
        200
    );
    // the buyer's session, and any browser with the link's key
    for (client, key) in [(&buyer, ""), (&browser(), key.as_str())] {
        let page: Value = order_page(&app, client, order, key)
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(page["delivery"]["private_server_url"], LINK);
        assert!(page["delivery"]["staff_name"]
            .as_str()
            .unwrap()
            .starts_with("admin-"));
        assert!(page["delivery"]["claimed_at"].is_string());
    }
    // nobody else: a guest without the key, another buyer, another order's page, public lists
    assert_eq!(order_page(&app, &browser(), order, "").await.status(), 404);
    assert_eq!(
        order_page(&app, &other_buyer, order, "").await.status(),
        404
    );
    let theirs = order_page(&app, &other_buyer, other_order, "")
        .await
        .text()
        .await
        .unwrap();
    assert!(!theirs.contains("secret-server-4711"));
    for path in [
        "/api/products",
        "/api/reviews",
        "/api/proofs",
        "/api/site",
        "/metrics",
    ] {
        let text = app
            .client
            .get(app.url(path))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(!text.contains("secret-server-4711"), "{path}");
    }

    // released: gone from the page; claimed again and delivered: gone again
    assert_eq!(
        staff_action(&app, &staff, order, "release").await.status(),
        200
    );
    let page: Value = order_page(&app, &buyer, order, "")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(page["delivery"]["private_server_url"], Value::Null);
    assert_eq!(
        staff_action(&app, &staff, order, "claim").await.status(),
        200
    );
    assert_eq!(
        staff_action(&app, &staff, order, "deliver").await.status(),
        200
    );
    let page: Value = order_page(&app, &buyer, order, "")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(page["status"], "delivered");
    assert_eq!(page["delivery"]["private_server_url"], Value::Null);
    assert!(
        page["delivery"]["staff_name"].is_string(),
        "who delivered it stays"
    );

    // the claim mail, once per claim: two claims, two mails, each naming the staff member
    let mails = mails_with(&app, order, "Staff are waiting for you in the game").await;
    assert_eq!(mails.len(), 2, "one claim mail per claim");
    let logged = String::from_utf8_lossy(&logs.lock().unwrap()).into_owned();
    assert!(logged.contains("buyer mail sent"), "the logs were captured");
    assert!(
        !logged.contains("secret-server-4711"),
        "no log line carries the link"
    );
    assert!(
        mails.iter().all(|m| !m.contains("secret-server-4711")),
        "the mail links the page, not the server"
    );
}

/// The staff queue's cards (the paid filter), in its order.
async fn staff_cards(app: &TestApp, staff: &reqwest::Client) -> Vec<Value> {
    staff
        .get(app.url("/api/admin/orders"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// The staff queue's ids, in its order, and each waiting order's place in line.
async fn staff_queue(app: &TestApp, staff: &reqwest::Client) -> Vec<(i64, Option<i64>)> {
    staff_cards(app, staff)
        .await
        .iter()
        .map(|o| (o["id"].as_i64().unwrap(), o["queue_position"].as_i64()))
        .collect()
}

/// The order's page as its buyer (the session that placed it) reads it.
async fn page_of(app: &TestApp, buyer: &reqwest::Client, order: i64) -> Value {
    let page = order_page(app, buyer, order, "").await;
    assert_eq!(page.status(), 200);
    page.json().await.unwrap()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_buyer_says_ready_once_per_claim_and_never_before_one(#[case] backend: Backend) {
    let app = fast_mail_shop(backend).await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let first = paid_order(&app, &buyer).await;
    let second = paid_order(&app, &buyer).await;
    let key = key_of(&app, second).await;
    let staff = app.client_with_role(Role::Admin).await;
    set_link(&app, &staff, LINK).await;
    // every counted call of this test in one window of the per-order count
    app.to_the_start_of_a_window(std::time::Duration::from_secs(3600));
    assert_eq!(
        staff_queue(&app, &staff).await,
        [(first, Some(1)), (second, Some(2))]
    );

    let stranger = browser()
        .post(app.url(&format!("/api/orders/{second}/ready")))
        .header("Origin", &app.address)
        .send()
        .await
        .unwrap();
    assert_eq!(stranger.status(), 404, "without the key");
    let ready = |client: reqwest::Client| {
        let url = app.url(&format!("/api/orders/{second}/ready?key={key}"));
        let origin = app.address.clone();
        async move {
            client
                .post(url)
                .header("Origin", origin)
                .send()
                .await
                .unwrap()
        }
    };
    let mut counted = 0;
    // pressed before anyone claimed it: refused, and the order keeps its place
    let early = ready(browser()).await;
    counted += 1;
    assert_eq!(early.status(), 409);
    assert!(early.json::<Value>().await.unwrap()["message"]
        .as_str()
        .unwrap()
        .starts_with("No one has picked up your order yet."));
    // in the buyer's language: a Brazilian browser reads it in Portuguese
    let early_pt = browser()
        .post(app.url(&format!("/api/orders/{second}/ready?key={key}")))
        .header("Origin", &app.address)
        .header("Accept-Language", "pt-BR")
        .send()
        .await
        .unwrap();
    counted += 1;
    assert_eq!(early_pt.status(), 409);
    assert!(early_pt.json::<Value>().await.unwrap()["message"]
        .as_str()
        .unwrap()
        .starts_with("Ninguém da equipe pegou seu pedido ainda."));
    assert_eq!(
        staff_queue(&app, &staff).await,
        [(first, Some(1)), (second, Some(2))]
    );
    assert_eq!(page_of(&app, &buyer, second).await["queue_position"], 2);

    // claimed: out of the line, to be joined by a time; then in the game, once
    assert_eq!(
        staff_action(&app, &staff, second, "claim").await.status(),
        200
    );
    let page = page_of(&app, &buyer, second).await;
    assert_eq!(page["queue_position"], Value::Null);
    let claimed_at =
        chrono::DateTime::parse_from_rfc3339(page["delivery"]["claimed_at"].as_str().unwrap())
            .unwrap();
    let join_by = chrono::DateTime::parse_from_rfc3339(page["join_by"].as_str().unwrap()).unwrap();
    assert_eq!(
        join_by - claimed_at,
        chrono::Duration::minutes(15),
        "delivery.no_show_minutes"
    );
    assert_eq!(page_of(&app, &buyer, first).await["queue_position"], 1);
    let said = ready(browser()).await;
    counted += 1;
    assert_eq!(said.status(), 200);
    let page: Value = said.json().await.unwrap();
    assert!(page["delivery"]["buyer_ready_at"].is_string());
    assert_eq!(page["join_by"], Value::Null, "nothing left to join by");
    let again = ready(browser()).await;
    counted += 1;
    assert_eq!(again.status(), 409);
    assert_eq!(
        again.json::<Value>().await.unwrap()["message"],
        "Staff already know you are in the game."
    );
    let queue: Vec<Value> = staff_cards(&app, &staff).await;
    assert_eq!(
        queue[0]["id"], first,
        "the order of payment: a claim moves nothing"
    );
    assert_eq!(queue[0]["queue_position"], 1);
    assert_eq!(queue[1]["id"], second);
    assert_eq!(queue[1]["ready_minutes"], 0);
    assert_eq!(queue[1]["queue_position"], Value::Null);

    // a release asks the buyer again, after the next claim; a claim nobody answers becomes a
    // no show
    assert_eq!(
        staff_action(&app, &staff, second, "release").await.status(),
        200
    );
    assert_eq!(
        ready(browser()).await.status(),
        409,
        "released: not claimed"
    );
    counted += 1;
    assert_eq!(
        staff_action(&app, &staff, second, "claim").await.status(),
        200
    );
    assert_eq!(ready(browser()).await.status(), 200, "once per claim");
    counted += 1;
    assert_eq!(
        staff_action(&app, &staff, first, "claim").await.status(),
        200
    );
    app.clock.advance(std::time::Duration::from_secs(15 * 60));
    let queue: Vec<Value> = staff_cards(&app, &staff).await;
    let first_card = queue.iter().find(|o| o["id"] == first).unwrap();
    assert_eq!(first_card["no_show"], true);
    let second_card = queue.iter().find(|o| o["id"] == second).unwrap();
    assert_eq!(second_card["no_show"], false);

    // 10 calls per order per hour (the one without the key never reached the order)
    for _ in counted..10 {
        assert_eq!(ready(browser()).await.status(), 409);
    }
    let limited = ready(browser()).await;
    assert_eq!(limited.status(), 429);
    assert!(limited.headers().contains_key("retry-after"));

    assert_eq!(
        app.order_steps(second).await,
        ["placed", "paid", "claimed", "ready", "released", "claimed", "ready"]
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn buyers_places_in_line_are_the_staff_queues_and_a_late_order_says_so(
    #[case] backend: Backend,
) {
    let app = fast_mail_shop(backend).await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let mut ids = Vec::new();
    for _ in 0..5 {
        ids.push(paid_order(&app, &buyer).await);
        // paid a second apart: the line is the order of payment
        app.clock.advance(std::time::Duration::from_secs(1));
    }
    let [a, b, c, d, e] = ids[..] else {
        unreachable!()
    };
    let staff = app.client_with_role(Role::Admin).await;
    set_link(&app, &staff, LINK).await;
    // b claimed and its buyer in the game; d claimed, its buyer not yet
    assert_eq!(staff_action(&app, &staff, b, "claim").await.status(), 200);
    assert_eq!(
        app.post_json(&buyer, &format!("/api/orders/{b}/ready"), &json!({}))
            .await
            .status(),
        200
    );
    assert_eq!(staff_action(&app, &staff, d, "claim").await.status(), 200);

    let queue = staff_queue(&app, &staff).await;
    assert_eq!(
        queue,
        [
            (a, Some(1)),
            (b, None),
            (c, Some(2)),
            (d, None),
            (e, Some(3))
        ]
    );
    // each buyer's page counts exactly the waiting orders staff see before theirs
    for (id, place) in &queue {
        let page = page_of(&app, &buyer, *id).await;
        assert_eq!(page["queue_position"].as_i64(), *place, "order {id}");
        assert_eq!(page["over_promise"], false, "order {id}");
    }

    // past the promise (10 minutes with no deliveries measured): both sides say it runs late
    app.clock.advance(std::time::Duration::from_secs(11 * 60));
    let page = page_of(&app, &buyer, e).await;
    assert_eq!(page["over_promise"], true);
    assert_eq!(page["queue_position"], 3);
    let cards: Vec<Value> = staff_cards(&app, &staff).await;
    assert!(
        cards.iter().all(|card| card["over_promise"] == true),
        "{cards:?}"
    );
    // delivered: no longer late, and the line moves up
    assert_eq!(staff_action(&app, &staff, b, "deliver").await.status(), 200);
    assert_eq!(page_of(&app, &buyer, b).await["over_promise"], false);
    assert_eq!(staff_action(&app, &staff, a, "claim").await.status(), 200);
    assert_eq!(page_of(&app, &buyer, c).await["queue_position"], 1);
    assert_eq!(page_of(&app, &buyer, e).await["queue_position"], 2);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn every_change_of_an_order_is_recorded_once_as_its_step(#[case] backend: Backend) {
    let app = fast_mail_shop(backend).await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let order = paid_order(&app, &buyer).await;
    let staff = app.client_with_role(Role::Admin).await;
    set_link(&app, &staff, LINK).await;
    for action in ["claim", "claim", "release", "claim", "deliver", "deliver"] {
        staff_action(&app, &staff, order, action).await;
    }
    // a claim of one's own claim and a second delivery change nothing, and record nothing
    assert_eq!(
        app.order_steps(order).await,
        [
            "placed",
            "paid",
            "claimed",
            "released",
            "claimed",
            "delivered"
        ]
    );
    let cancelled = checkout(&app, &buyer, &payload(&[(1, 1)], 10.0)).await;
    let id = cancelled.json::<Value>().await.unwrap()["order_id"]
        .as_i64()
        .unwrap();
    let answer = app
        .post_json(&buyer, &format!("/api/orders/{id}/cancel"), &json!({}))
        .await;
    assert_eq!(answer.status(), 200);
    assert_eq!(app.order_steps(id).await, ["placed", "cancelled"]);
    let metrics = app
        .client
        .get(app.url("/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains("shop_delivery_seconds_count{step=\"paid_to_delivered\"} 1"),
        "{metrics}"
    );
}

/// Sets an order's times as if it had been paid, claimed and delivered then.
async fn seed_times(
    app: &TestApp,
    order: i64,
    paid: DateTime<Utc>,
    claimed_after: i64,
    delivered_after: i64,
) {
    exec(
        app,
        "UPDATE orders SET paid_at = ?, claimed_at = ?, delivered_at = ? WHERE id = ?",
        vec![
            paid.into(),
            (paid + Duration::seconds(claimed_after)).into(),
            (paid + Duration::seconds(delivered_after)).into(),
            order.into(),
        ],
    )
    .await;
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_dashboard_and_the_promise_follow_the_recorded_delivery_times(
    #[case] backend: Backend,
) {
    let app = fast_mail_shop(backend).await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let staff = app.client_with_role(Role::Admin).await;
    set_link(&app, &staff, LINK).await;
    let mut delivered = Vec::new();
    for _ in 0..10 {
        let order = paid_order(&app, &buyer).await;
        assert_eq!(
            staff_action(&app, &staff, order, "claim").await.status(),
            200
        );
        assert_eq!(
            staff_action(&app, &staff, order, "deliver").await.status(),
            200
        );
        delivered.push(order);
    }
    let now = {
        use accounts::Clock;
        app.clock.now()
    };
    let yesterday = now - Duration::days(1);
    // yesterday: paid→claimed 60..600 s, claimed→delivered 120 s each; p→d 180..720 s
    for (n, order) in delivered.iter().enumerate() {
        let n = n as i64 + 1;
        seed_times(&app, *order, yesterday, 60 * n, 60 * n + 120).await;
    }
    let stats: Value = {
        let admin = app.client_with_role(Role::SuperAdmin).await;
        admin
            .get(app.url("/api/admin/sales-stats"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    };
    let delivery = &stats["delivery"];
    let day = delivery["by_day"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["date"] == yesterday.date_naive().to_string())
        .expect("yesterday's row");
    assert_eq!(day["delivered"], 10);
    assert_eq!(day["paid_to_claimed"]["median_seconds"], 300);
    assert_eq!(day["paid_to_claimed"]["p90_seconds"], 540);
    assert_eq!(day["claimed_to_delivered"]["median_seconds"], 120);
    assert_eq!(day["paid_to_delivered"]["p90_seconds"], 660);
    let staff_row = &delivery["by_staff"][0];
    assert_eq!(staff_row["delivered"], 10);
    assert!(staff_row["staff_name"]
        .as_str()
        .unwrap()
        .starts_with("admin-"));
    // p75 of 180..720 s is the 8th: 600 s = 10 minutes -> 10
    assert_eq!(delivery["estimate_minutes"], 10);

    // slower deliveries move the promise: p75 of 23..32 minutes is 30 min 0 s -> 30
    for (n, order) in delivered.iter().enumerate() {
        seed_times(&app, *order, yesterday, 60, 60 * (23 + n as i64)).await;
    }
    app.clock.advance(std::time::Duration::from_secs(61));
    let site: Value = app.get_json("/api/site").await;
    assert_eq!(site["delivery_minutes"], 30);
    assert_eq!(site["discord_invite_url"], Value::Null);
    let buyer_page: Value = order_page(&app, &buyer, delivered[0], "")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(buyer_page["estimate_minutes"], 30);

    // a week later they no longer count: the setting again
    app.clock
        .advance(std::time::Duration::from_secs(7 * 24 * 3600));
    let site: Value = app.get_json("/api/site").await;
    assert_eq!(site["delivery_minutes"], 10);
}

#[tokio::test]
async fn a_discord_invite_that_is_not_an_https_discord_invite_stops_the_start() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let mut settings = app.settings.clone();
    settings.site.discord_invite_url = "https://evil.example/discord".into();
    let error = garden_app::Application::build(settings.clone())
        .await
        .err()
        .expect("refused");
    assert!(
        format!("{error:#}").contains("site.discord_invite_url"),
        "{error:#}"
    );
    settings.site.discord_invite_url = "https://discord.gg/garden".into();
    assert!(garden_app::Application::build(settings).await.is_ok());
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_burst_of_im_in_the_game_is_said_once_and_counted_by_the_limit(#[case] backend: Backend) {
    let app = fast_mail_shop(backend).await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let order = paid_order(&app, &buyer).await;
    let key = key_of(&app, order).await;
    let staff = app.client_with_role(Role::Admin).await;
    set_link(&app, &staff, LINK).await;
    assert_eq!(
        staff_action(&app, &staff, order, "claim").await.status(),
        200
    );
    // 30 at once from browsers holding the link: one says it, the others are told it was said
    // or, past ten in the hour, to wait (all in one window of the per-order count)
    app.to_the_start_of_a_window(std::time::Duration::from_secs(3600));
    let burst = (0..30).map(|_| {
        let url = app.url(&format!("/api/orders/{order}/ready?key={key}"));
        let origin = app.address.clone();
        async move {
            browser()
                .post(url)
                .header("Origin", origin)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    });
    let statuses = futures::future::join_all(burst).await;
    let count = |code: u16| statuses.iter().filter(|s| **s == code).count();
    assert_eq!(count(200), 1, "{statuses:?}");
    assert_eq!(count(409), 9, "{statuses:?}");
    assert_eq!(count(429), 20, "{statuses:?}");
    assert_eq!(
        app.order_steps(order).await,
        ["placed", "paid", "claimed", "ready"]
    );
}

/// The mails in the outbox whose text holds `needle`, once every step of `order` so far is
/// dispatched and each of its mails sent: a second mail, had one been queued, is among them.
async fn mails_with(app: &TestApp, order: i64, needle: &str) -> Vec<String> {
    app.settled_jobs(order, "mail").await;
    app.outbox_messages()
        .into_iter()
        .filter(|m| m.contains(needle))
        .collect()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_release_tells_the_buyer_why_and_a_claim_nobody_joins_is_told_once(
    #[case] backend: Backend,
) {
    let app = fast_mail_shop(backend).await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let order = paid_order(&app, &buyer).await;
    let staff = app.client_with_role(Role::Admin).await;
    set_link(&app, &staff, LINK).await;
    assert_eq!(
        staff_action(&app, &staff, order, "claim").await.status(),
        200
    );

    // no reason, a blank one or one too long: refused, and the order stays claimed
    let path = format!("/api/admin/orders/{order}/release");
    for (body, why) in [
        (json!({}), "no reason"),
        (json!({ "reason": "  \n " }), "blank"),
        (json!({ "reason": "x".repeat(201) }), "201 characters"),
    ] {
        let refused = app.post_json(&staff, &path, &body).await;
        assert_eq!(refused.status(), 422, "{why}");
        let body: Value = refused.json().await.unwrap();
        assert!(body["errors"]["reason"][0].is_string(), "{why}: {body}");
    }
    assert!(page_of(&app, &buyer, order).await["delivery"]["claimed_at"].is_string());

    // released with a reason: the buyer's page says who and why, and the order is back in line
    let reason = "My game crashed <b>again</b>; the next member of staff takes it.";
    let released = app
        .post_json(&staff, &path, &json!({ "reason": reason }))
        .await;
    assert_eq!(released.status(), 200);
    let page = page_of(&app, &buyer, order).await;
    assert_eq!(page["queue_position"], 1);
    assert_eq!(page["delivery"]["released"]["reason"], reason);
    assert!(
        page["delivery"]["released"]["staff_name"].is_string(),
        "{page}"
    );
    // one mail, with the reason escaped in its HTML
    let mails = mails_with(&app, order, "is back in line").await;
    assert_eq!(mails.len(), 1, "one release, one mail");
    assert!(mails[0].contains("My game crashed"), "{}", mails[0]);
    assert!(
        mails[0].contains("&lt;b&gt;again&lt;/b&gt;"),
        "escaped in the HTML: {}",
        mails[0]
    );

    // claimed again: the release is history; nobody joins within 15 minutes
    assert_eq!(
        staff_action(&app, &staff, order, "claim").await.status(),
        200
    );
    let page = page_of(&app, &buyer, order).await;
    assert_eq!(page["delivery"]["released"], Value::Null);
    assert_eq!(page["delivery"]["no_show"], false);
    app.clock.advance(std::time::Duration::from_secs(14 * 60));
    app.sweeper.run_once().await.unwrap();
    assert_eq!(
        page_of(&app, &buyer, order).await["delivery"]["no_show"],
        false,
        "not yet"
    );
    app.clock.advance(std::time::Duration::from_secs(60));
    // two instances' sweeps at once mark it once
    let (a, b) = tokio::join!(app.sweeper.run_once(), app.sweeper.run_once());
    a.unwrap();
    b.unwrap();
    app.sweeper.run_once().await.unwrap();
    let page = page_of(&app, &buyer, order).await;
    assert_eq!(page["delivery"]["no_show"], true, "{page}");
    let mails = mails_with(&app, order, "Your time to join is up").await;
    assert_eq!(mails.len(), 1);
    // the buyer joins after all: no longer a no-show
    assert_eq!(
        app.post_json(&buyer, &format!("/api/orders/{order}/ready"), &json!({}))
            .await
            .status(),
        200
    );
    assert_eq!(
        page_of(&app, &buyer, order).await["delivery"]["no_show"],
        false
    );
    assert_eq!(
        app.order_steps(order).await,
        ["placed", "paid", "claimed", "released", "claimed", "no_show", "ready"]
    );
}

/// The keys of an order's `steps` that are done, in order.
fn done_steps(page: &Value) -> Vec<String> {
    page["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|step| step["done"] == true)
        .map(|step| step["key"].as_str().unwrap().to_owned())
        .collect()
}

/// The numbered titles of a mail's plain text steps ("  1. Wait for a member of staff").
fn numbered_in_mail(mail: &str) -> Vec<String> {
    mail.lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("  ")?;
            let (number, title) = rest.split_once(". ")?;
            number.parse::<u32>().ok()?;
            let title = title.split([':', '\u{2713}']).next()?.trim();
            Some(format!("{number}. {title}"))
        })
        .collect()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_orders_script_follows_it_from_payment_to_its_review_as_its_mails_number_it(
    #[case] backend: Backend,
) {
    let app = shop_with(backend, vec![(1, product("Raccoon", "10.00", None))], |s| {
        s.mail.queue_poll_ms = 50;
        s.site.discord_invite_url = "https://discord.gg/garden".into();
    })
    .await;
    // the shop's own script: the Discord step with the invite (no bot: no ticket in its words)
    let site: Value = app.get_json("/api/site").await;
    let shop_steps = site["delivery_steps"].as_array().unwrap();
    let keys: Vec<&str> = shop_steps
        .iter()
        .map(|s| s["key"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        ["discord", "wait", "join", "ready", "receive", "review"]
    );
    assert_eq!(shop_steps[0]["link"], "https://discord.gg/garden");
    assert!(!shop_steps[0]["detail"].as_str().unwrap().contains("ticket"));
    assert!(shop_steps[1]["detail"]
        .as_str()
        .unwrap()
        .contains("under 10 minutes"));
    assert!(shop_steps.iter().all(|s| s.get("done").is_none()));

    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let order = paid_order(&app, &buyer).await;
    let page = page_of(&app, &buyer, order).await;
    let titles: Vec<String> = page["steps"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{}. {}", i + 1, s["title"].as_str().unwrap()))
        .collect();
    let shop_titles: Vec<String> = shop_steps
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{}. {}", i + 1, s["title"].as_str().unwrap()))
        .collect();
    assert_eq!(titles, shop_titles, "an order's script is the shop's");
    assert!(done_steps(&page).is_empty(), "paid, waiting: nothing done");
    let receipt = mails_with(&app, order, &format!("receipt for order #{order}")).await;
    assert_eq!(numbered_in_mail(&receipt[0]), titles, "{}", receipt[0]);

    let staff = app.client_with_role(Role::Admin).await;
    set_link(&app, &staff, LINK).await;
    let claim = |action: &'static str| staff_action(&app, &staff, order, action);
    assert_eq!(claim("claim").await.status(), 200);
    assert_eq!(
        done_steps(&page_of(&app, &buyer, order).await),
        ["discord", "wait"]
    );
    assert_eq!(claim("release").await.status(), 200);
    assert_eq!(
        done_steps(&page_of(&app, &buyer, order).await),
        Vec::<String>::new(),
        "released: back to waiting"
    );
    assert_eq!(claim("claim").await.status(), 200);
    let ready = app
        .post_json(&buyer, &format!("/api/orders/{order}/ready"), &json!({}))
        .await;
    assert_eq!(ready.status(), 200);
    assert_eq!(
        done_steps(&page_of(&app, &buyer, order).await),
        ["discord", "wait", "join", "ready"]
    );
    assert_eq!(claim("deliver").await.status(), 200);
    let page = page_of(&app, &buyer, order).await;
    assert_eq!(
        done_steps(&page),
        ["discord", "wait", "join", "ready", "receive"]
    );
    let delivered = mails_with(&app, order, &format!("order #{order} has been delivered")).await;
    assert_eq!(numbered_in_mail(&delivered[0]), titles, "{}", delivered[0]);
    let ticked = delivered[0]
        .lines()
        .filter(|line| line.starts_with("  ") && line.contains("\u{2713} done"))
        .count();
    assert_eq!(ticked, 5, "the text part ticks the five steps done");

    let review = app
        .post_json(
            &buyer,
            &format!("/api/orders/{order}/review"),
            &json!({ "rating": 5, "text": "Quick and friendly." }),
        )
        .await;
    assert_eq!(review.status(), 201);
    assert_eq!(done_steps(&page_of(&app, &buyer, order).await).len(), 6);
}
