//! `GET /api/health/ready` tells the truth about each dependency (the database, the session
//! Redis, the built storefront), and an outage of one is answered 503 quickly and heals by
//! itself. Outages are made with [`CutProxy`], a TCP relay the test cuts and restores.

use std::time::{Duration, Instant};

use rstest::rstest;
use serde_json::Value;
use store::testing::TestDatabase;
use store::Backend;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

use crate::helpers::{Options, TestApp};

fn redis_url() -> String {
    std::env::var("TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".to_owned())
}

/// `host:port` of a `scheme://[user@]host:port[/…]` URL.
fn host_port(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let rest = rest.rsplit_once('@').map_or(rest, |(_, rest)| rest);
    rest.split(['/', '?']).next().unwrap().to_owned()
}

/// The URL with its `host:port` replaced by `to`.
fn via(url: &str, to: &str) -> String {
    url.replacen(&host_port(url), to, 1)
}

/// A TCP relay to `upstream` on a port of its own. `cut()` closes every relayed connection
/// and stops listening (new connections are refused); `restore()` listens on the same port
/// again.
pub struct CutProxy {
    pub address: String,
    upstream: String,
    cut: watch::Sender<bool>,
    accepting: Option<tokio::task::JoinHandle<()>>,
}

impl CutProxy {
    pub async fn start(upstream: &str) -> CutProxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap().to_string();
        let (cut, _) = watch::channel(false);
        let mut proxy = CutProxy {
            address,
            upstream: upstream.to_owned(),
            cut,
            accepting: None,
        };
        proxy.accept(listener);
        proxy
    }

    fn accept(&mut self, listener: TcpListener) {
        let upstream = self.upstream.clone();
        let cut = self.cut.subscribe();
        self.accepting = Some(tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                let upstream = upstream.clone();
                let mut cut = cut.clone();
                tokio::spawn(async move {
                    let Ok(mut server) = TcpStream::connect(&upstream).await else {
                        return;
                    };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                        _ = cut.wait_for(|cut| *cut) => {}
                    }
                });
            }
        }));
    }

    pub fn cut(&mut self) {
        if let Some(accepting) = self.accepting.take() {
            accepting.abort();
        }
        self.cut.send_replace(true);
    }

    pub async fn restore(&mut self) {
        self.cut.send_replace(false);
        let listener = TcpListener::bind(&self.address).await.unwrap();
        self.accept(listener);
    }
}

/// The readiness answer, and how long it took.
async fn ready(app: &TestApp) -> (u16, Value, Duration) {
    let started = Instant::now();
    let response = app.get("/api/health/ready").await;
    let status = response.status().as_u16();
    (status, response.json().await.unwrap(), started.elapsed())
}

/// Asks again until the answer has `status` (each answer is a fresh check), for at most 30 s.
async fn ready_until(app: &TestApp, status: u16) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (got, body, _) = ready(app).await;
        if got == status {
            return body;
        }
        assert!(
            Instant::now() < deadline,
            "still {got} instead of {status}: {body}"
        );
        tokio::task::yield_now().await;
    }
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn readiness_names_a_storefront_that_is_not_built(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (status, body, _) = ready(&app).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "ready");
    assert_eq!(body["checks"]["database"], "ok");
    assert_eq!(body["checks"]["redis"], "not used");
    assert_eq!(body["checks"]["storefront"], "ok");

    std::fs::remove_file(app.static_dir.join("index.html")).unwrap();
    let (status, body, _) = ready(&app).await;
    assert_eq!(status, 503, "{body}");
    let reason = body["errors"]["storefront"][0].as_str().unwrap();
    assert!(
        reason.contains("server.static_dir has no index.html"),
        "{body}"
    );
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .starts_with("Not ready: the storefront is not built"),
        "{body}"
    );
    assert!(body["errors"].get("database").is_none(), "{body}");
    // the load balancers' check stays what it was: the database answers
    assert_eq!(app.get("/api/health").await.status(), 200);
}

#[tokio::test]
async fn readiness_follows_the_session_redis_down_and_back() {
    let mut redis = CutProxy::start(&host_port(&redis_url())).await;
    let url = via(&redis_url(), &redis.address);
    let app = TestApp::spawn_with(
        TestDatabase::create(Backend::Sqlite).await,
        Options::demo_data(false),
        |settings| settings.session.redis_url = Some(url),
    )
    .await;
    let (status, body, _) = ready(&app).await;
    assert_eq!(
        (status, &body["checks"]["redis"]),
        (200, &Value::from("ok")),
        "{body}"
    );

    redis.cut();
    let (status, body, took) = ready(&app).await;
    assert_eq!(status, 503, "{body}");
    assert!(
        body["errors"]["redis"][0]
            .as_str()
            .unwrap()
            .contains("session.redis_url"),
        "{body}"
    );
    assert!(took < Duration::from_secs(3), "answered after {took:?}");

    redis.restore().await;
    let body = ready_until(&app, 200).await;
    assert_eq!(body["checks"]["redis"], "ok");
}

#[tokio::test]
async fn readiness_answers_503_quickly_while_the_database_is_unreachable_and_recovers() {
    let database = TestDatabase::create(Backend::Postgres).await;
    let mut proxy = CutProxy::start(&host_port(&database.url)).await;
    let url = via(&database.url, &proxy.address);
    let app = TestApp::spawn_with(database, Options::demo_data(false), |settings| {
        settings.database.url = url;
    })
    .await;
    assert_eq!(ready(&app).await.0, 200);

    proxy.cut();
    let (status, body, took) = ready(&app).await;
    assert_eq!(status, 503, "{body}");
    assert!(
        body["errors"]["database"][0]
            .as_str()
            .unwrap()
            .contains("database.url"),
        "{body}"
    );
    assert!(took < Duration::from_secs(4), "answered after {took:?}");

    proxy.restore().await;
    let body = ready_until(&app, 200).await;
    assert_eq!(body["checks"]["database"], "ok");
}
