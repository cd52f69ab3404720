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
