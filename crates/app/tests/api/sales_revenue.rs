//! The sales dashboard's revenue (issue 36): each paid or delivered order's amount paid back in
//! the base currency at its own rate, rounded half-up to the cent, per day and overall. A dollar
//! order and a Brazilian order paid through the fake Stripe and its signed webhook.

use accounts::Role;
use chrono::{DateTime, Duration, Utc};
use rstest::rstest;
use serde_json::{json, Value};
use store::testing::{seed_order, SeedOrder};
use store::Backend;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer};

use crate::checkout_support::*;
use crate::currencies::{daily, fake_ecb, offers, shop_in_currencies, today};
use crate::helpers::{eventually, TestApp};

/// Places the cart `body` and pays it through a signed `checkout.session.completed`; returns
/// the order as its buyer sees it.
async fn paid_order(app: &TestApp, buyer: &reqwest::Client, body: &Value) -> Value {
    let response = checkout(app, buyer, body).await;
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.unwrap();
    let id = answer["order_id"].as_i64().unwrap();
    let key = answer["order_key"].as_str().unwrap().to_owned();
    let session = reference(app, id).await;
    let event = stripe_event(
        &format!("evt_paid_{id}"),
        "checkout.session.completed",
        &session,
        id,
    );
    assert_eq!(
        deliver(app, &event, WEBHOOK_SECRET, now(app))
            .await
            .status(),
        200
    );
    assert_eq!(status(app, id).await, "paid");
    buyer
        .get(app.url(&format!("/api/orders/{id}?key={key}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// The day an order was paid on (UTC), as the dashboard names it.
fn day_paid(order: &Value) -> String {
    let paid_at = order["paid_at"].as_str().unwrap();
    DateTime::parse_from_rfc3339(paid_at)
        .unwrap()
        .with_timezone(&Utc)
        .format("%Y-%m-%d")
        .to_string()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_dashboard_adds_a_brazilian_order_in_dollars_at_its_own_rate(#[case] backend: Backend) {
    let stripe = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/checkout/sessions"))
        .respond_with(Sessions(0.into()))
        .mount(&stripe)
        .await;
    let ecb = fake_ecb(daily(&today())).await;
    let app = shop_in_currencies(backend, &ecb, Some(&stripe)).await;
    let own = app.url("");
    eventually("BRL is offered", || {
        offers(own.trim_end_matches('/'), "BRL")
    })
    .await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;

    // one Raccoon in dollars: (4.99 + 0.30) / 0.956 = 5.5335 → 5.53
    let dollars = paid_order(&app, &buyer, &payload(&[(1, 1)], 4.99)).await;
    assert_eq!(
        (&dollars["currency"], &dollars["amount_paid"]),
        (&json!("USD"), &json!(5.53))
    );
    // nine in reais: 9 × R$ 26.65 = 239.85, the fee's fixed part 0.30 × 5.34144 → 1.60, so
    // (239.85 + 1.60) / 0.956 = 252.562 → R$ 252.56, back at 5.34144 reais per dollar
    // 47.2831 → 47.28 dollars; its base total of record is 47.29 ((44.91 + 0.30) / 0.956)
    let mut body = payload(&[(1, 9)], 239.85);
    body["currency"] = json!("BRL");
    let reais = paid_order(&app, &buyer, &body).await;
    assert_eq!(
        (&reais["currency"], &reais["amount_paid"], &reais["rate"]),
        (&json!("BRL"), &json!(252.56), &json!("5.34144"))
    );
    assert_eq!(reais["total"], json!(47.29));
    assert_eq!(day_paid(&dollars), day_paid(&reais));

    let db = app.store.connection();
    // paid 40 days ago: overall only (the daily chart is 30 days); 10.00 dollars
    seed_order(
        db,
        &SeedOrder::paid(1, "Raccoon", 1, Utc::now() - Duration::days(40)),
    )
    .await;
    // refunded today: not revenue, as it is no units sold
    seed_order(
        db,
        &SeedOrder {
            status: "refunded",
            ..SeedOrder::paid(1, "Raccoon", 3, Utc::now())
        },
    )
    .await;

    let admin = app.client_with_role(Role::SuperAdmin).await;
    let response = admin
        .get(app.url("/api/admin/sales-stats"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let stats: Value = response.json().await.unwrap();
    let revenue = &stats["revenue"];
    assert_eq!(revenue["currency"], "USD");
    let days = revenue["daily"].as_object().unwrap();
    assert_eq!(days.len(), 30, "every day of the daily chart: {revenue}");
    // 5.53 + 47.28: the reais at the order's own rate, not its base total of record
    assert_eq!(days[&day_paid(&reais)], json!(52.81), "{revenue}");
    let in_window: f64 = days.values().map(|value| value.as_f64().unwrap()).sum();
    assert!((in_window - 52.81).abs() < 1e-9, "{revenue}");
    assert_eq!(revenue["overall"], json!(62.81), "{revenue}");
    // the units count the same orders
    assert_eq!(stats["overall"]["Raccoon"], 11, "{stats}");
}
