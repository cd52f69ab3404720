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

use crate::helpers::{eventually, Options, TestApp};

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

/// What a [`CutProxy`] does with its connections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Relay {
    /// Relays both ways.
    Open,
    /// Holds every connection open (and accepts new ones) without passing a byte: a
    /// dependency that hangs.
    Stalled,
    /// Closes every connection; with the listener gone, new ones are refused.
    Cut,
    /// Closes every connection, and each new one as soon as it is accepted, counting them: a
    /// dependency that is down, whose clients' attempts to reconnect the test can wait for.
    Slammed,
}

/// A TCP relay to `upstream` on a port of its own, whose outages the test makes: `cut()`
/// (connections closed, new ones refused), `stall()` (connections held, nothing answered) and
/// `restore()` (relaying again on the same port; held connections are closed).
pub struct CutProxy {
    pub address: String,
    upstream: String,
    state: watch::Sender<Relay>,
    accepting: Option<tokio::task::JoinHandle<()>>,
    /// How many connections were closed on arrival while [`Relay::Slammed`].
    slammed: watch::Sender<usize>,
}

impl CutProxy {
    pub async fn start(upstream: &str) -> CutProxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap().to_string();
        let (state, _) = watch::channel(Relay::Open);
        let mut proxy = CutProxy {
            address,
            upstream: upstream.to_owned(),
            state,
            accepting: None,
            slammed: watch::channel(0).0,
        };
        proxy.accept(listener);
        proxy
    }

    fn accept(&mut self, listener: TcpListener) {
        let upstream = self.upstream.clone();
        let state = self.state.subscribe();
        let slammed = self.slammed.clone();
        self.accepting = Some(tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                if *state.borrow() == Relay::Slammed {
                    drop(client);
                    slammed.send_modify(|count| *count += 1);
                    continue;
                }
                let upstream = upstream.clone();
                let mut state = state.clone();
                tokio::spawn(async move {
                    if *state.borrow_and_update() == Relay::Open {
                        let Ok(mut server) = TcpStream::connect(&upstream).await else {
                            return;
                        };
                        tokio::select! {
                            _ = tokio::io::copy_bidirectional(&mut client, &mut server) => return,
                            _ = state.wait_for(|relay| *relay != Relay::Open) => {}
                        }
                        // stalled: keep both ends open, pass nothing, until restored or cut
                        let _ = state.wait_for(|relay| *relay != Relay::Stalled).await;
                    } else {
                        let _ = state.wait_for(|relay| *relay != Relay::Stalled).await;
                    }
                });
            }
        }));
    }

    pub fn cut(&mut self) {
        if let Some(accepting) = self.accepting.take() {
            accepting.abort();
        }
        self.state.send_replace(Relay::Cut);
    }

    /// Down: open connections are closed, new ones closed on arrival and counted.
    pub fn slam(&mut self) {
        self.slammed.send_replace(0);
        self.state.send_replace(Relay::Slammed);
    }

    /// Waits until `count` connections were closed on arrival since [`CutProxy::slam`] (the
    /// deadline only stops a broken test from hanging).
    pub async fn slammed_at_least(&self, count: usize) {
        let mut seen = self.slammed.subscribe();
        tokio::time::timeout(Duration::from_secs(120), seen.wait_for(|n| *n >= count))
            .await
            .unwrap_or_else(|_| panic!("fewer than {count} connection attempts"))
            .unwrap();
    }

    pub fn stall(&mut self) {
        self.state.send_replace(Relay::Stalled);
    }

    pub async fn restore(&mut self) {
        // held connections end; new ones are relayed
        self.state.send_replace(Relay::Cut);
        self.state.send_replace(Relay::Open);
        if self.accepting.is_none() {
            let listener = TcpListener::bind(&self.address).await.unwrap();
            self.accept(listener);
        }
    }
}

/// The readiness answer, and how long it took.
async fn ready(app: &TestApp) -> (u16, Value, Duration) {
    let started = Instant::now();
    let response = app.get("/api/health/ready").await;
    let status = response.status().as_u16();
    (status, response.json().await.unwrap(), started.elapsed())
}

/// Asks again until the answer has `status` (each answer is a fresh check).
async fn ready_until(app: &TestApp, status: u16) -> Value {
    eventually(&format!("readiness answers {status}"), || async {
        let (got, body, _) = ready(app).await;
        if got == status {
            Ok(body)
        } else {
            Err((got, body))
        }
    })
    .await
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
    assert_eq!(body["code"], "not_ready", "{body}");
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

/// Builds the shop with `configure`d settings and expects it not to start: the error, and how
/// long it took to say so.
async fn refused_start(configure: impl FnOnce(&mut garden_app::Settings)) -> (String, Duration) {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let mut settings = app.settings.clone();
    configure(&mut settings);
    let started = Instant::now();
    let error = garden_app::Application::build(settings)
        .await
        .err()
        .expect("the shop does not start");
    (format!("{error:#}"), started.elapsed())
}

/// A port that accepts connections and never answers: a dependency that hangs.
async fn silent_port() -> (String, tokio::task::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let held = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((connection, _)) = listener.accept().await {
            open.push(connection);
        }
    });
    (address, held)
}

#[tokio::test]
async fn an_unreachable_or_silent_session_redis_stops_the_start_within_seconds_naming_the_setting()
{
    let (message, took) = refused_start(|settings| {
        settings.session.redis_url = Some("redis://127.0.0.1:1".into());
    })
    .await;
    assert!(message.contains("session.redis_url"), "{message}");
    assert!(took < Duration::from_secs(8), "took {took:?}: {message}");

    // the night's finding: a Redis that accepts and never answers hung the start forever
    let (silent, _held) = silent_port().await;
    let (message, took) = refused_start(|settings| {
        settings.session.redis_url = Some(format!("redis://{silent}"));
    })
    .await;
    assert!(
        message.contains("session.redis_url") && message.contains("within 5 s"),
        "{message}"
    );
    assert!(took < Duration::from_secs(8), "took {took:?}: {message}");
}

#[tokio::test]
async fn an_unreachable_or_silent_database_stops_the_start_within_seconds_naming_the_setting() {
    let (message, took) = refused_start(|settings| {
        settings.database.url = "postgres://root@127.0.0.1:1/garden".into();
    })
    .await;
    assert!(message.contains("database.url"), "{message}");
    assert!(took < Duration::from_secs(10), "took {took:?}: {message}");

    let (silent, _held) = silent_port().await;
    let (message, took) = refused_start(|settings| {
        settings.database.url = format!("postgres://root@{silent}/garden");
    })
    .await;
    assert!(message.contains("database.url"), "{message}");
    assert!(took < Duration::from_secs(10), "took {took:?}: {message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_redis_that_hangs_is_answered_503_quickly_and_recovers_by_itself() {
    let mut redis = CutProxy::start(&host_port(&redis_url())).await;
    let url = via(&redis_url(), &redis.address);
    let app = TestApp::spawn_with(
        TestDatabase::create(Backend::Sqlite).await,
        Options::demo_data(false),
        |settings| settings.session.redis_url = Some(url),
    )
    .await;
    let shopper = app.client_with_role(accounts::Role::Customer).await;
    let check = || async {
        let started = Instant::now();
        let response = shopper
            .get(app.url("/api/auth/check"))
            .send()
            .await
            .unwrap();
        (response, started.elapsed())
    };
    assert_eq!(check().await.0.status(), 200);

    for outage in ["cut", "stall"] {
        match outage {
            "stall" => redis.stall(),
            _ => redis.cut(),
        }
        let (response, took) = check().await;
        assert_eq!(response.status(), 503, "{outage}");
        assert!(
            took < Duration::from_secs(4),
            "{outage}: answered after {took:?}"
        );
        assert!(response.headers().contains_key("x-request-id"));
        let body: Value = response.json().await.unwrap();
        assert_eq!(
            body["message"],
            "The shop cannot reach its session store right now. Please try again in a moment.",
            "{outage}: {body}"
        );
        assert_eq!(body["code"], "sessions_unavailable", "{outage}: {body}");
        assert!(body["request_id"].is_string(), "{body}");

        redis.restore().await;
        let me: Value = eventually(&format!("{outage}: sessions recover"), || async {
            let (response, _) = check().await;
            match response.status().as_u16() {
                200 => Ok(response.json().await.unwrap()),
                other => Err(other),
            }
        })
        .await;
        assert_eq!(me["loggedIn"], true, "{outage}: still logged in: {me}");
    }
}

#[tokio::test]
async fn a_lost_database_is_answered_503_within_seconds_and_recovers_by_itself() {
    let database = TestDatabase::create(Backend::Postgres).await;
    let mut proxy = CutProxy::start(&host_port(&database.url)).await;
    let url = via(&database.url, &proxy.address);
    let app = TestApp::spawn_with(database, Options::demo_data(false), |settings| {
        settings.database.url = url;
    })
    .await;
    assert_eq!(app.get("/api/proofs").await.status(), 200);

    for outage in ["cut", "stall"] {
        match outage {
            "stall" => proxy.stall(),
            _ => proxy.cut(),
        }
        let started = Instant::now();
        let response = app.get("/api/proofs").await;
        let took = started.elapsed();
        assert_eq!(response.status(), 503, "{outage}");
        assert!(
            took < Duration::from_secs(8),
            "{outage}: answered after {took:?}"
        );
        let body: Value = response.json().await.unwrap();
        assert_eq!(
            body["message"],
            "The shop cannot reach its database right now. Please try again in a moment.",
            "{outage}: {body}"
        );

        proxy.restore().await;
        eventually(&format!("{outage}: the database recovers"), || async {
            match app.get("/api/proofs").await.status().as_u16() {
                200 => Ok(()),
                other => Err(other),
            }
        })
        .await;
    }
}

/// The night's finding: after outages of 12 and 25 s every request with a session cookie
/// answered 503 for a minute and a half after Redis was back (the connection manager's second
/// retry waited 60 to 120 s), and `/api/health` and `/api/site` answered 503 too while Redis
/// was away when the request carried a cookie. The outage here lasts until the shop has tried
/// to reconnect twice and failed (an event: the connections the proxy closed on arrival), which
/// is where the old backoff went to sleep for a minute.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_come_back_within_seconds_of_redis_and_sessionless_reads_never_wait_on_it() {
    let mut redis = CutProxy::start(&host_port(&redis_url())).await;
    let url = via(&redis_url(), &redis.address);
    let app = TestApp::spawn_with(
        TestDatabase::create(Backend::Sqlite).await,
        Options::demo_data(true),
        |settings| settings.session.redis_url = Some(url),
    )
    .await;
    crate::first_load::write_index(
        &app,
        "<!doctype html><html><head><title>Garden Shop</title></head><body></body></html>",
    );
    std::fs::write(app.static_dir.join("app.css"), "body{}").unwrap();
    let shopper = app.client_with_role(accounts::Role::Customer).await;
    let status = |path: &'static str| {
        let request = shopper.get(app.url(path));
        async move { request.send().await.unwrap().status().as_u16() }
    };
    assert_eq!(status("/api/auth/check").await, 200);

    redis.slam();
    // what needs the session says the store is down
    assert_eq!(status("/api/auth/check").await, 503);
    // what does not never asks it, cookie or not
    for path in [
        "/api/health",
        "/api/site",
        "/api/refund-policy",
        "/api/products",
        "/api/products/3",
        "/api/products/3/related-ids",
        "/app.css",
        "/robots.txt",
    ] {
        assert_eq!(status(path).await, 200, "{path} while Redis is down");
    }
    // the storefront's page goes out, without the session it could not read
    let page = shopper.get(app.url("/about")).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let page = page.text().await.unwrap();
    assert!(page.contains("shop-bootstrap"), "{page}");
    assert!(!page.contains("\"session\""), "{page}");
    // readiness tells the truth
    let (got, body, _) = ready(&app).await;
    assert_eq!(got, 503, "{body}");

    // two reconnection attempts failed: the old backoff's next one came a minute later
    redis.slammed_at_least(2).await;
    redis.restore().await;
    let me: Value = eventually("sessions come back within 20 s of Redis", || async {
        let response = shopper
            .get(app.url("/api/auth/check"))
            .send()
            .await
            .unwrap();
        match response.status().as_u16() {
            200 => Ok(response.json().await.unwrap()),
            other => Err(other),
        }
    })
    .await;
    assert_eq!(me["loggedIn"], true, "still logged in: {me}");
    assert_eq!(ready(&app).await.0, 200);
}
