//! One job queue on both databases, kept the same way in `outbox_jobs` (an order event's work
//! per channel) and `mail_jobs` (the buyer's mail): a job is `pending` until it is done (`sent`)
//! or given up (`failed`). Every instance reads the same due rows; each attempt first leases
//! its job with a conditional UPDATE that moves its due time to the lease's end, so of two
//! instances only one takes it, and the other sees it again only once the lease has run out.
//! A failed attempt sets the next due time (the caller's backoff) or gives the job up.

use chrono::{DateTime, Utc};
use orders::OrderError;

use crate::Store;

pub(crate) const PENDING: &str = "pending";

/// A table of jobs and how its rows differ.
pub(crate) struct Jobs {
    pub table: &'static str,
    /// A job, in error messages ("outbox job").
    pub noun: &'static str,
    /// What an ended job (done or given up) forgets besides its error, as `, column = NULL`.
    pub forget: &'static str,
}

impl Jobs {
    /// Whether this attempt took the job: it was pending and due at `now`.
    pub async fn lease(
        &self,
        store: &Store,
        job: i64,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
    ) -> Result<bool, OrderError> {
        let sql = format!(
            "UPDATE {} SET next_attempt_at = ? WHERE id = ? AND status = ? AND next_attempt_at <= ?",
            self.table
        );
        let values = vec![until.into(), job.into(), PENDING.into(), now.into()];
        let leased = store
            .execute(&sql, values, &format!("lease {} {job}", self.noun))
            .await?;
        Ok(leased == 1)
    }

    pub async fn done(&self, store: &Store, job: i64, at: DateTime<Utc>) -> Result<(), OrderError> {
        let sql = format!(
            "UPDATE {} SET status = 'sent', sent_at = ?, last_error = NULL{} WHERE id = ?",
            self.table, self.forget
        );
        let what = format!("record the end of {} {job}", self.noun);
        store
            .execute(&sql, vec![at.into(), job.into()], &what)
            .await?;
        Ok(())
    }

    /// A failed attempt: due again at `retry_at`, or given up without one.
    pub async fn failed(
        &self,
        store: &Store,
        job: i64,
        attempts: u32,
        retry_at: Option<DateTime<Utc>>,
        error: String,
    ) -> Result<(), OrderError> {
        let error: String = error.chars().take(2000).collect();
        let attempts = i32::try_from(attempts).unwrap_or(i32::MAX);
        let (sql, values) = match retry_at {
            Some(at) => (
                format!(
                    "UPDATE {} SET attempts = ?, next_attempt_at = ?, last_error = ? WHERE id = ?",
                    self.table
                ),
                vec![attempts.into(), at.into(), error.into(), job.into()],
            ),
            None => (
                format!(
                    "UPDATE {} SET status = 'failed', attempts = ?, last_error = ?{} WHERE id = ?",
                    self.table, self.forget
                ),
                vec![attempts.into(), error.into(), job.into()],
            ),
        };
        let what = format!("record a failed attempt at {} {job}", self.noun);
        store.execute(&sql, values, &what).await?;
        Ok(())
    }
}
