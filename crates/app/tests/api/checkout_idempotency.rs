//! Checkout retried after a lost answer (issue 22, item 15), on SQLite and PostgreSQL: the
//! storefront sends one `Idempotency-Key` per press of Complete Payment, and every retry of that
//! press answers the order the first request placed instead of placing another that would hold
//! the same stock for 35 minutes.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures::future::join_all;
use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use crate::checkout_support::*;
use crate::helpers::{eventually, TestApp};

const KEY: &str = "0b6f1c2e-5d7a-4f57-9a43-8f0d6c1e2b3a";

async fn keyed(
    app: &TestApp,
    client: &reqwest::Client,
    key: &str,
    body: &Value,
) -> reqwest::Response {
    client
        .post(app.url("/api/stripe/checkout"))
        .header("Idempotency-Key", key)
        .json(body)
        .send()
        .await
        .unwrap()
}

/// The answer's status, `Idempotent-Replayed` header and body.
async fn read(response: reqwest::Response) -> (u16, Option<String>, Value) {
    let status = response.status().as_u16();
    let replayed = response
        .headers()
        .get("idempotent-replayed")
        .map(|v| v.to_str().unwrap().to_owned());
    (status, replayed, response.json().await.unwrap())
}

async fn orders(app: &TestApp) -> i64 {
    app.count_rows("orders").await
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_retry_with_the_same_key_answers_the_first_order_and_holds_the_stock_once(
    #[case] backend: Backend,
) {
    let app = shop(backend, vec![(1, product("Raccoon", "10.00", Some(10)))]).await;
    let client = browser();
    link_discord(&app, &client, 0).await;
    let body = payload(&[(1, 2)], 20.0);

    let (status, replayed, first) = read(keyed(&app, &client, KEY, &body).await).await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(replayed, None);
    // the answer is lost; the storefront sends the same press again
    let (status, replayed, again) = read(keyed(&app, &client, KEY, &body).await).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(replayed.as_deref(), Some("true"));
    assert_eq!(again["order_id"], first["order_id"]);
    assert_eq!(again["url"], first["url"]);
    assert_eq!(again["order_key"], first["order_key"]);
    assert_eq!(orders(&app).await, 1, "one order for one press");
    assert_eq!(stock(&app, 1).await, Some(8), "its stock is held once");

    // a new press is a new key: a new order
    let (status, _, other) = read(keyed(&app, &client, "second-press", &body).await).await;
    assert_eq!(status, 200, "{other}");
    assert_ne!(other["order_id"], first["order_id"]);
    assert_eq!(stock(&app, 1).await, Some(6));
    let id = first["order_id"].as_i64().unwrap();
    let page = client
        .get(app.url(&format!("/api/orders/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200, "the session remembers the order");

    // without the header nothing changed (the finding itself): a retry places another order
    let old_client = browser();
    link_discord(&app, &old_client, 1).await;
    assert_eq!(checkout(&app, &old_client, &body).await.status(), 200);
    assert_eq!(checkout(&app, &old_client, &body).await.status(), 200);
    assert_eq!(orders(&app).await, 4);
    assert_eq!(stock(&app, 1).await, Some(2));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_burst_of_twenty_checkouts_with_one_key_places_one_order(#[case] backend: Backend) {
    let app = shop(backend, vec![(1, product("Raccoon", "10.00", Some(50)))]).await;
    let client = browser();
    link_discord(&app, &client, 0).await;
    let body = payload(&[(1, 1)], 10.0);

    let answers =
        join_all((0..20).map(|_| async { read(keyed(&app, &client, KEY, &body).await).await }))
            .await;
    let mut placed = None;
    for (status, _, answer) in &answers {
        match status {
            200 => {
                let id = answer["order_id"].as_i64().unwrap();
                assert_eq!(*placed.get_or_insert(id), id, "{answers:?}");
            }
            // the first is still opening its payment page: try again in a moment
            409 => assert_eq!(
                answer["message"], "Your order is still being placed. Try again in a moment.",
                "{answers:?}"
            ),
            _ => panic!("unexpected answer {status}: {answer}"),
        }
    }
    assert_eq!(orders(&app).await, 1, "{answers:?}");
    assert_eq!(stock(&app, 1).await, Some(49));
    // once it is placed, every retry gets it
    let (status, replayed, again) = read(keyed(&app, &client, KEY, &body).await).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(replayed.as_deref(), Some("true"));
    if let Some(id) = placed {
        assert_eq!(again["order_id"], id);
    }
    assert_eq!(orders(&app).await, 1);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_same_key_with_another_cart_answers_422_and_writes_nothing(#[case] backend: Backend) {
    let app = shop(
        backend,
        vec![
            (1, product("Raccoon", "10.00", Some(10))),
            (2, product("Owl", "5.00", Some(10))),
        ],
    )
    .await;
    let client = browser();
    link_discord(&app, &client, 0).await;
    let (status, _, first) = read(keyed(&app, &client, KEY, &payload(&[(1, 1)], 10.0)).await).await;
    assert_eq!(status, 200, "{first}");

    for other in [
        payload(&[(1, 2)], 20.0),
        payload(&[(2, 1)], 5.0),
        payload(&[(1, 1), (2, 1)], 15.0),
        {
            let mut body = payload(&[(1, 1)], 10.0);
            body["email"] = json!("someone.else@example.com");
            body
        },
    ] {
        let (status, _, answer) = read(keyed(&app, &client, KEY, &other).await).await;
        assert_eq!(status, 422, "{answer}");
        assert_eq!(
            answer["errors"]["Idempotency-Key"],
            json!(["This Idempotency-Key was used for a different order. Use a new key for a new order."])
        );
        assert_eq!(answer["message"], answer["errors"]["Idempotency-Key"][0]);
    }
    assert_eq!(orders(&app).await, 1);
    assert_eq!(stock(&app, 1).await, Some(9));
    assert_eq!(stock(&app, 2).await, Some(10));
    // what the server ignores does not count: the browser's product fields, the lines' order
    let mut same = payload(&[(1, 1)], 10.0);
    same["items"][0]["price"] = json!(99.0);
    same["user_id"] = json!(7);
    let (status, _, again) = read(keyed(&app, &client, KEY, &same).await).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["order_id"], first["order_id"]);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_same_key_from_another_session_places_its_own_order(#[case] backend: Backend) {
    let app = shop(backend, vec![(1, product("Raccoon", "10.00", Some(10)))]).await;
    let body = payload(&[(1, 1)], 10.0);
    let mine = browser();
    link_discord(&app, &mine, 0).await;
    let (_, _, first) = read(keyed(&app, &mine, KEY, &body).await).await;

    // someone who learned the key (or made the same one) from another browser, even with the
    // same Discord account, gets nothing of the first order
    for which in [1, 0] {
        let stranger = browser();
        link_discord(&app, &stranger, which).await;
        let (status, replayed, theirs) = read(keyed(&app, &stranger, KEY, &body).await).await;
        assert_eq!(status, 200, "{theirs}");
        assert_eq!(replayed, None);
        assert_ne!(theirs["order_id"], first["order_id"]);
        assert_ne!(theirs["order_key"], first["order_key"]);
        let id = first["order_id"].as_i64().unwrap();
        let peek = stranger
            .get(app.url(&format!("/api/orders/{id}")))
            .send()
            .await
            .unwrap();
        assert_eq!(peek.status(), 404);
    }
    assert_eq!(orders(&app).await, 3);
    assert_eq!(stock(&app, 1).await, Some(7));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_key_older_than_24_hours_places_a_new_order(#[case] backend: Backend) {
    let app = shop(backend, vec![(1, product("Raccoon", "10.00", Some(10)))]).await;
    let client = browser();
    link_discord(&app, &client, 0).await;
    let body = payload(&[(1, 1)], 10.0);
    let (_, _, first) = read(keyed(&app, &client, KEY, &body).await).await;
    let first_id = first["order_id"].as_i64().unwrap();

    app.clock.advance(Duration::from_secs(23 * 3600 + 59 * 60));
    app.sweeper.run_once().await.unwrap();
    // still the same press within 24 hours: its order expired meanwhile, and the retry says so
    let (status, _, answer) = read(keyed(&app, &client, KEY, &body).await).await;
    assert_eq!(status, 409, "{answer}");
    assert_eq!(
        answer["message"],
        format!(
            "Order #{first_id} has expired: nothing is reserved for it any more. Start a new \
             payment to place a new order."
        )
    );
    assert_eq!(orders(&app).await, 1);

    app.clock.advance(Duration::from_secs(2 * 60));
    let (status, replayed, later) = read(keyed(&app, &client, KEY, &body).await).await;
    assert_eq!(status, 200, "{later}");
    assert_eq!(replayed, None);
    assert_ne!(later["order_id"], first["order_id"]);
    assert_eq!(orders(&app).await, 2);
    // the key now answers the new order
    let (status, replayed, again) = read(keyed(&app, &client, KEY, &body).await).await;
    assert_eq!((status, replayed.as_deref()), (200, Some("true")));
    assert_eq!(again["order_id"], later["order_id"]);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_retry_after_the_order_was_paid_goes_to_the_success_page(#[case] backend: Backend) {
    let app = shop(backend, vec![(1, product("Raccoon", "10.00", Some(10)))]).await;
    let client = browser();
    link_discord(&app, &client, 0).await;
    let body = payload(&[(1, 1)], 10.0);
    let (_, _, first) = read(keyed(&app, &client, KEY, &body).await).await;
    let id = first["order_id"].as_i64().unwrap();
    let paid = client
        .post(app.url(&format!("/dev/pay/{id}/pay")))
        .send()
        .await
        .unwrap();
    assert_eq!(paid.status(), 303);

    let (status, replayed, again) = read(keyed(&app, &client, KEY, &body).await).await;
    assert_eq!(
        (status, replayed.as_deref()),
        (200, Some("true")),
        "{again}"
    );
    assert_eq!(again["order_id"], id);
    assert_eq!(
        again["url"],
        format!("{}/success?order_id={id}", app.settings.site.public_url)
    );
    assert_eq!(status_of(&app, id).await, "paid");
    assert_eq!(orders(&app).await, 1);
}

async fn status_of(app: &TestApp, id: i64) -> String {
    status(app, id).await
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_malformed_key_answers_422_before_anything_is_placed(#[case] backend: Backend) {
    let app = shop(backend, vec![(1, product("Raccoon", "10.00", Some(10)))]).await;
    let client = browser();
    link_discord(&app, &client, 0).await;
    let body = payload(&[(1, 1)], 10.0);
    for (key, message) in [
        (
            "k".repeat(256),
            "The Idempotency-Key header may hold at most 255 characters.",
        ),
        (String::new(), "The Idempotency-Key header is empty."),
    ] {
        let (status, _, answer) = read(keyed(&app, &client, &key, &body).await).await;
        assert_eq!(status, 422, "{answer}");
        assert_eq!(answer["errors"]["Idempotency-Key"], json!([message]));
    }
    let not_ascii = client
        .post(app.url("/api/stripe/checkout"))
        .header(
            "Idempotency-Key",
            reqwest::header::HeaderValue::from_bytes("clé".as_bytes()).unwrap(),
        )
        .json(&body)
        .send()
        .await
        .unwrap();
    let (status, _, answer) = read(not_ascii).await;
    assert_eq!(status, 422, "{answer}");
    assert_eq!(
        answer["errors"]["Idempotency-Key"],
        json!(["The Idempotency-Key header may hold only printable ASCII characters."])
    );
    let twice = client
        .post(app.url("/api/stripe/checkout"))
        .header("Idempotency-Key", "a")
        .header("Idempotency-Key", "b")
        .json(&body)
        .send()
        .await
        .unwrap();
    let (status, _, answer) = read(twice).await;
    assert_eq!(status, 422, "{answer}");
    assert_eq!(
        answer["errors"]["Idempotency-Key"],
        json!(["Send one Idempotency-Key header."])
    );
    assert_eq!(orders(&app).await, 0);
    assert_eq!(stock(&app, 1).await, Some(10));
}

/// A fake Stripe whose first checkout session takes `first_delay` to come back (the instance
/// that asked for it dies meanwhile, or is just slow); the others come back at once. Session
/// `n` is `cs_test_{n}`.
struct SlowFirstSession {
    calls: AtomicUsize,
    first_delay: Duration,
}

impl Respond for SlowFirstSession {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let n = self.calls.fetch_add(1, Ordering::SeqCst);
        let answer = Sessions(n.into()).respond(request);
        if n == 0 {
            answer.set_delay(self.first_delay)
        } else {
            answer
        }
    }
}

async fn slow_stripe_shop(backend: Backend, first_delay: Duration) -> (TestApp, MockServer) {
    let stripe = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/checkout/sessions"))
        .respond_with(SlowFirstSession {
            calls: AtomicUsize::new(0),
            first_delay,
        })
        .mount(&stripe)
        .await;
    let mut expired: Value = serde_json::from_str(SESSION_FIXTURE).unwrap();
    expired["status"] = json!("expired");
    Mock::given(method("POST"))
        .and(path_regex(r"^/v1/checkout/sessions/cs_test_\d+/expire$"))
        .respond_with(ResponseTemplate::new(200).set_body_json(expired))
        .mount(&stripe)
        .await;
    let uri = stripe.uri();
    let app = shop_with(
        backend,
        vec![(1, product("Raccoon", "10.00", Some(10)))],
        |s| {
            s.stripe.secret_key = "sk_test_fake".to_owned().into();
            s.stripe.webhook_secret = WEBHOOK_SECRET.to_owned().into();
            s.stripe.api_base = uri;
        },
    )
    .await;
    (app, stripe)
}

/// Waits until the fake Stripe has been asked for `count` checkout sessions.
async fn sessions_asked(stripe: &MockServer, count: usize) {
    eventually(&format!("Stripe is asked for {count} sessions"), || async {
        let asked = stripe
            .received_requests()
            .await
            .unwrap()
            .iter()
            .filter(|r| r.url.path() == "/v1/checkout/sessions")
            .count();
        if asked >= count {
            Ok(())
        } else {
            Err(asked)
        }
    })
    .await;
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_order_whose_instance_died_before_its_page_opened_gets_it_from_the_retry(
    #[case] backend: Backend,
) {
    // the first request commits the order, asks Stripe for its page, and never answers
    let (app, stripe) = slow_stripe_shop(backend, Duration::from_secs(600)).await;
    let client = browser();
    link_discord(&app, &client, 0).await;
    let body = payload(&[(1, 2)], 20.0);
    let lost = tokio::spawn({
        let (client, url, body) = (
            client.clone(),
            app.url("/api/stripe/checkout"),
            body.clone(),
        );
        async move {
            client
                .post(url)
                .header("Idempotency-Key", KEY)
                .json(&body)
                .send()
                .await
        }
    });
    sessions_asked(&stripe, 1).await;
    lost.abort();
    assert_eq!(orders(&app).await, 1);

    // a retry while the first may still be opening the page: try again in a moment
    let response = keyed(&app, &client, KEY, &body).await;
    let retry_after: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=5).contains(&retry_after), "{retry_after}");
    let (status, _, answer) = read(response).await;
    assert_eq!(status, 409, "{answer}");
    assert_eq!(orders(&app).await, 1);

    // a minute on, nobody is opening it: the retry opens the page of the same order
    app.clock.advance(Duration::from_secs(61));
    let (status, replayed, again) = read(keyed(&app, &client, KEY, &body).await).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(replayed.as_deref(), Some("true"));
    let id = again["order_id"].as_i64().unwrap();
    assert_eq!(again["url"], "https://checkout.stripe.com/c/pay/cs_test_1");
    assert_eq!(reference(&app, id).await, "cs_test_1");
    assert_eq!(orders(&app).await, 1);
    assert_eq!(stock(&app, 1).await, Some(8), "the stock is held once");
    // and the next retry gets that page without asking Stripe again
    let (status, _, last) = read(keyed(&app, &client, KEY, &body).await).await;
    assert_eq!(status, 200);
    assert_eq!(last["url"], again["url"]);
    sessions_asked(&stripe, 2).await;
    let asked = stripe
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|r| r.url.path() == "/v1/checkout/sessions")
        .count();
    assert_eq!(asked, 2);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_first_request_outlived_by_its_retry_keeps_the_retrys_page(#[case] backend: Backend) {
    // the first request is slow: its retry, past the grace, opens the page; when the first's
    // page comes back it is closed and both answers name the same page
    let (app, stripe) = slow_stripe_shop(backend, Duration::from_secs(2)).await;
    let client = browser();
    link_discord(&app, &client, 0).await;
    let body = payload(&[(1, 1)], 10.0);
    let slow = tokio::spawn({
        let (client, url, body) = (
            client.clone(),
            app.url("/api/stripe/checkout"),
            body.clone(),
        );
        async move {
            let response = client
                .post(url)
                .header("Idempotency-Key", KEY)
                .json(&body)
                .send()
                .await
                .unwrap();
            (
                response.status().as_u16(),
                response.json::<Value>().await.unwrap(),
            )
        }
    });
    sessions_asked(&stripe, 1).await;
    app.clock.advance(Duration::from_secs(61));
    let (status, _, retry) = read(keyed(&app, &client, KEY, &body).await).await;
    assert_eq!(status, 200, "{retry}");
    let (status, first) = slow.await.unwrap();
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["order_id"], retry["order_id"]);
    assert_eq!(first["url"], retry["url"]);
    let id = retry["order_id"].as_i64().unwrap();
    let kept = reference(&app, id).await;
    assert_eq!(
        retry["url"],
        format!("https://checkout.stripe.com/c/pay/{kept}")
    );
    assert_eq!(status_of(&app, id).await, "pending");
    // the other page was closed at Stripe, so it can never be paid
    let closed: Vec<String> = stripe
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|r| r.url.path().ends_with("/expire"))
        .map(|r| r.url.path().to_owned())
        .collect();
    let other = if kept == "cs_test_0" {
        "cs_test_1"
    } else {
        "cs_test_0"
    };
    assert_eq!(
        closed,
        vec![format!("/v1/checkout/sessions/{other}/expire")]
    );
    assert_eq!(orders(&app).await, 1);
}
