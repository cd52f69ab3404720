//! Refunds, disputes and fraud warnings on both databases. Every change of an
//! order is one transaction that records the provider's event with it (a replay changes
//! nothing) and is a conditional UPDATE on the order's status (of two changes racing, one
//! wins). A dispute adds its blocklist entries in the same transaction (`blocklist::insert_block`).

use aftersale::{AfterSaleRepository, Warned};
use anyhow::Context;
use blocklist::NewBlock;
use chrono::{DateTime, Utc};
use orders::{
    Applied, DisputeOutcome, NewHold, Order, OrderError, OrderId, OrderStatus, OrderStep,
    PaymentProvider, ProviderEvent,
};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, Value};
use shared::UserId;

use shared::{Actor, AuditKind};

use crate::entities::orders as order_rows;
use crate::lifecycle::{record_noted_step, record_step};
use crate::orders::{not_pending, put_on_hold, record_event, with_lines};
use crate::sql::run;
use crate::Store;

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
        let txn = self.begin().await?;
        // an audited change locks the row first, so "before" is what the UPDATE replaces
        let before = match audited {
            Some(_) if crate::order_rows::lock_order(&txn, id.get()).await? => {
                crate::order_rows::order_json(&txn, id.get()).await?
            }
            _ => None,
        };
        if let Some(event) = &event {
            if !record_event(&txn, event, at).await? {
                txn.rollback().await.context("failed to roll back")?;
                return Ok(Applied::Replayed);
            }
        }
        let changed = run(&txn, sql, values)
            .await
            .with_context(|| format!("failed to change order {id}"))?;
        if changed.rows_affected() != 1 {
            return not_pending(txn, id).await;
        }
        for (sql, values) in then {
            run(&txn, &sql, values)
                .await
                .with_context(|| format!("failed to record what goes with order {id}'s change"))?;
        }
        let staff = audited.and_then(|(actor, _)| actor.user_id.map(UserId::get));
        record_noted_step(&txn, id.get(), step, staff, note, at).await?;
        if let Some((actor, kind)) = audited {
            let after = crate::order_rows::order_json(&txn, id.get()).await?;
            self.audit(
                &txn,
                actor,
                kind,
                crate::order_rows::order_target(id.get()),
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
        let recorded = run(
            &self.db,
            "UPDATE orders SET payment_id = ? WHERE id = ? AND payment_id IS NULL",
            vec![payment_id.into(), id.get().into()],
        )
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
        let txn = self.begin().await?;
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
            blocks.iter().map(crate::blocklist::insert_block).collect(),
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
