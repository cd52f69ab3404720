//! What an operator reads besides the shop's own ports: the counts behind the metrics
//! (cheap aggregate queries, read on every scrape), the connection pool's use, and the SQL of
//! backups (SQLite's online copy, whether a database already holds a shop).

use anyhow::Context;
use chrono::{DateTime, Utc};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseBackend, DatabaseConnection, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect, Statement,
};

use crate::entities::{chats, orders};
use crate::records::PoolUse;
use crate::sql::{fetch_all, fetch_one};
use crate::{Backend, Store};

/// The shop's state in numbers, as the metrics show it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShopCounts {
    /// Every order status that has orders, with its count.
    pub orders_by_status: Vec<(String, i64)>,
    /// Unpaid (pending) orders that hold stock, and the units they hold.
    pub unpaid_reservations: i64,
    pub unpaid_reserved_units: i64,
    /// Paid orders waiting for delivery (not on a risk hold), and when the oldest of them was
    /// paid.
    pub paid_waiting: i64,
    pub oldest_paid_at: Option<DateTime<Utc>>,
    /// Paid orders on a risk hold, by the hold's reason (`fraud_warning`, `risk_level`).
    pub held: Vec<(String, i64)>,
    /// Chats that asked for a live agent nobody has accepted yet.
    pub live_chats_waiting: i64,
    /// Disputes by the bank's reason and how they ended (`won`, `lost`, or `pending`).
    pub disputes: Vec<(String, String, i64)>,
}

/// Jobs waiting or given up, by kind and state, as the metrics show them (`shop_jobs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobCount {
    /// `mail` (the buyer's mail, `mail_jobs`) or an outbox channel (`staff`, `ticket`).
    pub kind: String,
    /// `queued` (not tried yet), `retrying` (tried and failed, to be tried again) or `failed`
    /// (given up).
    pub state: String,
    pub count: i64,
}

/// The tables whose rows make a database a shop: restore refuses to write over any of them.
const SHOP_TABLES: [&str; 5] = ["products", "users", "orders", "chats", "proofs"];

impl Store {
    /// Six small aggregate reads (each on an index; the held ones among the paid orders), no
    /// row is loaded.
    pub async fn shop_counts(&self) -> anyhow::Result<ShopCounts> {
        let db = &self.db;
        let orders_by_status: Vec<(String, i64)> = orders::Entity::find()
            .select_only()
            .column(orders::Column::Status)
            .column_as(orders::Column::Id.count(), "n")
            .group_by(orders::Column::Status)
            .order_by_asc(orders::Column::Status)
            .into_tuple()
            .all(db)
            .await
            .context("failed to count the orders by status")?;
        let (unpaid_reservations, unpaid_reserved_units) = self.unpaid_reservations().await?;
        let held: Vec<(String, i64)> = orders::Entity::find()
            .select_only()
            .column(orders::Column::HoldReason)
            .column_as(orders::Column::Id.count(), "n")
            .filter(orders::Column::Status.eq("paid"))
            .filter(orders::Column::HoldReason.is_not_null())
            .group_by(orders::Column::HoldReason)
            .order_by_asc(orders::Column::HoldReason)
            .into_tuple()
            .all(db)
            .await
            .context("failed to count the orders on a risk hold")?;
        let paid_waiting = orders_by_status
            .iter()
            .find(|(status, _)| status == "paid")
            .map_or(0, |(_, n)| *n)
            - held.iter().map(|(_, n)| n).sum::<i64>();
        let oldest_paid_at: Option<Option<DateTime<Utc>>> = orders::Entity::find()
            .select_only()
            .column(orders::Column::PaidAt)
            .filter(orders::Column::Status.eq("paid"))
            .filter(orders::Column::HoldReason.is_null())
            .filter(orders::Column::PaidAt.is_not_null())
            .order_by_asc(orders::Column::PaidAt)
            .limit(1)
            .into_tuple()
            .one(db)
            .await
            .context("failed to read the oldest paid order")?;
        let live_chats_waiting = chats::Entity::find()
            .select_only()
            .column_as(chats::Column::Id.count(), "n")
            .filter(chats::Column::Status.eq("pending"))
            .into_tuple::<i64>()
            .one(db)
            .await
            .context("failed to count the chats waiting for staff")?
            .unwrap_or(0);
        let disputes = self.dispute_counts().await?;
        Ok(ShopCounts {
            disputes,
            held,
            orders_by_status,
            unpaid_reservations,
            unpaid_reserved_units,
            paid_waiting,
            oldest_paid_at: oldest_paid_at.flatten(),
            live_chats_waiting,
        })
    }

    /// The unpaid orders holding stock, and the units they hold.
    async fn unpaid_reservations(&self) -> anyhow::Result<(i64, i64)> {
        let row = fetch_one(
            &self.db,
            "SELECT COUNT(DISTINCT r.order_id), CAST(COALESCE(SUM(r.quantity), 0) AS BIGINT) \
                 FROM order_reservations r JOIN orders o ON o.id = r.order_id \
                 WHERE o.status = ?",
            vec!["pending".into()],
        )
        .await
        .context("failed to count the unpaid reservations")?;
        let Some(row) = row else { return Ok((0, 0)) };
        Ok((
            row.try_get_by_index(0).context("the reservation count")?,
            row.try_get_by_index(1).context("the reserved units")?,
        ))
    }

    /// The disputes by reason and outcome (`unknown`, `pending` when there is none yet).
    async fn dispute_counts(&self) -> anyhow::Result<Vec<(String, String, i64)>> {
        let rows = fetch_all(
            &self.db,
            "SELECT COALESCE(reason, 'unknown'), COALESCE(outcome, 'pending'), COUNT(*) \
                 FROM disputes GROUP BY 1, 2 ORDER BY 1, 2",
            vec![],
        )
        .await
        .context("failed to count the disputes")?;
        rows.iter()
            .map(|row| {
                Ok((
                    row.try_get_by_index(0)?,
                    row.try_get_by_index(1)?,
                    row.try_get_by_index(2)?,
                ))
            })
            .collect::<Result<_, sea_orm::DbErr>>()
            .context("unreadable dispute counts")
    }

    /// The jobs not sent yet or given up: two grouped counts on the tables' status index
    /// (`mail_jobs`, `outbox_jobs`); sent jobs are not read.
    pub async fn job_counts(&self) -> anyhow::Result<Vec<JobCount>> {
        let db = &self.db;
        let backend = db.get_database_backend();
        let state = "CASE WHEN status = 'failed' THEN 'failed' \
                     WHEN attempts > 0 THEN 'retrying' ELSE 'queued' END";
        let mut out = Vec::new();
        for (table, kind) in [("mail_jobs", "'mail'"), ("outbox_jobs", "channel")] {
            let sql = format!(
                "SELECT {kind} AS kind, {state} AS state, COUNT(*) AS n FROM {table} \
                 WHERE status IN ('pending', 'failed') GROUP BY 1, 2"
            );
            let rows = db
                .query_all(Statement::from_string(backend, sql))
                .await
                .with_context(|| format!("failed to count the jobs of {table}"))?;
            for row in rows {
                out.push(JobCount {
                    kind: row.try_get("", "kind").context("the job kind")?,
                    state: row.try_get("", "state").context("the job state")?,
                    count: row.try_get("", "n").context("the job count")?,
                });
            }
        }
        Ok(out)
    }

    /// The pool's connections now (no query).
    pub fn pool_use(&self) -> PoolUse {
        let (open, idle) = match self.backend() {
            Backend::Postgres => {
                let pool = self.db.get_postgres_connection_pool();
                (pool.size(), pool.num_idle())
            }
            Backend::Sqlite => {
                let pool = self.db.get_sqlite_connection_pool();
                (pool.size(), pool.num_idle())
            }
        };
        PoolUse {
            open,
            idle: u32::try_from(idle).unwrap_or(u32::MAX),
        }
    }
}

/// Whether any of the shop's tables holds a row (an empty, migrated database holds none).
pub(crate) async fn holds_shop_data(db: &DatabaseConnection) -> anyhow::Result<bool> {
    for table in SHOP_TABLES {
        let row = db
            .query_one(Statement::from_string(
                db.get_database_backend(),
                format!("SELECT COUNT(*) FROM (SELECT 1 FROM {table} LIMIT 1) AS t"),
            ))
            .await
            .with_context(|| format!("failed to look into table {table}"))?;
        let n = row.map_or(Ok(0), |row| row.try_get_by_index::<i64>(0))?;
        if n > 0 {
            return Ok(true);
        }
    }
    Ok(false)
}

/// SQLite only: a consistent copy of the whole database into the new file `path`, made
/// while the shop keeps running (`VACUUM INTO`).
pub(crate) async fn vacuum_into(
    db: &DatabaseConnection,
    path: &std::path::Path,
) -> anyhow::Result<()> {
    anyhow::ensure!(
        Backend::of(db) == Backend::Sqlite,
        "VACUUM INTO is SQLite's; back PostgreSQL up with pg_dump"
    );
    let target = path
        .to_str()
        .context("the backup path is not valid UTF-8")?
        .to_owned();
    db.execute(Statement::from_sql_and_values(
        DatabaseBackend::Sqlite,
        "VACUUM INTO ?",
        [target.into()],
    ))
    .await
    .with_context(|| format!("VACUUM INTO {} failed", path.display()))?;
    Ok(())
}

/// The file of a `sqlite:` URL (`sqlite://data/shop.db?mode=rwc` -> `data/shop.db`); `None`
/// for other URLs and in-memory databases.
pub fn sqlite_path(url: &str) -> Option<std::path::PathBuf> {
    let rest = url.strip_prefix("sqlite:")?;
    let path = rest
        .trim_start_matches("//")
        .split('?')
        .next()
        .unwrap_or_default();
    if path.is_empty() || path == ":memory:" {
        return None;
    }
    Some(std::path::PathBuf::from(path))
}

#[cfg(test)]
mod tests {
    use super::sqlite_path;

    #[test]
    fn the_file_of_a_sqlite_url() {
        assert_eq!(
            sqlite_path("sqlite://data/shop.db?mode=rwc"),
            Some("data/shop.db".into())
        );
        assert_eq!(
            sqlite_path("sqlite:///tmp/x/shop.db?mode=rwc"),
            Some("/tmp/x/shop.db".into())
        );
        assert_eq!(sqlite_path("sqlite::memory:"), None);
        assert_eq!(sqlite_path("postgres://x@y/z"), None);
    }
}
