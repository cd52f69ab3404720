//! A shopper's data: everything the shop keeps about an account for its export, and the
//! erasure of an account (`accounts::AccountEraser`) in one transaction.

use accounts::{
    AccountEraser, ChatRecord, DisputeRecord, Erased, Erasure, LineRecord, MessageRecord,
    OrderMessageRecord, OrderRecord, PersonalData, PersonalDataSource, RepoError, ReviewRecord,
    UserId,
};
use anyhow::Context;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Value};

use crate::entities::{chat_messages, chats, order_lines, orders, users};
use crate::sql::{lock_row, statement};
use crate::Store;

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
            orders.push(self.order_record(order).await?);
        }
        Ok(Some(PersonalData {
            account_created_at: account.created_at,
            orders,
            chats: self.chats_of_user(user).await?,
        }))
    }
}

impl Store {
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
        // the columns the order's entity does not map, and its review
        let row = self
            .db
            .query_one(statement(
                &self.db,
                "SELECT o.ticket_thread_id, o.ticket_problem, o.buyer_ready_ip, o.received_ip, \
                 r.rating, r.text, r.name, r.created_at FROM orders o \
                 LEFT JOIN reviews r ON r.order_id = o.id WHERE o.id = ?",
                vec![id.into()],
            ))
            .await
            .with_context(|| format!("failed to load the ticket and review of order {id}"))?;
        let text = |column: &str| -> anyhow::Result<Option<String>> {
            let Some(row) = &row else { return Ok(None) };
            row.try_get("", column)
                .with_context(|| format!("bad {column} of order {id}"))
        };
        let review = match &row {
            Some(row) if row.try_get::<Option<i16>>("", "rating")?.is_some() => {
                Some(ReviewRecord {
                    rating: row.try_get("", "rating")?,
                    text: row.try_get("", "text")?,
                    name: row.try_get("", "name")?,
                    created_at: row.try_get("", "created_at")?,
                })
            }
            _ => None,
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
            review,
            disputes: self.disputes_of_order(id).await?,
            messages: self.messages_of_order(id).await?,
        })
    }

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
        // the account row's lock first: on PostgreSQL it keeps a checkout of this account
        // (which reads it) from slipping in between the check and the erasure
        let lock = "UPDATE users SET name = name WHERE id = ?";
        let Some(txn) = lock_row(&self.db, lock, id, "the account").await? else {
            return Ok(Erased::NotFound);
        };
        let open = open_orders(&txn, id).await?;
        if open > 0 {
            txn.rollback().await.context("failed to roll back")?;
            return Ok(Erased::OpenOrders(open));
        }
        for (sql, values) in erasure_steps(&erasure) {
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

/// How many orders of account `id` are open (pending or paid).
async fn open_orders(txn: &impl ConnectionTrait, id: i64) -> anyhow::Result<u64> {
    let open = txn
        .query_one(statement(
            txn,
            "SELECT COUNT(*) FROM orders WHERE user_id = ? AND status IN (?, ?)",
            vec![id.into(), "pending".into(), "paid".into()],
        ))
        .await
        .context("failed to count the open orders")?
        .map_or(Ok(0), |row| row.try_get_by_index::<i64>(0))
        .context("the open orders count")?;
    Ok(u64::try_from(open).unwrap_or(0))
}

/// The erasure's statements, in their order. Every `?` of a statement written with only the
/// account's id to fill in takes that id; `{its_orders}` stands for the account's orders.
fn erasure_steps(erasure: &Erasure) -> Vec<(String, Vec<Value>)> {
    let id = erasure.user.get();
    let by_id = |sql: &str| {
        let sql = sql.replace("{its_orders}", ITS_ORDERS);
        let values: Vec<Value> = vec![id.into(); sql.matches('?').count()];
        (sql, values)
    };
    let mut steps = vec![
        evidence_kept(erasure),
        // a pending join to the shop's Discord server holds the access token of a Discord
        // account the user ordered with: gone before the orders forget the user
        by_id(
            "DELETE FROM guild_joins WHERE discord_id IN \
             (SELECT discord_id FROM orders WHERE user_id = ? AND discord_id IS NOT NULL)",
        ),
        // the live updates sent to the account and to its chats' sessions
        by_id(
            "DELETE FROM push_events WHERE user_id = ? \
             OR chat_session IN (SELECT session_id FROM chats WHERE user_id = ?)",
        ),
        limits_forgotten(erasure),
        // the messages on the orders' pages (staff's answers too: the conversation is the
        // buyer's), before their live updates below
        by_id("DELETE FROM order_messages WHERE order_id IN {its_orders}"),
        // nothing more is sent to the buyer, nor posted about them
        by_id("DELETE FROM mail_jobs WHERE order_id IN {its_orders}"),
        by_id("DELETE FROM outbox_jobs WHERE order_id IN {its_orders}"),
    ];
    steps.extend(tickets_deleted(erasure));
    steps.extend([
        // the code's count stays; the Discord account becomes a marker unique per order
        // (never a snowflake, so it matches no one's later redemption)
        by_id(
            "UPDATE promo_redemptions SET discord_id = 'erased-' || CAST(order_id AS TEXT) \
             WHERE order_id IN {its_orders}",
        ),
        (
            format!("UPDATE reviews SET name = ? WHERE order_id IN {ITS_ORDERS}"),
            vec![::reviews::ANONYMOUS_NAME.into(), id.into()],
        ),
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
                id.into(),
            ],
        ),
        by_id(
            "DELETE FROM chat_messages WHERE chat_id IN (SELECT id FROM chats WHERE user_id = ?)",
        ),
        by_id("DELETE FROM chats WHERE user_id = ?"),
        by_id("DELETE FROM password_reset_tokens WHERE user_id = ?"),
        // the database's sessions (the service also ends them where they live)
        by_id("DELETE FROM sessions WHERE user_id = ?"),
        // a sign-up waiting for its code, and a demo login, for the same address
        by_id("DELETE FROM pending_signups WHERE email IN (SELECT email FROM users WHERE id = ?)"),
        by_id("DELETE FROM demo_logins WHERE email IN (SELECT email FROM users WHERE id = ?)"),
        by_id("DELETE FROM users WHERE id = ?"),
    ]);
    steps
}

/// What a dispute's evidence needs of the buyer, kept apart (for that legitimate interest) for
/// the orders paid within the retention or under an open dispute, before the orders forget
/// them; purged by the disputes loop.
fn evidence_kept(erasure: &Erasure) -> (String, Vec<Value>) {
    (
        "INSERT INTO evidence_holds (order_id, email, discord_id, discord_username, \
           roblox_username, client_ip, buyer_ready_ip, received_ip, paid_at, created_at) \
         SELECT id, email, discord_id, discord_username, roblox_username, client_ip, \
           buyer_ready_ip, received_ip, paid_at, ? FROM orders \
         WHERE user_id = ? AND paid_at IS NOT NULL AND (paid_at >= ? OR id IN \
           (SELECT order_id FROM disputes WHERE closed_at IS NULL AND order_id IS NOT NULL)) \
         ON CONFLICT (order_id) DO NOTHING"
            .to_owned(),
        vec![
            erasure.at.into(),
            erasure.user.get().into(),
            erasure.evidence_paid_since.into(),
        ],
    )
}

/// The counts keyed by the account (its e-mail address, its id) or its chats' sessions, before
/// the chats go.
fn limits_forgotten(erasure: &Erasure) -> (String, Vec<Value>) {
    let buckets = &erasure.limit_buckets;
    let account_buckets = if buckets.is_empty() {
        "NULL".to_owned()
    } else {
        crate::sql::marks(buckets.len())
    };
    let mut values: Vec<Value> = buckets.iter().map(|bucket| bucket.clone().into()).collect();
    values.push(format!("{}:", chat::SENDS_PER_SESSION_BUCKET).into());
    values.push(erasure.user.get().into());
    let sql = format!(
        "DELETE FROM rate_limits WHERE bucket IN ({account_buckets}) \
         OR bucket IN (SELECT ? || session_id FROM chats WHERE user_id = ?)"
    );
    (sql, values)
}

/// The Discord ticket of each order goes too (but a disputed order's, which the dispute needs):
/// one `erased` step, dispatched already, and the ticket job that deletes its thread, carrying
/// the thread's id since the order forgets it.
fn tickets_deleted(erasure: &Erasure) -> [(String, Vec<Value>); 3] {
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
