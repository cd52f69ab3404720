//! `order_events`: each change of an order, recorded in the transaction that makes it (the
//! outbox the dispatcher reads; see `orders::lifecycle`).

use anyhow::Context;
use chrono::{DateTime, Utc};
use orders::OrderStep;
use sea_orm::ConnectionTrait;

use crate::sql::run;

/// Appends the event `step` of order `order` inside the caller's transaction.
pub(crate) async fn record_step(
    txn: &impl ConnectionTrait,
    order: i64,
    step: OrderStep,
    staff: Option<i64>,
    at: DateTime<Utc>,
) -> anyhow::Result<()> {
    record_noted_step(txn, order, step, staff, None, at).await
}

/// [`record_step`] with what the provider said about it (a dispute's reason), cut to the
/// column's 200 characters.
pub(crate) async fn record_noted_step(
    txn: &impl ConnectionTrait,
    order: i64,
    step: OrderStep,
    staff: Option<i64>,
    note: Option<&str>,
    at: DateTime<Utc>,
) -> anyhow::Result<()> {
    let note = note.map(|note| note.chars().take(200).collect::<String>());
    run(
        txn,
        "INSERT INTO order_events (order_id, step, staff_id, note, at) VALUES (?, ?, ?, ?, ?)",
        vec![
            order.into(),
            step.as_str().into(),
            staff.into(),
            note.into(),
            at.into(),
        ],
    )
    .await
    .with_context(|| format!("failed to record the step {step} of order {order}"))?;
    Ok(())
}
