//! A shopper's data: everything the shop keeps about an account for its export, and the
//! erasure of an account (`accounts::AccountEraser`) in one transaction.

use accounts::{
    AccountEraser, ChatRecord, DisputeRecord, Erased, Erasure, LineRecord, MessageRecord,
    OrderMessageRecord, OrderRecord, PersonalData, PersonalDataSource, RepoError, ReviewRecord,
    UserId,
};
use anyhow::Context;
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, TransactionTrait, Value,
};

use crate::entities::{chat_messages, chats, order_lines, orders, users};
use crate::sql::statement;
use crate::Store;

/// An order's ticket (thread, problem) and its buyer's addresses ("I'm in the game", "I got
/// my items").
type TicketAndAddresses = (
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

impl Store {
    /// Every chat of the account, oldest first, with its messages.
    async fn chats_of_user(&self, user: UserId) -> anyhow::Result<Vec<ChatRecord>> {
        let rows = chats::Entity::find()
            .filter(chats::Column::UserId.eq(user.get()))
            .order_by_asc(chats::Column::CreatedAt)
            .all(&self.db)
            .await
            .with_context(|| format!("failed to load the chats of user {user}"))?;
        let mut out = Vec::with_capacity(rows.len());
        for chat in rows {
            let messages = chat_messages::Entity::find()
                .filter(chat_messages::Column::ChatId.eq(chat.id.clone()))
                .order_by_asc(chat_messages::Column::Id)
                .all(&self.db)
                .await
                .with_context(|| format!("failed to load the messages of chat {}", chat.id))?;
            out.push(ChatRecord {
                id: chat.id,
                status: chat.status,
                created_at: chat.created_at,
                messages: messages
                    .into_iter()
                    .map(|m| MessageRecord {
                        sender: m.sender_type,
                        text: m.message,
                        created_at: m.created_at,
                    })
                    .collect(),
            });
        }
        Ok(out)
    }

    /// Everything the shop keeps about the account (`None` when there is no such account): the
    /// account, its orders with their lines, buyer fields and reviews, and its help chats.
    async fn read_personal_data(&self, user: UserId) -> anyhow::Result<Option<PersonalData>> {
        let Some(account) = users::Entity::find_by_id(user.get())
            .one(&self.db)
            .await
            .with_context(|| format!("failed to load user {user}"))?
        else {
            return Ok(None);
        };
        let rows = orders::Entity::find()
            .filter(orders::Column::UserId.eq(user.get()))
            .order_by_desc(orders::Column::CreatedAt)
            .order_by_desc(orders::Column::Id)
            .all(&self.db)
            .await
            .with_context(|| format!("failed to load the orders of user {user}"))?;
        let mut orders = Vec::with_capacity(rows.len());
        for order in rows {
            let lines = order_lines::Entity::find()
                .filter(order_lines::Column::OrderId.eq(order.id))
                .order_by_asc(order_lines::Column::Position)
                .all(&self.db)
                .await
                .with_context(|| format!("failed to load the lines of order {}", order.id))?;
            let review = self
                .db
                .query_one(statement(
                    &self.db,
                    "SELECT rating, text, name, created_at FROM reviews WHERE order_id = ?",
                    vec![order.id.into()],
                ))
                .await
                .with_context(|| format!("failed to load the review of order {}", order.id))?
                .map(|row| -> anyhow::Result<ReviewRecord> {
                    Ok(ReviewRecord {
                        rating: row.try_get("", "rating")?,
                        text: row.try_get("", "text")?,
                        name: row.try_get("", "name")?,
                        created_at: row.try_get("", "created_at")?,
                    })
                })
                .transpose()
                .with_context(|| format!("bad review of order {}", order.id))?;
            let (ticket_thread_id, ticket_problem, buyer_ready_ip, received_ip) = self
                .db
                .query_one(statement(
                    &self.db,
                    "SELECT ticket_thread_id, ticket_problem, buyer_ready_ip, received_ip \
                     FROM orders WHERE id = ?",
                    vec![order.id.into()],
                ))
                .await
                .with_context(|| format!("failed to load the ticket of order {}", order.id))?
                .map(|row| -> anyhow::Result<TicketAndAddresses> {
                    Ok((
                        row.try_get("", "ticket_thread_id")?,
                        row.try_get("", "ticket_problem")?,
                        row.try_get("", "buyer_ready_ip")?,
                        row.try_get("", "received_ip")?,
                    ))
                })
                .transpose()
                .with_context(|| format!("bad ticket of order {}", order.id))?
                .unwrap_or_default();
            orders.push(OrderRecord {
                id: order.id,
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
                buyer_ready_ip,
                received_ip,
                ticket_thread_id,
                ticket_problem,
                review,
                disputes: self.disputes_of_order(order.id).await?,
                messages: self.messages_of_order(order.id).await?,
            });
        }
        Ok(Some(PersonalData {
            account_created_at: account.created_at,
            orders,
            chats: self.chats_of_user(user).await?,
        }))
    }
}

impl Store {
    /// The disputes of an order for its buyer's export, with the evidence fields sent.
    async fn disputes_of_order(&self, order: i64) -> anyhow::Result<Vec<DisputeRecord>> {
        let rows = self
            .db
            .query_all(statement(
                &self.db,
                "SELECT dispute_id, evidence FROM disputes WHERE order_id = ? ORDER BY id",
                vec![order.into()],
            ))
            .await
            .with_context(|| format!("failed to load the disputes of order {order}"))?;
        rows.iter()
            .map(|row| {
                let evidence: String = row.try_get("", "evidence")?;
                let sent = if evidence == disputes::EvidenceState::None.as_str() {
                    vec![]
                } else {
                    disputes::EvidenceText::sent_fields()
                        .into_iter()
                        .map(str::to_owned)
                        .collect()
                };
                Ok(DisputeRecord {
                    dispute_id: row.try_get("", "dispute_id")?,
                    evidence,
                    sent_to_provider: sent,
                })
            })
            .collect()
    }
}

impl Store {
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

impl PersonalDataSource for Store {
    async fn personal_data(&self, user: UserId) -> Result<Option<PersonalData>, RepoError> {
        Ok(self.read_personal_data(user).await?)
    }
}

/// An order's status while its dispute is open: its ticket stays.
const DISPUTED: &str = "disputed";
/// The step the erasure records for each order whose ticket it deletes.
const ERASED_STEP: &str = ::orders::OrderStep::Erased.as_str();

/// The orders of the account being erased, as a subquery with one `?` (its id).
const ITS_ORDERS: &str = "(SELECT id FROM orders WHERE user_id = ?)";

impl AccountEraser for Store {
    #[tracing::instrument(skip_all, fields(user = %erasure.user))]
    async fn erase(&self, erasure: Erasure) -> Result<Erased, RepoError> {
        let id = erasure.user.get();
        let txn = self
            .db
            .begin()
            .await
            .context("failed to start a transaction")?;
        // The account row first: on PostgreSQL its lock keeps a checkout of this account
        // (which reads it) from slipping in between the check and the erasure.
        let locked = txn
            .execute(statement(
                &txn,
                "UPDATE users SET name = name WHERE id = ?",
                vec![id.into()],
            ))
            .await
            .context("failed to lock the account")?;
        if locked.rows_affected() == 0 {
            txn.rollback().await.context("failed to roll back")?;
            return Ok(Erased::NotFound);
        }
        let open = txn
            .query_one(statement(
                &txn,
                "SELECT COUNT(*) FROM orders WHERE user_id = ? AND status IN (?, ?)",
                vec![id.into(), "pending".into(), "paid".into()],
            ))
            .await
            .context("failed to count the open orders")?
            .map_or(Ok(0), |row| row.try_get_by_index::<i64>(0))
            .context("the open orders count")?;
        if open > 0 {
            txn.rollback().await.context("failed to roll back")?;
            return Ok(Erased::OpenOrders(u64::try_from(open).unwrap_or(0)));
        }
        let account_buckets = if erasure.limit_buckets.is_empty() {
            "NULL".to_owned()
        } else {
            vec!["?"; erasure.limit_buckets.len()].join(", ")
        };
        let limits_sql = format!(
            "DELETE FROM rate_limits WHERE bucket IN ({account_buckets}) \
             OR bucket IN (SELECT ? || session_id FROM chats WHERE user_id = ?)"
        );
        let mut limits_values: Vec<Value> = erasure
            .limit_buckets
            .iter()
            .map(|bucket| bucket.clone().into())
            .collect();
        limits_values.push(format!("{}:", chat::SENDS_PER_SESSION_BUCKET).into());
        limits_values.push(id.into());
        let its_orders = |sql: &str| sql.replace("{its_orders}", ITS_ORDERS);
        let steps: Vec<(String, Vec<Value>)> = vec![
            // what a dispute's evidence needs of the buyer, kept apart (for that legitimate
            // interest) for the orders paid within the retention or under an open dispute,
            // before the orders forget them; purged by the disputes loop
            (
                "INSERT INTO evidence_holds (order_id, email, discord_id, discord_username, \
                   roblox_username, client_ip, buyer_ready_ip, received_ip, paid_at, created_at) \
                 SELECT id, email, discord_id, discord_username, roblox_username, client_ip, \
                   buyer_ready_ip, received_ip, paid_at, ? FROM orders \
                 WHERE user_id = ? AND paid_at IS NOT NULL AND (paid_at >= ? OR id IN \
                   (SELECT order_id FROM disputes WHERE closed_at IS NULL \
                     AND order_id IS NOT NULL)) \
                 ON CONFLICT (order_id) DO NOTHING"
                    .to_owned(),
                vec![
                    erasure.at.into(),
                    id.into(),
                    erasure.evidence_paid_since.into(),
                ],
            ),
            // a pending join to the shop's Discord server holds the access token of a Discord
            // account the user ordered with: gone before the orders forget the user
            (
                "DELETE FROM guild_joins WHERE discord_id IN \
                 (SELECT discord_id FROM orders WHERE user_id = ? AND discord_id IS NOT NULL)"
                    .to_owned(),
                vec![id.into()],
            ),
            // the live updates sent to the account and to its chats' sessions
            (
                "DELETE FROM push_events WHERE user_id = ? \
                 OR chat_session IN (SELECT session_id FROM chats WHERE user_id = ?)"
                    .to_owned(),
                vec![id.into(), id.into()],
            ),
            // the counts keyed by the account (its e-mail address, its id) or its chats'
            // sessions, before the chats go
            (limits_sql, limits_values),
            // the messages on the orders' pages (staff's answers too: the conversation is the
            // buyer's), before their live updates below
            (
                its_orders("DELETE FROM order_messages WHERE order_id IN {its_orders}"),
                vec![id.into()],
            ),
            // nothing more is sent to the buyer, nor posted about them
            (
                its_orders("DELETE FROM mail_jobs WHERE order_id IN {its_orders}"),
                vec![id.into()],
            ),
            (
                its_orders("DELETE FROM outbox_jobs WHERE order_id IN {its_orders}"),
                vec![id.into()],
            ),
            // the Discord ticket of each order goes too (but a disputed order's, which the
            // dispute needs): one `erased` step, dispatched already, and the ticket job that
            // deletes its thread, carrying the thread's id since the order forgets it below
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
                    "pending".into(),
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
            // the code's count stays; the Discord account becomes a marker unique per order
            // (never a snowflake, so it matches no one's later redemption)
            (
                its_orders(
                    "UPDATE promo_redemptions SET discord_id = 'erased-' || CAST(order_id AS TEXT) \
                     WHERE order_id IN {its_orders}",
                ),
                vec![id.into()],
            ),
            (
                its_orders("UPDATE reviews SET name = ? WHERE order_id IN {its_orders}"),
                vec![::reviews::ANONYMOUS_NAME.into(), id.into()],
            ),
            (
                "UPDATE orders SET email = ?, discord_id = NULL, discord_username = ?, \
                 discord_avatar = NULL, roblox_username = ?, client_ip = NULL, client_net = NULL, \
                 buyer_ready_ip = NULL, received_ip = NULL, \
                 buyer_token = NULL, ticket_problem = NULL, \
                 ticket_thread_id = CASE WHEN status = ? THEN ticket_thread_id ELSE NULL END, \
                 idempotency_key = NULL, request_fingerprint = NULL, \
                 user_id = NULL WHERE user_id = ?"
                    .to_owned(),
                vec![
                    erasure.email.clone().into(),
                    erasure.name.clone().into(),
                    erasure.name.clone().into(),
                    DISPUTED.into(),
                    id.into(),
                ],
            ),
            (
                "DELETE FROM chat_messages WHERE chat_id IN (SELECT id FROM chats WHERE user_id = ?)"
                    .to_owned(),
                vec![id.into()],
            ),
            ("DELETE FROM chats WHERE user_id = ?".to_owned(), vec![id.into()]),
            (
                "DELETE FROM password_reset_tokens WHERE user_id = ?".to_owned(),
                vec![id.into()],
            ),
            // the database's sessions (the service also ends them where they live)
            ("DELETE FROM sessions WHERE user_id = ?".to_owned(), vec![id.into()]),
            // a sign-up waiting for its code, and a demo login, for the same address
            (
                "DELETE FROM pending_signups WHERE email IN (SELECT email FROM users WHERE id = ?)"
                    .to_owned(),
                vec![id.into()],
            ),
            (
                "DELETE FROM demo_logins WHERE email IN (SELECT email FROM users WHERE id = ?)"
                    .to_owned(),
                vec![id.into()],
            ),
            ("DELETE FROM users WHERE id = ?".to_owned(), vec![id.into()]),
        ];
        for (sql, values) in steps {
            txn.execute(statement(&txn, &sql, values))
                .await
                .with_context(|| format!("failed to erase user {id}: {sql}"))?;
        }
        txn.commit()
            .await
            .with_context(|| format!("failed to commit the erasure of user {id}"))?;
        Ok(Erased::Done)
    }
}
