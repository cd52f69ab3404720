//! Disputes on both databases (`disputes`, one row per provider dispute), and the delivery
//! record their evidence is made of, read from the order, its steps, its mails and its posts.
//! A dispute's row is its own outbox job: `next_attempt_at` while its evidence is to be staged,
//! leased with a conditional update so one instance stages it at a time; `submit_claimed_at`
//! taken with a conditional update so staff and the deadline job submit once.

use anyhow::Context;
use chrono::{DateTime, Utc};
use disputes::{
    Claim, DeliveryRecord, Dispute, DisputeCounts, DisputeFacts, DisputeRepository, EvidenceState,
    StagedFiles, WarnedOrder,
};
use orders::{OrderId, PaymentProvider};
use sea_orm::QueryResult;
use shared::{Actor, AuditKind};

use crate::sql::{fetch_all, fetch_one, run};
use crate::Store;

/// The columns a [`Dispute`] is read from, with whether its order was delivered.
const COLUMNS: &str = "d.provider, d.dispute_id, d.order_id, d.amount_minor, d.currency, \
     d.reason, d.status, d.due_by, d.evidence, d.outcome, d.staff_note, d.attempts, \
     d.created_at, d.closed_at, d.files, \
     (o.delivered_at IS NOT NULL OR o.disputed_from = 'delivered') AS delivered";

/// The disputes with their orders, where they are known.
fn disputes_with_orders() -> String {
    format!(
        "disputes d {}",
        crate::order_rows::order_join("o", "d.order_id")
    )
}

/// Stripe's statuses that end a dispute, and the outcome each records.
fn outcome_of(status: &str) -> Option<&'static str> {
    match status {
        "won" | "warning_closed" => Some("won"),
        "lost" => Some("lost"),
        _ => None,
    }
}

fn dispute_of(row: &QueryResult) -> anyhow::Result<Dispute> {
    let provider: String = row.try_get("", "provider")?;
    let evidence: String = row.try_get("", "evidence")?;
    let delivered: Option<bool> = row.try_get("", "delivered").ok();
    Ok(Dispute {
        provider: PaymentProvider::parse(&provider)
            .with_context(|| format!("unknown provider {provider}"))?,
        dispute_id: row.try_get("", "dispute_id")?,
        order_id: row
            .try_get::<Option<i64>>("", "order_id")?
            .map(OrderId::new),
        delivered: delivered.unwrap_or(false),
        amount_minor: row.try_get("", "amount_minor")?,
        currency: row.try_get("", "currency")?,
        reason: row.try_get("", "reason")?,
        status: row.try_get("", "status")?,
        due_by: row.try_get("", "due_by")?,
        evidence: EvidenceState::parse(&evidence)
            .with_context(|| format!("unknown evidence state {evidence}"))?,
        outcome: row.try_get("", "outcome")?,
        staff_note: row.try_get("", "staff_note")?,
        staging_attempts: row.try_get("", "attempts")?,
        created_at: row.try_get("", "created_at")?,
        closed_at: row.try_get("", "closed_at")?,
    })
}

fn files_of(row: &QueryResult) -> anyhow::Result<Option<StagedFiles>> {
    let files: Option<String> = row.try_get("", "files")?;
    let Some(files) = files else {
        return Ok(None);
    };
    let ids: Vec<String> = serde_json::from_str(&files).context("unreadable evidence files")?;
    Ok(match ids.as_slice() {
        [service, communication, policy] => Some(StagedFiles {
            service_documentation: service.clone(),
            customer_communication: communication.clone(),
            refund_policy: policy.clone(),
        }),
        _ => None,
    })
}

fn files_json(files: &StagedFiles) -> String {
    serde_json::json!([
        files.service_documentation,
        files.customer_communication,
        files.refund_policy
    ])
    .to_string()
}

impl Store {
    async fn one_dispute(
        &self,
        dispute_id: &str,
    ) -> anyhow::Result<Option<(Dispute, Option<StagedFiles>)>> {
        let row = fetch_one(
            &self.db,
            &format!(
                "SELECT {COLUMNS} FROM {} WHERE d.dispute_id = ?",
                disputes_with_orders()
            ),
            vec![dispute_id.into()],
        )
        .await
        .with_context(|| format!("failed to read dispute {dispute_id}"))?;
        row.map(|row| Ok((dispute_of(&row)?, files_of(&row)?)))
            .transpose()
    }

    /// Leases up to `limit` rows of `table` whose `next_attempt_at` is due at `now` to this
    /// caller until `lease_until`: one instance wins each row (the due time it read is still
    /// there when it moves it). Answers the leased rows' `key`s.
    async fn lease_due<K>(
        &self,
        table: &str,
        key: &str,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: u32,
    ) -> anyhow::Result<Vec<K>>
    where
        K: sea_orm::TryGetable + Into<sea_orm::Value> + Clone,
    {
        let due = fetch_all(
            &self.db,
            &format!(
                "SELECT {key}, next_attempt_at FROM {table} \
                     WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ? \
                     ORDER BY next_attempt_at LIMIT ?"
            ),
            vec![now.into(), i64::from(limit).into()],
        )
        .await
        .with_context(|| format!("failed to read the due jobs of {table}"))?;
        let mut leased = Vec::new();
        for row in due {
            let id: K = row.try_get("", key)?;
            let was: DateTime<Utc> = row.try_get("", "next_attempt_at")?;
            let won = self
                .execute(
                    &format!(
                        "UPDATE {table} SET next_attempt_at = ? \
                         WHERE {key} = ? AND next_attempt_at = ?"
                    ),
                    vec![lease_until.into(), id.clone().into(), was.into()],
                    "lease a job",
                )
                .await?;
            if won == 1 {
                leased.push(id);
            }
        }
        Ok(leased)
    }

    async fn warned(
        &self,
        filter: &str,
        values: Vec<sea_orm::Value>,
    ) -> anyhow::Result<Vec<WarnedOrder>> {
        let rows = fetch_all(
            &self.db,
            &format!(
                "SELECT order_id, warned_at, fraud_type, prepared_at, attempts, last_error, \
                       next_attempt_at IS NOT NULL AS pending \
                     FROM prepared_evidence {filter}"
            ),
            values,
        )
        .await
        .context("failed to read the warned orders")?;
        rows.iter()
            .map(|row| {
                Ok(WarnedOrder {
                    order_id: OrderId::new(row.try_get("", "order_id")?),
                    warned_at: row.try_get("", "warned_at")?,
                    fraud_type: row.try_get("", "fraud_type")?,
                    prepared_at: row.try_get("", "prepared_at")?,
                    pending: row.try_get("", "pending")?,
                    attempts: row.try_get("", "attempts")?,
                    last_error: row.try_get("", "last_error")?,
                })
            })
            .collect()
    }

    async fn all_disputes(&self) -> anyhow::Result<Vec<Dispute>> {
        let rows = fetch_all(
            &self.db,
            &format!(
                "SELECT {COLUMNS} FROM {} ORDER BY d.id DESC",
                disputes_with_orders()
            ),
            vec![],
        )
        .await
        .context("failed to read disputes")?;
        rows.iter().map(dispute_of).collect()
    }
}

impl DisputeRepository for Store {
    #[tracing::instrument(skip(self, facts), fields(dispute = %facts.id))]
    async fn record(
        &self,
        provider: PaymentProvider,
        payment_id: Option<String>,
        facts: DisputeFacts,
        at: DateTime<Utc>,
    ) -> anyhow::Result<Dispute> {
        let outcome = outcome_of(&facts.status);
        let closed_at = outcome.map(|_| at);
        let reason = facts.reason.map(|r| r.chars().take(64).collect::<String>());
        let status: String = facts.status.chars().take(32).collect();
        // the order paid with this payment, if any; a later report keeps the order found first
        let paid_by = crate::order_rows::PAID_BY;
        self.execute(
            &format!(
                "INSERT INTO disputes (provider, dispute_id, order_id, payment_id, amount_minor, \
               currency, reason, status, due_by, evidence, outcome, created_at, updated_at, \
               closed_at, attempts) \
             VALUES (?, ?, {paid_by}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0) \
             ON CONFLICT (provider, dispute_id) DO UPDATE SET \
               amount_minor = excluded.amount_minor, currency = excluded.currency, \
               reason = COALESCE(excluded.reason, disputes.reason), \
               status = excluded.status, \
               due_by = COALESCE(excluded.due_by, disputes.due_by), \
               evidence = CASE WHEN excluded.evidence = 'submitted' THEN 'submitted' \
                 ELSE disputes.evidence END, \
               outcome = COALESCE(excluded.outcome, disputes.outcome), \
               closed_at = COALESCE(disputes.closed_at, excluded.closed_at), \
               next_attempt_at = CASE WHEN excluded.closed_at IS NOT NULL \
                 OR excluded.evidence = 'submitted' THEN NULL \
                 ELSE disputes.next_attempt_at END, \
               updated_at = excluded.updated_at"
            ),
            vec![
                provider.as_str().into(),
                facts.id.clone().into(),
                provider.as_str().into(),
                payment_id.clone().into(),
                payment_id.into(),
                facts.amount_minor.into(),
                facts
                    .currency
                    .to_ascii_uppercase()
                    .chars()
                    .take(3)
                    .collect::<String>()
                    .into(),
                reason.into(),
                status.into(),
                facts.due_by.into(),
                if facts.submitted {
                    EvidenceState::Submitted
                } else {
                    EvidenceState::None
                }
                .as_str()
                .into(),
                outcome.map(str::to_owned).into(),
                at.into(),
                at.into(),
                closed_at.into(),
            ],
            "record a dispute",
        )
        .await?;
        let (dispute, _) = self
            .one_dispute(&facts.id)
            .await?
            .context("a recorded dispute is gone")?;
        Ok(dispute)
    }

    #[tracing::instrument(skip(self))]
    async fn want_staging(&self, dispute_id: String, at: DateTime<Utc>) -> anyhow::Result<bool> {
        let asked = self
            .execute(
                "UPDATE disputes SET next_attempt_at = ? \
                 WHERE dispute_id = ? AND evidence = 'none' AND next_attempt_at IS NULL \
                   AND attempts = 0 AND closed_at IS NULL AND submit_claimed_at IS NULL",
                vec![at.into(), dispute_id.into()],
                "ask for a dispute's evidence",
            )
            .await?;
        Ok(asked == 1)
    }

    #[tracing::instrument(skip(self))]
    async fn lease_staging(
        &self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: u32,
    ) -> anyhow::Result<Vec<Dispute>> {
        let ids: Vec<String> = self
            .lease_due("disputes", "dispute_id", now, lease_until, limit)
            .await?;
        let mut leased = Vec::new();
        for id in ids {
            if let Some((dispute, _)) = self.one_dispute(&id).await? {
                leased.push(dispute);
            }
        }
        Ok(leased)
    }

    async fn delivery_record(&self, order: OrderId) -> anyhow::Result<Option<DeliveryRecord>> {
        crate::evidence::delivery_record(self, order).await
    }

    #[tracing::instrument(skip(self, files))]
    async fn staged(
        &self,
        dispute_id: String,
        files: StagedFiles,
        at: DateTime<Utc>,
    ) -> anyhow::Result<()> {
        self.execute(
            "UPDATE disputes SET evidence = CASE WHEN evidence = 'none' THEN 'staged' \
               ELSE evidence END, files = ?, staged_at = ?, updated_at = ?, \
               next_attempt_at = NULL, last_error = NULL WHERE dispute_id = ?",
            vec![
                files_json(&files).into(),
                at.into(),
                at.into(),
                dispute_id.into(),
            ],
            "record a dispute's staged evidence",
        )
        .await?;
        Ok(())
    }

    #[tracing::instrument(skip(self, error))]
    async fn staging_failed(
        &self,
        dispute_id: String,
        error: String,
        retry_at: Option<DateTime<Utc>>,
    ) -> anyhow::Result<()> {
        let error: String = error.chars().take(300).collect();
        self.execute(
            "UPDATE disputes SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? \
             WHERE dispute_id = ?",
            vec![error.into(), retry_at.into(), dispute_id.into()],
            "record a failed staging",
        )
        .await?;
        Ok(())
    }

    #[tracing::instrument(skip(self, note))]
    async fn claim_submission(
        &self,
        dispute_id: String,
        note: Option<String>,
        at: DateTime<Utc>,
    ) -> anyhow::Result<Claim> {
        let claimed = self
            .execute(
                "UPDATE disputes SET submit_claimed_at = ?, \
                   staff_note = COALESCE(?, staff_note), next_attempt_at = NULL \
                 WHERE dispute_id = ? AND submit_claimed_at IS NULL \
                   AND evidence <> 'submitted' AND closed_at IS NULL",
                vec![at.into(), note.into(), dispute_id.clone().into()],
                "claim a dispute's submission",
            )
            .await?;
        let found = self.one_dispute(&dispute_id).await?;
        Ok(match (claimed, found) {
            (_, None) => Claim::NotFound,
            (1, Some((dispute, files))) => Claim::Claimed(Box::new(dispute), files),
            _ => Claim::Taken,
        })
    }

    #[tracing::instrument(skip(self))]
    async fn release_submission(&self, dispute_id: String) -> anyhow::Result<()> {
        self.execute(
            "UPDATE disputes SET submit_claimed_at = NULL \
             WHERE dispute_id = ? AND evidence <> 'submitted'",
            vec![dispute_id.into()],
            "release a dispute's submission",
        )
        .await?;
        Ok(())
    }

    #[tracing::instrument(skip(self, files, actor))]
    async fn submitted(
        &self,
        dispute_id: String,
        files: Option<StagedFiles>,
        at: DateTime<Utc>,
        actor: Option<Actor>,
    ) -> anyhow::Result<()> {
        let txn = self.begin().await?;
        run(
            &txn,
            "UPDATE disputes SET evidence = 'submitted', submitted_at = ?, updated_at = ?, \
               files = COALESCE(?, files), staged_at = COALESCE(staged_at, ?), \
               next_attempt_at = NULL, last_error = NULL WHERE dispute_id = ?",
            vec![
                at.into(),
                at.into(),
                files.as_ref().map(files_json).into(),
                at.into(),
                dispute_id.clone().into(),
            ],
        )
        .await
        .context("failed to record a submission")?;
        if let Some(actor) = actor {
            self.audit(
                &txn,
                &actor,
                AuditKind::DisputeSubmit,
                format!("dispute:{dispute_id}"),
                None,
                Some(serde_json::json!({ "evidence": "submitted" })),
            )
            .await?;
        }
        txn.commit()
            .await
            .context("failed to commit a submission")?;
        Ok(())
    }

    #[tracing::instrument(skip(self, actor))]
    async fn accepted(
        &self,
        dispute_id: String,
        at: DateTime<Utc>,
        actor: Actor,
    ) -> anyhow::Result<()> {
        let txn = self.begin().await?;
        run(
            &txn,
            "UPDATE disputes SET status = 'lost', outcome = 'lost', closed_at = ?, \
               updated_at = ?, next_attempt_at = NULL WHERE dispute_id = ?",
            vec![at.into(), at.into(), dispute_id.clone().into()],
        )
        .await
        .context("failed to record an accepted dispute")?;
        self.audit(
            &txn,
            &actor,
            AuditKind::DisputeAccept,
            format!("dispute:{dispute_id}"),
            None,
            Some(serde_json::json!({ "outcome": "accepted" })),
        )
        .await?;
        txn.commit()
            .await
            .context("failed to commit an acceptance")?;
        Ok(())
    }

    #[tracing::instrument(skip(self))]
    async fn due_for_submission(&self, before: DateTime<Utc>) -> anyhow::Result<Vec<String>> {
        let rows = fetch_all(
            &self.db,
            "SELECT dispute_id FROM disputes WHERE evidence = 'staged' \
                   AND submit_claimed_at IS NULL AND closed_at IS NULL \
                   AND due_by IS NOT NULL AND due_by <= ? ORDER BY due_by",
            vec![before.into()],
        )
        .await
        .context("failed to read the disputes due")?;
        rows.iter()
            .map(|row| Ok(row.try_get("", "dispute_id")?))
            .collect()
    }

    #[tracing::instrument(skip(self))]
    async fn forget_evidence(&self, paid_before: DateTime<Utc>) -> anyhow::Result<u64> {
        self.execute(
            "DELETE FROM evidence_holds WHERE paid_at < ? AND order_id NOT IN \
               (SELECT order_id FROM disputes WHERE closed_at IS NULL AND order_id IS NOT NULL)",
            vec![paid_before.into()],
            "purge the evidence kept of erased buyers",
        )
        .await
    }

    #[tracing::instrument(skip(self))]
    async fn counts(&self, since: DateTime<Utc>) -> anyhow::Result<DisputeCounts> {
        let disputes = fetch_one(
            &self.db,
            "SELECT CAST(COUNT(*) AS BIGINT) AS opened, \
                   CAST(COALESCE(SUM(CASE WHEN outcome = 'won' THEN 1 ELSE 0 END), 0) AS BIGINT) \
                     AS won, \
                   CAST(COALESCE(SUM(CASE WHEN outcome = 'lost' THEN 1 ELSE 0 END), 0) AS BIGINT) \
                     AS lost, \
                   CAST(COALESCE(SUM(CASE WHEN outcome IS NULL THEN 1 ELSE 0 END), 0) AS BIGINT) \
                     AS pending, \
                   CAST(COALESCE(SUM(CASE WHEN outcome = 'lost' THEN amount_minor ELSE 0 END), 0) \
                     AS BIGINT) AS lost_minor, \
                   CAST(COALESCE(SUM(CASE WHEN created_at >= ? THEN 1 ELSE 0 END), 0) AS BIGINT) \
                     AS recent \
                 FROM disputes",
            vec![since.into()],
        )
        .await
        .context("failed to count the disputes")?
        .context("a count answers one row")?;
        let paid = crate::order_rows::paid_since(&self.db, since).await?;
        let count = |row: &QueryResult, column: &str| -> anyhow::Result<u64> {
            let n: i64 = row.try_get("", column)?;
            Ok(u64::try_from(n).unwrap_or(0))
        };
        Ok(DisputeCounts {
            opened: count(&disputes, "opened")?,
            won: count(&disputes, "won")?,
            lost: count(&disputes, "lost")?,
            pending: count(&disputes, "pending")?,
            lost_minor: disputes.try_get("", "lost_minor")?,
            opened_in_window: count(&disputes, "recent")?,
            paid_in_window: paid,
        })
    }

    async fn disputes(&self) -> anyhow::Result<Vec<Dispute>> {
        self.all_disputes().await
    }

    async fn dispute(&self, dispute_id: String) -> anyhow::Result<Option<Dispute>> {
        Ok(self
            .one_dispute(&dispute_id)
            .await?
            .map(|(dispute, _)| dispute))
    }

    async fn order_paid_by(
        &self,
        provider: PaymentProvider,
        payment_id: String,
    ) -> anyhow::Result<Option<(OrderId, bool)>> {
        let found = crate::order_rows::paid_by(&self.db, provider, &payment_id).await?;
        Ok(found.map(|(id, status)| (id, status == orders::OrderStatus::Delivered.as_str())))
    }

    #[tracing::instrument(skip(self))]
    async fn want_preparing(
        &self,
        order: OrderId,
        fraud_type: Option<String>,
        at: DateTime<Utc>,
    ) -> anyhow::Result<bool> {
        let fraud_type = fraud_type.map(|kind| kind.chars().take(64).collect::<String>());
        let asked = self
            .execute(
                "INSERT INTO prepared_evidence (order_id, warned_at, fraud_type, attempts, \
                   next_attempt_at) VALUES (?, ?, ?, 0, ?) \
                 ON CONFLICT (order_id) DO NOTHING",
                vec![order.get().into(), at.into(), fraud_type.into(), at.into()],
                "ask for a warned order's evidence",
            )
            .await?;
        Ok(asked == 1)
    }

    #[tracing::instrument(skip(self))]
    async fn lease_preparing(
        &self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: u32,
    ) -> anyhow::Result<Vec<WarnedOrder>> {
        let ids: Vec<i64> = self
            .lease_due("prepared_evidence", "order_id", now, lease_until, limit)
            .await?;
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        self.warned(
            &format!("WHERE order_id IN ({})", crate::sql::marks(ids.len())),
            ids.into_iter().map(Into::into).collect(),
        )
        .await
    }

    async fn prepared(
        &self,
        order: OrderId,
        files: StagedFiles,
        fingerprint: String,
        at: DateTime<Utc>,
    ) -> anyhow::Result<()> {
        self.execute(
            "UPDATE prepared_evidence SET files = ?, fingerprint = ?, prepared_at = ?, \
               next_attempt_at = NULL, last_error = NULL WHERE order_id = ?",
            vec![
                files_json(&files).into(),
                fingerprint.into(),
                at.into(),
                order.get().into(),
            ],
            "record a warned order's prepared evidence",
        )
        .await?;
        Ok(())
    }

    #[tracing::instrument(skip(self, error))]
    async fn preparing_failed(
        &self,
        order: OrderId,
        error: String,
        retry_at: Option<DateTime<Utc>>,
    ) -> anyhow::Result<()> {
        let error: String = error.chars().take(300).collect();
        self.execute(
            "UPDATE prepared_evidence SET attempts = attempts + 1, last_error = ?, \
               next_attempt_at = ? WHERE order_id = ?",
            vec![error.into(), retry_at.into(), order.get().into()],
            "record a failed preparing",
        )
        .await?;
        Ok(())
    }

    async fn prepared_files(
        &self,
        order: OrderId,
    ) -> anyhow::Result<Option<(StagedFiles, String)>> {
        let row = fetch_one(
            &self.db,
            "SELECT files, fingerprint FROM prepared_evidence \
                 WHERE order_id = ? AND prepared_at IS NOT NULL",
            vec![order.get().into()],
        )
        .await
        .context("failed to read a warned order's prepared evidence")?;
        let Some(row) = row else {
            return Ok(None);
        };
        let fingerprint: Option<String> = row.try_get("", "fingerprint")?;
        Ok(files_of(&row)?.zip(fingerprint))
    }

    async fn warned_orders(&self) -> anyhow::Result<Vec<WarnedOrder>> {
        self.warned("ORDER BY warned_at DESC, order_id DESC", Vec::new())
            .await
    }

    async fn warned_order(&self, order: OrderId) -> anyhow::Result<Option<WarnedOrder>> {
        Ok(self
            .warned("WHERE order_id = ?", vec![order.get().into()])
            .await?
            .pop())
    }
}
