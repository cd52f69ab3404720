//! `/metrics` on SQLite and PostgreSQL: off by default, behind its bearer token, and the
//! shop's own gauges with the right values after orders, a payment and a live chat; the jobs,
//! payments, streams, build and process metrics; and `promtool check metrics` on the page.

use std::time::Duration;

use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;

use crate::checkout_support::*;
use crate::helpers::{eventually, TestApp};

const TOKEN: &str = "scrape-secret-for-tests";

/// The value of the sample named exactly `series` (name and labels), if present.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .find_map(|line| {
            let (name, value) = line.rsplit_once(' ')?;
            (name == series).then(|| value.parse().ok())?
        })
}

/// `promtool check metrics` (Debian's `prometheus` package) finds no error and no lint in
/// `text`. Where promtool is missing the check is skipped with a note, except under CI
/// (`.ci/run` installs it), where a missing promtool fails.
pub(crate) fn promtool_accepts(text: &str) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let child = Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            assert!(
                std::env::var_os("CI").is_none(),
                "promtool is not installed (apt-get install prometheus)"
            );
            eprintln!("promtool is not installed: `promtool check metrics` skipped");
            return;
        }
        other => other.unwrap(),
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.status.success() && said.trim().is_empty(),
        "promtool check metrics: {}\n{said}\n{text}",
        output.status
    );
}

async fn scrape(app: &TestApp, token: Option<&str>) -> reqwest::Response {
    let mut request = app.client.get(app.url("/metrics"));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn metrics_are_off_unless_enabled(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let response = scrape(&app, None).await;
    assert_eq!(
        response.status(),
        404,
        "no page, not the storefront's index"
    );
    let body: Value = response.json().await.unwrap();
    assert!(body["message"].is_string());
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn metrics_need_the_token_and_count_orders_reservations_waiting_and_chats(
    #[case] backend: Backend,
) {
    let app = shop_with(
        backend,
        vec![
            (1, product("Raccoon", "10.00", Some(10))),
            (2, product("Sheckles", "2.50", None)),
        ],
        |settings| {
            settings.stripe.webhook_secret = WEBHOOK_SECRET.to_owned().into();
            settings.checkout.max_pending_orders = 100;
            settings.metrics.enabled = true;
            settings.metrics.token = TOKEN.to_owned().into();
        },
    )
    .await;

    // without the token, or with another one: 401 in the error shape
    let refused = scrape(&app, None).await;
    assert_eq!(refused.status(), 401);
    let body: Value = refused.json().await.unwrap();
    assert!(body["message"].is_string());
    assert_eq!(scrape(&app, Some("not-the-token")).await.status(), 401);
    let raw = app
        .client
        .get(app.url("/metrics"))
        .header("Authorization", TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), 401, "the scheme is Bearer");

    // two unpaid orders holding 2 + 1 raccoons (and unlimited sheckles), one paid order
    let client = browser();
    link_discord(&app, &client, 0).await;
    let mut ids = Vec::new();
    for body in [
        payload(&[(1, 2), (2, 4)], 30.0),
        payload(&[(1, 1)], 10.0),
        payload(&[(1, 1)], 10.0),
    ] {
        let response = checkout(&app, &client, &body).await;
        assert_eq!(response.status(), 200);
        let body: Value = response.json().await.unwrap();
        ids.push(body["order_id"].as_i64().unwrap());
    }
    let paid = client
        .post(app.url(&format!("/dev/pay/{}/pay", ids[2])))
        .header("Origin", &app.address)
        .send()
        .await
        .unwrap();
    assert_eq!(paid.status(), 303);
    // a shopper waiting for a live agent
    let started = app
        .post_json(
            &app.client,
            "/api/chat/start-live",
            &json!({ "session_id": uuid::Uuid::new_v4().to_string() }),
        )
        .await;
    assert_eq!(started.status(), 200);
    // a forged Stripe delivery, refused
    let forged = deliver(
        &app,
        &stripe_event("evt_forged", "checkout.session.completed", "cs_x", ids[0]),
        "whsec_wrong",
        now(&app),
    )
    .await;
    assert_eq!(forged.status(), 400);
    assert_eq!(app.get("/api/products/1").await.status(), 200);
    // the product-list poll is answered before the router, and still counted under its route
    for _ in 0..2 {
        assert_eq!(app.get("/api/products").await.status(), 200);
    }
    // the paid order has waited 42 minutes
    app.clock.advance(Duration::from_secs(42 * 60));

    let response = scrape(&app, Some(TOKEN)).await;
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/plain; version=0.0.4"));
    let text = response.text().await.unwrap();
    let value =
        |series: &str| sample(&text, series).unwrap_or_else(|| panic!("no {series} in\n{text}"));
    assert_eq!(value(r#"shop_orders{status="pending"}"#), 2.0);
    assert_eq!(value(r#"shop_orders{status="paid"}"#), 1.0);
    assert_eq!(value(r#"shop_orders{status="delivered"}"#), 0.0);
    assert_eq!(value("shop_unpaid_reservations"), 2.0);
    assert_eq!(value("shop_unpaid_reserved_units"), 3.0);
    assert_eq!(value("shop_paid_orders_waiting"), 1.0);
    let waited = value("shop_oldest_paid_order_waiting_seconds");
    assert!((2520.0..2580.0).contains(&waited), "{waited}");
    assert_eq!(
        value(r#"shop_payments_total{outcome="paid",provider="dev"}"#),
        1.0
    );
    assert_eq!(
        value(r#"shop_payments_total{outcome="paid",provider="stripe"}"#),
        0.0,
        "every provider and outcome listed from the start"
    );
    assert_eq!(value("shop_event_streams"), 0.0);
    assert_eq!(value(r#"shop_jobs{kind="mail",state="failed"}"#), 0.0);
    assert_eq!(value(r#"shop_jobs{kind="ticket",state="retrying"}"#), 0.0);
    assert_eq!(value("shop_buyer_mail_failures_total"), 0.0);
    assert!(value("process_resident_memory_bytes") > 1_000_000.0);
    // whole seconds in the collector: present, maybe still 0
    assert!(value("process_cpu_seconds_total") >= 0.0);
    let build = text
        .lines()
        .find(|line| line.starts_with("shop_build_info{"))
        .unwrap_or_else(|| panic!("no shop_build_info in\n{text}"));
    assert!(
        build.contains(&format!("version=\"{}\"", env!("CARGO_PKG_VERSION")))
            && build.contains("commit=\"")
            && build.ends_with(" 1"),
        "{build}"
    );
    promtool_accepts(&text);
    assert_eq!(value("shop_live_chats_waiting"), 1.0);
    assert_eq!(
        value(
            r#"shop_http_requests_total{method="POST",route="/api/stripe/checkout",status="200"}"#
        ),
        3.0
    );
    assert_eq!(
        value(
            r#"shop_http_request_duration_seconds_count{method="GET",route="/api/products/{id}",status="200"}"#
        ),
        1.0
    );
    assert_eq!(
        value(r#"shop_http_requests_total{method="GET",route="/api/products",status="200"}"#),
        2.0
    );
    assert!(
        !text.contains("route=\"/api/products/1\""),
        "labels name the route pattern, never the raw path"
    );
    assert_eq!(
        value(r#"shop_webhook_failures_total{direction="incoming",outcome="refused"}"#),
        1.0
    );
    assert_eq!(
        value(r#"shop_webhook_failures_total{direction="outgoing",outcome="given_up"}"#),
        0.0
    );
    assert_eq!(value("shop_mail_failures_total"), 0.0);
    assert_eq!(value("shop_db_pool_max_connections"), 5.0);
    let open = value(r#"shop_db_pool_connections{state="idle"}"#)
        + value(r#"shop_db_pool_connections{state="in_use"}"#);
    assert!((1.0..=5.0).contains(&open), "{open}");
    assert!(
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .all(|l| l.starts_with("shop_") || l.starts_with("process_")),
        "every name starts with shop_, but the process collector's"
    );

    // a cancelled order gives its reservation back
    let paid_id = ids[2];
    let cancelled = client
        .post(app.url(&format!("/dev/pay/{}/cancel", ids[0])))
        .header("Origin", &app.address)
        .send()
        .await
        .unwrap();
    assert_eq!(cancelled.status(), 303);
    let text = scrape(&app, Some(TOKEN)).await.text().await.unwrap();
    assert_eq!(sample(&text, "shop_unpaid_reservations"), Some(1.0));
    assert_eq!(sample(&text, "shop_unpaid_reserved_units"), Some(1.0));
    assert_eq!(
        sample(&text, r#"shop_orders{status="cancelled"}"#),
        Some(1.0)
    );
    assert_eq!(
        sample(
            &text,
            r#"shop_payments_total{outcome="cancelled",provider="dev"}"#
        ),
        Some(1.0),
        "{text}"
    );
    assert_eq!(status(&app, paid_id).await, "paid");

    // an open event stream is counted while it lasts
    let stream = app.get("/api/events").await;
    assert_eq!(stream.status(), 200);
    let text = scrape(&app, Some(TOKEN)).await.text().await.unwrap();
    assert_eq!(sample(&text, "shop_event_streams"), Some(1.0), "{text}");
    drop(stream);
}

/// A receipt whose three attempts all failed is given up: the jobs gauge shows it failed and
/// the counter its three failed attempts (before, both read 0).
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_receipt_given_up_shows_as_a_failed_job_with_its_failed_attempts(
    #[case] backend: Backend,
) {
    let app = shop_with(
        backend,
        vec![(1, product("Raccoon", "10.00", Some(10)))],
        |settings| {
            settings.metrics.enabled = true;
            // nothing listens there: every send fails at once
            settings.mail.smtp_host = "127.0.0.1".into();
            settings.mail.smtp_port = 9;
            settings.mail.smtp_tls = garden_app::SmtpTls::None;
            settings.mail.retry_max_attempts = 3;
            settings.mail.retry_base_seconds = 60;
            settings.mail.retry_max_seconds = 60;
            settings.mail.queue_poll_ms = 20;
        },
    )
    .await;
    let client = browser();
    link_discord(&app, &client, 0).await;
    let placed = checkout(&app, &client, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(placed.status(), 200);
    let order: Value = placed.json().await.unwrap();
    let paid = client
        .post(app.url(&format!("/dev/pay/{}/pay", order["order_id"])))
        .header("Origin", &app.address)
        .send()
        .await
        .unwrap();
    assert_eq!(paid.status(), 303);

    // each failed attempt waits a minute of the shop's clock: move it on until the third
    let text = eventually("the receipt is given up", || async {
        let text = scrape(&app, None).await.text().await.unwrap();
        if sample(&text, r#"shop_jobs{kind="mail",state="failed"}"#) == Some(1.0) {
            return Ok(text);
        }
        app.clock.advance(Duration::from_secs(61));
        app.rounds.whole_round(garden_app::Loop::Outbox).await;
        Err(text)
    })
    .await;
    assert_eq!(
        sample(&text, "shop_buyer_mail_failures_total"),
        Some(3.0),
        "{text}"
    );
    // the outbox's rounds are counted (an operator sees a loop that stopped)
    assert!(
        sample(&text, r#"shop_loop_rounds_total{loop="outbox"}"#).is_some_and(|n| n >= 3.0),
        "{text}"
    );
    assert!(
        sample(&text, r#"shop_loop_rounds_total{loop="chat_purge"}"#).is_some(),
        "{text}"
    );
    assert_eq!(
        sample(&text, r#"shop_jobs{kind="mail",state="queued"}"#),
        Some(0.0)
    );
    assert_eq!(
        sample(&text, r#"shop_jobs{kind="mail",state="retrying"}"#),
        Some(0.0)
    );
    promtool_accepts(&text);
}

#[tokio::test]
async fn mail_that_fails_is_counted() {
    let app = TestApp::spawn_with(
        store::testing::TestDatabase::create(Backend::Sqlite).await,
        crate::helpers::Options::demo_data(false),
        |settings| {
            settings.metrics.enabled = true;
            // nothing listens there: every send fails
            settings.mail.smtp_host = "127.0.0.1".into();
            settings.mail.smtp_port = 9;
            settings.mail.smtp_tls = garden_app::SmtpTls::None;
        },
    )
    .await;
    let response = app
        .post_json(
            &app.client,
            "/api/send-verification-code",
            &json!({
                "name": "Ann",
                "email": "new@example.com",
                "password": "correct horse battery",
                "password_confirmation": "correct horse battery",
            }),
        )
        .await;
    assert_eq!(response.status(), 503, "{}", response.text().await.unwrap());
    let text = scrape(&app, None).await.text().await.unwrap();
    assert_eq!(
        sample(&text, "shop_mail_failures_total"),
        Some(1.0),
        "{text}"
    );
}

#[tokio::test]
async fn production_refuses_metrics_without_a_token() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let mut settings = app.settings.clone();
    settings.environment = garden_app::Environment::Production;
    settings.session.key = crate::helpers::PRODUCTION_TEST_SESSION_KEY
        .to_owned()
        .into();
    settings.mail.smtp_host = "127.0.0.1".into();
    settings.mail.smtp_tls = garden_app::SmtpTls::None;
    settings.stripe.secret_key = "sk_live_x".to_owned().into();
    settings.stripe.webhook_secret = "whsec_x".to_owned().into();
    settings.discord.client_id = "123".into();
    settings.discord.client_secret = "secret".to_owned().into();
    settings.roblox.users_api_base = "https://users.roblox.com".into();
    settings.metrics.enabled = true;

    let error = garden_app::Application::build(settings.clone())
        .await
        .err()
        .expect("production refuses open metrics");
    assert!(format!("{error:#}").contains("metrics.token"), "{error:#}");

    settings.metrics.token = TOKEN.to_owned().into();
    assert!(garden_app::Application::build(settings).await.is_ok());
}

/// Issue 22, item 1: 3,000 made-up methods grew `/metrics` by 6 MB. Every label a client can
/// influence comes from a fixed set: made-up methods are `other`, unknown paths `unmatched`.
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn made_up_methods_and_paths_add_no_series_to_the_metrics(#[case] backend: Backend) {
    let app = TestApp::spawn_with(
        store::testing::TestDatabase::create(backend).await,
        crate::helpers::Options::demo_data(false),
        |settings| {
            settings.metrics.enabled = true;
            settings.metrics.token = TOKEN.to_owned().into();
        },
    )
    .await;
    // one of each answer first, so the series the flood falls into already exist
    let warm = |n: usize| {
        let method = reqwest::Method::from_bytes(format!("MADEUP{n}").as_bytes()).unwrap();
        app.client
            .request(method, app.url(&format!("/api/nothing-{n}")))
            .send()
    };
    warm(0).await.unwrap();
    app.get("/api/nothing-here").await;
    scrape(&app, Some(TOKEN)).await; // the scrape's own series
    let before = scrape(&app, Some(TOKEN)).await.text().await.unwrap();

    for n in 1..300 {
        let answer = warm(n).await.unwrap();
        assert!(answer.status().is_client_error(), "{}", answer.status());
        app.get(&format!("/api/nothing-{n}")).await;
    }
    let after = scrape(&app, Some(TOKEN)).await.text().await.unwrap();
    assert!(!after.contains("MADEUP"), "a made-up method became a label");
    assert!(!after.contains("nothing-"), "a raw path became a label");
    assert!(after.contains("method=\"other\""));
    let series = |text: &str| {
        text.lines()
            .filter(|line| line.starts_with("shop_http_request"))
            .count()
    };
    assert_eq!(
        series(&after),
        series(&before),
        "the flood added request series"
    );
    assert!(
        after.len() < before.len() + 2048,
        "{} -> {}",
        before.len(),
        after.len()
    );
}
