//! After the sale, on SQLite and PostgreSQL: the receipt queued once however often Stripe
//! repeats its event and written to the outbox by the background loop; the order page by the
//! receipt's link from a fresh client (timeline, place in the queue), 404 without the key or
//! with another order's; the delivered and refunded mails.

use accounts::Role;
use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer};

use crate::checkout_support::*;
use crate::helpers::{eventually, TestApp};

/// The link key in a mail's link to order `id`.
fn key_in(mail: &str, id: i64) -> String {
    let marker = format!("http://localhost:8080/orders/{id}?key=");
    let start = mail.find(&marker).expect("the mail links the order") + marker.len();
    let key: String = mail[start..].chars().take(32).collect();
    assert!(key.chars().all(|c| c.is_ascii_hexdigit()), "{key}");
    key
}

fn about(messages: &[String], subject: &str) -> Vec<String> {
    messages
        .iter()
        .filter(|m| m.contains(subject))
        .cloned()
        .collect()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_receipt_is_mailed_once_however_often_stripe_repeats_the_payment(
    #[case] backend: Backend,
) {
    let stripe = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/checkout/sessions"))
        .respond_with(Sessions(0.into()))
        .mount(&stripe)
        .await;
    let uri = stripe.uri();
    let app = shop_with(
        backend,
        vec![
            (1, product("Golden Owl", "10.00", Some(5))),
            (2, product("Bee", "5.00", None)),
        ],
        |s| {
            s.stripe.secret_key = "sk_test_fake".to_owned().into();
            s.stripe.webhook_secret = WEBHOOK_SECRET.to_owned().into();
            s.stripe.api_base = uri;
            s.mail.queue_poll_ms = 100;
        },
    )
    .await;
    let client = browser();
    link_discord(&app, &client, 0).await;
    let response = checkout(&app, &client, &payload(&[(1, 1), (2, 2)], 20.0)).await;
    assert_eq!(response.status(), 200);
    let id = response.json::<Value>().await.unwrap()["order_id"]
        .as_i64()
        .unwrap();
    let session = reference(&app, id).await;
    assert!(app.outbox_messages().is_empty(), "nothing before payment");

    let event = stripe_event("evt_paid", "checkout.session.completed", &session, id);
    let first = deliver(&app, &event, WEBHOOK_SECRET, now(&app)).await;
    assert_eq!(first.status(), 200);
    // ten replays, of the event and of a new event id for the same payment
    for n in 0..10 {
        let event = if n % 2 == 0 {
            event.clone()
        } else {
            stripe_event(
                &format!("evt_again_{n}"),
                "checkout.session.completed",
                &session,
                id,
            )
        };
        let again = deliver(&app, &event, WEBHOOK_SECRET, now(&app)).await;
        assert_eq!(again.status(), 200);
    }
    let messages = app.wait_for_outbox(1).await;
    // a whole round of the outbox after the last replay: a second mail, had one been queued,
    // would have gone out in it
    app.rounds.whole_round(garden_app::Loop::Outbox).await;
    let messages = app
        .outbox_messages()
        .into_iter()
        .chain(messages)
        .collect::<Vec<_>>();
    let receipts = about(
        &messages,
        &format!("Subject: Your Garden Shop receipt for order #{id}"),
    );
    assert_eq!(app.outbox_messages().len(), 1, "one mail in the outbox");
    assert_eq!(app.count_rows("mail_jobs").await, 1, "one mail queued");
    let receipt = &receipts[0];
    assert!(receipt.contains("To: buyer@example.com"));
    assert!(receipt.contains("text/plain") && receipt.contains("text/html"));
    for expected in [
        "Order #",
        "1 × Golden Owl  $10.00",
        "2 × Bee  $10.00",
        "Processing fee: $",
        "Total: $",
        "Roblox username: Builder_Bob",
        "What happens next",
    ] {
        assert!(
            receipt.contains(expected),
            "the receipt says {expected:?}:\n{receipt}"
        );
    }
    let key = key_in(receipt, id);
    let subject_line = receipt.lines().find(|l| l.starts_with("Subject:")).unwrap();
    assert!(
        !subject_line.contains(&key),
        "the key stays out of the subject"
    );

    // the key is not stored: only its SHA-256
    use sea_orm::{ConnectionTrait, Statement};
    let db = app.store.connection();
    let row = db
        .query_one(Statement::from_string(
            db.get_database_backend(),
            format!("SELECT access_key_hash FROM orders WHERE id = {id}"),
        ))
        .await
        .unwrap()
        .unwrap();
    let stored: String = row.try_get_by_index(0).unwrap();
    assert_eq!(stored.len(), 64);
    assert_ne!(stored, key);

    // the link opens the order in a browser that never saw it
    let page = app
        .new_client()
        .get(app.url(&format!("/api/orders/{id}?key={key}")))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    let page: Value = page.json().await.unwrap();
    assert_eq!(page["status"], "paid");
    assert_eq!(page["queue_position"], 1);
}

/// Places an order for `items` from a client linked to demo identity `who` and pays it on the
/// dev payment page; returns its id.
async fn bought(app: &TestApp, client: &reqwest::Client, items: &[(i64, u32)], total: f64) -> i64 {
    let response = checkout(app, client, &payload(items, total)).await;
    assert_eq!(response.status(), 200);
    let id = response.json::<Value>().await.unwrap()["order_id"]
        .as_i64()
        .unwrap();
    let paid = client
        .post(app.url(&format!("/dev/pay/{id}/pay")))
        .send()
        .await
        .unwrap();
    assert_eq!(paid.status(), 303);
    id
}

async fn page(app: &TestApp, id: i64, key: Option<&str>) -> reqwest::Response {
    let path = match key {
        Some(key) => format!("/api/orders/{id}?key={key}"),
        None => format!("/api/orders/{id}"),
    };
    app.new_client().get(app.url(&path)).send().await.unwrap()
}

fn steps(page: &Value) -> Vec<String> {
    page["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|step| {
            assert!(step["at"].as_str().unwrap().contains('T'));
            step["status"].as_str().unwrap().to_owned()
        })
        .collect()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_order_page_opens_with_its_own_key_only_and_follows_the_order(
    #[case] backend: Backend,
) {
    let app = shop_with(
        backend,
        vec![(1, product("Golden Owl", "10.00", Some(10)))],
        |s| {
            s.stripe.webhook_secret = WEBHOOK_SECRET.to_owned().into();
            s.mail.queue_poll_ms = 100;
        },
    )
    .await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let first = bought(&app, &buyer, &[(1, 1)], 10.0).await;
    let second = bought(&app, &buyer, &[(1, 2)], 20.0).await;
    let mail = app.wait_for_outbox(2).await;
    let first_key = key_in(&about(&mail, &format!("order #{first}\r\n"))[0], first);
    let second_key = key_in(&about(&mail, &format!("order #{second}\r\n"))[0], second);
    assert_ne!(first_key, second_key);

    // a fresh client: 404 without the key, with a wrong one, with the other order's
    for key in [
        None,
        Some(""),
        Some("00000000000000000000000000000000"),
        Some(second_key.as_str()),
        Some(&first_key[..31]),
    ] {
        let response = page(&app, first, key).await;
        assert_eq!(response.status(), 404, "key {key:?}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["message"], "Order not found.");
    }
    assert_eq!(page(&app, 9999, Some(&first_key)).await.status(), 404);
    // the buyer's own session needs no key
    let own = buyer
        .get(app.url(&format!("/api/orders/{first}")))
        .send()
        .await
        .unwrap();
    assert_eq!(own.status(), 200);

    let response = page(&app, first, Some(&first_key)).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["cache-control"], "no-store");
    let one: Value = response.json().await.unwrap();
    assert_eq!(one["id"], first);
    assert_eq!(one["status"], "paid");
    assert_eq!(one["roblox_username"], "Builder_Bob");
    assert_eq!(one["items"][0]["name"], "Golden Owl");
    assert!(one["total"].as_f64().unwrap() > 10.0, "with the fee");
    assert_eq!(steps(&one), ["paid"]);
    assert_eq!(one["queue_position"], 1);
    let two: Value = page(&app, second, Some(&second_key))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(two["queue_position"], 2, "one order before it");

    // staff claim the first, then deliver it
    let staff = app.client_with_role(Role::Admin).await;
    let claimed = staff
        .post(app.url(&format!("/api/admin/orders/{first}/claim")))
        .send()
        .await
        .unwrap();
    assert_eq!(claimed.status(), 200);
    let one: Value = page(&app, first, Some(&first_key))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(steps(&one), ["paid", "claimed"]);
    assert_eq!(
        one["queue_position"],
        Value::Null,
        "claimed: out of the line"
    );
    let two: Value = page(&app, second, Some(&second_key))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        two["queue_position"], 1,
        "next in line once the first is claimed"
    );
    let delivered = staff
        .post(app.url(&format!("/api/admin/orders/{first}/deliver")))
        .json(&json!({ "proof_id": null }))
        .send()
        .await
        .unwrap();
    assert_eq!(delivered.status(), 200);
    let one: Value = page(&app, first, Some(&first_key))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(one["status"], "delivered");
    assert_eq!(steps(&one), ["paid", "claimed", "delivered"]);
    assert_eq!(one["queue_position"], Value::Null);
    let two: Value = page(&app, second, Some(&second_key))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(two["queue_position"], 1, "next in line now");

    // staff refund the second
    let refunded = staff
        .post(app.url(&format!("/api/admin/orders/{second}/refund")))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(refunded.status(), 200);
    let two: Value = page(&app, second, Some(&second_key))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(two["status"], "refunded");
    assert_eq!(steps(&two), ["paid", "refunded"]);
    assert_eq!(two["queue_position"], Value::Null);

    // two receipts, the claim mail, delivered, refunded
    let mail = app.wait_for_outbox(5).await;
    let claimed = about(&mail, &format!("(order #{first})"));
    assert_eq!(claimed.len(), 1, "staff are waiting: once per claim");
    let delivered = about(&mail, &format!("order #{first} has been delivered"));
    assert_eq!(delivered.len(), 1);
    assert!(delivered[0].contains("delivered to Builder_Bob"));
    assert_eq!(key_in(&delivered[0], first), first_key, "the same link");
    let refund = about(&mail, &format!("order #{second} has been refunded"));
    assert_eq!(refund.len(), 1);
    assert_eq!(app.count_rows("mail_jobs").await, 5);
    // repeating the delivery (refused) or the refund (answered as it is, the provider not
    // asked again) queues nothing more
    for (path, status) in [
        (format!("/api/admin/orders/{first}/deliver"), 409),
        (format!("/api/admin/orders/{second}/refund"), 200),
    ] {
        let again = staff
            .post(app.url(&path))
            .json(&json!({}))
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), status, "{path}");
    }
    assert_eq!(app.count_rows("mail_jobs").await, 5);
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A mail job's attempts and status (none yet: 0 attempts; the outbox queues it after the
/// payment's answer).
async fn job(app: &TestApp) -> (i64, String, Option<String>) {
    use sea_orm::{ConnectionTrait, Statement};
    let db = app.store.connection();
    let Some(row) = db
        .query_one(Statement::from_string(
            db.get_database_backend(),
            "SELECT attempts, status, last_error FROM mail_jobs".to_owned(),
        ))
        .await
        .unwrap()
    else {
        return (0, String::new(), None);
    };
    (
        i64::from(row.try_get_by_index::<i32>(0).unwrap()),
        row.try_get_by_index(1).unwrap(),
        row.try_get_by_index(2).unwrap(),
    )
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn while_the_mail_server_is_down_the_payment_answers_at_once_and_the_receipt_is_retried(
    #[case] backend: Backend,
) {
    let port = free_port();
    let app = shop_with(backend, vec![(1, product("Owl", "10.00", Some(3)))], |s| {
        s.stripe.webhook_secret = WEBHOOK_SECRET.to_owned().into();
        s.mail.smtp_host = "127.0.0.1".into();
        s.mail.smtp_port = port;
        s.mail.smtp_tls = garden_app::SmtpTls::None;
        s.mail.queue_poll_ms = 100;
        s.mail.retry_base_seconds = 1;
        s.mail.retry_max_seconds = 1;
    })
    .await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let started = std::time::Instant::now();
    let id = bought(&app, &buyer, &[(1, 1)], 10.0).await;
    assert!(started.elapsed() < std::time::Duration::from_secs(5));

    // the loop tried, failed, and keeps the job for later
    let failed = eventually("an attempt is made", || async {
        let job = job(&app).await;
        if job.0 >= 1 {
            Ok(job)
        } else {
            Err(job)
        }
    })
    .await;
    assert_eq!(failed.1, "pending", "tried again later");
    assert!(failed.2.unwrap().contains("SMTP"), "the cause is kept");

    // the server comes back: the next try delivers it, once
    let server = mail::testing::SmtpTestServer::start_on(port).await.unwrap();
    eventually("the receipt reaches the mail server", || async {
        (!server.received().is_empty()).then_some(())
    })
    .await;
    let received = server.received();
    assert_eq!(received.len(), 1);
    assert_eq!(received[0].to, vec!["buyer@example.com".to_owned()]);
    assert!(received[0].data.contains(&format!("order #{id}")));
    eventually("the job is marked sent", || async {
        let job = job(&app).await;
        if job.1 == "sent" {
            Ok(())
        } else {
            Err(job)
        }
    })
    .await;
    // past any retry or lease: a sent job is never sent again
    app.clock.advance(std::time::Duration::from_secs(3600));
    app.rounds.whole_round(garden_app::Loop::Outbox).await;
    assert_eq!(server.received().len(), 1, "sent once");
}

async fn review(app: &TestApp, id: i64, key: &str, body: &Value) -> (reqwest::StatusCode, Value) {
    let response = app
        .new_client()
        .post(app.url(&format!("/api/orders/{id}/review?key={key}")))
        .json(body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_delivered_order_link_leaves_one_review_and_staff_can_hide_it(#[case] backend: Backend) {
    let app = shop_with(
        backend,
        vec![
            (1, product("Golden Owl", "10.00", Some(10))),
            (2, product("Bee", "5.00", None)),
        ],
        |s| {
            s.stripe.webhook_secret = WEBHOOK_SECRET.to_owned().into();
            s.mail.queue_poll_ms = 100;
        },
    )
    .await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let id = bought(&app, &buyer, &[(1, 1)], 10.0).await;
    let other = bought(&app, &buyer, &[(2, 1)], 5.0).await;
    let mail = app.wait_for_outbox(2).await;
    let key = key_in(&about(&mail, &format!("order #{id}\r\n"))[0], id);
    let other_key = key_in(&about(&mail, &format!("order #{other}\r\n"))[0], other);
    let five = json!({ "rating": 5, "text": "Fast and friendly, thanks!" });

    // before delivery: refused
    let (status, body) = review(&app, id, &key, &five).await;
    assert_eq!(status, 422);
    assert_eq!(
        body["errors"]["order"][0],
        "You can review this order once it has been delivered."
    );
    let staff = app.client_with_role(Role::Admin).await;
    let claimed = staff
        .post(app.url(&format!("/api/admin/orders/{id}/claim")))
        .send()
        .await
        .unwrap();
    assert_eq!(claimed.status(), 200);
    let delivered = staff
        .post(app.url(&format!("/api/admin/orders/{id}/deliver")))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(delivered.status(), 200);

    // without the right key: 404; out of bounds: 422
    assert_eq!(review(&app, id, &other_key, &five).await.0, 404);
    assert_eq!(review(&app, id, "", &five).await.0, 404);
    for bad in [
        json!({ "rating": 0, "text": "" }),
        json!({ "rating": 6, "text": "" }),
        json!({ "rating": 5, "text": "x".repeat(1001) }),
    ] {
        let (status, body) = review(&app, id, &key, &bad).await;
        assert_eq!(status, 422, "{bad}");
        assert!(body["errors"].as_object().unwrap().len() == 1);
    }

    // once, then 409, also in parallel
    let (status, body) = review(&app, id, &key, &five).await;
    assert_eq!(status, 201);
    assert_eq!(body["rating"], 5);
    assert_eq!(
        body["name"], "Bu***",
        "the Roblox name's first letters only"
    );
    assert_eq!(body["product_ids"], json!([1]));
    let again = futures_join(&app, id, &key).await;
    assert!(again.iter().all(|status| *status == 409), "{again:?}");
    assert_eq!(app.count_rows("reviews").await, 1);

    let all = app.get_json("/api/reviews").await;
    assert_eq!(all["count"], 1);
    assert_eq!(all["average"], 5.0);
    assert_eq!(all["reviews"][0]["text"], "Fast and friendly, thanks!");
    assert!(all["reviews"][0].get("order_id").is_none());
    assert_eq!(app.get_json("/api/reviews?product_id=1").await["count"], 1);
    let bee = app.get_json("/api/reviews?product_id=2").await;
    assert_eq!(
        (bee["count"].clone(), bee["average"].clone()),
        (json!(0), Value::Null)
    );

    // staff hide it with a reason; customers cannot
    let review_id = all["reviews"][0]["id"].as_i64().unwrap();
    let hide = format!("/api/admin/reviews/{review_id}/hide");
    let customer = app.client_with_role(Role::Customer).await;
    let refused = customer
        .post(app.url(&hide))
        .json(&json!({ "reason": "spam" }))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 403);
    let no_reason = staff
        .post(app.url(&hide))
        .json(&json!({ "reason": " " }))
        .send()
        .await
        .unwrap();
    assert_eq!(no_reason.status(), 422);
    let hidden = staff
        .post(app.url(&hide))
        .json(&json!({ "reason": "Names another buyer" }))
        .send()
        .await
        .unwrap();
    assert_eq!(hidden.status(), 200);
    let after = app.get_json("/api/reviews").await;
    assert_eq!(
        (after["count"].clone(), after["average"].clone()),
        (json!(0), Value::Null)
    );
    assert_eq!(app.count_rows("reviews").await, 1, "kept");
    let missing = staff
        .post(app.url("/api/admin/reviews/9999/hide"))
        .json(&json!({ "reason": "x" }))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);
}

/// Five more reviews of the same order at once.
async fn futures_join(app: &TestApp, id: i64, key: &str) -> Vec<u16> {
    let body = json!({ "rating": 1, "text": "again" });
    let tries = (0..5).map(|_| review(app, id, key, &body));
    let mut statuses = Vec::new();
    for (status, _) in futures::future::join_all(tries).await {
        statuses.push(status.as_u16());
    }
    statuses
}
