//! A fresh, migrated database per test: a new SQLite file, or a new PostgreSQL database named
//! by a UUID on the server at `TEST_POSTGRES_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`),
//! dropped again when the test ends.
//!
//! Each is a copy of a template migrated once per build of the test binary (a file in the
//! temporary directory; a database `garden_tpl_…` on the server), not migrated anew: every test
//! runs in a process of its own, and running the forty-odd migrations took most of a short
//! test's time. The template's name holds a hash of the binary (its path, size and time), which
//! embeds the migrations, so a changed migration gets a template of its own.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sea_orm::{ConnectionTrait, Database, Statement};

use crate::{connect, Backend, DatabaseConnection, SetupLock};

/// Templates of older builds are dropped once they are this old.
const TEMPLATE_KEPT: Duration = Duration::from_secs(24 * 3600);

pub struct TestDatabase {
    pub url: String,
    pub connection: DatabaseConnection,
    postgres_name: Option<String>,
    _dir: Option<tempfile::TempDir>,
}

fn maintenance_url() -> String {
    std::env::var("TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned())
}

fn server_url(maintenance: &str) -> &str {
    maintenance
        .rsplit_once('/')
        .map_or(maintenance, |(server, _)| server)
}

impl TestDatabase {
    /// # Panics
    /// When the database cannot be created: a test cannot go on without it.
    #[allow(clippy::expect_used)]
    pub async fn create(backend: Backend) -> Self {
        match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("a temporary directory for SQLite");
                let file = dir.path().join("shop.db");
                std::fs::copy(sqlite_template().await, &file)
                    .expect("a copy of the migrated SQLite template");
                let url = format!("sqlite://{}?mode=rwc", file.display());
                let connection = connect(&url, 5).await.expect("a fresh SQLite database");
                TestDatabase {
                    url,
                    connection,
                    postgres_name: None,
                    _dir: Some(dir),
                }
            }
            Backend::Postgres => {
                let maintenance = maintenance_url();
                let name = format!("garden_test_{}", uuid::Uuid::new_v4().simple());
                let admin = Database::connect(&maintenance)
                    .await
                    .expect("PostgreSQL is running (TEST_POSTGRES_URL)");
                let template = postgres_template(&admin, &maintenance).await;
                execute(
                    &admin,
                    &format!("CREATE DATABASE \"{name}\" TEMPLATE \"{template}\""),
                )
                .await
                .expect("permission to create a test database");
                let _ = admin.close().await;
                let url = format!("{}/{name}", server_url(&maintenance));
                let connection = connect(&url, 5)
                    .await
                    .expect("the fresh PostgreSQL database");
                TestDatabase {
                    url,
                    connection,
                    postgres_name: Some(name),
                    _dir: None,
                }
            }
        }
    }
}

/// This test binary's mark: a hash of its path, size and modification time.
#[allow(clippy::expect_used)]
fn build_key() -> String {
    let exe = std::env::current_exe().expect("the test binary's path");
    let meta = std::fs::metadata(&exe).expect("the test binary's metadata");
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    exe.hash(&mut hasher);
    meta.len().hash(&mut hasher);
    meta.modified().ok().hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

fn unix_seconds() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs())
}

async fn execute(db: &DatabaseConnection, sql: &str) -> Result<(), sea_orm::DbErr> {
    db.execute(Statement::from_string(db.get_database_backend(), sql))
        .await
        .map(|_| ())
}

/// The migrated SQLite file of this build, made by the first test that needs it. Tests racing to
/// make it each migrate a file of their own and rename it into place: a rename replaces whole,
/// so a copy never reads half a template.
#[allow(clippy::expect_used)]
async fn sqlite_template() -> PathBuf {
    let folder = std::env::temp_dir();
    let template = folder.join(format!("garden-tpl-{}.db", build_key()));
    if template.exists() {
        return template;
    }
    forget_old_sqlite_templates(&folder);
    let staging = folder.join(format!(
        "garden-tpl-{}.staging",
        uuid::Uuid::new_v4().simple()
    ));
    let url = format!("sqlite://{}?mode=rwc", staging.display());
    let db = connect(&url, 1).await.expect("a SQLite template");
    // one self-contained file: the copies turn write-ahead logging on again as they connect
    execute(&db, "PRAGMA journal_mode=DELETE")
        .await
        .expect("the template leaves write-ahead logging");
    db.close().await.expect("the template closes");
    std::fs::rename(&staging, &template).expect("the template moves into place");
    template
}

fn forget_old_sqlite_templates(folder: &Path) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let old = entry
            .file_name()
            .to_string_lossy()
            .starts_with("garden-tpl-")
            && entry
                .metadata()
                .and_then(|meta| meta.modified())
                .is_ok_and(|at| at.elapsed().is_ok_and(|age| age > TEMPLATE_KEPT));
        if old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The migrated PostgreSQL database of this build (`garden_tpl_KEY_UNIXTIME`), made by the
/// first test that needs it under the setup lock of the maintenance database; migrated under
/// another name and renamed, so no test copies half a template.
#[allow(clippy::expect_used)]
async fn postgres_template(admin: &DatabaseConnection, maintenance: &str) -> String {
    let key = build_key();
    if let Some(name) = find_template(admin, &key).await {
        return name;
    }
    let lock = SetupLock::acquire(maintenance)
        .await
        .expect("the template's lock");
    if let Some(name) = find_template(admin, &key).await {
        let _ = lock.release().await;
        return name;
    }
    forget_old_postgres_templates(admin).await;
    let name = format!("garden_tpl_{key}_{}", unix_seconds());
    let staging = format!(
        "garden_tpl_stage_{}_{}",
        uuid::Uuid::new_v4().simple(),
        unix_seconds()
    );
    execute(admin, &format!("CREATE DATABASE \"{staging}\""))
        .await
        .expect("permission to create a template database");
    let db = connect(&format!("{}/{staging}", server_url(maintenance)), 1)
        .await
        .expect("the template migrates");
    db.close().await.expect("the template closes");
    execute(
        admin,
        &format!("ALTER DATABASE \"{staging}\" RENAME TO \"{name}\""),
    )
    .await
    .expect("the template takes its name");
    let _ = lock.release().await;
    name
}

async fn find_template(admin: &DatabaseConnection, key: &str) -> Option<String> {
    let found = admin
        .query_one(Statement::from_string(
            admin.get_database_backend(),
            format!("SELECT datname FROM pg_database WHERE datname LIKE 'garden_tpl_{key}_%'"),
        ))
        .await
        .ok()??;
    found.try_get::<String>("", "datname").ok()
}

/// Drops the templates of other builds made more than `TEMPLATE_KEPT` ago (one still being
/// copied refuses to go, and stays for the next time).
async fn forget_old_postgres_templates(admin: &DatabaseConnection) {
    let Ok(rows) = admin
        .query_all(Statement::from_string(
            admin.get_database_backend(),
            "SELECT datname FROM pg_database WHERE datname LIKE 'garden_tpl_%'",
        ))
        .await
    else {
        return;
    };
    let now = unix_seconds();
    for row in rows {
        let Ok(name) = row.try_get::<String>("", "datname") else {
            continue;
        };
        let made = name
            .rsplit('_')
            .next()
            .and_then(|at| at.parse::<u64>().ok());
        if made.is_some_and(|at| now.saturating_sub(at) > TEMPLATE_KEPT.as_secs()) {
            let _ = execute(admin, &format!("DROP DATABASE IF EXISTS \"{name}\"")).await;
        }
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let Some(name) = self.postgres_name.take() else {
            return;
        };
        // Drop runs inside the test's runtime, which cannot block on async work: use a thread
        // with a runtime of its own.
        let dropper = std::thread::spawn(move || {
            let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            runtime.block_on(async move {
                if let Ok(admin) = Database::connect(maintenance_url()).await {
                    let _ = admin
                        .execute(Statement::from_string(
                            admin.get_database_backend(),
                            format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"),
                        ))
                        .await;
                    let _ = admin.close().await;
                }
            });
        });
        let _ = dropper.join();
    }
}

/// An order written straight into the database, for tests of what reads orders (the delivery
/// queue, sales statistics) without going through checkout.
#[derive(Debug, Clone)]
pub struct SeedOrder {
    /// `pending`, `paid`, `delivered`, `expired`, `cancelled` or `refunded`.
    pub status: &'static str,
    pub created_at: chrono::DateTime<chrono::Utc>,
    pub paid_at: Option<chrono::DateTime<chrono::Utc>>,
    /// (product id, name on the order, quantity, unit price in cents)
    pub lines: Vec<(i64, String, i32, i64)>,
    pub roblox_username: String,
    pub email: String,
    pub claimed_by: Option<i64>,
}

impl SeedOrder {
    /// A paid order of one line, placed five minutes before it was paid.
    pub fn paid(
        product: i64,
        name: &str,
        quantity: i32,
        paid_at: chrono::DateTime<chrono::Utc>,
    ) -> Self {
        SeedOrder {
            status: "paid",
            created_at: paid_at - chrono::Duration::minutes(5),
            paid_at: Some(paid_at),
            lines: vec![(product, name.to_owned(), quantity, 1_000)],
            roblox_username: "Builderman".to_owned(),
            email: "kid@example.com".to_owned(),
            claimed_by: None,
        }
    }
}

/// Writes the order and its lines; returns its id.
///
/// # Panics
/// When the database refuses it: the test cannot go on.
#[allow(clippy::expect_used)]
pub async fn seed_order(db: &DatabaseConnection, order: &SeedOrder) -> i64 {
    use sea_orm::{ActiveValue::Set, EntityTrait};

    use crate::entities::{order_lines, orders};
    let total: i64 = order
        .lines
        .iter()
        .map(|(_, _, quantity, cents)| i64::from(*quantity) * cents)
        .sum();
    let row = orders::ActiveModel {
        status: Set(order.status.to_owned()),
        user_id: Set(None),
        discord_id: Set(Some("80351110224678912".to_owned())),
        discord_username: Set("kid".to_owned()),
        discord_avatar: Set(None),
        roblox_username: Set(order.roblox_username.clone()),
        email: Set(order.email.clone()),
        subtotal_cents: Set(total),
        discount_cents: Set(0),
        fee_cents: Set(0),
        total_cents: Set(total),
        promo_code_id: Set(None),
        promo_code: Set(None),
        discount_percent: Set(None),
        payment_method: Set("card".to_owned()),
        provider: Set("dev".to_owned()),
        provider_reference: Set(None),
        created_at: Set(order.created_at),
        paid_at: Set(order.paid_at),
        delivered_at: Set(None),
        closed_at: Set(None),
        claimed_by: Set(order.claimed_by),
        amount_paid: Set(total),
        ..Default::default()
    };
    let id = orders::Entity::insert(row)
        .exec(db)
        .await
        .expect("the order is stored")
        .last_insert_id;
    let lines =
        order
            .lines
            .iter()
            .enumerate()
            .map(
                |(position, (product, name, quantity, cents))| order_lines::ActiveModel {
                    order_id: Set(id),
                    position: Set(i32::try_from(position).unwrap_or(i32::MAX)),
                    product_id: Set(*product),
                    name: Set(name.clone()),
                    unit_price_cents: Set(*cents),
                    quantity: Set(*quantity),
                    unit_price_paid: Set(*cents),
                },
            );
    order_lines::Entity::insert_many(lines)
        .exec_without_returning(db)
        .await
        .expect("the order's lines are stored");
    id
}
