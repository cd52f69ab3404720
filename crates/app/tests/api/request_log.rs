//! One log line per request (method, route pattern, status, duration, request id, client
//! address through `trusted_proxies`; never the path, the query string or cookies), the
//! `X-Request-Id` header on every answer and in a 5xx's body; the product list's fast lane is
//! the one request without either.

use rstest::rstest;
use serde_json::Value;
use store::testing::TestDatabase;
use store::Backend;

use crate::helpers::{captured_logs, Options, TestApp};

/// The log lines written so far that carry `request_id`.
fn lines_with(request_id: &str) -> Vec<String> {
    let logs = captured_logs().lock().unwrap().clone();
    String::from_utf8_lossy(&logs)
        .lines()
        .filter(|line| line.contains(request_id))
        .map(str::to_owned)
        .collect()
}

/// The request's own line among them (the one the request log writes at its end).
fn request_line(request_id: &str) -> String {
    let lines = lines_with(request_id);
    let mine: Vec<&String> = lines
        .iter()
        .filter(|line| line.contains("garden_app::telemetry"))
        .collect();
    assert_eq!(mine.len(), 1, "one line for {request_id}: {lines:#?}");
    mine[0].clone()
}

fn request_id(response: &reqwest::Response) -> String {
    let id = response
        .headers()
        .get("x-request-id")
        .unwrap_or_else(|| panic!("X-Request-Id on {}", response.url()))
        .to_str()
        .unwrap()
        .to_owned();
    assert!(uuid::Uuid::parse_str(&id).is_ok(), "{id}");
    id
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn each_request_logs_one_line_without_its_query_string_cookies_or_path(
    #[case] backend: Backend,
) {
    captured_logs();
    let app = TestApp::spawn_with(
        TestDatabase::create(backend).await,
        Options::demo_data(true),
        |settings| settings.server.trusted_proxies = vec!["127.0.0.1".into()],
    )
    .await;

    let response = app
        .client
        .get(app.url("/api/products/3?token=query-secret-4711"))
        .header("Cookie", "garden_session=cookie-secret-0815")
        .header("X-Forwarded-For", "203.0.113.9")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let id = request_id(&response);
    let line = request_line(&id);
    for expected in [
        " INFO ",
        "method=GET",
        "route=/api/products/{id}",
        "status=200",
        "duration_ms=",
        "client_address=203.0.113.9",
    ] {
        assert!(line.contains(expected), "{expected:?} in {line}");
    }
    for secret in ["query-secret-4711", "cookie-secret-0815", "/api/products/3"] {
        let leaked: Vec<String> = lines_with(&id)
            .into_iter()
            .filter(|line| line.contains(secret))
            .collect();
        assert!(leaked.is_empty(), "{secret} reached the log: {leaked:?}");
    }

    // a client's mistake is INFO, not WARN
    let missing = app.get("/api/products/999999").await;
    assert_eq!(missing.status(), 404);
    let line = request_line(&request_id(&missing));
    assert!(
        line.contains(" INFO ") && line.contains("status=404"),
        "{line}"
    );
    let refused = app
        .client
        .post(app.url("/api/login"))
        .json(&serde_json::json!({"email": "nobody@example.com", "password": "wrong-password"}))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401);
    let line = request_line(&request_id(&refused));
    assert!(
        line.contains(" INFO ") && line.contains("status=401"),
        "{line}"
    );
    // no tracing-actix-web WARN of its own for either
    let text = String::from_utf8_lossy(&captured_logs().lock().unwrap().clone()).into_owned();
    assert!(
        !text
            .lines()
            .any(|line| line.contains("Error encountered while processing")),
        "{text}"
    );
    // an unrouted path and a page of the storefront carry an id too
    assert!(app
        .get("/no/such/page")
        .await
        .headers()
        .contains_key("x-request-id"));
    assert!(app
        .get("/api/site")
        .await
        .headers()
        .contains_key("x-request-id"));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_server_error_gives_the_client_the_id_of_its_log_line(#[case] backend: Backend) {
    captured_logs();
    let app = TestApp::spawn(backend).await;
    // a table gone from under the shop: the proofs page fails on our side
    use sea_orm::ConnectionTrait;
    let drop = match backend {
        Backend::Sqlite => "DROP TABLE proofs",
        Backend::Postgres => "DROP TABLE proofs CASCADE",
    };
    app.store
        .connection()
        .execute_unprepared(drop)
        .await
        .unwrap();
    let response = app.get("/api/proofs").await;
    assert_eq!(response.status(), 500);
    let id = request_id(&response);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["request_id"], id.as_str(), "{body}");
    assert_eq!(body["code"], "internal", "{body}");
    assert_eq!(
        body["message"],
        "Something went wrong on our side. Please try again."
    );
    assert!(
        !body.to_string().contains("proofs"),
        "nothing internal: {body}"
    );
    let line = request_line(&id);
    assert!(
        line.contains(" WARN ") && line.contains("status=500"),
        "{line}"
    );
    assert!(line.contains("route=/api/proofs"), "{line}");
    // the cause is logged, at ERROR, with the same id
    assert!(
        lines_with(&id)
            .iter()
            .any(|line| line.contains(" ERROR ") && line.contains("request failed")),
        "{:#?}",
        lines_with(&id)
    );
}

#[tokio::test]
async fn the_product_list_fast_lane_has_no_log_line_and_no_id_but_is_counted() {
    captured_logs();
    let app = TestApp::spawn_with(
        TestDatabase::create(Backend::Sqlite).await,
        Options::demo_data(true),
        |settings| settings.metrics.enabled = true,
    )
    .await;
    let before = String::from_utf8_lossy(&captured_logs().lock().unwrap().clone())
        .lines()
        .count();
    let list = app.get("/api/products").await;
    assert_eq!(list.status(), 200);
    assert!(!list.headers().contains_key("x-request-id"));
    let text = String::from_utf8_lossy(&captured_logs().lock().unwrap().clone()).into_owned();
    let new: Vec<&str> = text
        .lines()
        .skip(before)
        .filter(|line| line.contains("route=/api/products "))
        .collect();
    assert!(new.is_empty(), "{new:?}");
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert!(
        metrics
            .lines()
            .any(|line| line.starts_with("shop_http_requests_total")
                && line.contains("route=\"/api/products\"")
                && line.contains("status=\"200\"")),
        "{metrics}"
    );
}

/// The body of a gzip answer, decoded.
async fn gunzipped(response: reqwest::Response) -> Value {
    use std::io::Read;
    assert_eq!(
        response
            .headers()
            .get("content-encoding")
            .map(|v| v.to_str().unwrap()),
        Some("gzip"),
        "a compressed answer"
    );
    let bytes = response.bytes().await.unwrap();
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_string(&mut text)
        .unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The night's finding: with `Accept-Encoding: gzip` (every browser) a 500's and a 502's body
/// went out without `request_id`, added after compression (the header was there).
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_compressed_server_error_still_carries_its_request_id(#[case] backend: Backend) {
    use wiremock::matchers::method;
    use wiremock::{Mock, MockServer, ResponseTemplate};
    let roblox = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(503).set_body_string("down for maintenance"))
        .mount(&roblox)
        .await;
    let uri = roblox.uri();
    let app = TestApp::spawn_with(
        TestDatabase::create(backend).await,
        Options::demo_data(false),
        |settings| {
            settings.roblox.users_api_base = uri.clone();
            settings.roblox.thumbnails_api_base = uri;
        },
    )
    .await;
    let client = reqwest::Client::new();

    // 502: Roblox is down
    let response = client
        .post(app.url("/api/roblox/avatar"))
        .header("accept-encoding", "gzip")
        .json(&serde_json::json!({"username": "builderman"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 502);
    let id = request_id(&response);
    let body = gunzipped(response).await;
    assert_eq!(body["request_id"], id.as_str(), "{body}");
    assert!(body["message"].is_string(), "{body}");

    // 500: a table gone from under the shop
    use sea_orm::ConnectionTrait;
    let drop = match backend {
        Backend::Sqlite => "DROP TABLE proofs",
        Backend::Postgres => "DROP TABLE proofs CASCADE",
    };
    app.store
        .connection()
        .execute_unprepared(drop)
        .await
        .unwrap();
    let response = client
        .get(app.url("/api/proofs"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 500);
    let id = request_id(&response);
    let body = gunzipped(response).await;
    assert_eq!(body["request_id"], id.as_str(), "{body}");
    assert_eq!(
        body["message"],
        "Something went wrong on our side. Please try again."
    );
}
