//! Raw SQL with `?` placeholders, written once for both databases.

use sea_orm::{ConnectionTrait, DatabaseBackend, Statement, Value};

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
