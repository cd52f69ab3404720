//! Refunds, disputes, fraud warnings and the blocklist on both databases. Every change of an
//! order is one transaction that records the provider's event with it (a replay changes
//! nothing) and is a conditional UPDATE on the order's status (of two changes racing, one
//! wins). A dispute adds its blocklist entries in the same transaction.

use aftersale::{AfterSaleRepository, Warned};
use anyhow::Context;
use blocklist::{BlockEntry, BlockStatus, BlocklistRepository, NewBlock};
use chrono::{DateTime, Utc};
use orders::{
    Applied, BlockKind, Blocklist, BuyerIdentities, DisputeOutcome, NewHold, Order, OrderError,
    OrderId, OrderStatus, OrderStep, PaymentProvider, ProviderEvent, StaffMember,
};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter, QueryResult,
    TransactionTrait, Value,
};
use shared::UserId;

use shared::{Actor, AuditKind};

use crate::audit;
use crate::entities::orders as order_rows;
use crate::lifecycle::{record_noted_step, record_step};
use crate::orders::{current_status, put_on_hold, record_event, with_lines};
use crate::sql::{lock_row, statement};
use crate::Store;

/// Takes a blocklist entry's write lock (`lock_row`).
const LOCK_ENTRY: &str = "UPDATE blocklist SET reason = reason WHERE id = ?";

impl Store {
    /// Runs `change` (one conditional UPDATE) in a transaction that first records `event`.
    // the statement, its follow-ups, the provider's event and the audit entry all belong to
    // the one transaction; a parameter struct would only rename them
    #[allow(clippy::too_many_arguments)]
    async fn change_order(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        event: Option<ProviderEvent>,
        sql: &str,
        values: Vec<Value>,
        then: Vec<(String, Vec<Value>)>,
        audited: Option<(&Actor, AuditKind)>,
        step: OrderStep,
        note: Option<&str>,
    ) -> Result<Applied, OrderError> {
        let txn = self
            .db
            .begin()
            .await
            .context("failed to start a transaction")?;
        // an audited change locks the row first, so "before" is what the UPDATE replaces
        let before = match audited {
            Some(_) if audit::lock_order(&txn, id.get()).await? => {
                audit::order_json(&txn, id.get()).await?
            }
            _ => None,
        };
        if let Some(event) = &event {
            if !record_event(&txn, event, at).await? {
                txn.rollback().await.context("failed to roll back")?;
                return Ok(Applied::Replayed);
            }
        }
        let changed = txn
            .execute(statement(&txn, sql, values))
            .await
            .with_context(|| format!("failed to change order {id}"))?;
        if changed.rows_affected() != 1 {
            let current = current_status(&txn, id).await;
            txn.rollback().await.context("failed to roll back")?;
            return Ok(Applied::NotPending(current?));
        }
        for (sql, values) in then {
            txn.execute(statement(&txn, &sql, values))
                .await
                .with_context(|| format!("failed to record what goes with order {id}'s change"))?;
        }
        let staff = audited.and_then(|(actor, _)| actor.user_id.map(UserId::get));
        record_noted_step(&txn, id.get(), step, staff, note, at).await?;
        if let Some((actor, kind)) = audited {
            let after = audit::order_json(&txn, id.get()).await?;
            self.audit(
                &txn,
                actor,
                kind,
                audit::order_target(id.get()),
                before,
                after,
            )
            .await?;
        }
        txn.commit()
            .await
            .with_context(|| format!("failed to commit the change of order {id}"))?;
        Ok(Applied::Changed)
    }
}

const BLOCK_INSERT: &str = "INSERT INTO blocklist \
     (kind, value, match_value, reason, added_by, created_at, status, expires_at) \
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (kind, value) DO NOTHING";

fn block_values(block: &NewBlock) -> Vec<Value> {
    vec![
        block.kind.as_str().into(),
        block.value.clone().into(),
        block.kind.match_form(&block.value).into(),
        block.reason.clone().into(),
        block.added_by.map(UserId::get).into(),
        block.created_at.into(),
        block.status.as_str().into(),
        block.expires_at.into(),
    ]
}

impl AfterSaleRepository for Store {
    #[tracing::instrument(skip(self, payment_id))]
    async fn order_by_payment(
        &self,
        provider: PaymentProvider,
        payment_id: String,
    ) -> Result<Option<Order>, OrderError> {
        let rows = order_rows::Entity::find()
            .filter(order_rows::Column::Provider.eq(provider.as_str()))
            .filter(order_rows::Column::PaymentId.eq(payment_id))
            .all(&self.db)
            .await
            .context("failed to find an order by its payment")?;
        Ok(with_lines(&self.db, rows).await?.pop())
    }

    #[tracing::instrument(skip(self, payment_id))]
    async fn record_payment_id(&self, id: OrderId, payment_id: String) -> Result<(), OrderError> {
        let recorded = self
            .db
            .execute(statement(
                &self.db,
                "UPDATE orders SET payment_id = ? WHERE id = ? AND payment_id IS NULL",
                vec![payment_id.into(), id.get().into()],
            ))
            .await
            .with_context(|| format!("failed to record the payment of order {id}"))?;
        if recorded.rows_affected() == 0 {
            // recorded before, or no such order
            order_rows::Entity::find_by_id(id.get())
                .one(&self.db)
                .await
                .with_context(|| format!("failed to load order {id}"))?
                .ok_or(OrderError::NotFound(id))?;
        }
        Ok(())
    }

    #[tracing::instrument(skip(self))]
    async fn record_partial_refund(
        &self,
        id: OrderId,
        event: ProviderEvent,
        at: DateTime<Utc>,
    ) -> Result<bool, OrderError> {
        let txn = self
            .db
            .begin()
            .await
            .context("failed to start a transaction")?;
        if !record_event(&txn, &event, at).await? {
            txn.rollback().await.context("failed to roll back")?;
            return Ok(false);
        }
        record_step(&txn, id.get(), OrderStep::PartlyRefunded, None, at).await?;
        txn.commit()
            .await
            .context("failed to record a partial refund")?;
        Ok(true)
    }

    #[tracing::instrument(skip(self, refund_id, actor))]
    async fn mark_refunded(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        refund_id: Option<String>,
        event: Option<ProviderEvent>,
        actor: Option<Actor>,
    ) -> Result<Applied, OrderError> {
        self.change_order(
            id,
            at,
            event,
            "UPDATE orders SET status = ?, closed_at = ?, refund_id = COALESCE(?, refund_id) \
             WHERE id = ? AND status IN (?, ?)",
            vec![
                OrderStatus::Refunded.as_str().into(),
                at.into(),
                refund_id.into(),
                id.get().into(),
                OrderStatus::Paid.as_str().into(),
                OrderStatus::Delivered.as_str().into(),
            ],
            vec![],
            actor.as_ref().map(|actor| (actor, AuditKind::OrderRefund)),
            OrderStep::Refunded,
            None,
        )
        .await
    }

    #[tracing::instrument(skip(self, blocks))]
    async fn open_dispute(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        event: ProviderEvent,
        reason: Option<String>,
        blocks: Vec<NewBlock>,
    ) -> Result<Applied, OrderError> {
        self.change_order(
            id,
            at,
            Some(event),
            // the right-hand sides read the row as it was: `disputed_from` gets the old status
            "UPDATE orders SET disputed_from = status, status = ?, disputed_at = ?, \
             dispute_outcome = NULL, dispute_closed_at = NULL \
             WHERE id = ? AND status IN (?, ?, ?)",
            vec![
                OrderStatus::Disputed.as_str().into(),
                at.into(),
                id.get().into(),
                OrderStatus::Paid.as_str().into(),
                OrderStatus::Delivered.as_str().into(),
                OrderStatus::Refunded.as_str().into(),
            ],
            blocks
                .iter()
                .map(|block| (BLOCK_INSERT.to_owned(), block_values(block)))
                .collect(),
            None,
            OrderStep::Disputed,
            reason.as_deref(),
        )
        .await
    }

    #[tracing::instrument(skip(self))]
    async fn close_dispute(
        &self,
        id: OrderId,
        outcome: DisputeOutcome,
        at: DateTime<Utc>,
        event: ProviderEvent,
    ) -> Result<Applied, OrderError> {
        let sql = match outcome {
            DisputeOutcome::Won => {
                "UPDATE orders SET status = disputed_from, dispute_outcome = ?, \
                 dispute_closed_at = ? \
                 WHERE id = ? AND status = ? AND disputed_from IS NOT NULL"
            }
            DisputeOutcome::Lost => {
                "UPDATE orders SET dispute_outcome = ?, dispute_closed_at = ? \
                 WHERE id = ? AND status = ? AND dispute_outcome IS NULL"
            }
        };
        self.change_order(
            id,
            at,
            Some(event),
            sql,
            vec![
                outcome.as_str().into(),
                at.into(),
                id.get().into(),
                OrderStatus::Disputed.as_str().into(),
            ],
            vec![],
            None,
            match outcome {
                DisputeOutcome::Won => OrderStep::DisputeWon,
                DisputeOutcome::Lost => OrderStep::DisputeLost,
            },
            None,
        )
        .await
    }

    #[tracing::instrument(skip(self, hold))]
    async fn record_fraud_warning(
        &self,
        id: OrderId,
        event: ProviderEvent,
        fraud_type: Option<String>,
        hold: Option<NewHold>,
        at: DateTime<Utc>,
    ) -> Result<Warned, OrderError> {
        // the event first: a write (SQLite's write lock before any read), and a replay's end
        let Some(txn) = self.begin_with_event(Some(&event), at).await? else {
            return Ok(Warned::Replayed);
        };
        record_noted_step(
            &txn,
            id.get(),
            OrderStep::FraudWarning,
            None,
            fraud_type.as_deref(),
            at,
        )
        .await?;
        let held = match &hold {
            Some(hold) => put_on_hold(&txn, id, hold, at).await?,
            None => false,
        };
        txn.commit()
            .await
            .with_context(|| format!("failed to commit the fraud warning of order {id}"))?;
        Ok(if held { Warned::Held } else { Warned::Noted })
    }
}

const BLOCK_SELECT: &str = "SELECT b.id, b.kind, b.value, b.reason, b.added_by, b.created_at, \
     b.status, b.expires_at, u.name AS added_by_name \
     FROM blocklist b LEFT JOIN users u ON u.id = b.added_by";

fn to_entry(row: &QueryResult) -> anyhow::Result<BlockEntry> {
    let id: i64 = row.try_get("", "id")?;
    let kind: String = row.try_get("", "kind")?;
    let status: String = row.try_get("", "status")?;
    let added_by: Option<i64> = row.try_get("", "added_by")?;
    let name: Option<String> = row.try_get("", "added_by_name")?;
    Ok(BlockEntry {
        id,
        kind: BlockKind::parse(&kind)
            .with_context(|| format!("blocklist entry {id} has an unknown kind {kind}"))?,
        value: row.try_get("", "value")?,
        reason: row.try_get("", "reason")?,
        added_by: added_by.map(|id| StaffMember {
            id: UserId::new(id),
            name: name.unwrap_or_else(|| format!("staff #{id}")),
        }),
        created_at: row.try_get("", "created_at")?,
        status: BlockStatus::parse(&status)
            .with_context(|| format!("blocklist entry {id} has an unknown status {status}"))?,
        expires_at: row.try_get("", "expires_at")?,
    })
}

/// A blocklist entry as the audit log keeps it.
fn block_json(entry: &BlockEntry) -> serde_json::Value {
    serde_json::json!({
        "kind": entry.kind.as_str(),
        "value": entry.value,
        "reason": entry.reason,
        "status": entry.status.as_str(),
        "expires_at": entry.expires_at,
    })
}

async fn entry_where(
    db: &impl ConnectionTrait,
    condition: &str,
    values: Vec<Value>,
) -> anyhow::Result<Option<BlockEntry>> {
    db.query_one(statement(
        db,
        &format!("{BLOCK_SELECT} WHERE {condition}"),
        values,
    ))
    .await
    .context("failed to load a blocklist entry")?
    .as_ref()
    .map(to_entry)
    .transpose()
}

impl BlocklistRepository for Store {
    #[tracing::instrument(skip(self))]
    async fn entries(&self, limit: u64) -> anyhow::Result<(Vec<BlockEntry>, u64)> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = self
            .db
            .query_all(statement(
                &self.db,
                &format!("{BLOCK_SELECT} ORDER BY b.created_at DESC, b.id DESC LIMIT ?"),
                vec![limit.into()],
            ))
            .await
            .context("failed to list the blocklist")?;
        let entries = rows.iter().map(to_entry).collect::<anyhow::Result<_>>()?;
        let total: i64 = self
            .db
            .query_one(statement(
                &self.db,
                "SELECT COUNT(*) FROM blocklist",
                vec![],
            ))
            .await
            .context("failed to count the blocklist")?
            .context("a count answered no row")?
            .try_get_by_index(0)?;
        Ok((entries, u64::try_from(total).unwrap_or(0)))
    }

    #[tracing::instrument(skip_all, fields(kind = %entry.kind))]
    async fn add(&self, entry: NewBlock, actor: &Actor) -> anyhow::Result<Option<BlockEntry>> {
        let txn: DatabaseTransaction = self
            .db
            .begin()
            .await
            .context("failed to start a transaction")?;
        let inserted = txn
            .execute(statement(&txn, BLOCK_INSERT, block_values(&entry)))
            .await
            .context("failed to add a blocklist entry")?;
        if inserted.rows_affected() != 1 {
            txn.rollback().await.context("failed to roll back")?;
            return Ok(None);
        }
        let added = entry_where(
            &txn,
            "b.kind = ? AND b.value = ?",
            vec![entry.kind.as_str().into(), entry.value.clone().into()],
        )
        .await?
        .context("a blocklist entry vanished as it was added")?;
        self.audit(
            &txn,
            actor,
            AuditKind::BlocklistAdd,
            format!("blocklist:{}", added.id),
            None,
            Some(block_json(&added)),
        )
        .await?;
        txn.commit()
            .await
            .context("failed to commit a blocklist entry")?;
        Ok(Some(added))
    }

    #[tracing::instrument(skip(self, actor))]
    async fn confirm(&self, id: i64, actor: &Actor) -> anyhow::Result<Option<BlockEntry>> {
        // the write lock first, then the entry as it was
        let Some(txn) = lock_row(&self.db, LOCK_ENTRY, id, "a blocklist entry").await? else {
            return Ok(None);
        };
        let before = entry_where(&txn, "b.id = ?", vec![id.into()])
            .await?
            .context("a locked blocklist entry vanished")?;
        // the flagged entry turns active once: of two confirmations, one writes
        let confirmed = txn
            .execute(statement(
                &txn,
                "UPDATE blocklist SET status = ? WHERE id = ? AND status = ?",
                vec![
                    BlockStatus::Active.as_str().into(),
                    id.into(),
                    BlockStatus::Flagged.as_str().into(),
                ],
            ))
            .await
            .context("failed to confirm a blocklist entry")?;
        if confirmed.rows_affected() != 1 {
            txn.rollback().await.context("failed to roll back")?;
            return Ok(Some(before));
        }
        let after = entry_where(&txn, "b.id = ?", vec![id.into()])
            .await?
            .context("a confirmed blocklist entry vanished")?;
        self.audit(
            &txn,
            actor,
            AuditKind::BlocklistConfirm,
            format!("blocklist:{id}"),
            Some(block_json(&before)),
            Some(block_json(&after)),
        )
        .await?;
        txn.commit()
            .await
            .context("failed to commit the confirmation of a blocklist entry")?;
        Ok(Some(after))
    }

    #[tracing::instrument(skip(self, actor))]
    async fn remove(&self, id: i64, actor: &Actor) -> anyhow::Result<bool> {
        // the write lock first, then the values this removal takes away
        let Some(txn) = lock_row(&self.db, LOCK_ENTRY, id, "a blocklist entry").await? else {
            return Ok(false);
        };
        let before = entry_where(&txn, "b.id = ?", vec![id.into()])
            .await?
            .context("a locked blocklist entry vanished")?;
        txn.execute(statement(
            &txn,
            "DELETE FROM blocklist WHERE id = ?",
            vec![id.into()],
        ))
        .await
        .context("failed to remove a blocklist entry")?;
        self.audit(
            &txn,
            actor,
            AuditKind::BlocklistRemove,
            format!("blocklist:{id}"),
            Some(block_json(&before)),
            None,
        )
        .await?;
        txn.commit()
            .await
            .context("failed to commit the removal of a blocklist entry")?;
        Ok(true)
    }
}

impl Blocklist for Store {
    #[tracing::instrument(skip_all)]
    async fn is_blocked(
        &self,
        identities: BuyerIdentities,
        now: DateTime<Utc>,
    ) -> anyhow::Result<bool> {
        if identities.values.is_empty() {
            return Ok(false);
        }
        let condition = identities
            .values
            .iter()
            .map(|_| "(kind = ? AND match_value = ?)")
            .collect::<Vec<_>>()
            .join(" OR ");
        let mut values: Vec<Value> = identities
            .values
            .into_iter()
            .flat_map(|(kind, value)| [Value::from(kind.as_str()), Value::from(value)])
            .collect();
        values.extend([BlockStatus::Active.as_str().into(), now.into()]);
        let found = self
            .db
            .query_one(statement(
                &self.db,
                &format!(
                    "SELECT 1 AS found FROM blocklist WHERE ({condition}) AND status = ? \
                     AND (expires_at IS NULL OR expires_at > ?) LIMIT 1"
                ),
                values,
            ))
            .await
            .context("failed to look the buyer up on the blocklist")?;
        Ok(found.is_some())
    }
}
