//! Prices and payment in the shopper's currency (issue 36): the day's rates fetched by one
//! instance from the ECB's daily XML (a local fake), `/api/site`'s currencies at the cross
//! rates, checkout charging in the currency asked for (Stripe's session in it, the order
//! keeping it), and the refusals: a currency not offered, rates too old, a total in another
//! currency's amounts.

use accounts::Role;
use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::checkout_support::*;
use crate::helpers::{eventually, TestApp};

/// The ECB's daily file for `day`: one euro buys 1.0567 USD, 5.6443 BRL, 158.91 JPY.
pub(crate) fn daily(day: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gesmes:Envelope \
         xmlns:gesmes=\"http://www.gesmes.org/xml/2002-08-01\" \
         xmlns=\"http://www.ecb.int/vocabulary/2002-08-01/eurofxref\">\
         <gesmes:subject>Reference rates</gesmes:subject><Cube><Cube time='{day}'>\
         <Cube currency='USD' rate='1.0567'/><Cube currency='JPY' rate='158.91'/>\
         <Cube currency='BRL' rate='5.6443'/></Cube></Cube></gesmes:Envelope>"
    )
}

pub(crate) async fn fake_ecb(body: String) -> MockServer {
    let ecb = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/eurofxref-daily.xml"))
        .respond_with(ResponseTemplate::new(200).set_body_string(body))
        .mount(&ecb)
        .await;
    ecb
}

/// Today's date (the test shop's clock starts at the system's).
pub(crate) fn today() -> String {
    chrono::Utc::now().date_naive().to_string()
}

async fn currencies(address: &str) -> Vec<Value> {
    let site: Value = reqwest::get(format!("{address}/api/site"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    site["currencies"].as_array().cloned().unwrap_or_default()
}

pub(crate) async fn offers(address: &str, code: &str) -> Option<Value> {
    currencies(address)
        .await
        .into_iter()
        .find(|currency| currency["code"] == code)
}

/// A shop whose rates come from `ecb`, with one product at 4.99 and the fake Stripe `stripe`.
pub(crate) async fn shop_in_currencies(
    backend: Backend,
    ecb: &MockServer,
    stripe: Option<&MockServer>,
) -> TestApp {
    let rates_url = format!("{}/eurofxref-daily.xml", ecb.uri());
    let stripe = stripe.map(MockServer::uri);
    shop_with(
        backend,
        vec![(1, product("Raccoon", "4.99", Some(10)))],
        move |settings| {
            settings.currency.rates_url = rates_url;
            settings.currency.offered = ["USD", "EUR", "BRL", "JPY"].map(String::from).to_vec();
            settings.currency.check_every_seconds = 1;
            settings.stripe.webhook_secret = WEBHOOK_SECRET.to_owned().into();
            settings.mail.queue_poll_ms = 100;
            if let Some(uri) = stripe {
                settings.stripe.secret_key = "sk_test_fake".to_owned().into();
                settings.stripe.api_base = uri;
            }
        },
    )
    .await
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn one_instance_fetches_the_days_rates_and_every_instance_offers_them(
    #[case] backend: Backend,
) {
    let ecb = fake_ecb(daily(&today())).await;
    let app = shop_in_currencies(backend, &ecb, None).await;
    let other = app.start_another_instance().await;
    let third = app.start_another_instance().await;
    let own = app.url("");
    for address in [own.trim_end_matches('/'), &other, &third] {
        eventually("every instance offers BRL", || offers(address, "BRL")).await;
    }
    let listed = currencies(&other).await;
    let codes: Vec<&str> = listed.iter().filter_map(|c| c["code"].as_str()).collect();
    assert_eq!(
        codes,
        ["USD", "EUR", "BRL", "JPY"],
        "the base first, then as configured"
    );
    assert_eq!(listed[0]["rate"], "1");
    // cross rates through the euro: 5.6443 / 1.0567 and 1 / 1.0567, six decimals
    assert_eq!(listed[2]["rate"], "5.34144");
    assert_eq!(listed[1]["rate"], "0.946342");
    assert_eq!(listed[3]["minor_units"], 0);
    assert_eq!(listed[2]["rounding"], "minor");
    assert_eq!(listed[2]["as_of"], today().as_str());
    let site = app.get_json("/api/site").await;
    assert_eq!(site["languages"], json!(["en", "es", "pt-BR", "fr", "de"]));
    // three instances, rounds every second: one fetch of the day
    let fetched = ecb.received_requests().await.unwrap().len();
    assert_eq!(fetched, 1, "one instance fetched the day's rates");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn rates_older_than_the_limit_withdraw_the_other_currencies(#[case] backend: Backend) {
    let ecb = fake_ecb(daily("2026-01-02")).await;
    let app = shop_in_currencies(backend, &ecb, None).await;
    eventually("the fetch happened", || async {
        (!ecb.received_requests().await.unwrap_or_default().is_empty()).then_some(())
    })
    .await;
    // the stored rates are read in the round that fetched them: one more round has them
    let rounds = app.rounds.count(garden_app::Loop::ExchangeRates);
    eventually("another round", || async {
        (app.rounds.count(garden_app::Loop::ExchangeRates) > rounds + 1).then_some(())
    })
    .await;
    let listed = currencies(app.url("").trim_end_matches('/')).await;
    assert_eq!(listed.len(), 1, "the base only: {listed:?}");
    assert_eq!(listed[0]["code"], "USD");
    assert_eq!(listed[0]["as_of"], "2026-01-02");

    let client = browser();
    link_discord(&app, &client, 0).await;
    let mut body = payload(&[(1, 1)], 26.65);
    body["currency"] = json!("BRL");
    let response = checkout(&app, &client, &body).await;
    assert_eq!(response.status(), 422);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["code"], "currency_unavailable");
    assert_eq!(
        answer["errors"]["currency"],
        json!(["The currency BRL is not offered right now: pick another one and try again."])
    );
    assert_eq!(app.count_rows("orders").await, 0, "nothing placed");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_brazilian_shopper_pays_in_reais_at_the_amounts_shown(#[case] backend: Backend) {
    let stripe = fake_stripe_session("cs_test_brl").await;
    let ecb = fake_ecb(daily(&today())).await;
    let app = shop_in_currencies(backend, &ecb, Some(&stripe)).await;
    let own = app.url("");
    eventually("BRL is offered", || {
        offers(own.trim_end_matches('/'), "BRL")
    })
    .await;
    // a Brazilian browser: the order (and its receipt) in Portuguese
    let client = reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .default_headers(reqwest::header::HeaderMap::from_iter([(
            reqwest::header::ACCEPT_LANGUAGE,
            reqwest::header::HeaderValue::from_static("pt-BR,pt;q=0.9"),
        )]))
        .build()
        .unwrap();
    link_discord(&app, &client, 0).await;

    // 2 × 4.99 at 5.34144: each unit 26.6538 → R$ 26.65, the items R$ 53.30
    let mut body = payload(&[(1, 2)], 9.98);
    body["currency"] = json!("brl");
    let response = checkout(&app, &client, &body).await;
    assert_eq!(
        response.status(),
        409,
        "a total in dollars is not the reais shown"
    );
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["code"], "cart_changed");
    assert_eq!(answer["cart"]["currency"], "BRL");
    assert_eq!(answer["cart"]["paid"]["total"], 53.3);
    assert_eq!(answer["cart"]["lines"][0]["unit_price_paid"], 26.65);
    assert_eq!(answer["cart"]["total"], 9.98, "the base amounts stay");

    body["total"] = json!(53.3);
    let response = checkout(&app, &client, &body).await;
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.unwrap();
    let id = answer["order_id"].as_i64().unwrap();
    let key = answer["order_key"].as_str().unwrap().to_owned();

    let requests = stripe.received_requests().await.unwrap();
    let sent = form(&requests[0].body);
    assert_eq!(sent["line_items[0][price_data][currency]"], "brl");
    assert_eq!(sent["line_items[0][price_data][unit_amount]"], "2665");
    assert_eq!(sent["line_items[0][quantity]"], "2");
    // the fee: (53.30 + 0.30 × 5.34144 → 1.60) / 0.956 = 57.4268 → 57.43, less 53.30
    assert_eq!(sent["line_items[1][price_data][currency]"], "brl");
    assert_eq!(sent["line_items[1][price_data][unit_amount]"], "413");
    assert!(!sent
        .keys()
        .any(|key| key.starts_with("payment_method_types")));

    let order: Value = client
        .get(app.url(&format!("/api/orders/{id}?key={key}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(order["currency"], "BRL");
    assert_eq!(order["amount_paid"], 57.43);
    assert_eq!(order["rate"], "5.34144");
    assert_eq!(order["items"][0]["unit_price_paid"], 26.65);
    // the base amounts of record: 9.98, card fee (9.98 + 0.30) / 0.956 = 10.75
    assert_eq!(order["total"], 10.75);

    // paid: the receipt shows the reais paid the Portuguese way, and the dollars of record once
    let session = reference(&app, id).await;
    let paid = stripe_event("evt_brl", "checkout.session.completed", &session, id);
    assert_eq!(
        deliver(&app, &paid, WEBHOOK_SECRET, now(&app))
            .await
            .status(),
        200
    );
    let receipt = app.wait_for_outbox(1).await.remove(0);
    assert!(receipt.contains(&format!(
        "Subject: Seu recibo da Garden Shop do pedido #{id}"
    )));
    for expected in [
        "2 × Raccoon  R$\u{a0}53,30\r\n",
        "Taxa de processamento: R$\u{a0}4,13\r\n",
        "Total: R$\u{a0}57,43\r\n",
        "Na moeda da loja: ≈ US$\u{a0}10,75\r\n",
    ] {
        assert!(receipt.contains(expected), "{expected:?} in\n{receipt}");
    }
    assert!(!receipt.contains("$10.75"), "{receipt}");

    // staff see it in reais and in dollars: the delivery queue names both
    let staff = app.client_with_role(Role::Admin).await;
    let queue: Vec<Value> = staff
        .get(app.url("/api/admin/orders"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let queued = queue.iter().find(|order| order["id"] == id).unwrap();
    assert_eq!(queued["currency"], "BRL");
    assert_eq!(queued["amount_paid"], 57.43);
    assert_eq!(queued["total"], 10.75);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_currency_the_shop_does_not_offer_is_refused(#[case] backend: Backend) {
    let ecb = fake_ecb(daily("2026-11-27")).await;
    let app = shop_in_currencies(backend, &ecb, None).await;
    let client = browser();
    link_discord(&app, &client, 0).await;
    for currency in ["GBP", "XYZ", "reais", "12"] {
        let mut body = payload(&[(1, 1)], 4.99);
        body["currency"] = json!(currency);
        let response = checkout(&app, &client, &body).await;
        assert_eq!(response.status(), 422, "{currency}");
        let answer: Value = response.json().await.unwrap();
        assert_eq!(answer["code"], "currency_unavailable", "{currency}");
    }
    // blank or absent: the base currency
    let mut body = payload(&[(1, 1)], 4.99);
    body["currency"] = json!("");
    assert_eq!(checkout(&app, &client, &body).await.status(), 200);
    assert_eq!(app.count_rows("orders").await, 1);
}
