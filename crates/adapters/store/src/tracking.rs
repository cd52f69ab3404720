//! After the sale on both databases: the order's link key hash and claim time, its place in
//! the delivery queue, and `mail_jobs`, the outbox of intent for the buyer's mail (one row per
//! order and kind: `INSERT … ON CONFLICT DO NOTHING`, so a repeated event never queues a second
//! mail; the jobs are leased and retried as `jobs` says, so two instances never send the same
//! mail at once).

use anyhow::Context;
use chrono::{DateTime, Utc};
use delivery::{MailJob, Release, TrackingFacts, TrackingRepository};
use orders::{MailKind, OrderError, OrderId};
use sea_orm::Value;

use crate::jobs::{Jobs, PENDING};
use crate::sql::{fetch_all, fetch_one, run};
use crate::Store;

const MAIL: Jobs = Jobs {
    table: "mail_jobs",
    noun: "mail job",
    forget: "",
};

impl Store {
    pub(crate) async fn execute(
        &self,
        sql: &str,
        values: Vec<Value>,
        what: &str,
    ) -> anyhow::Result<u64> {
        Ok(run(&self.db, sql, values)
            .await
            .with_context(|| format!("failed to {what}"))?
            .rows_affected())
    }

    pub(crate) async fn store_access_key_hash(
        &self,
        id: OrderId,
        hash: String,
    ) -> Result<(), OrderError> {
        let changed = self
            .execute(
                "UPDATE orders SET access_key_hash = ? WHERE id = ?",
                vec![hash.into(), id.get().into()],
                "record an order's link key",
            )
            .await?;
        if changed == 0 {
            return Err(OrderError::NotFound(id));
        }
        Ok(())
    }
}

impl TrackingRepository for Store {
    #[tracing::instrument(skip(self))]
    async fn access_key_hash(&self, id: OrderId) -> Result<Option<String>, OrderError> {
        let row = fetch_one(
            &self.db,
            "SELECT access_key_hash FROM orders WHERE id = ?",
            vec![id.get().into()],
        )
        .await
        .with_context(|| format!("failed to read the link key of order {id}"))?
        .ok_or(OrderError::NotFound(id))?;
        Ok(row
            .try_get("", "access_key_hash")
            .context("bad access_key_hash")?)
    }

    #[tracing::instrument(skip(self))]
    async fn after_sale_facts(&self, id: OrderId) -> Result<TrackingFacts, OrderError> {
        let reviewed = crate::reviews::reviewed("o.id");
        let claimer = crate::accounts::user_join("u", "o.claimed_by");
        let releaser = crate::accounts::user_join("ru", "r.staff_id");
        let row = fetch_one(
            &self.db,
            &format!(
                "SELECT o.claimed_at, o.proof_id, o.buyer_ready_at, o.received_at, \
                     o.server_link_shown_at, o.ticket_thread_id, o.ticket_problem, o.no_show_at, \
                     CASE WHEN {reviewed} THEN 1 ELSE 0 END AS reviewed, \
                     u.name AS staff_name, u.private_server_url, \
                     r.at AS released_at, r.note AS release_reason, ru.name AS released_by \
                     FROM orders o {claimer} \
                     LEFT JOIN order_events r ON r.id = (SELECT MAX(e.id) FROM order_events e \
                       WHERE e.order_id = o.id AND e.step = 'released') \
                     {releaser} WHERE o.id = ?"
            ),
            vec![id.get().into()],
        )
        .await
        .with_context(|| format!("failed to read order {id}"))?;
        let Some(row) = row else {
            return Ok(TrackingFacts::default());
        };
        Ok(TrackingFacts {
            claimed_at: row.try_get("", "claimed_at").context("bad claimed_at")?,
            proof_id: row.try_get("", "proof_id").context("bad proof_id")?,
            staff_name: row.try_get("", "staff_name").context("bad staff_name")?,
            private_server_url: crate::delivery::kept_link(
                row.try_get("", "private_server_url")
                    .context("bad private_server_url")?,
            ),
            buyer_ready_at: row
                .try_get("", "buyer_ready_at")
                .context("bad buyer_ready_at")?,
            received_at: row.try_get("", "received_at").context("bad received_at")?,
            link_shown_at: row
                .try_get("", "server_link_shown_at")
                .context("bad server_link_shown_at")?,
            ticket_thread_id: row
                .try_get("", "ticket_thread_id")
                .context("bad ticket_thread_id")?,
            ticket_problem: row
                .try_get("", "ticket_problem")
                .context("bad ticket_problem")?,
            last_release: row
                .try_get::<Option<DateTime<Utc>>>("", "released_at")
                .context("bad released_at")?
                .map(|at| -> anyhow::Result<Release> {
                    Ok(Release {
                        at,
                        staff_name: row.try_get("", "released_by")?,
                        reason: row.try_get("", "release_reason")?,
                    })
                })
                .transpose()?,
            no_show_at: row.try_get("", "no_show_at").context("bad no_show_at")?,
            reviewed: row.try_get::<i32>("", "reviewed").context("bad reviewed")? == 1,
        })
    }

    #[tracing::instrument(skip(self, url))]
    async fn keep_link_shown(
        &self,
        id: OrderId,
        url: String,
        at: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        run(
            &self.db,
            "UPDATE orders SET server_link_shown = ?, server_link_shown_at = ? \
                 WHERE id = ? AND server_link_shown_at IS NULL",
            vec![url.into(), at.into(), id.get().into()],
        )
        .await
        .with_context(|| format!("failed to keep the link shown on order {id}"))?;
        Ok(())
    }

    #[tracing::instrument(skip(self))]
    async fn paid_orders_ahead(&self, id: OrderId) -> Result<u32, OrderError> {
        let row = fetch_one(
            &self.db,
            "SELECT COUNT(*) AS ahead FROM orders o, orders me \
                 WHERE me.id = ? AND o.status = 'paid' AND o.hold_reason IS NULL \
                 AND o.claimed_by IS NULL AND o.id <> me.id \
                 AND (o.paid_at < me.paid_at OR (o.paid_at = me.paid_at AND o.id < me.id))",
            vec![id.get().into()],
        )
        .await
        .with_context(|| format!("failed to find the place of order {id} in the queue"))?;
        let ahead: i64 = match row {
            Some(row) => row.try_get_by_index(0).context("bad count")?,
            None => 0,
        };
        Ok(u32::try_from(ahead).unwrap_or(u32::MAX))
    }

    #[tracing::instrument(skip(self))]
    async fn proof_picture(&self, proof_id: i64) -> Result<Option<String>, OrderError> {
        Ok(crate::proofs::first_picture_of(&self.db, proof_id).await?)
    }

    #[tracing::instrument(skip(self))]
    async fn due_mail(&self, now: DateTime<Utc>, limit: u32) -> Result<Vec<MailJob>, OrderError> {
        let rows = fetch_all(
            &self.db,
            "SELECT id, order_id, kind, attempts FROM mail_jobs \
                 WHERE status = ? AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?",
            vec![PENDING.into(), now.into(), i64::from(limit).into()],
        )
        .await
        .context("failed to read the due mail")?;
        let mut jobs = Vec::with_capacity(rows.len());
        for row in rows {
            let id: i64 = row.try_get("", "id").context("bad id")?;
            let kind: String = row.try_get("", "kind").context("bad kind")?;
            let attempts: i32 = row.try_get("", "attempts").context("bad attempts")?;
            jobs.push(MailJob {
                id,
                order_id: OrderId::new(row.try_get("", "order_id").context("bad order_id")?),
                kind: MailKind::parse(&kind)
                    .with_context(|| format!("mail job {id} has an unknown kind {kind}"))?,
                attempts: u32::try_from(attempts).unwrap_or(0),
            });
        }
        Ok(jobs)
    }

    #[tracing::instrument(skip(self))]
    async fn lease_mail(
        &self,
        job: i64,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
    ) -> Result<bool, OrderError> {
        MAIL.lease(self, job, now, lease_until).await
    }

    #[tracing::instrument(skip(self))]
    async fn mail_sent(&self, job: i64, at: DateTime<Utc>) -> Result<(), OrderError> {
        MAIL.done(self, job, at).await
    }

    #[tracing::instrument(skip(self, error))]
    async fn mail_failed(
        &self,
        job: i64,
        attempts: u32,
        retry_at: Option<DateTime<Utc>>,
        error: String,
    ) -> Result<(), OrderError> {
        MAIL.failed(self, job, attempts, retry_at, error).await
    }
}

impl delivery::DeliveryTimesRepository for Store {
    #[tracing::instrument(skip(self))]
    async fn delivered_since(
        &self,
        since: DateTime<Utc>,
    ) -> Result<Vec<delivery::DeliveredOrder>, OrderError> {
        // who delivered it: the claimer the delivery kept
        let rows = fetch_all(
            &self.db,
            &format!(
                "SELECT o.paid_at, o.claimed_at, o.delivered_at, u.name AS staff_name \
                     FROM orders o {} \
                     WHERE o.delivered_at IS NOT NULL AND o.paid_at IS NOT NULL \
                     AND o.delivered_at >= ? ORDER BY o.delivered_at",
                crate::accounts::user_join("u", "o.claimed_by")
            ),
            vec![since.into()],
        )
        .await
        .context("failed to read the delivery times")?;
        rows.iter()
            .map(|row| {
                Ok(delivery::DeliveredOrder {
                    paid_at: row.try_get("", "paid_at")?,
                    claimed_at: row.try_get("", "claimed_at")?,
                    delivered_at: row.try_get("", "delivered_at")?,
                    staff_name: row.try_get("", "staff_name")?,
                })
            })
            .collect::<Result<Vec<_>, sea_orm::DbErr>>()
            .context("bad delivery times")
            .map_err(OrderError::Unknown)
    }
}
