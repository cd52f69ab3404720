//! `POST /api/stripe/webhook` on SQLite and PostgreSQL: signatures, replays, and the order of
//! completed and expired. Orders are opened against a fake Stripe so they carry a session id.

use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::checkout_support::*;
use crate::helpers::TestApp;

struct Shop {
    app: TestApp,
    client: reqwest::Client,
    _stripe: MockServer,
    /// The staff channel's webhook.
    staff: MockServer,
}

async fn stripe_shop(backend: Backend, products: Vec<(i64, catalog::ProductDraft)>) -> Shop {
    let stripe = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/checkout/sessions"))
        .respond_with(Sessions(0.into()))
        .mount(&stripe)
        .await;
    let staff = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/webhooks/1/token"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&staff)
        .await;
    let (uri, hook) = (
        stripe.uri(),
        format!("{}/api/webhooks/1/token", staff.uri()),
    );
    let app = shop_with(backend, products, |s| {
        s.stripe.secret_key = "sk_test_fake".to_owned().into();
        s.stripe.webhook_secret = WEBHOOK_SECRET.to_owned().into();
        s.stripe.api_base = uri;
        s.discord.notify_webhook_url = hook.into();
    })
    .await;
    let client = browser();
    link_discord(&app, &client, 0).await;
    Shop {
        app,
        client,
        _stripe: stripe,
        staff,
    }
}

async fn place(shop: &Shop, items: &[(i64, u32)], total: f64) -> (i64, String) {
    let response = checkout(&shop.app, &shop.client, &payload(items, total)).await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    let id = body["order_id"].as_i64().unwrap();
    (id, reference(&shop.app, id).await)
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_signed_completed_event_pays_the_order_once_however_often_it_comes(
    #[case] backend: Backend,
) {
    let mut last = product("Last Golden Owl", "10.00", Some(1));
    last.delete_after_out_of_stock = true;
    let shop = stripe_shop(
        backend,
        vec![(1, last), (2, product("Bee", "5.00", Some(10)))],
    )
    .await;
    let app = &shop.app;
    let (id, session) = place(&shop, &[(1, 1), (2, 2)], 20.0).await;
    assert_eq!(stock(app, 1).await, Some(0));

    let event = stripe_event("evt_paid_1", "checkout.session.completed", &session, id);
    for _ in 0..100 {
        let response = deliver(app, &event, WEBHOOK_SECRET, now(app)).await;
        assert_eq!(response.status(), 200);
    }
    assert_eq!(status(app, id).await, "paid");
    assert_eq!(
        stock(app, 2).await,
        Some(8),
        "nothing released or taken twice"
    );
    // sold out and flagged: archived, gone from the storefront at once
    assert!(stored(app, 1).await.archived);
    assert_eq!(app.get("/api/products/1").await.status(), 404);
    use sea_orm::{ConnectionTrait, Statement};
    let db = app.store.connection();
    let row = db
        .query_one(Statement::from_string(
            db.get_database_backend(),
            "SELECT COUNT(*) FROM processed_events".to_owned(),
        ))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        row.try_get_by_index::<i64>(0).unwrap(),
        1,
        "one event recorded"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_bad_signature_or_a_stale_timestamp_changes_nothing(#[case] backend: Backend) {
    let shop = stripe_shop(backend, vec![(1, product("Owl", "10.00", Some(3)))]).await;
    let app = &shop.app;
    let (id, session) = place(&shop, &[(1, 1)], 10.0).await;
    let event = stripe_event("evt_1", "checkout.session.completed", &session, id);

    let forged = deliver(app, &event, "whsec_someone_else", now(app)).await;
    assert_eq!(forged.status(), 400);
    let stale = deliver(app, &event, WEBHOOK_SECRET, now(app) - 301).await;
    assert_eq!(stale.status(), 400);
    let unsigned = app
        .client
        .post(app.url("/api/stripe/webhook"))
        .json(&event)
        .send()
        .await
        .unwrap();
    assert_eq!(unsigned.status(), 400);
    // a body changed after signing
    let body = serde_json::to_vec(&event).unwrap();
    let signature = stripe_adapter::signature_header(WEBHOOK_SECRET, now(app), &body);
    let mut tampered = event.clone();
    tampered["data"]["object"]["metadata"]["order_id"] = json!((id + 1000).to_string());
    let response = app
        .client
        .post(app.url("/api/stripe/webhook"))
        .header("Stripe-Signature", signature)
        .body(serde_json::to_vec(&tampered).unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    // a signed body over 256 KiB: 413 in the API's error shape, read no further
    let mut huge = event.clone();
    huge["padding"] = json!("x".repeat(300 * 1024));
    let body = serde_json::to_vec(&huge).unwrap();
    let signature = stripe_adapter::signature_header(WEBHOOK_SECRET, now(app), &body);
    let response = app
        .client
        .post(app.url("/api/stripe/webhook"))
        .header("Stripe-Signature", signature)
        .header("Content-Type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 413);
    let error: Value = response.json().await.unwrap();
    assert_eq!(
        error["message"],
        "The request body is larger than 262144 bytes."
    );
    assert_eq!(status(app, id).await, "pending");

    // the same event, properly signed, is then applied: nothing was recorded before
    let good = deliver(app, &event, WEBHOOK_SECRET, now(app) - 299).await;
    assert_eq!(good.status(), 200);
    assert_eq!(status(app, id).await, "paid");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn expired_before_completed_keeps_the_order_expired_and_releases_once(
    #[case] backend: Backend,
) {
    let shop = stripe_shop(backend, vec![(1, product("Owl", "10.00", Some(3)))]).await;
    let app = &shop.app;
    let (id, session) = place(&shop, &[(1, 2)], 20.0).await;
    assert_eq!(stock(app, 1).await, Some(1));

    let expired = stripe_event("evt_exp", "checkout.session.expired", &session, id);
    for _ in 0..3 {
        assert_eq!(
            deliver(app, &expired, WEBHOOK_SECRET, now(app))
                .await
                .status(),
            200
        );
    }
    assert_eq!(status(app, id).await, "expired");
    assert_eq!(stock(app, 1).await, Some(3), "released exactly once");
    assert_eq!(app.get_json("/api/products/1").await["stock"], 3);

    // the late payment, replayed, and a second event saying the same
    let completed = stripe_event("evt_late", "checkout.session.completed", &session, id);
    let again = stripe_event("evt_late_2", "checkout.session.completed", &session, id);
    for event in [&completed, &completed, &completed, &again] {
        assert_eq!(
            deliver(app, event, WEBHOOK_SECRET, now(app)).await.status(),
            200
        );
    }
    assert_eq!(
        status(app, id).await,
        "expired",
        "a late payment does not revive it"
    );
    assert_eq!(stock(app, 1).await, Some(3));

    // recorded once with the change, and staff told once (through the outbox) to refund it
    assert_eq!(
        app.order_steps(id).await,
        ["placed", "expired", "paid_after_expiry"]
    );
    assert_eq!(
        app.settled_jobs(id, "staff").await,
        [("paid_after_expiry".to_owned(), "sent".to_owned())]
    );
    let told = shop.staff.received_requests().await.unwrap();
    assert_eq!(told.len(), 1);
    let text = String::from_utf8_lossy(&told[0].body);
    assert!(
        text.contains(&format!(
            "Order #{id} was paid after it was expired: refund the payment."
        )),
        "{text}"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn completed_then_expired_keeps_the_sale(#[case] backend: Backend) {
    let shop = stripe_shop(backend, vec![(1, product("Owl", "10.00", Some(3)))]).await;
    let app = &shop.app;
    let (id, session) = place(&shop, &[(1, 2)], 20.0).await;
    let completed = stripe_event("evt_ok", "checkout.session.completed", &session, id);
    assert_eq!(
        deliver(app, &completed, WEBHOOK_SECRET, now(app))
            .await
            .status(),
        200
    );
    let expired = stripe_event("evt_exp", "checkout.session.expired", &session, id);
    assert_eq!(
        deliver(app, &expired, WEBHOOK_SECRET, now(app))
            .await
            .status(),
        200
    );
    assert_eq!(status(app, id).await, "paid");
    assert_eq!(stock(app, 1).await, Some(1), "a paid order keeps its stock");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_event_for_another_session_or_of_another_kind_changes_nothing(#[case] backend: Backend) {
    let shop = stripe_shop(backend, vec![(1, product("Owl", "10.00", Some(3)))]).await;
    let app = &shop.app;
    let (id, _) = place(&shop, &[(1, 1)], 10.0).await;

    let wrong = stripe_event("evt_w", "checkout.session.completed", "cs_someone_else", id);
    assert_eq!(
        deliver(app, &wrong, WEBHOOK_SECRET, now(app))
            .await
            .status(),
        400
    );
    assert_eq!(status(app, id).await, "pending");

    let other = json!({
        "id": "evt_other", "object": "event", "type": "customer.created",
        "data": { "object": { "id": "cus_1", "object": "customer" } }
    });
    assert_eq!(
        deliver(app, &other, WEBHOOK_SECRET, now(app))
            .await
            .status(),
        200
    );
    let unknown_order = stripe_event("evt_u", "checkout.session.completed", "cs_x", 987_654);
    assert_eq!(
        deliver(app, &unknown_order, WEBHOOK_SECRET, now(app))
            .await
            .status(),
        200
    );
    assert_eq!(status(app, id).await, "pending");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_paid_order_is_announced_to_staff(#[case] backend: Backend) {
    let discord = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/webhooks/1/token"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&discord)
        .await;
    let hook = format!("{}/api/webhooks/1/token", discord.uri());
    let app = shop_with(backend, vec![(1, product("Owl", "10.00", Some(3)))], |s| {
        s.discord.notify_webhook_url = hook.into();
    })
    .await;
    let client = browser();
    link_discord(&app, &client, 1).await;
    let response = checkout(&app, &client, &payload(&[(1, 2)], 20.0)).await;
    let id = response.json::<Value>().await.unwrap()["order_id"]
        .as_i64()
        .unwrap();
    let paid = client
        .post(app.url(&format!("/dev/pay/{id}/pay")))
        .send()
        .await
        .unwrap();
    assert_eq!(paid.status(), 303);

    // every staff job of the order done: nothing more will reach Discord for it
    app.settled_jobs(id, "staff").await;
    let received = discord.received_requests().await.unwrap();
    assert_eq!(received.len(), 1);
    let text = String::from_utf8_lossy(&received[0].body).to_string();
    assert!(text.contains(&format!("#{id}")), "{text}");
    assert!(text.contains("2 × Owl"), "{text}");
    assert!(text.contains("$21.23"), "{text}");
    // escaped for Discord markdown (one backslash, written twice in the JSON)
    assert!(text.contains(r"Builder\\_Bob"), "{text}");
    assert!(
        text.contains("http://localhost:8080/admin/orders"),
        "{text}"
    );
}
