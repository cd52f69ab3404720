use std::time::Duration;

use migration::{Migrator, MigratorTrait};
use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DatabaseBackend, DatabaseConnection, Statement,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn of(db: &DatabaseConnection) -> Self {
        match db.get_database_backend() {
            DatabaseBackend::Postgres => Backend::Postgres,
            _ => Backend::Sqlite,
        }
    }
}

/// How long opening a connection, or waiting for one of the pool's, may take: at start an
/// unreachable database stops the start after this long; at run time a request that cannot
/// get a connection fails after it (answered 503: [`is_unreachable`]).
pub const DATABASE_TIMEOUT: Duration = Duration::from_secs(5);

/// Whether `error`, or any error in its chain, says the database could not be reached (no
/// connection could be opened or taken from the pool in time, or one broke), rather than that
/// a statement failed: the request may succeed once the database is back.
pub fn is_unreachable(error: &(dyn std::error::Error + 'static)) -> bool {
    use sea_orm::{DbErr, RuntimeErr};
    let lost = |error: &sqlx::Error| {
        matches!(
            error,
            sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed
        )
    };
    let mut next = Some(error);
    while let Some(error) = next {
        if let Some(db) = error.downcast_ref::<DbErr>() {
            match db {
                DbErr::ConnectionAcquire(_) | DbErr::Conn(_) => return true,
                DbErr::Query(RuntimeErr::SqlxError(sqlx))
                | DbErr::Exec(RuntimeErr::SqlxError(sqlx))
                    if lost(sqlx) =>
                {
                    return true
                }
                _ => {}
            }
        }
        if error.downcast_ref::<sqlx::Error>().is_some_and(lost) {
            return true;
        }
        next = error.source();
    }
    false
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("could not open the database at {url}")]
    Connect {
        url: String,
        #[source]
        source: sea_orm::DbErr,
    },
    #[error("could not migrate the database")]
    Migrate(#[source] sea_orm::DbErr),
    #[error("could not take or release the setup lock")]
    Lock(#[source] sea_orm::DbErr),
    #[error("only sqlite:// and postgres:// database URLs are supported, not {0}")]
    UnsupportedUrl(String),
}

/// Opens the database at `url` and brings its schema up to date.
///
/// SQLite files get write-ahead logging so readers never wait for a writer; the parent
/// directory of the file is created when missing.
#[tracing::instrument(skip(url))]
pub async fn connect(url: &str, max_connections: u32) -> Result<DatabaseConnection, StoreError> {
    let is_sqlite = url.starts_with("sqlite:");
    if !is_sqlite && !url.starts_with("postgres://") && !url.starts_with("postgresql://") {
        return Err(StoreError::UnsupportedUrl(redact(url)));
    }
    if is_sqlite {
        create_parent_dir(url);
    }
    let mut options = ConnectOptions::new(url.to_owned());
    options
        .max_connections(max_connections)
        .min_connections(1)
        .connect_timeout(DATABASE_TIMEOUT)
        .acquire_timeout(DATABASE_TIMEOUT)
        .sqlx_logging(false);
    let connect_error = |source| StoreError::Connect {
        url: redact(url),
        source,
    };
    let db = Database::connect(options).await.map_err(connect_error)?;
    if is_sqlite {
        db.execute_unprepared("PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON;")
            .await
            .map_err(connect_error)?;
    }
    if is_sqlite {
        Migrator::up(&db, None).await.map_err(StoreError::Migrate)?;
    } else {
        migrate_postgres_one_instance_at_a_time(url).await?;
    }
    Ok(db)
}

/// Any number for the advisory lock, the same in every instance of the shop.
const MIGRATION_LOCK: i64 = 0x6761_7264_656e; // "garden"

/// Instances starting together would otherwise run the same migration twice: the first takes a
/// PostgreSQL advisory lock on a connection of its own, the others wait for it and then find
/// nothing left to do.
async fn migrate_postgres_one_instance_at_a_time(url: &str) -> Result<(), StoreError> {
    let lock = SetupLock::acquire(url).await?;
    let migrated = match &lock.db {
        Some(db) => Migrator::up(db, None).await,
        None => Ok(()),
    };
    let unlocked = lock.release().await;
    migrated.map_err(StoreError::Migrate)?;
    unlocked
}

/// The lock migrations run under, for other one-time setup (seeding an empty database) that
/// instances starting together must not do twice. On PostgreSQL an advisory lock held by a
/// connection of its own (released by `release`, or by PostgreSQL when the process dies); on
/// SQLite nothing is held, so setup there must be insert-if-absent.
pub struct SetupLock {
    db: Option<DatabaseConnection>,
}

impl SetupLock {
    /// Waits until no other instance holds the lock, then holds it.
    pub async fn acquire(url: &str) -> Result<Self, StoreError> {
        if url.starts_with("sqlite:") {
            return Ok(SetupLock { db: None });
        }
        let mut options = ConnectOptions::new(url.to_owned());
        options
            .max_connections(1)
            .min_connections(1)
            .connect_timeout(Duration::from_secs(10))
            .sqlx_logging(false);
        let db = Database::connect(options)
            .await
            .map_err(|source| StoreError::Connect {
                url: redact(url),
                source,
            })?;
        if let Err(error) = db.execute(lock_statement("pg_advisory_lock")).await {
            let _ = db.close().await;
            return Err(StoreError::Lock(error));
        }
        Ok(SetupLock { db: Some(db) })
    }

    /// Lets the next instance in.
    pub async fn release(self) -> Result<(), StoreError> {
        let Some(db) = self.db else {
            return Ok(());
        };
        let unlocked = db.execute(lock_statement("pg_advisory_unlock")).await;
        let _ = db.close().await;
        unlocked.map(|_| ()).map_err(StoreError::Lock)
    }
}

fn lock_statement(function: &str) -> Statement {
    Statement::from_string(
        DatabaseBackend::Postgres,
        format!("SELECT {function}({MIGRATION_LOCK})"),
    )
}

/// `sqlite://data/shop.db?mode=rwc` -> makes sure `data/` exists.
fn create_parent_dir(url: &str) {
    let path = url
        .trim_start_matches("sqlite:")
        .trim_start_matches("//")
        .split('?')
        .next()
        .unwrap_or_default();
    if path.is_empty() || path == ":memory:" {
        return;
    }
    if let Some(parent) = std::path::Path::new(path).parent() {
        if !parent.as_os_str().is_empty() {
            if let Err(error) = std::fs::create_dir_all(parent) {
                tracing::warn!(%error, dir = %parent.display(), "could not create the database directory");
            }
        }
    }
}

/// The URL without its password, for messages and logs.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let credentials = &url[scheme_end + 3..at];
            match credentials.split_once(':') {
                Some((user, _)) => {
                    format!("{}://{}:***@{}", &url[..scheme_end], user, &url[at + 1..])
                }
                None => url.to_owned(),
            }
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn a_password_never_reaches_a_message() {
        assert_eq!(
            redact("postgres://shop:s3cret@db:5432/shop"),
            "postgres://shop:***@db:5432/shop"
        );
        assert_eq!(
            redact("postgres://root@localhost/x"),
            "postgres://root@localhost/x"
        );
        assert_eq!(
            redact("sqlite://data/shop.db?mode=rwc"),
            "sqlite://data/shop.db?mode=rwc"
        );
    }
}
