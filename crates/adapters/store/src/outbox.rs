//! The outbox on both databases: `order_events` (written with each change of an order) and
//! what dispatching an event queues, in one transaction: the buyer's mail in `mail_jobs` (once
//! per order, kind and occurrence) and one `outbox_jobs` row per channel (once per event and
//! channel), both `INSERT … ON CONFLICT DO NOTHING`, so two instances dispatching the same
//! event queue nothing twice. The jobs are leased and retried as `jobs` says.

use anyhow::Context;
use chrono::{DateTime, Utc};
use orders::{
    DiscordId, Dispatch, OrderError, OrderEvent, OrderId, OrderStep, OutboxJob, OutboxRepository,
};
use sea_orm::{QueryResult, Value};
use shared::UserId;

use crate::jobs::{Jobs, PENDING};
use crate::sql::{fetch_all, run};
use crate::Store;

/// The thread an erased order's job deleted is forgotten with it.
const OUTBOX: Jobs = Jobs {
    table: "outbox_jobs",
    noun: "outbox job",
    forget: ", thread_id = NULL",
};

/// An `order_events` row; `id_column` names its id in the query.
fn event_of(row: &QueryResult, id_column: &str) -> anyhow::Result<OrderEvent> {
    let id: i64 = row.try_get("", id_column).context("bad event id")?;
    let step: String = row.try_get("", "step").context("bad step")?;
    Ok(OrderEvent {
        id,
        order_id: OrderId::new(row.try_get("", "order_id").context("bad order_id")?),
        step: OrderStep::parse(&step)
            .with_context(|| format!("order event {id} has an unknown step {step:?}"))?,
        staff_id: row
            .try_get::<Option<i64>>("", "staff_id")
            .context("bad staff_id")?
            .map(UserId::new),
        note: row.try_get("", "note").context("bad note")?,
        at: row.try_get("", "at").context("bad at")?,
    })
}

impl OutboxRepository for Store {
    #[tracing::instrument(skip(self))]
    async fn undispatched(&self, limit: u32) -> Result<Vec<OrderEvent>, OrderError> {
        let rows = fetch_all(
            &self.db,
            "SELECT id, order_id, step, staff_id, note, at FROM order_events \
                 WHERE dispatched_at IS NULL ORDER BY id LIMIT ?",
            vec![i64::from(limit).into()],
        )
        .await
        .context("failed to read the undispatched order events")?;
        Ok(rows
            .iter()
            .map(|row| event_of(row, "id"))
            .collect::<anyhow::Result<_>>()?)
    }

    #[tracing::instrument(skip(self))]
    async fn dispatch(
        &self,
        event: &OrderEvent,
        dispatch: Dispatch,
        at: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        let what = || format!("failed to dispatch order event {}", event.id);
        let txn = self.begin().await?;
        let mut statements: Vec<(&str, Vec<Value>)> = Vec::new();
        if let Some((kind, occurrence)) = dispatch.mail {
            // no mail for an order whose buyer deleted their account (its Discord id is gone
            // and its address is a placeholder)
            statements.push((
                "INSERT INTO mail_jobs \
                 (order_id, kind, status, attempts, next_attempt_at, created_at, occurrence) \
                 SELECT id, ?, ?, 0, ?, ?, ? FROM orders WHERE id = ? AND discord_id IS NOT NULL \
                 ON CONFLICT (order_id, kind, occurrence) DO NOTHING",
                vec![
                    kind.as_str().into(),
                    PENDING.into(),
                    at.into(),
                    at.into(),
                    occurrence.into(),
                    event.order_id.get().into(),
                ],
            ));
        }
        for channel in dispatch.channels {
            statements.push((
                "INSERT INTO outbox_jobs \
                 (event_id, order_id, channel, status, attempts, next_attempt_at, created_at) \
                 VALUES (?, ?, ?, ?, 0, ?, ?) ON CONFLICT (event_id, channel) DO NOTHING",
                vec![
                    event.id.into(),
                    event.order_id.get().into(),
                    channel.into(),
                    PENDING.into(),
                    at.into(),
                    at.into(),
                ],
            ));
        }
        statements.push((
            "UPDATE order_events SET dispatched_at = ? WHERE id = ?",
            vec![at.into(), event.id.into()],
        ));
        for (sql, values) in statements {
            run(&txn, sql, values).await.with_context(what)?;
        }
        txn.commit().await.with_context(what)?;
        Ok(())
    }

    #[tracing::instrument(skip(self))]
    async fn due_jobs(
        &self,
        channel: &'static str,
        now: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<OutboxJob>, OrderError> {
        // in the order of their events: an order's paid step before its claim
        let rows = fetch_all(
                &self.db,
                "SELECT j.id AS job_id, j.attempts, j.thread_id, e.id AS event_id, e.order_id, \
                 e.step, e.staff_id, e.note, e.at FROM outbox_jobs j JOIN order_events e ON e.id = j.event_id \
                 WHERE j.channel = ? AND j.status = ? AND j.next_attempt_at <= ? \
                 ORDER BY j.event_id, j.id LIMIT ?",
                vec![
                    channel.into(),
                    PENDING.into(),
                    now.into(),
                    i64::from(limit).into(),
                ],
            )
            .await
            .with_context(|| format!("failed to read the due {channel} jobs"))?;
        let mut jobs = Vec::with_capacity(rows.len());
        for row in rows {
            let attempts: i32 = row.try_get("", "attempts").context("bad attempts")?;
            let thread: Option<String> = row.try_get("", "thread_id").context("bad thread_id")?;
            jobs.push(OutboxJob {
                id: row.try_get("", "job_id").context("bad job id")?,
                event: event_of(&row, "event_id")?,
                attempts: u32::try_from(attempts).unwrap_or(0),
                thread: thread
                    .map(|thread| {
                        DiscordId::parse(&thread)
                            .with_context(|| format!("an outbox job has a bad thread {thread:?}"))
                    })
                    .transpose()?,
            });
        }
        Ok(jobs)
    }

    #[tracing::instrument(skip(self))]
    async fn lease_job(
        &self,
        job: i64,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
    ) -> Result<bool, OrderError> {
        OUTBOX.lease(self, job, now, lease_until).await
    }

    #[tracing::instrument(skip(self))]
    async fn job_done(&self, job: i64, at: DateTime<Utc>) -> Result<(), OrderError> {
        OUTBOX.done(self, job, at).await
    }

    #[tracing::instrument(skip(self, error))]
    async fn job_failed(
        &self,
        job: i64,
        attempts: u32,
        retry_at: Option<DateTime<Utc>>,
        error: String,
    ) -> Result<(), OrderError> {
        OUTBOX.failed(self, job, attempts, retry_at, error).await
    }
}
