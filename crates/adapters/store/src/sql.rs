//! Raw SQL with `?` placeholders, written once for both databases.

use anyhow::Context;
use sea_orm::{
    ConnectionTrait, DatabaseBackend, DatabaseConnection, DatabaseTransaction, DbErr, ExecResult,
    QueryResult, Statement, TransactionTrait, Value,
};

/// `?` placeholders as the backend wants them: numbered `$1, $2...` for PostgreSQL, as written
/// for SQLite.
pub(crate) fn placeholders(backend: DatabaseBackend, sql: &str) -> String {
    if backend != DatabaseBackend::Postgres {
        return sql.to_owned();
    }
    let mut numbered = String::with_capacity(sql.len() + 8);
    let mut n = 0;
    for c in sql.chars() {
        if c == '?' {
            n += 1;
            numbered.push('$');
            numbered.push_str(&n.to_string());
        } else {
            numbered.push(c);
        }
    }
    numbered
}

/// A statement with `?` placeholders for the connection's backend.
pub(crate) fn statement(db: &impl ConnectionTrait, sql: &str, values: Vec<Value>) -> Statement {
    let backend = db.get_database_backend();
    Statement::from_sql_and_values(backend, placeholders(backend, sql), values)
}

/// `sql` (`?` placeholders) on `db`: its one row, if any.
pub(crate) async fn fetch_one(
    db: &impl ConnectionTrait,
    sql: &str,
    values: Vec<Value>,
) -> Result<Option<QueryResult>, DbErr> {
    db.query_one(statement(db, sql, values)).await
}

/// `sql` (`?` placeholders) on `db`: its rows.
pub(crate) async fn fetch_all(
    db: &impl ConnectionTrait,
    sql: &str,
    values: Vec<Value>,
) -> Result<Vec<QueryResult>, DbErr> {
    db.query_all(statement(db, sql, values)).await
}

/// Runs `sql` (`?` placeholders) on `db`.
pub(crate) async fn run(
    db: &impl ConnectionTrait,
    sql: &str,
    values: Vec<Value>,
) -> Result<ExecResult, DbErr> {
    db.execute(statement(db, sql, values)).await
}

/// A transaction that holds the write lock of one row, taken first with a no-op UPDATE (`sql`,
/// its one `?` the row's id): on SQLite a transaction that read first cannot write once another
/// writer committed, and on PostgreSQL the lock keeps the row's other writers out until the
/// commit. `None`, rolled back, when there is no such row.
pub(crate) async fn lock_row(
    db: &DatabaseConnection,
    sql: &str,
    id: i64,
    what: &str,
) -> anyhow::Result<Option<DatabaseTransaction>> {
    let txn = db.begin().await.context("failed to start a transaction")?;
    let locked = txn
        .execute(statement(&txn, sql, vec![id.into()]))
        .await
        .with_context(|| format!("failed to lock {what}"))?;
    if locked.rows_affected() != 1 {
        txn.rollback().await.context("failed to roll back")?;
        return Ok(None);
    }
    Ok(Some(txn))
}

/// One statement of a multi-statement write (an erasure): its SQL and its values.
pub(crate) type Step = (String, Vec<Value>);

/// A statement whose every `?` takes `id` (an erasure's account).
pub(crate) fn by_id(sql: &str, id: i64) -> Step {
    (sql.to_owned(), vec![id.into(); sql.matches('?').count()])
}

/// `?, ?, ?`: the placeholders of an `IN (...)` list of `count` values.
pub(crate) fn marks(count: usize) -> String {
    vec!["?"; count].join(", ")
}

/// The statuses whose orders hold their units (`OrderStatus::HOLDING`), as the values of an
/// `IN ({marks})` list.
pub(crate) fn holding_statuses() -> (String, Vec<Value>) {
    let holding = orders::OrderStatus::HOLDING;
    (
        marks(holding.len()),
        holding.iter().map(|s| Value::from(s.as_str())).collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postgres_numbers_the_placeholders_and_sqlite_keeps_them() {
        let sql = "UPDATE t SET a = ? WHERE b = ? AND c = ?";
        assert_eq!(
            placeholders(DatabaseBackend::Postgres, sql),
            "UPDATE t SET a = $1 WHERE b = $2 AND c = $3"
        );
        assert_eq!(placeholders(DatabaseBackend::Sqlite, sql), sql);
    }
}
