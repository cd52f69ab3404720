//! An account's orders as its owner's export shows them, and what its erasure does to them
//! (the statements `privacy.rs` runs in the erasure's transaction, in its order).

use accounts::{Erasure, LineRecord, OrderMessageRecord, OrderRecord, UserId};
use anyhow::Context;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};

use crate::entities::{order_lines, orders};
use crate::sql::{by_id, fetch_one, Step};
use crate::Store;

/// An order's status while its dispute is open: its ticket stays.
const DISPUTED: &str = "disputed";
/// The step the erasure records for each order whose ticket it deletes.
const ERASED_STEP: &str = ::orders::OrderStep::Erased.as_str();

/// How many orders of account `id` are open (pending or paid).
pub(crate) async fn open_orders(txn: &impl ConnectionTrait, id: i64) -> anyhow::Result<u64> {
    let open = fetch_one(
        txn,
        "SELECT COUNT(*) FROM orders WHERE user_id = ? AND status IN (?, ?)",
        vec![id.into(), "pending".into(), "paid".into()],
    )
    .await
    .context("failed to count the open orders")?
    .map_or(Ok(0), |row| row.try_get_by_index::<i64>(0))
    .context("the open orders count")?;
    Ok(u64::try_from(open).unwrap_or(0))
}

/// A pending join to the shop's Discord server holds the access token of a Discord account the
/// user ordered with: gone before the orders forget the user.
pub(crate) fn joins_forgotten(id: i64) -> Step {
    by_id(
        "DELETE FROM guild_joins WHERE discord_id IN \
         (SELECT discord_id FROM orders WHERE user_id = ? AND discord_id IS NOT NULL)",
        id,
    )
}

/// The messages on the orders' pages (staff's answers too: the conversation is the buyer's),
/// and the jobs: nothing more is sent to the buyer, nor posted about them.
pub(crate) fn jobs_forgotten(id: i64) -> [Step; 3] {
    ["order_messages", "mail_jobs", "outbox_jobs"].map(|table| {
        by_id(
            &format!(
                "DELETE FROM {table} WHERE order_id IN {}",
                crate::order_rows::ITS_ORDERS
            ),
            id,
        )
    })
}

/// The Discord ticket of each order goes too (but a disputed order's, which the dispute needs):
/// one `erased` step, dispatched already, and the ticket job that deletes its thread, carrying
/// the thread's id since the order forgets it.
pub(crate) fn tickets_deleted(erasure: &Erasure) -> [Step; 3] {
    let id = erasure.user.get();
    [
        (
            "INSERT INTO order_events (order_id, step, at, dispatched_at) \
             SELECT id, ?, ?, ? FROM orders WHERE user_id = ? \
             AND ticket_thread_id IS NOT NULL AND status <> ?"
                .to_owned(),
            vec![
                ERASED_STEP.into(),
                erasure.at.into(),
                erasure.at.into(),
                id.into(),
                DISPUTED.into(),
            ],
        ),
        (
            "INSERT INTO outbox_jobs (event_id, order_id, channel, status, attempts, \
             next_attempt_at, created_at, thread_id) \
             SELECT e.id, o.id, ?, ?, 0, ?, ?, o.ticket_thread_id \
             FROM order_events e JOIN orders o ON o.id = e.order_id \
             WHERE o.user_id = ? AND e.step = ? AND o.ticket_thread_id IS NOT NULL \
             AND o.status <> ?"
                .to_owned(),
            vec![
                ::orders::TICKET_CHANNEL.name.into(),
                crate::jobs::PENDING.into(),
                erasure.at.into(),
                erasure.at.into(),
                id.into(),
                ERASED_STEP.into(),
                DISPUTED.into(),
            ],
        ),
        (
            "DELETE FROM ticket_posts WHERE order_id IN \
             (SELECT id FROM orders WHERE user_id = ? AND status <> ?)"
                .to_owned(),
            vec![id.into(), DISPUTED.into()],
        ),
    ]
}

/// The orders forget their buyer: its fields become the erasure's markers, and a disputed
/// order keeps its ticket.
pub(crate) fn orders_forgotten(erasure: &Erasure) -> Step {
    (
        "UPDATE orders SET email = ?, discord_id = NULL, discord_username = ?, \
         discord_avatar = NULL, roblox_username = ?, client_ip = NULL, client_net = NULL, \
         buyer_ready_ip = NULL, received_ip = NULL, buyer_token = NULL, \
         ticket_problem = NULL, \
         ticket_thread_id = CASE WHEN status = ? THEN ticket_thread_id ELSE NULL END, \
         idempotency_key = NULL, request_fingerprint = NULL, user_id = NULL WHERE user_id = ?"
            .to_owned(),
        vec![
            erasure.email.clone().into(),
            erasure.name.clone().into(),
            erasure.name.clone().into(),
            DISPUTED.into(),
            erasure.user.get().into(),
        ],
    )
}

impl Store {
    /// The account's orders for its export, newest first.
    pub(crate) async fn order_records(&self, user: UserId) -> anyhow::Result<Vec<OrderRecord>> {
        let rows = orders::Entity::find()
            .filter(orders::Column::UserId.eq(user.get()))
            .order_by_desc(orders::Column::CreatedAt)
            .order_by_desc(orders::Column::Id)
            .all(&self.db)
            .await
            .with_context(|| format!("failed to load the orders of user {user}"))?;
        let mut orders = Vec::with_capacity(rows.len());
        for order in rows {
            orders.push(self.order_record(order).await?);
        }
        Ok(orders)
    }

    /// One order of the account for its export: its lines, its buyer's fields, its ticket, its
    /// review, its disputes and its messages.
    async fn order_record(&self, order: orders::Model) -> anyhow::Result<OrderRecord> {
        let id = order.id;
        let lines = order_lines::Entity::find()
            .filter(order_lines::Column::OrderId.eq(id))
            .order_by_asc(order_lines::Column::Position)
            .all(&self.db)
            .await
            .with_context(|| format!("failed to load the lines of order {id}"))?;
        // the columns the order's entity does not map
        let row = fetch_one(
            &self.db,
            "SELECT ticket_thread_id, ticket_problem, buyer_ready_ip, received_ip \
                 FROM orders WHERE id = ?",
            vec![id.into()],
        )
        .await
        .with_context(|| format!("failed to load the ticket of order {id}"))?;
        let text = |column: &str| -> anyhow::Result<Option<String>> {
            let Some(row) = &row else { return Ok(None) };
            row.try_get("", column)
                .with_context(|| format!("bad {column} of order {id}"))
        };
        Ok(OrderRecord {
            id,
            status: order.status,
            created_at: order.created_at,
            paid_at: order.paid_at,
            delivered_at: order.delivered_at,
            lines: lines
                .into_iter()
                .map(|line| LineRecord {
                    product_id: line.product_id,
                    name: line.name,
                    unit_price_cents: line.unit_price_cents,
                    quantity: line.quantity,
                })
                .collect(),
            subtotal_cents: order.subtotal_cents,
            discount_cents: order.discount_cents,
            fee_cents: order.fee_cents,
            total_cents: order.total_cents,
            promo_code: order.promo_code,
            payment_method: order.payment_method,
            email: order.email,
            discord_id: order.discord_id.unwrap_or_default(),
            discord_username: order.discord_username,
            discord_avatar: order.discord_avatar,
            roblox_username: order.roblox_username,
            client_ip: order.client_ip,
            buyer_ready_ip: text("buyer_ready_ip")?,
            received_ip: text("received_ip")?,
            ticket_thread_id: text("ticket_thread_id")?,
            ticket_problem: text("ticket_problem")?,
            review: crate::reviews::review_record(&self.db, id).await?,
            disputes: crate::dispute_rows::dispute_records(&self.db, id).await?,
            messages: self.messages_of_order(id).await?,
        })
    }

    /// The messages on an order's page for its buyer's export, oldest first.
    async fn messages_of_order(&self, order: i64) -> anyhow::Result<Vec<OrderMessageRecord>> {
        let messages =
            delivery::MessageRepository::order_messages(self, ::orders::OrderId::new(order))
                .await
                .map_err(anyhow::Error::new)?;
        Ok(messages
            .into_iter()
            .map(|message| OrderMessageRecord {
                from: message.from.as_str().to_owned(),
                author: message.author,
                text: message.text,
                created_at: message.created_at,
            })
            .collect())
    }
}
