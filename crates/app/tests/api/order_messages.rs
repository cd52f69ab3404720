//! Issue 34 item 5, on SQLite and PostgreSQL: the line between an order's buyer and staff on
//! the order page. Both sides read and write it (the buyer by session or the link's key, any
//! member of staff), both streams hear each message at once, an order nobody may see answers
//! 404, a closed order 409 (8 days after its delivery too), a bad text 422 writing nothing, the
//! 11th message of a side in a minute 429 with `Retry-After`, and 60 at once never pass the
//! limit. The export and the erasure are in `privacy_erasure`; the Discord ticket in `tickets`.

use std::time::Duration;

use accounts::Role;
use rstest::rstest;
use sea_orm::{ConnectionTrait, Statement, Value as SqlValue};
use serde_json::{json, Value};
use store::Backend;

use crate::checkout_support::*;
use crate::events::Sse;
use crate::helpers::{eventually, TestApp};

async fn exec(app: &TestApp, sql: &str, values: Vec<SqlValue>) {
    let db = app.store.connection();
    let backend = db.get_database_backend();
    let sql = if backend == sea_orm::DatabaseBackend::Postgres {
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
    } else {
        sql.to_owned()
    };
    db.execute(Statement::from_sql_and_values(backend, sql, values))
        .await
        .unwrap();
}

async fn messages_shop(backend: Backend) -> TestApp {
    shop_with(backend, vec![(1, product("Raccoon", "10.00", None))], |s| {
        s.mail.queue_poll_ms = 50;
        s.checkout.max_pending_orders = 50;
    })
    .await
}

/// A buyer's browser with demo Discord identity `which` linked (checkout needs one).
async fn linked(app: &TestApp, which: usize) -> reqwest::Client {
    let client = browser();
    link_discord(app, &client, which).await;
    client
}

async fn placed(app: &TestApp, buyer: &reqwest::Client) -> i64 {
    let response = checkout(app, buyer, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(response.status(), 200);
    response.json::<Value>().await.unwrap()["order_id"]
        .as_i64()
        .unwrap()
}

/// A paid order placed and paid in `buyer`'s session.
async fn paid_order(app: &TestApp, buyer: &reqwest::Client) -> i64 {
    let id = placed(app, buyer).await;
    let paid = buyer
        .post(app.url(&format!("/dev/pay/{id}/pay")))
        .header("Origin", &app.address)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .send()
        .await
        .unwrap();
    assert_eq!(paid.status(), 303);
    id
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

/// `POST` of `text` on the buyer's route (`query`: `?key=…` or nothing).
async fn buyer_says(
    app: &TestApp,
    client: &reqwest::Client,
    order: i64,
    query: &str,
    text: &str,
) -> reqwest::Response {
    app.post_json(
        client,
        &format!("/api/orders/{order}/messages{query}"),
        &json!({ "text": text }),
    )
    .await
}

async fn staff_says(
    app: &TestApp,
    staff: &reqwest::Client,
    order: i64,
    text: &str,
) -> reqwest::Response {
    app.post_json(
        staff,
        &format!("/api/admin/orders/{order}/messages"),
        &json!({ "text": text }),
    )
    .await
}

async fn thread(app: &TestApp, client: &reqwest::Client, path: &str) -> (u16, Value) {
    let response = client.get(app.url(path)).send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn count_messages(app: &TestApp, order: i64) -> i64 {
    app.count_where("order_messages", &format!("order_id = {order}"))
        .await
}

fn is_message(frame: &crate::events::Frame, text: &str) -> bool {
    frame.event.as_deref() == Some("order_message")
        && frame
            .data
            .as_ref()
            .is_some_and(|data| data["message"]["text"] == text)
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_buyer_and_staff_write_to_each_other_and_both_streams_hear_it_at_once(
    #[case] backend: Backend,
) {
    let app = messages_shop(backend).await;
    let buyer = linked(&app, 0).await;
    let order = paid_order(&app, &buyer).await;
    let key = key_of(&app, order).await;
    let staff = app.client_with_role(Role::Admin).await;
    let staff_name = staff
        .get(app.url("/api/me"))
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap()["name"]
        .as_str()
        .unwrap()
        .to_owned();
    // the buyer's page on another device (the link's key), and the staff queue
    let phone = browser();
    let mut buyer_stream = Sse::open(&app, &phone, &format!("?order={order}&key={key}")).await;
    let mut staff_stream = Sse::open(&app, &staff, "?staff=1").await;
    buyer_stream.event().await;
    staff_stream.event().await;

    let said = buyer_says(&app, &buyer, order, "", "  I can't join the server \n").await;
    assert_eq!(said.status(), 201);
    let said: Value = said.json().await.unwrap();
    assert_eq!(said["from"], "buyer");
    assert_eq!(said["author"], "Builder_Bob");
    assert_eq!(said["text"], "I can't join the server");
    assert!(
        said["created_at"].is_string() && said["id"].is_i64(),
        "{said}"
    );
    let heard = staff_stream
        .events_until(|f| is_message(f, "I can't join the server"))
        .await;
    let event = heard.last().unwrap().data.clone().unwrap();
    assert_eq!(event, json!({ "order_id": order, "message": said }));
    buyer_stream
        .events_until(|f| is_message(f, "I can't join the server"))
        .await;

    let answered = staff_says(&app, &staff, order, "Sent you a new link <b>hi</b>").await;
    assert_eq!(answered.status(), 201);
    let answered: Value = answered.json().await.unwrap();
    assert_eq!(answered["from"], "staff");
    assert_eq!(answered["author"], staff_name.as_str());
    buyer_stream
        .events_until(|f| is_message(f, "Sent you a new link <b>hi</b>"))
        .await;
    // the key holder writes too
    let from_phone = buyer_says(&app, &phone, order, &format!("?key={key}"), "Joined!").await;
    assert_eq!(from_phone.status(), 201);
    staff_stream
        .events_until(|f| is_message(f, "Joined!"))
        .await;

    // the same thread, oldest first, for every side
    let texts = |thread: &Value| -> Vec<String> {
        thread
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap().to_owned())
            .collect()
    };
    let expected = [
        "I can't join the server",
        "Sent you a new link <b>hi</b>",
        "Joined!",
    ];
    let (status, by_session) = thread(&app, &buyer, &format!("/api/orders/{order}/messages")).await;
    assert_eq!(
        (status, texts(&by_session)),
        (200, expected.map(String::from).to_vec())
    );
    let (_, by_key) = thread(
        &app,
        &browser(),
        &format!("/api/orders/{order}/messages?key={key}"),
    )
    .await;
    assert_eq!(by_key, by_session);
    let (_, by_staff) = thread(&app, &staff, &format!("/api/admin/orders/{order}/messages")).await;
    assert_eq!(by_staff, by_session);
    assert_eq!(by_staff[1]["from"], "staff");

    // the audit log names the staff's message by its id, never its words
    let entries = app
        .count_where(
            "audit_log",
            &format!(
                "kind = 'order.message' AND target = 'order_message:{}'",
                answered["id"]
            ),
        )
        .await;
    assert_eq!(entries, 1);
    assert_eq!(
        app.count_where("audit_log", "kind = 'order.message'").await,
        1,
        "the buyer's messages are not staff actions"
    );
    assert_eq!(
        app.count_where(
            "audit_log",
            "COALESCE(after, '') LIKE '%new link%' OR COALESCE(before, '') LIKE '%new link%'"
        )
        .await,
        0
    );
    // each message is a step of the order (the outbox that mirrors it into a ticket)
    let steps = app.order_steps(order).await;
    assert_eq!(
        steps.iter().filter(|s| *s == "message").count(),
        3,
        "{steps:?}"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_order_the_caller_may_not_see_answers_404_and_writes_nothing(#[case] backend: Backend) {
    let app = messages_shop(backend).await;
    let buyer = linked(&app, 0).await;
    let order = paid_order(&app, &buyer).await;
    let key = key_of(&app, order).await;
    let other_buyer = linked(&app, 1).await;
    let other = paid_order(&app, &other_buyer).await;
    let other_key = key_of(&app, other).await;
    let stranger = browser();
    let wrong_key = "A".repeat(32);
    for query in [
        String::new(),
        format!("?key={wrong_key}"),
        format!("?key={other_key}"),
        "?key=".to_owned(),
    ] {
        let (status, _) = thread(
            &app,
            &stranger,
            &format!("/api/orders/{order}/messages{query}"),
        )
        .await;
        assert_eq!(status, 404, "{query}");
        let said = buyer_says(&app, &stranger, order, &query, "hello").await;
        assert_eq!(said.status(), 404, "{query}");
    }
    // another buyer's session, a forged id, a malformed one
    assert_eq!(
        buyer_says(&app, &other_buyer, order, "", "hi")
            .await
            .status(),
        404
    );
    for forged in ["999999", "0", "-3", "abc"] {
        let path = format!("/api/orders/{forged}/messages?key={key}");
        let (status, _) = thread(&app, &buyer, &path).await;
        assert_eq!(status, 404, "{forged}");
        let staff_path = format!("/api/admin/orders/{forged}/messages");
        let staff = app.client_with_role(Role::Admin).await;
        let (status, _) = thread(&app, &staff, &staff_path).await;
        assert_eq!(status, 404, "{forged}");
        let said = app
            .post_json(&staff, &staff_path, &json!({ "text": "hi" }))
            .await;
        assert_eq!(said.status(), 404, "{forged}");
    }
    // the staff routes are staff's
    let (status, _) = thread(&app, &buyer, &format!("/api/admin/orders/{order}/messages")).await;
    assert_eq!(status, 401);
    let customer = app.client_with_role(Role::Customer).await;
    assert_eq!(staff_says(&app, &customer, order, "hi").await.status(), 403);
    // another site cannot write for the buyer
    let cross_site = buyer
        .post(app.url(&format!("/api/orders/{order}/messages")))
        .header("Origin", "https://evil.example")
        .json(&json!({ "text": "hi" }))
        .send()
        .await
        .unwrap();
    assert_eq!(cross_site.status(), 403);
    assert_eq!(count_messages(&app, order).await, 0);
    // the owner's own answers still work
    assert_eq!(
        buyer_says(&app, &buyer, order, "", "mine").await.status(),
        201
    );
    let (status, _) = thread(
        &app,
        &stranger,
        &format!("/api/orders/{order}/messages?key={key}"),
    )
    .await;
    assert_eq!(status, 200);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_order_is_open_while_paid_and_for_seven_days_after_delivery_then_409(
    #[case] backend: Backend,
) {
    let app = messages_shop(backend).await;
    let buyer = linked(&app, 0).await;
    let staff = app.client_with_role(Role::Admin).await;
    // not paid yet
    let pending = placed(&app, &buyer).await;
    let refused = buyer_says(&app, &buyer, pending, "", "hello?").await;
    assert_eq!(refused.status(), 409);
    let body: Value = refused.json().await.unwrap();
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("once the order is paid"),
        "{body}"
    );
    assert_eq!(
        staff_says(&app, &staff, pending, "hello").await.status(),
        409
    );

    // delivered six days ago: still open; eight days ago: closed for both sides
    let order = paid_order(&app, &buyer).await;
    let set_delivered = |days: i64| {
        let at = chrono::Utc::now() - chrono::Duration::days(days);
        let app = &app;
        async move {
            exec(
                app,
                "UPDATE orders SET status = 'delivered', delivered_at = ? WHERE id = ?",
                vec![at.into(), order.into()],
            )
            .await
        }
    };
    set_delivered(6).await;
    assert_eq!(
        buyer_says(&app, &buyer, order, "", "thanks!")
            .await
            .status(),
        201
    );
    assert_eq!(staff_says(&app, &staff, order, "enjoy").await.status(), 201);
    set_delivered(8).await;
    let late = buyer_says(&app, &buyer, order, "", "one more thing").await;
    assert_eq!(late.status(), 409);
    let body: Value = late.json().await.unwrap();
    assert!(
        body["message"].as_str().unwrap().contains("7 days"),
        "{body}"
    );
    assert_eq!(staff_says(&app, &staff, order, "hi").await.status(), 409);
    // the thread stays readable
    let (status, messages) = thread(&app, &buyer, &format!("/api/orders/{order}/messages")).await;
    assert_eq!((status, messages.as_array().unwrap().len()), (200, 2));

    // refunded: closed
    exec(
        &app,
        "UPDATE orders SET status = 'refunded', closed_at = ? WHERE id = ?",
        vec![chrono::Utc::now().into(), order.into()],
    )
    .await;
    assert_eq!(
        buyer_says(&app, &buyer, order, "", "hello").await.status(),
        409
    );
    assert_eq!(count_messages(&app, order).await, 2);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_empty_or_too_long_text_is_422_and_writes_nothing(#[case] backend: Backend) {
    let app = messages_shop(backend).await;
    let buyer = linked(&app, 0).await;
    let order = paid_order(&app, &buyer).await;
    let staff = app.client_with_role(Role::Admin).await;
    let too_long = "a".repeat(1001);
    for text in ["", "   \n\t ", too_long.as_str()] {
        for response in [
            buyer_says(&app, &buyer, order, "", text).await,
            staff_says(&app, &staff, order, text).await,
        ] {
            assert_eq!(response.status(), 422);
            let body: Value = response.json().await.unwrap();
            assert!(body["message"].is_string(), "{body}");
            assert!(body["errors"]["text"][0].is_string(), "{body}");
        }
    }
    let missing = app
        .post_json(&buyer, &format!("/api/orders/{order}/messages"), &json!({}))
        .await;
    assert_eq!(missing.status(), 422);
    let not_text = app
        .post_json(
            &buyer,
            &format!("/api/orders/{order}/messages"),
            &json!({ "text": 5 }),
        )
        .await;
    assert_eq!(not_text.status(), 422);
    assert_eq!(count_messages(&app, order).await, 0);
    assert_eq!(
        app.count_where(
            "order_events",
            &format!("order_id = {order} AND step = 'message'")
        )
        .await,
        0
    );
    // 1,000 characters (and spaces around them) are fine
    let most = format!("  {}  ", "é".repeat(1000));
    assert_eq!(
        buyer_says(&app, &buyer, order, "", &most).await.status(),
        201
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_eleventh_message_of_a_side_in_a_minute_is_429_with_retry_after(
    #[case] backend: Backend,
) {
    let app = messages_shop(backend).await;
    let buyer = linked(&app, 0).await;
    let order = paid_order(&app, &buyer).await;
    let staff = app.client_with_role(Role::Admin).await;
    app.to_the_start_of_a_window(Duration::from_secs(60));
    for n in 0..10 {
        let said = buyer_says(&app, &buyer, order, "", &format!("message {n}")).await;
        assert_eq!(said.status(), 201, "message {n}");
    }
    let refused = buyer_says(&app, &buyer, order, "", "one too many").await;
    assert_eq!(refused.status(), 429);
    let wait: u64 = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    // staff still answer: each side counts apart
    assert_eq!(staff_says(&app, &staff, order, "here").await.status(), 201);
    assert_eq!(count_messages(&app, order).await, 11);
    // the next minute, the buyer writes again
    app.clock.advance(Duration::from_secs(60));
    assert_eq!(
        buyer_says(&app, &buyer, order, "", "again").await.status(),
        201
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn sixty_messages_at_once_never_pass_the_limit(#[case] backend: Backend) {
    let app = messages_shop(backend).await;
    let buyer = linked(&app, 0).await;
    let order = paid_order(&app, &buyer).await;
    app.to_the_start_of_a_window(Duration::from_secs(60));
    let texts: Vec<String> = (0..60).map(|n| format!("burst {n}")).collect();
    let answers = futures::future::join_all(
        texts
            .iter()
            .map(|text| buyer_says(&app, &buyer, order, "", text)),
    )
    .await;
    let statuses: Vec<u16> = answers.iter().map(|r| r.status().as_u16()).collect();
    let kept = statuses.iter().filter(|s| **s == 201).count();
    assert_eq!(kept, 10, "{statuses:?}");
    assert!(
        statuses.iter().all(|s| *s == 201 || *s == 429),
        "{statuses:?}"
    );
    assert_eq!(count_messages(&app, order).await, 10);
}
