//! Refunds and disputes through the payment provider (issue 13):
//!
//! - `orders.payment_id`: the provider's id of the payment itself (Stripe's payment intent,
//!   PayPal's capture), recorded at payment; refunds and disputes find the order by it
//!   (`idx_orders_payment_id`, unique per provider).
//! - `orders.refund_id`: the provider's id of the refund that refunded the order.
//! - `orders.disputed_at`, `disputed_from` (the status a won dispute returns to),
//!   `dispute_outcome` (`won`/`lost`, null while open) and `dispute_closed_at`.
//! - The status `disputed`: the CHECK on `orders.status` gains it. PostgreSQL replaces the
//!   constraint; SQLite cannot alter a CHECK, so its stored table definition is edited in
//!   place (SQLite's documented procedure for loosening a constraint, which leaves every row as
//!   it is; rebuilding the table would cascade-delete the order lines).

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend, Statement, TransactionTrait};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Orders {
    Table,
    Provider,
    PaymentId,
    RefundId,
    DisputedAt,
    DisputedFrom,
    DisputeOutcome,
    DisputeClosedAt,
}

const OLD_CHECK: &str = "'cancelled', 'refunded')";
const NEW_CHECK: &str = "'cancelled', 'refunded', 'disputed')";
const STATUSES_BEFORE: &str = "'pending', 'paid', 'delivered', 'expired', 'cancelled', 'refunded'";
const STATUSES_AFTER: &str =
    "'pending', 'paid', 'delivered', 'expired', 'cancelled', 'refunded', 'disputed'";

fn columns() -> Vec<ColumnDef> {
    vec![
        ColumnDef::new(Orders::PaymentId)
            .string_len(255)
            .null()
            .to_owned(),
        ColumnDef::new(Orders::RefundId)
            .string_len(255)
            .null()
            .to_owned(),
        ColumnDef::new(Orders::DisputedAt)
            .timestamp_with_time_zone()
            .null()
            .to_owned(),
        ColumnDef::new(Orders::DisputedFrom)
            .string_len(16)
            .null()
            .to_owned(),
        ColumnDef::new(Orders::DisputeOutcome)
            .string_len(8)
            .null()
            .to_owned(),
        ColumnDef::new(Orders::DisputeClosedAt)
            .timestamp_with_time_zone()
            .null()
            .to_owned(),
    ]
}

/// Replaces `from` by `to` in SQLite's stored definition of the orders table, in one
/// transaction on one connection, and bumps the schema version so every connection re-reads it.
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
    if !sql.contains(from) {
        return Err(DbErr::Migration(format!(
            "the orders table's status CHECK is not as expected: {sql}"
        )));
    }
    let edited = sql.replacen(from, to, 1);
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
            "the database failed its check after the orders CHECK changed: {verdict}"
        )));
    }
    Ok(())
}

async fn set_postgres_statuses(manager: &SchemaManager<'_>, statuses: &str) -> Result<(), DbErr> {
    let db = manager.get_connection();
    // the constraint PostgreSQL named when the table was created with an unnamed CHECK
    db.execute_unprepared("ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_status_check")
        .await?;
    db.execute_unprepared(&format!(
        "ALTER TABLE orders ADD CONSTRAINT orders_status_check CHECK (status IN ({statuses}))"
    ))
    .await?;
    Ok(())
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for column in columns() {
            manager
                .alter_table(
                    Table::alter()
                        .table(Orders::Table)
                        .add_column(column)
                        .to_owned(),
                )
                .await?;
        }
        manager
            .create_index(
                Index::create()
                    .name("idx_orders_payment_id")
                    .table(Orders::Table)
                    .col(Orders::Provider)
                    .col(Orders::PaymentId)
                    .unique()
                    .to_owned(),
            )
            .await?;
        match manager.get_database_backend() {
            DbBackend::Sqlite => edit_sqlite_orders_definition(manager, OLD_CHECK, NEW_CHECK).await,
            _ => set_postgres_statuses(manager, STATUSES_AFTER).await,
        }
    }

    /// Disputed orders go back to the status they had before the dispute.
    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .get_connection()
            .execute_unprepared(
                "UPDATE orders SET status = COALESCE(disputed_from, 'paid') \
                 WHERE status = 'disputed'",
            )
            .await?;
        match manager.get_database_backend() {
            DbBackend::Sqlite => {
                edit_sqlite_orders_definition(manager, NEW_CHECK, OLD_CHECK).await?
            }
            _ => set_postgres_statuses(manager, STATUSES_BEFORE).await?,
        }
        manager
            .drop_index(
                Index::drop()
                    .name("idx_orders_payment_id")
                    .table(Orders::Table)
                    .to_owned(),
            )
            .await?;
        for column in [
            Orders::DisputeClosedAt,
            Orders::DisputeOutcome,
            Orders::DisputedFrom,
            Orders::DisputedAt,
            Orders::RefundId,
            Orders::PaymentId,
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(Orders::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}
