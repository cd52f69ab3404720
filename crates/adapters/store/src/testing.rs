//! A fresh, migrated database per test: a new SQLite file, or a new PostgreSQL database named
//! by a UUID on the server at `TEST_POSTGRES_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`),
//! dropped again when the test ends.

use sea_orm::{ConnectionTrait, Database, Statement};

use crate::{connect, Backend, DatabaseConnection};

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
                let url = format!("sqlite://{}/shop.db?mode=rwc", dir.path().display());
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
                admin
                    .execute(Statement::from_string(
                        admin.get_database_backend(),
                        format!("CREATE DATABASE \"{name}\""),
                    ))
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
                },
            );
    order_lines::Entity::insert_many(lines)
        .exec_without_returning(db)
        .await
        .expect("the order's lines are stored");
    id
}
