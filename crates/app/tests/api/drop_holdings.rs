//! What a buyer already holds of the drops (issue 34 item 7): `GET /api/checkout/holdings`
//! counts, for this session's Discord account, logged-in shop account and browser, the units of
//! each capped product in their holding orders, a bundle's parts included, with the very count
//! checkout judges the cap by; the product page and the cart refuse more with it.

use std::time::Duration;

use accounts::Role;
use chrono::DateTime;
use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;

use crate::checkout_abuse::{discord_accounts, link_account};
use crate::checkout_support::*;
use crate::helpers::{TestApp, TEST_PASSWORD};

/// Dragon (1, released, one per account), Owl (2, no cap), a bundle of both (3) and Phoenix (4,
/// three per account, no release time); the unpaid-order caps stay out of the way. Its Discord
/// is the fake of many accounts at `discord_base`.
async fn holdings_shop(backend: Backend, discord_base: String) -> TestApp {
    let mut dragon = product("Dragon", "10.00", Some(30));
    dragon.release_at = DateTime::from_timestamp(1_600_000_000, 0);
    dragon.max_per_account = Some(1);
    let mut bundle = product("Dragon Bundle", "12.00", Some(30));
    bundle.related_ids = vec![catalog::ProductId::new(1), catalog::ProductId::new(2)];
    let mut phoenix = product("Phoenix", "4.00", Some(30));
    phoenix.max_per_account = Some(3);
    shop_with(
        backend,
        vec![
            (1, dragon),
            (2, product("Owl", "5.00", None)),
            (3, bundle),
            (4, phoenix),
        ],
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

/// `GET /api/checkout/holdings` for `client`, as `[(product_id, held, max_per_account)]`.
async fn holdings(app: &TestApp, client: &reqwest::Client) -> Vec<(i64, u64, u64)> {
    let response = client
        .get(app.url("/api/checkout/holdings"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["cache-control"], "no-store");
    let body: Vec<Value> = response.json().await.unwrap();
    body.iter()
        .map(|holding| {
            assert_eq!(holding.as_object().unwrap().len(), 3, "{holding}");
            (
                holding["product_id"].as_i64().unwrap(),
                holding["held"].as_u64().unwrap(),
                holding["max_per_account"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// Places an order of `items` from `client`; its id.
async fn buy(app: &TestApp, client: &reqwest::Client, items: &[(i64, u32)], total: f64) -> i64 {
    let response = checkout(app, client, &payload(items, total)).await;
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(status, 200, "{body}");
    body["order_id"].as_i64().unwrap()
}

async fn message_of(response: reqwest::Response) -> String {
    let body: Value = response.json().await.unwrap();
    body["message"].as_str().unwrap_or_default().to_owned()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn holdings_count_what_the_discord_account_the_shop_account_and_the_browser_hold(
    #[case] backend: Backend,
) {
    let (_discord, base) = discord_accounts().await;
    let app = holdings_shop(backend, base).await;

    // nobody, and a linked buyer with no order: nothing held
    assert_eq!(holdings(&app, &browser()).await, vec![]);
    let buyer = browser();
    link_account(&app, &buyer, 730_001).await;
    assert_eq!(holdings(&app, &buyer).await, vec![]);

    // a pending order holds its units; a bundle holds its drop (the bundle and Owl have no cap)
    buy(&app, &buyer, &[(4, 2)], 8.0).await;
    assert_eq!(holdings(&app, &buyer).await, vec![(4, 2, 3)]);
    buy(&app, &buyer, &[(3, 1), (2, 1)], 17.0).await;
    assert_eq!(holdings(&app, &buyer).await, vec![(1, 1, 1), (4, 2, 3)]);

    // the Discord account, from another browser
    let elsewhere = browser();
    link_account(&app, &elsewhere, 730_001).await;
    assert_eq!(holdings(&app, &elsewhere).await, vec![(1, 1, 1), (4, 2, 3)]);

    // the browser, after linking another Discord account (and after unlinking any)
    let unlink = |client: &reqwest::Client| client.delete(app.url("/api/discord/identity")).send();
    assert_eq!(unlink(&buyer).await.unwrap().status(), 200);
    assert_eq!(holdings(&app, &buyer).await, vec![(1, 1, 1), (4, 2, 3)]);
    link_account(&app, &buyer, 730_002).await;
    assert_eq!(holdings(&app, &buyer).await, vec![(1, 1, 1), (4, 2, 3)]);
    // the other Discord account holds nothing of its own
    let fresh = browser();
    link_account(&app, &fresh, 730_002).await;
    assert_eq!(holdings(&app, &fresh).await, vec![]);

    // the shop account, from a browser of its own without Discord
    let email = format!("held-{}@example.com", uuid::Uuid::new_v4().simple());
    app.create_user(&email, TEST_PASSWORD, Role::Customer).await;
    let customer = browser();
    app.login(&customer, &email, TEST_PASSWORD).await;
    link_account(&app, &customer, 730_003).await;
    buy(&app, &customer, &[(4, 1)], 4.0).await;
    let phone = browser();
    app.login(&phone, &email, TEST_PASSWORD).await;
    assert_eq!(holdings(&app, &phone).await, vec![(4, 1, 3)]);

    // each holder apart, and the most of them counts: the account's browser links the first
    // buyer's Discord account (2 Phoenix) while its shop account holds 1
    link_account(&app, &phone, 730_001).await;
    assert_eq!(holdings(&app, &phone).await, vec![(1, 1, 1), (4, 2, 3)]);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_cancelled_or_expired_order_holds_nothing_and_a_paid_one_holds_on(
    #[case] backend: Backend,
) {
    let (_discord, base) = discord_accounts().await;
    let app = holdings_shop(backend, base).await;
    let buyer = browser();
    link_account(&app, &buyer, 740_001).await;

    // cancelled
    let cancelled = buy(&app, &buyer, &[(4, 3)], 12.0).await;
    assert_eq!(holdings(&app, &buyer).await, vec![(4, 3, 3)]);
    let cancel = app
        .post_json(
            &buyer,
            &format!("/api/orders/{cancelled}/cancel"),
            &json!({}),
        )
        .await;
    assert_eq!(cancel.status(), 200, "{}", cancel.text().await.unwrap());
    assert_eq!(holdings(&app, &buyer).await, vec![]);

    // paid
    let paid = buy(&app, &buyer, &[(4, 2)], 8.0).await;
    let pay = buyer
        .post(app.url(&format!("/dev/pay/{paid}/pay")))
        .header("Origin", &app.address)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .send()
        .await
        .unwrap();
    assert_eq!(pay.status(), 303);
    assert_eq!(status(&app, paid).await, "paid");
    assert_eq!(holdings(&app, &buyer).await, vec![(4, 2, 3)]);

    // expired: the drop's unpaid order after its 10 minutes
    let unpaid = buy(&app, &buyer, &[(1, 1)], 10.0).await;
    assert_eq!(holdings(&app, &buyer).await, vec![(1, 1, 1), (4, 2, 3)]);
    app.clock.advance(Duration::from_secs(11 * 60));
    assert_eq!(app.sweeper.run_once().await.unwrap(), 1);
    assert_eq!(status(&app, unpaid).await, "expired");
    assert_eq!(holdings(&app, &buyer).await, vec![(4, 2, 3)]);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn once_the_holdings_say_the_cap_is_reached_checkout_refuses_and_not_before(
    #[case] backend: Backend,
) {
    let (_discord, base) = discord_accounts().await;
    let app = holdings_shop(backend, base).await;
    let buyer = browser();
    link_account(&app, &buyer, 750_001).await;

    // room for two more: checkout takes exactly them
    buy(&app, &buyer, &[(4, 1)], 4.0).await;
    assert_eq!(holdings(&app, &buyer).await, vec![(4, 1, 3)]);
    let three = checkout(&app, &buyer, &payload(&[(4, 3)], 12.0)).await;
    assert_eq!(three.status(), 409);
    buy(&app, &buyer, &[(4, 2)], 8.0).await;
    assert_eq!(holdings(&app, &buyer).await, vec![(4, 3, 3)]);
    let more = checkout(&app, &buyer, &payload(&[(4, 1)], 4.0)).await;
    assert_eq!(more.status(), 409);
    assert_eq!(
        message_of(more).await,
        "Phoenix is limited to 3 per account, and your Discord account already holds 3."
    );

    // a drop held through a bundle: the holdings say 1 of 1, checkout refuses it alone and in
    // the bundle, from this browser and from the Discord account's other browser
    buy(&app, &buyer, &[(3, 1)], 12.0).await;
    assert_eq!(holdings(&app, &buyer).await, vec![(1, 1, 1), (4, 3, 3)]);
    let other = browser();
    link_account(&app, &other, 750_001).await;
    assert_eq!(holdings(&app, &other).await, vec![(1, 1, 1), (4, 3, 3)]);
    for client in [&buyer, &other] {
        for (items, total) in [(&[(1, 1)][..], 10.0), (&[(3, 1)][..], 12.0)] {
            let refused = checkout(&app, client, &payload(items, total)).await;
            assert_eq!(refused.status(), 409);
            assert_eq!(
                message_of(refused).await,
                "Dragon is limited to 1 per account, and your Discord account already holds 1."
            );
        }
    }
    assert_eq!(stock(&app, 1).await, Some(29), "one Dragon sold");
}
