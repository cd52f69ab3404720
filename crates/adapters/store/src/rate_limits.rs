//! The shared rate limit counters: one upsert per request, so the count is atomic across
//! connections and instances.

use anyhow::Context;
use chrono::{DateTime, Utc};
use sea_orm::{
    sea_query::{Expr, OnConflict, Query},
    ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter,
};
use shared::{LimitError, RateLimiter, WindowHits};

use crate::entities::rate_limits;
use crate::Store;

impl RateLimiter for Store {
    async fn hit(
        &self,
        bucket: &str,
        window_start: DateTime<Utc>,
    ) -> Result<WindowHits, LimitError> {
        // Built by hand rather than with `exec_with_returning`, which on SQLite inserts and then
        // reads the row back in a second statement: parallel hits would read each other's counts.
        let upsert = Query::insert()
            .into_table(rate_limits::Entity)
            .columns([
                rate_limits::Column::Bucket,
                rate_limits::Column::WindowStart,
                rate_limits::Column::Hits,
            ])
            .values_panic([bucket.into(), window_start.into(), 1.into()])
            .on_conflict(
                OnConflict::columns([
                    rate_limits::Column::Bucket,
                    rate_limits::Column::WindowStart,
                ])
                .value(
                    rate_limits::Column::Hits,
                    Expr::col((rate_limits::Entity, rate_limits::Column::Hits)).add(1),
                )
                .to_owned(),
            )
            .returning_col(rate_limits::Column::Hits)
            .to_owned();
        let statement = self.db.get_database_backend().build(&upsert);
        let row = self
            .db
            .query_one(statement)
            .await
            .context("failed to count a rate-limited request")?
            .ok_or_else(|| anyhow::anyhow!("the rate limit upsert returned no count"))?;
        let hits: i32 = row
            .try_get_by_index(0)
            .context("failed to read a rate limit count")?;
        Ok(WindowHits {
            count: u32::try_from(hits).unwrap_or(0),
        })
    }

    async fn release(&self, bucket: &str, window_start: DateTime<Utc>) -> Result<(), LimitError> {
        rate_limits::Entity::update_many()
            .col_expr(
                rate_limits::Column::Hits,
                Expr::col(rate_limits::Column::Hits).sub(1),
            )
            .filter(rate_limits::Column::Bucket.eq(bucket))
            .filter(rate_limits::Column::WindowStart.eq(window_start))
            .filter(rate_limits::Column::Hits.gt(0))
            .exec(&self.db)
            .await
            .context("failed to give back a rate-limited request")?;
        Ok(())
    }

    async fn clear(&self, bucket: &str, window_start: DateTime<Utc>) -> Result<(), LimitError> {
        rate_limits::Entity::delete_many()
            .filter(rate_limits::Column::Bucket.eq(bucket))
            .filter(rate_limits::Column::WindowStart.eq(window_start))
            .exec(&self.db)
            .await
            .context("failed to clear a rate limit count")?;
        Ok(())
    }
}

impl Store {
    /// Forgets the counts of windows that started before `before` (the sweeper calls it with
    /// now minus the longest window). Returns how many rows went.
    pub async fn purge_rate_limits(&self, before: DateTime<Utc>) -> Result<u64, LimitError> {
        let done = rate_limits::Entity::delete_many()
            .filter(rate_limits::Column::WindowStart.lt(before))
            .exec(&self.db)
            .await
            .context("failed to purge old rate limit counts")?;
        Ok(done.rows_affected)
    }
}

/// The counts keyed by an erased account (its e-mail address, its id) or its chats' sessions,
/// before the chats go.
pub(crate) fn limits_forgotten(erasure: &accounts::Erasure) -> crate::sql::Step {
    let buckets = &erasure.limit_buckets;
    let account_buckets = if buckets.is_empty() {
        "NULL".to_owned()
    } else {
        crate::sql::marks(buckets.len())
    };
    let mut values: Vec<sea_orm::Value> =
        buckets.iter().map(|bucket| bucket.clone().into()).collect();
    values.push(format!("{}:", chat::SENDS_PER_SESSION_BUCKET).into());
    values.push(erasure.user.get().into());
    let its_sessions = crate::chats::ITS_SESSION_BUCKETS;
    let sql = format!(
        "DELETE FROM rate_limits WHERE bucket IN ({account_buckets}) OR bucket IN {its_sessions}"
    );
    (sql, values)
}
