//! `order_messages`: the line between an order's buyer and the shop's staff (issue 34 item 5),
//! each message kept with the order's `message` step (the outbox that mirrors it into the
//! Discord ticket) and, for a message of staff, its audit entry, in one transaction.

use anyhow::Context;
use chrono::{DateTime, Utc};
use delivery::{MessageRepository, MessageSide, NewOrderMessage, OrderMessage};
use orders::tickets::TicketMessage;
use orders::{OrderError, OrderId, OrderStatus, OrderStep};
use sea_orm::{ConnectionTrait, QueryResult};
use serde_json::json;
use shared::{Actor, AuditKind, UserId};

use crate::lifecycle::record_noted_step;
use crate::sql::{fetch_all, fetch_one};
use crate::Store;

/// A message with the names of its author: the order's Roblox name for the buyer's, the
/// member of staff's for staff's (a staff account gone reads as "Staff").
const SELECT: &str = "SELECT m.id, m.order_id, m.sender, m.text, m.created_at, \
     o.roblox_username, u.name AS staff_name \
     FROM order_messages m JOIN orders o ON o.id = m.order_id";

/// The messages `then` (a WHERE clause and its order) picks, with their authors' names.
fn messages(then: &str) -> String {
    let staff = crate::accounts::user_join("u", "m.staff_id");
    format!("{SELECT} {staff} {then}")
}

/// The name a message of a staff account that no longer exists is shown under.
const FORMER_STAFF: &str = "Staff";

fn message_of(row: &QueryResult) -> anyhow::Result<OrderMessage> {
    let sender: String = row.try_get("", "sender")?;
    let from = MessageSide::parse(&sender)
        .with_context(|| format!("unknown message sender {sender:?}"))?;
    let author = match from {
        MessageSide::Buyer => row.try_get::<String>("", "roblox_username")?,
        MessageSide::Staff => row
            .try_get::<Option<String>>("", "staff_name")?
            .unwrap_or_else(|| FORMER_STAFF.to_owned()),
    };
    Ok(OrderMessage {
        id: row.try_get("", "id")?,
        order_id: OrderId::new(row.try_get("", "order_id")?),
        from,
        author,
        text: row.try_get("", "text")?,
        created_at: row.try_get("", "created_at")?,
    })
}

/// The message `id` of order `order`, read on `db`.
async fn read_message(
    db: &impl ConnectionTrait,
    order: i64,
    id: i64,
) -> anyhow::Result<Option<OrderMessage>> {
    fetch_one(
        db,
        &messages("WHERE m.order_id = ? AND m.id = ?"),
        vec![order.into(), id.into()],
    )
    .await
    .with_context(|| format!("failed to read message {id} of order {order}"))?
    .map(|row| message_of(&row))
    .transpose()
}

impl MessageRepository for Store {
    #[tracing::instrument(skip(self))]
    async fn message_window(
        &self,
        order: OrderId,
    ) -> Result<(OrderStatus, Option<DateTime<Utc>>), OrderError> {
        let row = fetch_one(
            &self.db,
            "SELECT status, delivered_at FROM orders WHERE id = ?",
            vec![order.get().into()],
        )
        .await
        .with_context(|| format!("failed to read order {order}"))?
        .ok_or(OrderError::NotFound(order))?;
        let status: String = row.try_get("", "status").context("bad status")?;
        let status = OrderStatus::parse(&status)
            .with_context(|| format!("order {order} has the unknown status {status:?}"))?;
        let delivered_at = row
            .try_get("", "delivered_at")
            .context("bad delivered_at")?;
        Ok((status, delivered_at))
    }

    #[tracing::instrument(skip(self))]
    async fn order_messages(&self, order: OrderId) -> Result<Vec<OrderMessage>, OrderError> {
        let rows = fetch_all(
            &self.db,
            &messages("WHERE m.order_id = ? ORDER BY m.id"),
            vec![order.get().into()],
        )
        .await
        .with_context(|| format!("failed to read the messages of order {order}"))?;
        Ok(rows
            .iter()
            .map(message_of)
            .collect::<anyhow::Result<Vec<_>>>()?)
    }

    #[tracing::instrument(skip(self, message, actor), fields(order = %message.order_id, side = %message.from))]
    async fn add_message(
        &self,
        message: &NewOrderMessage,
        delivered_since: DateTime<Utc>,
        actor: Option<Actor>,
    ) -> Result<Option<OrderMessage>, OrderError> {
        let order = message.order_id.get();
        let txn = self.begin().await?;
        // the write first (SQLite): the message, only where its order is open for it
        let inserted = fetch_one(
            &txn,
            "INSERT INTO order_messages (order_id, sender, staff_id, text, created_at) \
                 SELECT id, ?, ?, ?, ? FROM orders WHERE id = ? \
                 AND (status = ? OR (status = ? AND delivered_at >= ?)) RETURNING id",
            vec![
                message.from.as_str().into(),
                message.staff.map(UserId::get).into(),
                message.text.as_ref().into(),
                message.at.into(),
                order.into(),
                OrderStatus::Paid.as_str().into(),
                OrderStatus::Delivered.as_str().into(),
                delivered_since.into(),
            ],
        )
        .await
        .with_context(|| format!("failed to keep a message on order {order}"))?;
        let Some(inserted) = inserted else {
            txn.rollback().await.context("failed to roll back")?;
            return Ok(None);
        };
        let id: i64 = inserted.try_get_by_index(0).context("bad message id")?;
        record_noted_step(
            &txn,
            order,
            OrderStep::Message,
            message.staff.map(UserId::get),
            Some(&id.to_string()),
            message.at,
        )
        .await?;
        if let Some(actor) = &actor {
            // the message by its id: its words stay out of the append-only log
            self.audit(
                &txn,
                actor,
                AuditKind::OrderMessage,
                format!("order_message:{id}"),
                None,
                Some(json!({ "order_id": order })),
            )
            .await?;
        }
        let kept = read_message(&txn, order, id)
            .await?
            .with_context(|| format!("message {id} of order {order} vanished"))?;
        txn.commit()
            .await
            .with_context(|| format!("failed to commit a message on order {order}"))?;
        Ok(Some(kept))
    }
}

impl Store {
    /// The message `id` of order `order` as the Discord ticket mirrors it.
    pub(crate) async fn ticket_message_of(
        &self,
        order: OrderId,
        id: i64,
    ) -> Result<Option<TicketMessage>, OrderError> {
        Ok(read_message(&self.db, order.get(), id)
            .await?
            .map(|message| TicketMessage {
                from_staff: message.from == MessageSide::Staff,
                author: message.author,
                text: message.text,
            }))
    }
}
