//! Production safety, tried as an attacker or an unlucky operator would: demo staff with
//! passwords nobody knows, no session rows for anonymous visitors, HSTS, a public URL that
//! follows the port, demo seeding by instances starting together, real client addresses behind
//! a proxy. SQLite and PostgreSQL; the start-up rules also against the real server binary.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use base64::Engine;
use futures::future::join_all;
use garden_app::{Application, Environment};
use hmac::{Hmac, Mac};
use rstest::rstest;
use serde_json::{json, Value};
use sha2::Sha256;
use store::testing::TestDatabase;
use store::Backend;

use crate::checkout_support::*;
use crate::helpers::{Options, TestApp, TEST_SESSION_KEY};

const SUPER_ADMIN: &str = "superadmin@gardenshop.local";
const ADMIN: &str = "admin@gardenshop.local";
const STATE_COOKIE: &str = "garden_discord_state";

// ---------------------------------------------------------------------------------------------
// Demo staff

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn demo_staff_get_a_random_password_per_database(#[case] backend: Backend) {
    let first = TestApp::spawn_with_demo(backend).await;
    let second = TestApp::spawn_with_demo(backend).await;
    let logins = first.store.demo_logins().await.unwrap();
    let others = second.store.demo_logins().await.unwrap();
    let emails: Vec<&str> = logins.iter().map(|l| l.email.as_str()).collect();
    assert_eq!(emails, vec![ADMIN, SUPER_ADMIN]);
    assert_eq!(others.len(), 2);
    for login in logins.iter().chain(&others) {
        assert!(login.password.len() >= 32, "128 random bits at least");
    }
    assert_ne!(logins[0].password, logins[1].password);
    assert_ne!(
        logins[0].password, others[0].password,
        "one password per database"
    );
    assert_ne!(
        logins[1].password, others[1].password,
        "one password per database"
    );

    // the kept login is the real one
    let super_admin = logins.iter().find(|l| l.email == SUPER_ADMIN).unwrap();
    let client = first.new_client();
    first
        .login(&client, SUPER_ADMIN, &super_admin.password)
        .await;
    let me: Value = client
        .get(first.url("/api/me"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(me["account_type"], "super_admin");
    // and another database's password does not open it
    let stranger = first
        .post_json(
            &first.new_client(),
            "/api/login",
            &json!({ "email": SUPER_ADMIN, "password": others[1].password }),
        )
        .await;
    assert_eq!(stranger.status(), 401);

    // a restart keeps them (and prints the same)
    first.start_another_instance().await;
    assert_eq!(first.store.demo_logins().await.unwrap(), logins);
    assert_eq!(first.count_rows("users").await, 2);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_database_with_accounts_of_its_own_gets_no_demo_staff(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_user(
        "owner@example.com",
        "the owner's own pass",
        accounts::Role::Customer,
    )
    .await;
    // a development start with demo data on a database that has people but no products
    let mut settings = app.settings.clone();
    settings.seed.demo_data = true;
    settings.environment = Environment::Development;
    let instance = Application::build(settings).await.unwrap();
    tokio::spawn(instance.run_until_stopped());

    assert_eq!(app.count_rows("products").await, 30, "the demo catalog");
    assert_eq!(app.count_rows("users").await, 1, "no staff added");
    assert!(app.store.demo_logins().await.unwrap().is_empty());
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn production_never_seeds_demo_staff(#[case] backend: Backend) {
    let options = Options {
        demo_data: true,
        environment: Environment::Production,
    };
    let app = TestApp::spawn_on(TestDatabase::create(backend).await, options).await;
    assert_eq!(app.count_rows("users").await, 0);
    assert_eq!(app.count_rows("demo_logins").await, 0);
}

// ---------------------------------------------------------------------------------------------
// Two instances, one empty database

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn instances_started_at_once_on_an_empty_database_seed_the_demo_catalog_once(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    let mut settings = app.settings.clone();
    settings.seed.demo_data = true;
    let started = join_all((0..4).map(|_| Application::build(settings.clone()))).await;
    for instance in started {
        let instance = instance.expect("every instance starts");
        tokio::spawn(instance.run_until_stopped());
    }
    assert_eq!(
        app.count_rows("products").await,
        30,
        "each demo product once"
    );
    assert_eq!(
        app.count_rows("users").await,
        2,
        "one super_admin, one admin"
    );
    assert_eq!(app.count_rows("demo_logins").await, 2);
}

// ---------------------------------------------------------------------------------------------
// Sessions and the Discord OAuth state

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_anonymous_flood_of_discord_authorize_adds_no_session_rows(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let before = app.count_rows("sessions").await;
    let authorizations = join_all((0..50).map(|_| async {
        // a new visitor each time: no cookies kept, redirects not followed
        let response = browser()
            .get(app.url("/api/discord/authorize"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 302);
        assert!(response
            .cookies()
            .any(|cookie| cookie.name() == STATE_COOKIE));
    }))
    .await;
    assert_eq!(authorizations.len(), 50);
    for path in [
        "/api/products",
        "/api/site",
        "/api/auth/check",
        "/api/me",
        "/api/discord/identity",
        "/api/health",
    ] {
        join_all((0..5).map(|_| browser().get(app.url(path)).send())).await;
    }
    assert_eq!(app.count_rows("sessions").await - before, 0, "no new rows");
}

/// `Set-Cookie` of this response for the state cookie.
fn state_set_cookie(response: &reqwest::Response) -> String {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|value| value.to_str().unwrap().to_owned())
        .find(|value| value.starts_with(&format!("{STATE_COOKIE}=")))
        .expect("the state cookie is set")
}

/// A state cookie signed with the test session key, as the server derives it.
fn signed_state(state: &str, expires: u64) -> String {
    let master = base64::engine::general_purpose::STANDARD
        .decode(TEST_SESSION_KEY)
        .unwrap();
    let mut derive = Hmac::<Sha256>::new_from_slice(&master).unwrap();
    derive.update(b"garden-shop discord oauth state v1");
    let key = derive.finalize().into_bytes();
    let payload = format!("{state}.{expires}");
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
    mac.update(payload.as_bytes());
    format!("{payload}.{}", hex::encode(mac.finalize().into_bytes()))
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_discord_state_cookie_is_signed_short_lived_and_single_use(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let plain = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let exchange = |cookie: Option<String>, state: String| {
        let mut request = plain
            .post(app.url("/api/discord-auth"))
            .json(&json!({ "code": "dev-100000000000000001", "state": state }));
        if let Some(cookie) = cookie {
            request = request.header("cookie", format!("{STATE_COOKIE}={cookie}"));
        }
        request.send()
    };

    let response = plain
        .get(app.url("/api/discord/authorize"))
        .send()
        .await
        .unwrap();
    let set_cookie = state_set_cookie(&response);
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/api", "Max-Age=600"] {
        assert!(
            set_cookie.contains(attribute),
            "{attribute} in {set_cookie}"
        );
    }
    let state = state_of(response.headers()["location"].to_str().unwrap());
    let cookie = set_cookie
        .split(';')
        .next()
        .unwrap()
        .trim_start_matches(&format!("{STATE_COOKIE}="))
        .to_owned();
    let (payload, _) = cookie.rsplit_once('.').unwrap();
    let expires: u64 = payload.rsplit_once('.').unwrap().1.parse().unwrap();
    assert_eq!(cookie, signed_state(&state, expires));

    // another browser (no cookie), another state, a forged signature, a stretched expiry, an
    // expired one: all refused, nothing linked
    let refused = [
        (None, state.clone()),
        (Some(cookie.clone()), "another-state".to_owned()),
        (
            Some(format!("{state}.{expires}.{}", "0".repeat(64))),
            state.clone(),
        ),
        (
            Some(format!(
                "{state}.{}.{}",
                expires + 3600,
                cookie.rsplit_once('.').unwrap().1
            )),
            state.clone(),
        ),
        (Some(signed_state(&state, expires - 601)), state.clone()),
    ];
    for (cookie, state) in refused {
        let response = exchange(cookie.clone(), state).await.unwrap();
        assert_eq!(response.status(), 422, "{cookie:?}");
        let body: Value = response.json().await.unwrap();
        assert!(body["errors"]["state"].is_array(), "{body}");
    }

    // the real one links, and the answer clears the cookie
    let response = exchange(Some(cookie.clone()), state.clone()).await.unwrap();
    assert_eq!(response.status(), 200);
    let cleared = state_set_cookie(&response);
    assert!(cleared.contains("Max-Age=0"), "{cleared}");
    // a linked identity is something to keep: that session has a row now
    assert_eq!(app.count_rows("sessions").await, 1);
}

// ---------------------------------------------------------------------------------------------
// HSTS

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn hsts_is_sent_in_production_only(#[case] backend: Backend) {
    let options = Options {
        demo_data: false,
        environment: Environment::Production,
    };
    let production = TestApp::spawn_on(TestDatabase::create(backend).await, options).await;
    for path in ["/api/health", "/api/products", "/", "/api/no-such-thing"] {
        let response = production.get(path).await;
        assert_eq!(
            response.headers()["strict-transport-security"],
            "max-age=31536000; includeSubDomains",
            "{path}"
        );
    }
    let test = TestApp::spawn(backend).await;
    let mut development = test.settings.clone();
    development.environment = Environment::Development;
    let dev = Application::build(development).await.unwrap();
    let dev_address = format!("http://127.0.0.1:{}", dev.port());
    tokio::spawn(dev.run_until_stopped());
    for address in [test.address.clone(), dev_address] {
        let response = reqwest::get(format!("{address}/api/health")).await.unwrap();
        assert!(response
            .headers()
            .get("strict-transport-security")
            .is_none());
    }
}

// ---------------------------------------------------------------------------------------------
// site.public_url

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_unset_public_url_follows_the_port_the_server_listens_on(#[case] backend: Backend) {
    let app = shop_with(
        backend,
        vec![(1, product("Raccoon", "10.00", Some(5)))],
        |s| {
            s.site.public_url = String::new();
        },
    )
    .await;
    let port = app.address.rsplit(':').next().unwrap().to_owned();
    assert_ne!(port, "8080");
    let client = browser();
    link_discord(&app, &client, 0).await;
    let response = client
        .post(app.url("/api/stripe/checkout"))
        // a browser on the printed address passes the Origin check
        .header("origin", format!("http://localhost:{port}"))
        .json(&payload(&[(1, 1)], 10.0))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    let id = body["order_id"].as_i64().unwrap();
    // the dev payment page is a same-origin path, so it opens on the printed address too
    assert_eq!(body["url"], format!("/dev/pay/{id}"));
    let page = client
        .get(app.url(&format!("/dev/pay/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200, "the dev page is really there");
}

#[tokio::test]
async fn production_refuses_to_start_without_a_public_url() {
    let options = Options {
        demo_data: false,
        environment: Environment::Production,
    };
    let app = TestApp::spawn_on(TestDatabase::create(Backend::Sqlite).await, options).await;
    let mut settings = app.settings.clone();
    settings.site.public_url = "  ".into();
    let error = Application::build(settings)
        .await
        .err()
        .expect("production refuses an unset public_url");
    let message = format!("{error:#}");
    assert!(message.contains("site.public_url is not set"), "{message}");
}

// ---------------------------------------------------------------------------------------------
// Real client addresses

const LIMIT_PER_IP: usize = 30;

async fn failed_login(app: &TestApp, forwarded_for: Option<&str>) -> u16 {
    let email = format!("nobody-{}@example.com", uuid::Uuid::new_v4().simple());
    let mut request = app
        .client
        .post(app.url("/api/login"))
        .json(&json!({ "email": email, "password": "not the password" }));
    if let Some(forwarded_for) = forwarded_for {
        request = request.header("x-forwarded-for", forwarded_for);
    }
    request.send().await.unwrap().status().as_u16()
}

fn random_address() -> String {
    let bytes = uuid::Uuid::new_v4().into_bytes();
    format!("{}.{}.{}.{}", bytes[0] | 1, bytes[1], bytes[2], bytes[3])
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn real_client_addresses_a_forged_forwarded_for_is_ignored_without_trusted_proxies(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    // the login limits count in fixed 15-minute windows: start at the beginning of one
    app.to_the_start_of_a_window(Duration::from_secs(15 * 60));
    for attempt in 0..LIMIT_PER_IP {
        let status = failed_login(&app, Some(&random_address())).await;
        assert_eq!(status, 401, "attempt {attempt}");
    }
    // the header never made the peer someone else: the peer is locked out
    assert_eq!(failed_login(&app, Some(&random_address())).await, 429);
    assert_eq!(failed_login(&app, None).await, 429);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn real_client_addresses_behind_a_trusted_proxy_each_client_has_its_own_limit(
    #[case] backend: Backend,
) {
    let app = shop_with(backend, vec![], |s| {
        s.server.trusted_proxies = vec!["127.0.0.1/32".into()];
    })
    .await;
    app.to_the_start_of_a_window(Duration::from_secs(15 * 60));
    // 30 clients fail once each: nobody else is locked out
    for client in 0..LIMIT_PER_IP {
        let status = failed_login(&app, Some(&format!("198.51.100.{}", client + 1))).await;
        assert_eq!(status, 401, "client {client}");
    }
    assert_eq!(failed_login(&app, Some("203.0.113.99")).await, 401);

    // one client fails 30 times: it alone is locked out
    let client = "203.0.113.7";
    for attempt in 0..LIMIT_PER_IP {
        assert_eq!(
            failed_login(&app, Some(client)).await,
            401,
            "attempt {attempt}"
        );
    }
    assert_eq!(failed_login(&app, Some(client)).await, 429);
    // entries it prepends itself do not make it someone else: the proxy appends the real one
    for forged in ["192.0.2.1", "198.51.100.200, 192.0.2.2", "127.0.0.1"] {
        let header = format!("{forged}, {client}");
        assert_eq!(failed_login(&app, Some(&header)).await, 429, "{header}");
    }
    assert_eq!(failed_login(&app, Some("203.0.113.8")).await, 401);
}

/// The `i`-th address of one IPv6 /64 (2001:db8:32:4::/64): a client rotating through the
/// addresses of its own network, as any IPv6 subscriber may.
fn in_one_64(i: usize) -> String {
    format!("2001:db8:32:4:{:x}:{:x}:{:x}:1", i + 1, i * 31 + 7, i + 100)
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn real_client_addresses_an_ipv6_client_rotating_through_its_64_is_one_client(
    #[case] backend: Backend,
) {
    let app = shop_with(backend, vec![], |s| {
        s.server.trusted_proxies = vec!["127.0.0.1/32".into()];
    })
    .await;
    // the shipped limit (config/default.toml), as one IPv4 address meets it above
    assert_eq!(app.settings.accounts.login_per_ip as usize, LIMIT_PER_IP);
    app.to_the_start_of_a_window(Duration::from_secs(15 * 60));
    // a new address of the same /64 for every attempt: the /64 is one client
    for attempt in 0..LIMIT_PER_IP {
        let status = failed_login(&app, Some(&in_one_64(attempt))).await;
        assert_eq!(status, 401, "attempt {attempt}");
    }
    assert_eq!(
        failed_login(&app, Some(&in_one_64(LIMIT_PER_IP))).await,
        429
    );
    assert_eq!(failed_login(&app, Some("2001:db8:32:4::1")).await, 429);
    // the next /64 is someone else
    assert_eq!(failed_login(&app, Some("2001:db8:32:5::1")).await, 401);
}

// ---------------------------------------------------------------------------------------------
// The real server binary

/// The server binary on a database of its own, its stdout read line by line.
struct Server {
    child: Child,
    lines: mpsc::Receiver<String>,
}

impl Server {
    fn start(dir: &std::path::Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_garden-shop"))
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("SHOP_ENV", "development")
            .env(
                "DATABASE_URL",
                format!("sqlite://{}/shop.db?mode=rwc", dir.display()),
            )
            .env("SHOP__SERVER__PORT", "0")
            .env("SHOP__SERVER__STATIC_DIR", dir.join("dist"))
            .env("SHOP__MEDIA__ROOT", dir.join("media"))
            .env("SHOP__MAIL__OUTBOX_DIR", dir.join("outbox"))
            .env("RUST_LOG", "info")
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Server { child, lines }
    }

    /// The lines printed until it says where it runs, and its port.
    fn wait_until_running(&self) -> (Vec<String>, u16) {
        let mut printed = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(120))
                .expect("the server starts");
            if let Some((_, rest)) = line.split_once("running at http://localhost:") {
                let port = rest
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect::<String>();
                return (printed, port.parse().unwrap());
            }
            printed.push(line);
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `email -> password` of the "Demo … login: email / password" lines.
fn demo_logins(printed: &[String]) -> Vec<(String, String)> {
    printed
        .iter()
        .filter_map(|line| {
            let (_, login) = line.split_once(" login: ")?;
            let (email, password) = login.split_once(" / ")?;
            Some((email.trim().to_owned(), password.trim().to_owned()))
        })
        .collect()
}

#[tokio::test]
async fn the_real_server_prints_its_demo_logins_at_every_start_and_pays_on_its_own_port() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    let (printed, port) = server.wait_until_running();
    let logins = demo_logins(&printed);
    assert_eq!(
        logins
            .iter()
            .map(|(email, _)| email.as_str())
            .collect::<Vec<_>>(),
        vec![SUPER_ADMIN, ADMIN],
        "{printed:#?}"
    );
    let base = format!("http://127.0.0.1:{port}");
    let client = browser();
    let login = client
        .post(format!("{base}/api/login"))
        .json(&json!({ "email": SUPER_ADMIN, "password": logins[0].1 }))
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), 200, "the printed password is the real one");

    // no SHOP__SITE__PUBLIC_URL: the shop works on the port it listens on
    let authorize = client
        .get(format!("{base}/api/discord/authorize"))
        .send()
        .await
        .unwrap();
    let state = state_of(authorize.headers()["location"].to_str().unwrap());
    let linked = client
        .post(format!("{base}/api/discord-auth"))
        .json(&json!({ "code": "dev-100000000000000001", "state": state }))
        .send()
        .await
        .unwrap();
    assert_eq!(linked.status(), 200);
    let products: Vec<Value> = client
        .get(format!("{base}/api/products"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let bunny = products.iter().find(|p| p["id"] == 1).unwrap();
    let price = bunny["price"].as_f64().unwrap();
    let order = client
        .post(format!("{base}/api/stripe/checkout"))
        .json(&payload(&[(1, 1)], price))
        .send()
        .await
        .unwrap();
    assert_eq!(order.status(), 200);
    let body: Value = order.json().await.unwrap();
    let url = body["url"].as_str().unwrap();
    // the dev payment page is a same-origin path, opened on the host the shopper used
    assert!(url.starts_with("/dev/pay/"), "{url}");
    let page = client.get(format!("{base}{url}")).send().await.unwrap();
    assert_eq!(
        page.status(),
        200,
        "the payment page is served on its own port"
    );
    drop(server);

    // the next start prints the same logins
    let again = Server::start(dir.path());
    let (printed, _) = again.wait_until_running();
    assert_eq!(demo_logins(&printed), logins);
}
