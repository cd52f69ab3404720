//! The staff delivery queue on both databases. Claims, releases and deliveries are
//! single conditional UPDATEs: of two members of staff acting on one order at once, exactly
//! one changes it. An order on a risk hold (`hold_reason` set while paid) is out of the queue:
//! it is listed with the held ones, and no claim, delivery or "I'm in the game" matches it.

use std::collections::HashMap;

use anyhow::Context;
use cart_pricing::Money;
use chrono::{DateTime, Utc};
use delivery::{DeliveryRepository, QueueFilter, QueuedItem, QueuedOrder};
use orders::{OrderError, OrderId, OrderStatus, OrderStep, StaffMember};
use sea_orm::{QueryResult, Value};
use shared::PrivateServerUrl;
use shared::UserId;
use shared::{Actor, AuditKind};

use crate::lifecycle::{record_noted_step, record_step};
use crate::sql::{fetch_all, run};
use crate::Store;

/// The most orders the delivered and all filters list.
const HISTORY_LIMIT: i64 = 300;

const SELECT: &str = "SELECT o.id, o.status, o.total_cents, o.currency, o.rate, o.minor_units, \
     o.amount_paid, o.roblox_username, o.discord_id, \
     o.discord_username, o.email, o.created_at, o.paid_at, o.delivered_at, o.claimed_by, \
     o.proof_id, o.claimed_at, o.buyer_ready_at, o.ticket_thread_id, o.ticket_problem, \
     o.hold_reason, o.held_at, u.name AS claimer_name FROM orders o";

/// A claim past the buyer's time to join, not marked yet (values: the paid status, the latest
/// claim time that is past).
const NO_SHOW: &str = "o.status = ? AND o.hold_reason IS NULL AND o.claimed_by IS NOT NULL \
     AND o.claimed_at <= ? AND o.buyer_ready_at IS NULL AND o.no_show_at IS NULL";

/// The paid orders by payment (the queue's own order is the delivery domain's).
const WAITING_ORDER: &str = "ORDER BY o.paid_at ASC, o.id ASC";

/// What the buyer paid, in the currency paid (`orders.currency`, `rate`, `minor_units`,
/// `amount_paid`).
fn paid_of(row: &QueryResult, id: i64) -> anyhow::Result<orders::Paid> {
    let currency: String = row.try_get("", "currency")?;
    let rate: String = row.try_get("", "rate")?;
    crate::orders::paid_from(
        id,
        &currency,
        &rate,
        row.try_get("", "minor_units")?,
        row.try_get("", "amount_paid")?,
    )
}

fn to_queued(row: &QueryResult) -> anyhow::Result<QueuedOrder> {
    let id: i64 = row.try_get("", "id")?;
    let status: String = row.try_get("", "status")?;
    let claimed_by: Option<i64> = row.try_get("", "claimed_by")?;
    let claimer: Option<String> = row.try_get("", "claimer_name")?;
    Ok(QueuedOrder {
        id: OrderId::new(id),
        status: OrderStatus::parse(&status)
            .with_context(|| format!("order {id} has an unknown status {status}"))?,
        items: vec![],
        total: Money::from_cents(row.try_get("", "total_cents")?)
            .with_context(|| format!("order {id} has a bad total"))?,
        paid: paid_of(row, id)?,
        roblox_username: row.try_get("", "roblox_username")?,
        discord_id: row.try_get("", "discord_id")?,
        discord_username: row.try_get("", "discord_username")?,
        email: row.try_get("", "email")?,
        created_at: row.try_get("", "created_at")?,
        paid_at: row.try_get("", "paid_at")?,
        delivered_at: row.try_get("", "delivered_at")?,
        claimed_by: claimed_by.map(|id| StaffMember {
            id: UserId::new(id),
            // an account deleted since: still say who it was
            name: claimer.unwrap_or_else(|| format!("staff #{id}")),
        }),
        proof_id: row.try_get("", "proof_id")?,
        claimed_at: row.try_get("", "claimed_at")?,
        buyer_ready_at: row.try_get("", "buyer_ready_at")?,
        ticket_thread_id: row.try_get("", "ticket_thread_id")?,
        ticket_problem: row.try_get("", "ticket_problem")?,
        hold: crate::orders::risk_hold(
            row.try_get::<Option<String>>("", "hold_reason")?.as_deref(),
            row.try_get("", "held_at")?,
            id,
        )?,
    })
}

impl Store {
    /// The orders `filter` (a WHERE clause and its ORDER BY) picks, with their claimers' names
    /// and their lines.
    async fn queued(
        &self,
        filter: &str,
        values: Vec<Value>,
    ) -> Result<Vec<QueuedOrder>, OrderError> {
        let claimer = crate::accounts::user_join("u", "o.claimed_by");
        let sql = format!("{SELECT} {claimer} {filter}");
        let rows = fetch_all(&self.db, &sql, values)
            .await
            .context("failed to load the delivery queue")?;
        let mut orders = rows
            .iter()
            .map(to_queued)
            .collect::<anyhow::Result<Vec<_>>>()?;
        if orders.is_empty() {
            return Ok(orders);
        }
        let ids: Vec<String> = orders.iter().map(|o| o.id.get().to_string()).collect();
        // ids are integers we just read: safe to inline
        let lines = fetch_all(
            &self.db,
            &format!(
                "SELECT order_id, name, quantity FROM order_lines WHERE order_id IN ({}) \
                     ORDER BY order_id, position",
                ids.join(", ")
            ),
            vec![],
        )
        .await
        .context("failed to load the queued orders' lines")?;
        let mut items: HashMap<i64, Vec<QueuedItem>> = HashMap::new();
        for line in &lines {
            let order: i64 = line.try_get("", "order_id").context("no order_id")?;
            let quantity: i32 = line.try_get("", "quantity").context("no quantity")?;
            items.entry(order).or_default().push(QueuedItem {
                name: line.try_get("", "name").context("no name")?,
                quantity: u32::try_from(quantity).unwrap_or(0),
            });
        }
        for order in &mut orders {
            order.items = items.remove(&order.id.get()).unwrap_or_default();
        }
        Ok(orders)
    }

    /// Runs the conditional UPDATE `sql` on order `id` and, when it changed the order, appends
    /// the audit entry `kind` by `actor` in the same transaction. The row is locked first (a
    /// write), so the "before" values are the ones the UPDATE replaces; a refused change (no
    /// row matched) or one that changed nothing (claiming one's own claim again) writes no entry.
    // the change, its audit entry and its lifecycle step belong to one transaction
    #[allow(clippy::too_many_arguments)]
    async fn audited_change(
        &self,
        id: OrderId,
        actor: &Actor,
        (kind, step, note): (AuditKind, OrderStep, Option<&str>),
        at: DateTime<Utc>,
        sql: &str,
        values: Vec<Value>,
        what: &str,
    ) -> Result<bool, OrderError> {
        let txn = self.begin().await?;
        if !crate::order_rows::lock_order(&txn, id.get()).await? {
            return Ok(false);
        }
        let before = crate::order_rows::order_json(&txn, id.get()).await?;
        let result = run(&txn, sql, values)
            .await
            .with_context(|| format!("failed to {what}"))?;
        if result.rows_affected() != 1 {
            return Ok(false);
        }
        let after = crate::order_rows::order_json(&txn, id.get()).await?;
        if before != after {
            self.audit(
                &txn,
                actor,
                kind,
                crate::order_rows::order_target(id.get()),
                before,
                after,
            )
            .await?;
            let staff = actor.user_id.map(UserId::get);
            record_noted_step(&txn, id.get(), step, staff, note, at).await?;
        }
        txn.commit()
            .await
            .with_context(|| format!("failed to commit: {what}"))?;
        Ok(true)
    }
}

/// A private server link as stored, if it is one still: a link kept before the checks of
/// `PrivateServerUrl` (spaces, mentions, format characters…) is shown and posted to no one, and
/// its owner sets it again; one that parses is handed on in its parsed form.
pub(crate) fn kept_link(stored: Option<String>) -> Option<String> {
    let stored = stored?;
    match PrivateServerUrl::parse(&stored) {
        Ok(url) => Some(url.as_str().to_owned()),
        Err(_) => {
            tracing::warn!("a stored private server link is not one any more: ignored");
            None
        }
    }
}

impl Store {
    /// A step the buyer takes from the order's page: `update` (its time, its client address,
    /// the order's id, the status it needs) sets it once, and the step is recorded with it;
    /// `false` when no row matched.
    async fn buyer_step(
        &self,
        id: OrderId,
        update: &str,
        (at, from, status): (DateTime<Utc>, Option<String>, OrderStatus),
        step: OrderStep,
    ) -> Result<bool, OrderError> {
        let txn = self.begin().await?;
        let changed = run(
            &txn,
            update,
            vec![
                at.into(),
                from.into(),
                id.get().into(),
                status.as_str().into(),
            ],
        )
        .await
        .with_context(|| format!("failed to record {step} of order {id}"))?;
        if changed.rows_affected() != 1 {
            txn.rollback().await.context("failed to roll back")?;
            return Ok(false);
        }
        record_step(&txn, id.get(), step, None, at).await?;
        txn.commit()
            .await
            .with_context(|| format!("failed to commit {step} of order {id}"))?;
        Ok(true)
    }
}

impl DeliveryRepository for Store {
    #[tracing::instrument(skip(self))]
    async fn queue(&self, filter: QueueFilter) -> Result<Vec<QueuedOrder>, OrderError> {
        let paid = OrderStatus::Paid.as_str();
        let delivered = OrderStatus::Delivered.as_str();
        let refunded = OrderStatus::Refunded.as_str();
        let disputed = OrderStatus::Disputed.as_str();
        let waiting_sql = format!("WHERE o.status = ? AND o.hold_reason IS NULL {WAITING_ORDER}");
        let waiting = || self.queued(&waiting_sql, vec![paid.into()]);
        let held_sql = "WHERE o.status = ? AND o.hold_reason IS NOT NULL \
                        ORDER BY o.held_at ASC, o.id ASC";
        let held = || self.queued(held_sql, vec![paid.into()]);
        match filter {
            QueueFilter::Paid => waiting().await,
            QueueFilter::Held => held().await,
            QueueFilter::Delivered => {
                self.queued(
                    &format!(
                        "WHERE o.status = ? \
                         ORDER BY o.delivered_at DESC, o.id DESC LIMIT {HISTORY_LIMIT}"
                    ),
                    vec![delivered.into()],
                )
                .await
            }
            QueueFilter::All => {
                let mut waiting = waiting().await?;
                waiting.extend(held().await?);
                let done = self
                    .queued(
                        &format!(
                            "WHERE o.status IN (?, ?, ?) \
                             ORDER BY o.paid_at DESC, o.id DESC LIMIT {HISTORY_LIMIT}"
                        ),
                        vec![delivered.into(), refunded.into(), disputed.into()],
                    )
                    .await?;
                waiting.extend(done);
                Ok(waiting)
            }
        }
    }

    #[tracing::instrument(skip(self))]
    async fn queued_order(&self, id: OrderId) -> Result<QueuedOrder, OrderError> {
        self.queued("WHERE o.id = ?", vec![id.get().into()])
            .await?
            .pop()
            .ok_or(OrderError::NotFound(id))
    }

    #[tracing::instrument(skip(self, actor))]
    async fn claim(
        &self,
        id: OrderId,
        staff: UserId,
        at: DateTime<Utc>,
        actor: &Actor,
    ) -> Result<bool, OrderError> {
        let staff = staff.get();
        self.audited_change(
            id,
            actor,
            (AuditKind::OrderClaim, OrderStep::Claimed, None),
            at,
            "UPDATE orders SET claimed_at = CASE WHEN claimed_by = ? THEN claimed_at ELSE ? END, \
             no_show_at = CASE WHEN claimed_by = ? THEN no_show_at ELSE NULL END, \
             claimed_by = ? WHERE id = ? AND status = ? AND hold_reason IS NULL \
             AND (claimed_by IS NULL OR claimed_by = ?)",
            vec![
                staff.into(),
                at.into(),
                staff.into(),
                staff.into(),
                id.get().into(),
                OrderStatus::Paid.as_str().into(),
                staff.into(),
            ],
            "claim an order",
        )
        .await
    }

    #[tracing::instrument(skip(self, actor))]
    async fn release(
        &self,
        id: OrderId,
        staff: UserId,
        reason: String,
        actor: &Actor,
    ) -> Result<bool, OrderError> {
        let staff = staff.get();
        self.audited_change(
            id,
            actor,
            (AuditKind::OrderRelease, OrderStep::Released, Some(&reason)),
            self.now(),
            // the next claimer needs the buyer to say again that they are in the game
            "UPDATE orders SET claimed_by = NULL, claimed_at = NULL, buyer_ready_at = NULL, \
             no_show_at = NULL WHERE id = ? AND claimed_by = ?",
            vec![id.get().into(), staff.into()],
            "release an order",
        )
        .await
    }

    #[tracing::instrument(skip(self, actor))]
    async fn deliver(
        &self,
        id: OrderId,
        staff: UserId,
        proof: Option<i64>,
        at: DateTime<Utc>,
        actor: &Actor,
    ) -> Result<bool, OrderError> {
        let staff = staff.get();
        self.audited_change(
            id,
            actor,
            (AuditKind::OrderDeliver, OrderStep::Delivered, None),
            at,
            // a delivery needs its claim: every delivery has its claim and its times
            "UPDATE orders SET status = ?, delivered_at = ?, proof_id = ?, claimed_by = ? \
             WHERE id = ? AND status = ? AND hold_reason IS NULL AND claimed_by = ?",
            vec![
                OrderStatus::Delivered.as_str().into(),
                at.into(),
                proof.into(),
                staff.into(),
                id.get().into(),
                OrderStatus::Paid.as_str().into(),
                staff.into(),
            ],
            "mark an order delivered",
        )
        .await
    }

    #[tracing::instrument(skip(self, actor))]
    async fn release_hold(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        actor: &Actor,
    ) -> Result<bool, OrderError> {
        self.audited_change(
            id,
            actor,
            (AuditKind::OrderHoldRelease, OrderStep::HoldReleased, None),
            at,
            "UPDATE orders SET hold_reason = NULL, held_at = NULL \
             WHERE id = ? AND status = ? AND hold_reason IS NOT NULL",
            vec![id.get().into(), OrderStatus::Paid.as_str().into()],
            "release an order's risk hold",
        )
        .await
    }

    async fn due_no_shows(
        &self,
        claimed_before: DateTime<Utc>,
    ) -> Result<Vec<OrderId>, OrderError> {
        let rows = fetch_all(
            &self.db,
            &format!("SELECT o.id FROM orders o WHERE {NO_SHOW} ORDER BY o.claimed_at"),
            vec![OrderStatus::Paid.as_str().into(), claimed_before.into()],
        )
        .await
        .context("failed to read the claims past their time to join")?;
        rows.iter()
            .map(|row| {
                let id: i64 = row.try_get("", "id").context("bad order id")?;
                Ok(OrderId::new(id))
            })
            .collect()
    }

    #[tracing::instrument(skip(self))]
    async fn mark_no_show(
        &self,
        id: OrderId,
        claimed_before: DateTime<Utc>,
        at: DateTime<Utc>,
    ) -> Result<bool, OrderError> {
        // the conditional update first: the write lock, and one instance wins
        let txn = self.begin().await?;
        let changed = run(
            &txn,
            &format!(
                "UPDATE orders SET no_show_at = ? WHERE id = ? AND {}",
                NO_SHOW.replace("o.", "")
            ),
            vec![
                at.into(),
                id.get().into(),
                OrderStatus::Paid.as_str().into(),
                claimed_before.into(),
            ],
        )
        .await
        .with_context(|| format!("failed to mark order {id} a no-show"))?;
        if changed.rows_affected() != 1 {
            txn.rollback().await.context("failed to roll back")?;
            return Ok(false);
        }
        record_step(&txn, id.get(), OrderStep::NoShow, None, at).await?;
        txn.commit()
            .await
            .with_context(|| format!("failed to commit the no-show of order {id}"))?;
        Ok(true)
    }

    #[tracing::instrument(skip(self, from))]
    async fn mark_ready(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        from: Option<String>,
    ) -> Result<bool, OrderError> {
        // a held order waits for staff, not for its buyer
        self.buyer_step(
            id,
            "UPDATE orders SET buyer_ready_at = ?, buyer_ready_ip = ? \
             WHERE id = ? AND status = ? AND hold_reason IS NULL AND buyer_ready_at IS NULL \
               AND claimed_by IS NOT NULL",
            (at, from, OrderStatus::Paid),
            OrderStep::Ready,
        )
        .await
    }

    #[tracing::instrument(skip(self, from))]
    async fn mark_received(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        from: Option<String>,
    ) -> Result<bool, OrderError> {
        self.buyer_step(
            id,
            "UPDATE orders SET received_at = ?, received_ip = ? \
             WHERE id = ? AND status = ? AND received_at IS NULL",
            (at, from, OrderStatus::Delivered),
            OrderStep::Received,
        )
        .await
    }

    #[tracing::instrument(skip(self))]
    async fn private_server_url(&self, staff: UserId) -> Result<Option<String>, OrderError> {
        let stored = crate::accounts::staff_member(&self.db, staff.get()).await?;
        Ok(stored.and_then(|(_, link)| kept_link(link)))
    }

    #[tracing::instrument(skip(self, url, actor))]
    async fn set_private_server_url(
        &self,
        staff: UserId,
        url: Option<PrivateServerUrl>,
        actor: &Actor,
    ) -> Result<(), OrderError> {
        Ok(self.set_staff_link(staff.get(), url, actor).await?)
    }

    #[tracing::instrument(skip(self))]
    async fn proof_exists(&self, id: i64) -> Result<bool, OrderError> {
        Ok(crate::proofs::exists(&self.db, id).await?)
    }
}
