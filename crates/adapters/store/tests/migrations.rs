//! Several instances starting at once against one new PostgreSQL database.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use sea_orm::{ConnectionTrait, Database, Statement};

#[tokio::test]
async fn instances_starting_together_migrate_one_database_once() {
    let maintenance = std::env::var("TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
    let server = maintenance.rsplit_once('/').unwrap().0.to_owned();
    let name = format!("garden_test_{}", uuid::Uuid::new_v4().simple());
    let admin = Database::connect(&maintenance).await.unwrap();
    let sql = |text: String| Statement::from_string(admin.get_database_backend(), text);
    admin
        .execute(sql(format!("CREATE DATABASE \"{name}\"")))
        .await
        .unwrap();

    let url = format!("{server}/{name}");
    let starts = (0..4).map(|_| garden_store::connect(&url, 2));
    let results = futures::future::join_all(starts).await;
    let failures: Vec<String> = results
        .iter()
        .filter_map(|r| r.as_ref().err().map(|e| format!("{e:?}")))
        .collect();
    for db in results.into_iter().flatten() {
        let _ = db.close().await;
    }
    admin
        .execute(sql(format!(
            "DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"
        )))
        .await
        .unwrap();
    assert!(failures.is_empty(), "every instance starts: {failures:?}");
}
