use std::path::PathBuf;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use chrono::{DateTime, TimeDelta, Utc};
use garden_app::auth::{AppClock, Argon2Hasher};
use garden_app::{Application, Environment, Settings};
use store::testing::TestDatabase;
use store::{Backend, Store};

pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub store: Store,
    pub static_dir: PathBuf,
    /// This app's mail outbox.
    pub outbox_dir: PathBuf,
    /// The shop's clock: `app.clock.advance(..)` to let codes, tokens and rate limits expire.
    pub clock: TestClock,
    /// The settings it was started with, to start another instance on the same database.
    pub settings: Settings,
    /// Statements this app has sent to its database so far.
    pub db_queries: std::sync::Arc<std::sync::atomic::AtomicU64>,
    /// Expires stale pending orders on demand (as the background task does every minute).
    pub sweeper: garden_app::Sweeper,
    /// The background loops' finished rounds and the work detached from requests: wait on
    /// these, not on the clock.
    pub rounds: garden_app::Rounds,
    /// This instance's server push (what it has heard of the event log).
    pub events: garden_app::events::ShopEvents,
    /// The help chat's staff notices, one queue sent in order.
    pub staff_notifier: discord::StaffNotifier,
    /// Stops it as SIGTERM does.
    pub shutdown: garden_app::Shutdown,
    /// Ends when the server has stopped.
    pub stopped: std::sync::Arc<tokio::sync::Notify>,
    _database: TestDatabase,
    _dirs: Vec<tempfile::TempDir>,
}

/// The clock the tests build the app on: the system's, moved forward by what a test adds
/// (`advance`), so codes, tokens and rate limits expire without waiting. The shipped server
/// has no such clock.
#[derive(Debug, Clone, Default)]
pub struct TestClock(Arc<AtomicI64>);

impl TestClock {
    pub fn advance(&self, by: std::time::Duration) {
        let secs = i64::try_from(by.as_secs()).unwrap();
        self.0.fetch_add(secs, Ordering::SeqCst);
    }
}

impl shared::Clock for TestClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now() + TimeDelta::seconds(self.0.load(Ordering::SeqCst))
    }
}

pub struct Options {
    pub demo_data: bool,
    pub environment: Environment,
}

impl Options {
    pub fn demo_data(demo_data: bool) -> Self {
        Options {
            demo_data,
            environment: Environment::Test,
        }
    }
}

impl TestApp {
    /// A fresh, empty shop.
    pub async fn spawn(backend: Backend) -> TestApp {
        Self::spawn_on(
            TestDatabase::create(backend).await,
            Options::demo_data(false),
        )
        .await
    }

    /// A fresh shop with the demo catalog.
    pub async fn spawn_with_demo(backend: Backend) -> TestApp {
        Self::spawn_on(
            TestDatabase::create(backend).await,
            Options::demo_data(true),
        )
        .await
    }

    /// The app on a database the test has prepared.
    pub async fn spawn_on(database: TestDatabase, options: Options) -> TestApp {
        Self::spawn_with(database, options, |_| {}).await
    }

    /// The app with settings the test changes before it starts.
    pub async fn spawn_with(
        database: TestDatabase,
        options: Options,
        configure: impl FnOnce(&mut Settings),
    ) -> TestApp {
        let outbox = tempfile::tempdir().unwrap();
        let media = tempfile::tempdir().unwrap();
        let frontend = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(frontend.path().join("assets")).unwrap();
        std::fs::write(
            frontend.path().join("index.html"),
            "<!doctype html><title>Garden Shop</title>",
        )
        .unwrap();
        std::fs::write(
            frontend.path().join("assets/index-4f3a9c.js"),
            "console.log('shop')",
        )
        .unwrap();
        std::fs::write(
            frontend.path().join("favicon.svg"),
            "<svg xmlns='http://www.w3.org/2000/svg'/>",
        )
        .unwrap();

        // the shipped defaults (config/default.toml and test.toml), then this test's own places
        let config_dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../config");
        let mut settings = Settings::load_from([
            ("SHOP_ENV".to_owned(), "test".to_owned()),
            ("SHOP_CONFIG_DIR".to_owned(), config_dir.to_owned()),
        ])
        .expect("the shipped configuration loads");
        settings.environment = options.environment;
        settings.server.host = "127.0.0.1".into();
        settings.server.static_dir = frontend.path().to_path_buf();
        settings.server.malloc_mmap_threshold = 0;
        settings.database.url = database.url.clone();
        settings.database.max_connections = 5;
        settings.media.root = media.path().to_path_buf();
        settings.seed.demo_data = options.demo_data;
        settings.site.name = "Garden Shop".into();
        settings.site.reviews_url = "https://reviews.example/garden-shop".into();
        settings.site.public_url = "http://localhost:8080".into();
        settings.site.discord_invite_url = String::new();
        settings.site.delivery_minutes = 10;
        settings.mail.outbox_dir = outbox.path().to_path_buf();
        settings.mail.from = "Garden Shop <shop@example.com>".into();
        settings.session.key = TEST_SESSION_KEY.to_owned().into();
        if options.environment == Environment::Production {
            // production refuses the public keys of config/development.toml and test.toml
            settings.session.key = PRODUCTION_TEST_SESSION_KEY.to_owned().into();
            // production refuses the outbox; nothing is sent in these tests
            settings.mail.smtp_host = "127.0.0.1".into();
            settings.mail.smtp_tls = garden_app::SmtpTls::None;
            // nor the dev payment page, the dev Discord sign-in or the offline Roblox stand-in;
            // nothing reaches these services in the tests
            settings.stripe.secret_key = "sk_test_unused".to_owned().into();
            settings.stripe.webhook_secret = "whsec_unused".to_owned().into();
            settings.discord.client_id = "1".into();
            settings.discord.client_secret = "unused".to_owned().into();
            settings.roblox.users_api_base = "http://127.0.0.1:9".into();
        }
        configure(&mut settings);
        let clock = TestClock::default();
        let app = Application::build_on(settings.clone(), AppClock::new(clock.clone()))
            .await
            .expect("the app starts");
        let sweeper = app.sweeper();
        let rounds = app.rounds();
        let staff_notifier = app.staff_notifier();
        let events = app.events();
        let db_queries = app.database_queries();
        let address = format!("http://127.0.0.1:{}", app.port());
        let shutdown = app.shutdown();
        let stopped = std::sync::Arc::new(tokio::sync::Notify::new());
        let notify = std::sync::Arc::clone(&stopped);
        tokio::spawn(async move {
            let _ = app.run_until_stopped().await;
            notify.notify_one();
        });
        TestApp {
            address,
            client: reqwest::Client::builder().build().unwrap(),
            store: Store::new(database.connection.clone(), clock.clone()),
            static_dir: frontend.path().to_path_buf(),
            outbox_dir: outbox.path().to_path_buf(),
            clock,
            settings,
            db_queries,
            sweeper,
            rounds,
            staff_notifier,
            events,
            shutdown,
            stopped,
            _database: database,
            _dirs: vec![media, frontend, outbox],
        }
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.address))
            .send()
            .await
            .expect("the request is answered")
    }

    pub async fn get_json(&self, path: &str) -> serde_json::Value {
        let response = self.get(path).await;
        assert_eq!(response.status(), 200, "GET {path}");
        response.json().await.unwrap()
    }

    pub async fn products(&self) -> Vec<serde_json::Value> {
        self.get_json("/api/products")
            .await
            .as_array()
            .unwrap()
            .clone()
    }
}

/// 64 bytes, base64: the session key of every test app.
pub const TEST_SESSION_KEY: &str =
    "5CFDn5kGnGB1/HoIqhY7qvopb5tyzH7XtLnJlIlyutSeEH917e7pmXDAhIIdANJT35pKNrFmhDn+5kyFjvwXcA==";

/// 64 bytes, base64: the session key of the test apps that run as production (which refuses
/// [`TEST_SESSION_KEY`], the public key of `config/test.toml`).
pub const PRODUCTION_TEST_SESSION_KEY: &str =
    "fXcIyn1ex9oeVJFAH30YYzctCZhdYjovIJYC01XzT378DsVcUn36Yl/0fgE6S+fSNeX+gPVSDXotZJ/Axu87gw==";

/// The password `client_with_role` gives its users.
pub const TEST_PASSWORD: &str = "correct horse battery";

impl TestApp {
    /// Moves the app's clock to the start of the next rate limit window of this length (windows
    /// are aligned to the Unix epoch, and the clock is the system's plus what tests added), so
    /// a test's counted requests all fall in one window instead of straddling two.
    pub fn to_the_start_of_a_window(&self, window: std::time::Duration) {
        use accounts::Clock;
        let now = self.clock.now().timestamp();
        let length = i64::try_from(window.as_secs()).unwrap();
        let next = (now.div_euclid(length) + 1) * length;
        self.clock.advance(std::time::Duration::from_secs(
            u64::try_from(next - now).unwrap(),
        ));
    }

    /// A client that keeps cookies (one session per client).
    pub fn new_client(&self) -> reqwest::Client {
        reqwest::Client::builder()
            .cookie_store(true)
            .build()
            .unwrap()
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    /// POSTs JSON with this client.
    pub async fn post_json(
        &self,
        client: &reqwest::Client,
        path: &str,
        body: &serde_json::Value,
    ) -> reqwest::Response {
        client
            .post(self.url(path))
            .json(body)
            .send()
            .await
            .expect("the request is answered")
    }

    /// Creates an account straight through the store (password hashed); returns its id.
    pub async fn create_user(&self, email: &str, password: &str, role: accounts::Role) -> i64 {
        use accounts::{Email, NewUser, PasswordHasher, UserName, UserStore};
        let hasher = Argon2Hasher::new().await.unwrap();
        let user = self
            .store
            .upsert_user(
                NewUser {
                    name: UserName::parse(email.split('@').next().unwrap()).unwrap(),
                    email: Email::parse(email).unwrap(),
                    role,
                    password_hash: hasher.hash(password.to_owned()).await.unwrap(),
                    language: None,
                },
                None,
            )
            .await
            .unwrap();
        user.id.get()
    }

    /// Logs this client in; panics unless the login succeeds.
    pub async fn login(&self, client: &reqwest::Client, email: &str, password: &str) {
        let response = self
            .post_json(
                client,
                "/api/login",
                &serde_json::json!({ "email": email, "password": password }),
            )
            .await;
        assert_eq!(response.status(), 200, "login as {email}");
    }

    /// A logged-in client of a new user with this role. Staff get a private server link, as
    /// claiming an order needs one (`handoff.rs` tests the refusal without).
    pub async fn client_with_role(&self, role: accounts::Role) -> reqwest::Client {
        let email = format!("{}-{}@example.com", role, uuid::Uuid::new_v4().simple());
        let id = self.create_user(&email, TEST_PASSWORD, role).await;
        if role.is_staff() {
            self.store
                .seed_private_server_url(id, "https://www.roblox.com/share?code=test&type=Server")
                .await
                .unwrap();
        }
        let client = self.new_client();
        self.login(&client, &email, TEST_PASSWORD).await;
        client
    }

    /// The .eml files of this app's outbox, oldest first.
    pub fn outbox_messages(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(&self.outbox_dir) else {
            return Vec::new();
        };
        let mut files: Vec<PathBuf> = entries
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "eml"))
            .collect();
        files.sort();
        files
            .iter()
            .map(|path| std::fs::read_to_string(path).unwrap())
            .collect()
    }

    /// Waits for the outbox to hold `count` messages (mail sent after the answer).
    pub async fn wait_for_outbox(&self, count: usize) -> Vec<String> {
        eventually(&format!("the outbox holds {count} messages"), || async {
            let messages = self.outbox_messages();
            (messages.len() >= count).then_some(messages)
        })
        .await
    }

    /// Another instance of the shop on the same database (as behind a load balancer, or after
    /// a restart); returns its address.
    pub async fn start_another_instance(&self) -> String {
        let app = Application::build_on(self.settings.clone(), AppClock::new(self.clock.clone()))
            .await
            .expect("the second instance starts");
        let address = format!("http://127.0.0.1:{}", app.port());
        tokio::spawn(app.run_until_stopped());
        address
    }
}

impl TestApp {
    /// The steps recorded for an order (`order_events`), oldest first.
    pub async fn order_steps(&self, order: i64) -> Vec<String> {
        use sea_orm::{ConnectionTrait, Statement};
        let db = self.store.connection();
        let rows = db
            .query_all(Statement::from_string(
                db.get_database_backend(),
                format!("SELECT step FROM order_events WHERE order_id = {order} ORDER BY id"),
            ))
            .await
            .unwrap();
        rows.iter()
            .map(|row| row.try_get::<String>("", "step").unwrap())
            .collect()
    }

    /// Waits until every step of the order is dispatched (else its job is still to come) and
    /// every job of it on the outbox `channel` is done (sent or given up): nothing more will
    /// leave the shop for it there. Answers `(step, status)`; on the `mail` channel (the
    /// buyer's mail, `mail_jobs`) `(kind, status)`.
    pub async fn settled_jobs(&self, order: i64, channel: &str) -> Vec<(String, String)> {
        use sea_orm::{ConnectionTrait, Statement};
        let db = self.store.connection();
        let jobs_query = if channel == "mail" {
            format!(
                "SELECT kind AS step, status FROM mail_jobs WHERE order_id = {order} ORDER BY id"
            )
        } else {
            format!(
                "SELECT e.step, j.status FROM outbox_jobs j JOIN order_events e \
                 ON e.id = j.event_id WHERE j.order_id = {order} \
                 AND j.channel = '{channel}' ORDER BY e.id"
            )
        };
        eventually(
            &format!("the {channel} jobs of order {order} settle"),
            || async {
                // every step dispatched first: a step's jobs are written in the transaction
                // that marks it dispatched, so the jobs read after this count include them all
                let undispatched: i64 = db
                    .query_one(Statement::from_string(
                        db.get_database_backend(),
                        format!(
                            "SELECT COUNT(*) FROM order_events \
                             WHERE order_id = {order} AND dispatched_at IS NULL"
                        ),
                    ))
                    .await
                    .unwrap()
                    .unwrap()
                    .try_get_by_index(0)
                    .unwrap();
                let rows = db
                    .query_all(Statement::from_string(
                        db.get_database_backend(),
                        jobs_query.clone(),
                    ))
                    .await
                    .unwrap();
                let jobs: Vec<(String, String)> = rows
                    .iter()
                    .map(|r| {
                        (
                            r.try_get("", "step").unwrap(),
                            r.try_get("", "status").unwrap(),
                        )
                    })
                    .collect();
                if undispatched == 0
                    && !jobs.is_empty()
                    && jobs.iter().all(|(_, status)| status != "pending")
                {
                    Ok(jobs)
                } else {
                    Err((undispatched, jobs))
                }
            },
        )
        .await
    }

    /// How many rows of a table match an SQL condition.
    pub async fn count_where(&self, table: &str, condition: &str) -> i64 {
        self.count_rows(&format!("{table} WHERE {condition}")).await
    }

    /// How many rows a table of this app's database holds.
    pub async fn count_rows(&self, table: &str) -> i64 {
        use sea_orm::{ConnectionTrait, Statement};
        let db = self.store.connection();
        let row = db
            .query_one(Statement::from_string(
                db.get_database_backend(),
                format!("SELECT COUNT(*) AS n FROM {table}"),
            ))
            .await
            .unwrap()
            .unwrap();
        row.try_get_by_index::<i64>(0).unwrap()
    }
}

/// How long [`eventually`] waits before it fails a test: long enough for a busy 2-core
/// machine, short enough that a broken test fails in one run.
const EVENTUALLY_WITHIN: std::time::Duration = std::time::Duration::from_secs(20);

/// How often [`eventually`] asks again.
const EVENTUALLY_EVERY: std::time::Duration = std::time::Duration::from_millis(20);

/// What a probe of [`eventually`] answers: `Some(found)` or `Ok(found)` once the work is
/// done; `None`, or `Err(seen)` to show what it saw instead when the wait fails.
pub trait Probe {
    type Found;
    fn found(self) -> Result<Self::Found, Option<String>>;
}

impl<T> Probe for Option<T> {
    type Found = T;
    fn found(self) -> Result<T, Option<String>> {
        self.ok_or(None)
    }
}

impl<T, E: std::fmt::Debug> Probe for Result<T, E> {
    type Found = T;
    fn found(self) -> Result<T, Option<String>> {
        self.map_err(|seen| Some(format!("{seen:?}")))
    }
}

/// The one wait of the API tests for work the shop does after its answer (a mail, a job, a
/// fake's request, another instance's cache): asks `probe` every 20 ms until it finds what
/// it looks for, and answers that; fails the test with `what` (and what the probe last saw)
/// after 20 s. A probe reads what the shop did, never the time; to show that something did
/// NOT happen, wait for a later event that proves the work is over, then look.
pub async fn eventually<F, Fut>(what: &str, mut probe: F) -> <Fut::Output as Probe>::Found
where
    F: FnMut() -> Fut,
    Fut: std::future::Future,
    Fut::Output: Probe,
{
    let deadline = tokio::time::Instant::now() + EVENTUALLY_WITHIN;
    loop {
        let seen = match probe().await.found() {
            Ok(found) => return found,
            Err(seen) => seen,
        };
        if tokio::time::Instant::now() >= deadline {
            match seen {
                Some(seen) => panic!("{what}: not within {EVENTUALLY_WITHIN:?}; last seen: {seen}"),
                None => panic!("{what}: not within {EVENTUALLY_WITHIN:?}"),
            }
        }
        tokio::time::sleep(EVENTUALLY_EVERY).await;
    }
}

pub fn ids(products: &[serde_json::Value]) -> Vec<i64> {
    products.iter().map(|p| p["id"].as_i64().unwrap()).collect()
}

/// Every log line of this test process, at debug level and up.
/// Checks that two sets of answer times look alike to someone timing them: their medians differ
/// by less than half the slower one (work that one path skipped, such as a password hash or a
/// lookup and a mail, shows as a gap about as large as that work), or by under 25 ms (the
/// noise of a busy machine between two cheap answers).
pub fn assert_alike_in_time(
    what: &str,
    mut first: Vec<std::time::Duration>,
    mut second: Vec<std::time::Duration>,
) {
    first.sort();
    second.sort();
    let (a, b) = (first[first.len() / 2], second[second.len() / 2]);
    let bound = (a.max(b) / 2).max(std::time::Duration::from_millis(25));
    assert!(
        a.abs_diff(b) < bound,
        "{what}: median {a:?} vs {b:?} over {} samples each (bound {bound:?})",
        first.len()
    );
}

/// Makes sure every log line of the requests `client` made so far is written: a later request
/// on the same connection is read only after the earlier ones ended (their spans closed), and
/// its own line, marked by its request id, is written before its answer.
pub async fn logs_caught_up(app: &TestApp, client: &reqwest::Client) {
    let response = client.get(app.url("/api/health")).send().await.unwrap();
    let id = response.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .to_owned();
    response.bytes().await.unwrap();
    let logs = String::from_utf8_lossy(&captured_logs().lock().unwrap()).into_owned();
    assert!(logs.contains(&id), "the later request's line was written");
}

pub fn captured_logs() -> &'static std::sync::Mutex<Vec<u8>> {
    use std::sync::{Mutex, OnceLock};
    static LOGS: OnceLock<&'static Mutex<Vec<u8>>> = OnceLock::new();
    LOGS.get_or_init(|| {
        let logs: &'static Mutex<Vec<u8>> = Box::leak(Box::new(Mutex::new(Vec::new())));
        struct Writer(&'static Mutex<Vec<u8>>);
        impl std::io::Write for Writer {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let subscriber = tracing_subscriber::fmt()
            .with_env_filter("debug")
            .with_ansi(false)
            .with_writer(move || Writer(logs))
            .finish();
        tracing::subscriber::set_global_default(subscriber)
            .expect("no other subscriber in the API tests");
        logs
    })
}
