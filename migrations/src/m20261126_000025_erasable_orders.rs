//! Erasable orders (issue 22 item 17): an account's deletion keeps its orders for the books
//! without the buyer's Discord account, so `orders.discord_id` may be NULL. NULL means exactly
//! that: the buyer deleted their account (checkout always records a Discord account), and the
//! store reads it as an order without a Discord identity (`orders::Buyer::discord` is `None`).
//!
//! PostgreSQL drops the NOT NULL; SQLite cannot alter a column, so its stored table definition
//! is edited in place, SQLite's documented procedure for removing a NOT NULL constraint (every
//! row stays as it is; rebuilding the table would cascade-delete the order lines), as 000014
//! does for the status CHECK.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend, Statement, TransactionTrait};

#[derive(DeriveMigrationName)]
pub struct Migration;

const REQUIRED: &str = "\"discord_id\" varchar(20) NOT NULL";
const OPTIONAL: &str = "\"discord_id\" varchar(20)";

async fn edit_sqlite_orders_definition(
    manager: &SchemaManager<'_>,
    from: &str,
    to: &str,
) -> Result<(), DbErr> {
    let txn = manager.get_connection().begin().await?;
    let row = txn
        .query_one(Statement::from_string(
            DbBackend::Sqlite,
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'orders'",
        ))
        .await?
        .ok_or_else(|| DbErr::Migration("the orders table is missing".to_owned()))?;
    let sql: String = row.try_get_by_index(0)?;
    // `from` followed by a comma: the whole column definition, not a prefix of a longer one
    let from = format!("{from},");
    if sql.matches(&from).count() != 1 {
        return Err(DbErr::Migration(format!(
            "the orders table's discord_id column is not as expected: {sql}"
        )));
    }
    let edited = sql.replacen(&from, &format!("{to},"), 1);
    let version: i64 = txn
        .query_one(Statement::from_string(
            DbBackend::Sqlite,
            "PRAGMA schema_version",
        ))
        .await?
        .ok_or_else(|| DbErr::Migration("no schema version".to_owned()))?
        .try_get_by_index(0)?;
    txn.execute_unprepared("PRAGMA writable_schema = ON")
        .await?;
    txn.execute(Statement::from_sql_and_values(
        DbBackend::Sqlite,
        "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'orders'",
        [edited.into()],
    ))
    .await?;
    txn.execute_unprepared(&format!("PRAGMA schema_version = {}", version + 1))
        .await?;
    txn.execute_unprepared("PRAGMA writable_schema = OFF")
        .await?;
    txn.commit().await?;
    let check = manager
        .get_connection()
        .query_one(Statement::from_string(
            DbBackend::Sqlite,
            "PRAGMA quick_check",
        ))
        .await?
        .ok_or_else(|| DbErr::Migration("no quick_check answer".to_owned()))?;
    let verdict: String = check.try_get_by_index(0)?;
    if verdict != "ok" {
        return Err(DbErr::Migration(format!(
            "the database failed its check after orders.discord_id changed: {verdict}"
        )));
    }
    Ok(())
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        match manager.get_database_backend() {
            DbBackend::Sqlite => edit_sqlite_orders_definition(manager, REQUIRED, OPTIONAL).await,
            _ => manager
                .get_connection()
                .execute_unprepared("ALTER TABLE orders ALTER COLUMN discord_id DROP NOT NULL")
                .await
                .map(|_| ()),
        }
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // an erased order has no Discord account to put back
        let erased = manager
            .get_connection()
            .query_one(Statement::from_string(
                manager.get_database_backend(),
                "SELECT COUNT(*) FROM orders WHERE discord_id IS NULL",
            ))
            .await?
            .map_or(Ok(0), |row| row.try_get_by_index::<i64>(0))?;
        if erased > 0 {
            return Err(DbErr::Migration(format!(
                "{erased} orders of deleted accounts have no Discord id; they cannot go back \
                 to a NOT NULL column"
            )));
        }
        match manager.get_database_backend() {
            DbBackend::Sqlite => edit_sqlite_orders_definition(manager, OPTIONAL, REQUIRED).await,
            _ => manager
                .get_connection()
                .execute_unprepared("ALTER TABLE orders ALTER COLUMN discord_id SET NOT NULL")
                .await
                .map(|_| ()),
        }
    }
}
