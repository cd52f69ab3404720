//! The help chat's repository. Every write raises the chat's `version` (and `updated_at`) in
//! the same transaction, so a poller can tell "nothing new" from one cheap row.

use std::collections::HashMap;

use anyhow::Context;
use chat::{
    Chat, ChatError, ChatId, ChatMessage, ChatRepository, ChatStamp, ChatStatus, ChatUser,
    MessageId, NewChat, NewMessage, Opened, SenderType, SessionId, Side, StaffChatRow,
    StaffChatsQuery, StaffFilter, StatusChange,
};
use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Condition, Expr, Query};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect, SqlErr, TransactionTrait,
};
use shared::UserId;

use accounts::{ChatRecord, MessageRecord};

use crate::entities::{chat_messages, chats};
use crate::sql::{by_id, Step};
use crate::Store;

/// A chat's values as the audit log keeps them on its deletion: who it was with, who took it,
/// its status and how many messages went with it (not their text, nor the browser's session).
fn chat_json(chat: &chats::Model, messages: u64) -> serde_json::Value {
    serde_json::json!({
        "status": chat.status,
        "user_id": chat.user_id,
        "user_name": chat.user_name,
        "accepted_by": chat.accepted_by,
        "messages": messages,
    })
}

impl ChatRepository for Store {
    #[tracing::instrument(skip_all, fields(chat = %chat.id))]
    async fn create_or_open(
        &self,
        chat: NewChat,
        messages: Vec<NewMessage>,
    ) -> Result<Opened, ChatError> {
        let session = chat.session.clone();
        match self.insert_chat(chat, messages).await {
            Ok(chat) => Ok(Opened {
                chat,
                created: true,
            }),
            // the unique index on the open chats' session ids: another call made it first
            Err(CreateError::SessionHasOpenChat) => {
                let open = self.latest_open_chat(&session).await?.ok_or_else(|| {
                    anyhow::anyhow!("the session's open chat vanished while starting another")
                })?;
                Ok(Opened {
                    chat: open,
                    created: false,
                })
            }
            Err(CreateError::Chat(error)) => Err(error),
        }
    }

    #[tracing::instrument(skip(self))]
    async fn chat(&self, id: ChatId) -> Result<Chat, ChatError> {
        let row = chats::Entity::find_by_id(id.to_string())
            .one(&self.db)
            .await
            .with_context(|| format!("failed to load chat {id}"))?
            .ok_or(ChatError::NotFound(id))?;
        to_chat(row)
    }

    #[tracing::instrument(skip_all)]
    async fn latest_open_chat(&self, session: &SessionId) -> Result<Option<Chat>, ChatError> {
        chats::Entity::find()
            .filter(chats::Column::SessionId.eq(session.as_ref()))
            .filter(chats::Column::Status.ne(ChatStatus::Closed.as_str()))
            .order_by_desc(chats::Column::CreatedAt)
            .order_by_desc(chats::Column::Version)
            .one(&self.db)
            .await
            .context("failed to find the session's open chat")?
            .map(to_chat)
            .transpose()
    }

    #[tracing::instrument(skip(self))]
    async fn messages(&self, id: ChatId) -> Result<Vec<ChatMessage>, ChatError> {
        let rows = chat_messages::Entity::find()
            .filter(chat_messages::Column::ChatId.eq(id.to_string()))
            .order_by_asc(chat_messages::Column::Id)
            .all(&self.db)
            .await
            .with_context(|| format!("failed to load the messages of chat {id}"))?;
        if rows.is_empty() {
            ensure_exists(&self.db, id).await?;
        }
        rows.into_iter().map(to_message).collect()
    }

    #[tracing::instrument(skip(self, messages), fields(count = messages.len()))]
    async fn append(
        &self,
        id: ChatId,
        messages: Vec<NewMessage>,
    ) -> Result<Vec<ChatMessage>, ChatError> {
        let Some(at) = messages.iter().map(|m| m.created_at).max() else {
            ensure_exists(&self.db, id).await?;
            return Ok(vec![]);
        };
        let txn = self.begin().await?;
        let touched = chats::Entity::update_many()
            .col_expr(
                chats::Column::Version,
                Expr::col(chats::Column::Version).add(1),
            )
            .col_expr(chats::Column::UpdatedAt, Expr::value(at))
            .filter(chats::Column::Id.eq(id.to_string()))
            .exec(&txn)
            .await
            .with_context(|| format!("failed to touch chat {id}"))?;
        if touched.rows_affected == 0 {
            return Err(ChatError::NotFound(id));
        }
        let stored = insert_messages(&txn, id, messages).await?;
        txn.commit()
            .await
            .with_context(|| format!("failed to commit messages of chat {id}"))?;
        Ok(stored)
    }

    #[tracing::instrument(skip(self, change), fields(chat = %change.chat, from = %change.from, to = %change.to))]
    async fn change_status(&self, change: StatusChange) -> Result<bool, ChatError> {
        let id = change.chat;
        let txn = self.begin().await?;
        let mut update = chats::Entity::update_many()
            .col_expr(chats::Column::Status, Expr::value(change.to.as_str()))
            .col_expr(
                chats::Column::Version,
                Expr::col(chats::Column::Version).add(1),
            )
            .col_expr(chats::Column::UpdatedAt, Expr::value(change.at));
        if let Some(staff) = change.accepted_by {
            update = update.col_expr(chats::Column::AcceptedBy, Expr::value(staff.get()));
        }
        // the condition on the old status makes this a compare-and-set: of two staff
        // accepting at once, one updates a row and the other none
        let updated = update
            .filter(chats::Column::Id.eq(id.to_string()))
            .filter(chats::Column::Status.eq(change.from.as_str()))
            .exec(&txn)
            .await
            .with_context(|| format!("failed to change the status of chat {id}"))?;
        if updated.rows_affected == 0 {
            drop(txn);
            ensure_exists(&self.db, id).await?;
            return Ok(false);
        }
        insert_messages(&txn, id, change.notice.into_iter().collect()).await?;
        txn.commit()
            .await
            .with_context(|| format!("failed to commit the status of chat {id}"))?;
        Ok(true)
    }

    #[tracing::instrument(skip(self))]
    async fn mark_read(&self, id: ChatId, side: Side, at: DateTime<Utc>) -> Result<(), ChatError> {
        let newest: Option<i64> = chat_messages::Entity::find()
            .select_only()
            .column_as(chat_messages::Column::Id.max(), "newest")
            .filter(chat_messages::Column::ChatId.eq(id.to_string()))
            .into_tuple::<Option<i64>>()
            .one(&self.db)
            .await
            .with_context(|| format!("failed to find the newest message of chat {id}"))?
            .flatten();
        let Some(newest) = newest else {
            return ensure_exists(&self.db, id).await;
        };
        let column = match side {
            Side::Staff => chats::Column::StaffReadThrough,
            Side::Customer => chats::Column::UserReadThrough,
        };
        // only a watermark that moves is a write (and a new version): marking read again with
        // nothing new costs no version bump, so pollers are not woken for nothing
        let updated = chats::Entity::update_many()
            .col_expr(column, Expr::value(newest))
            .col_expr(
                chats::Column::Version,
                Expr::col(chats::Column::Version).add(1),
            )
            .col_expr(chats::Column::UpdatedAt, Expr::value(at))
            .filter(chats::Column::Id.eq(id.to_string()))
            .filter(column.is_null().or(column.lt(newest)))
            .exec(&self.db)
            .await
            .with_context(|| format!("failed to mark chat {id} read"))?;
        if updated.rows_affected == 0 {
            ensure_exists(&self.db, id).await?;
        }
        Ok(())
    }

    #[tracing::instrument(skip(self, actor))]
    async fn delete(&self, id: ChatId, actor: Option<shared::Actor>) -> Result<(), ChatError> {
        let txn = self.begin().await?;
        // lock the chat first (a write), then read what the deletion removes
        let locked = chats::Entity::update_many()
            .col_expr(
                chats::Column::Version,
                Expr::col(chats::Column::Version).into(),
            )
            .filter(chats::Column::Id.eq(id.to_string()))
            .exec(&txn)
            .await
            .with_context(|| format!("failed to lock chat {id}"))?;
        let before = chats::Entity::find_by_id(id.to_string())
            .one(&txn)
            .await
            .with_context(|| format!("failed to read chat {id}"))?;
        let (1, Some(before)) = (locked.rows_affected, before) else {
            return Err(ChatError::NotFound(id));
        };
        let messages = chat_messages::Entity::delete_many()
            .filter(chat_messages::Column::ChatId.eq(id.to_string()))
            .exec(&txn)
            .await
            .with_context(|| format!("failed to delete the messages of chat {id}"))?;
        let deleted = chats::Entity::delete_by_id(id.to_string())
            .exec(&txn)
            .await
            .with_context(|| format!("failed to delete chat {id}"))?;
        if deleted.rows_affected == 0 {
            return Err(ChatError::NotFound(id));
        }
        if let Some(actor) = &actor {
            self.audit(
                &txn,
                actor,
                shared::AuditKind::ChatDelete,
                format!("chat:{id}"),
                Some(chat_json(&before, messages.rows_affected)),
                None,
            )
            .await?;
        }
        txn.commit()
            .await
            .with_context(|| format!("failed to commit the deletion of chat {id}"))?;
        Ok(())
    }

    #[tracing::instrument(skip(self))]
    async fn staff_chats(&self, query: StaffChatsQuery) -> Result<Vec<StaffChatRow>, ChatError> {
        let rows = staff_page(&query)
            .order_by_desc(chats::Column::UpdatedAt)
            .order_by_desc(chats::Column::Id)
            .limit(u64::from(query.limit))
            .all(&self.db)
            .await
            .context("failed to load the staff's chats")?;
        if rows.is_empty() {
            return Ok(vec![]);
        }
        // one page of ids (at most `limit`): the IN lists below stay that short
        let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
        let customer_senders = [SenderType::User.as_str(), SenderType::Guest.as_str()];
        let last_customer: HashMap<String, i64> = chat_messages::Entity::find()
            .select_only()
            .column(chat_messages::Column::ChatId)
            .column_as(chat_messages::Column::Id.max(), "newest")
            .filter(chat_messages::Column::ChatId.is_in(ids.clone()))
            .filter(chat_messages::Column::SenderType.is_in(customer_senders))
            .group_by(chat_messages::Column::ChatId)
            .into_tuple::<(String, i64)>()
            .all(&self.db)
            .await
            .context("failed to find the shoppers' newest messages")?
            .into_iter()
            .collect();
        let last_ids: Vec<i64> = chat_messages::Entity::find()
            .select_only()
            .column_as(chat_messages::Column::Id.max(), "newest")
            .filter(chat_messages::Column::ChatId.is_in(ids))
            .group_by(chat_messages::Column::ChatId)
            .into_tuple::<i64>()
            .all(&self.db)
            .await
            .context("failed to find the chats' newest messages")?;
        let mut last_messages: HashMap<String, ChatMessage> = HashMap::new();
        if !last_ids.is_empty() {
            for row in chat_messages::Entity::find()
                .filter(chat_messages::Column::Id.is_in(last_ids))
                .all(&self.db)
                .await
                .context("failed to load the chats' newest messages")?
            {
                let chat_id = row.chat_id.clone();
                last_messages.insert(chat_id, to_message(row)?);
            }
        }
        rows.into_iter()
            .map(|row| {
                let last_customer_message = last_customer.get(&row.id).copied().map(MessageId::new);
                let last_message = last_messages.remove(&row.id);
                Ok(StaffChatRow {
                    chat: to_chat(row)?,
                    last_customer_message,
                    last_message,
                })
            })
            .collect()
    }

    #[tracing::instrument(skip(self))]
    async fn claim_staff_notification(
        &self,
        id: ChatId,
        at: DateTime<Utc>,
    ) -> Result<bool, ChatError> {
        // a bookkeeping column no poll shows: the version stays
        let claimed = chats::Entity::update_many()
            .col_expr(chats::Column::StaffNotifiedAt, Expr::value(at))
            .filter(chats::Column::Id.eq(id.to_string()))
            .filter(chats::Column::StaffNotifiedAt.is_null())
            .exec(&self.db)
            .await
            .with_context(|| format!("failed to claim the staff notification of chat {id}"))?;
        if claimed.rows_affected == 0 {
            ensure_exists(&self.db, id).await?;
            return Ok(false);
        }
        Ok(true)
    }

    #[tracing::instrument(skip(self))]
    async fn purge(
        &self,
        idle_ai_before: DateTime<Utc>,
        closed_before: DateTime<Utc>,
        batch: u32,
    ) -> Result<Vec<ChatId>, ChatError> {
        let expired = || {
            Condition::any()
                .add(
                    Condition::all()
                        .add(chats::Column::Status.eq(ChatStatus::Ai.as_str()))
                        .add(chats::Column::UpdatedAt.lt(idle_ai_before)),
                )
                .add(
                    Condition::all()
                        .add(chats::Column::Status.eq(ChatStatus::Closed.as_str()))
                        .add(chats::Column::UpdatedAt.lt(closed_before)),
                )
        };
        // read outside the transaction: on SQLite a transaction that read first cannot write
        // once another writer committed, and the deletes check the condition again
        let ids: Vec<String> = chats::Entity::find()
            .select_only()
            .column(chats::Column::Id)
            .filter(expired())
            .order_by_asc(chats::Column::UpdatedAt)
            .limit(u64::from(batch))
            .into_tuple::<String>()
            .all(&self.db)
            .await
            .context("failed to find the chats to purge")?;
        if ids.is_empty() {
            return Ok(vec![]);
        }
        let txn = self.begin().await?;
        // Both deletes repeat the condition: a chat written since it was read (a shopper came
        // back) keeps itself and its messages.
        let still_expired = Query::select()
            .column(chats::Column::Id)
            .from(chats::Entity)
            .and_where(chats::Column::Id.is_in(ids.clone()))
            .cond_where(expired())
            .to_owned();
        chat_messages::Entity::delete_many()
            .filter(chat_messages::Column::ChatId.in_subquery(still_expired))
            .exec(&txn)
            .await
            .context("failed to delete the purged chats' messages")?;
        chats::Entity::delete_many()
            .filter(chats::Column::Id.is_in(ids.clone()))
            .filter(expired())
            .exec(&txn)
            .await
            .context("failed to purge chats")?;
        let kept: Vec<String> = chats::Entity::find()
            .select_only()
            .column(chats::Column::Id)
            .filter(chats::Column::Id.is_in(ids.clone()))
            .into_tuple::<String>()
            .all(&txn)
            .await
            .context("failed to re-check the purged chats")?;
        let ids: Vec<String> = ids.into_iter().filter(|id| !kept.contains(id)).collect();
        txn.commit()
            .await
            .context("failed to commit the chat purge")?;
        ids.iter()
            .map(|id| {
                Ok(id
                    .parse()
                    .with_context(|| format!("stored chat id {id:?} is invalid"))?)
            })
            .collect()
    }

    #[tracing::instrument(skip(self))]
    async fn stamp(&self, id: ChatId) -> Result<Option<ChatStamp>, ChatError> {
        let row = chats::Entity::find_by_id(id.to_string())
            .select_only()
            .column(chats::Column::SessionId)
            .column(chats::Column::Version)
            .column(chats::Column::Status)
            .column(chats::Column::AcceptedBy)
            .into_tuple::<(String, i64, String, Option<i64>)>()
            .one(&self.db)
            .await
            .with_context(|| format!("failed to read the stamp of chat {id}"))?;
        row.map(|(session, version, status, accepted_by)| {
            Ok(ChatStamp {
                id,
                session: parse_session(&session)?,
                version: to_version(version)?,
                status: parse_status(&status)?,
                accepted_by: accepted_by.map(UserId::new),
            })
        })
        .transpose()
    }
}

/// Why a chat was not created.
enum CreateError {
    SessionHasOpenChat,
    Chat(ChatError),
}

impl From<ChatError> for CreateError {
    fn from(error: ChatError) -> Self {
        CreateError::Chat(error)
    }
}

fn is_unique_violation(error: &DbErr) -> bool {
    matches!(error.sql_err(), Some(SqlErr::UniqueConstraintViolation(_)))
}

impl Store {
    /// Stores the chat and its messages in one transaction.
    async fn insert_chat(
        &self,
        chat: NewChat,
        messages: Vec<NewMessage>,
    ) -> Result<Chat, CreateError> {
        let txn = self
            .db
            .begin()
            .await
            .context("failed to start a transaction")
            .map_err(ChatError::from)?;
        let row = chats::ActiveModel {
            id: Set(chat.id.to_string()),
            session_id: Set(chat.session.as_ref().to_owned()),
            user_id: Set(chat.user.as_ref().map(|u| u.id.get())),
            user_name: Set(chat.user.as_ref().map(|u| u.name.clone())),
            accepted_by: Set(None),
            status: Set(ChatStatus::Ai.as_str().to_owned()),
            staff_read_through: Set(None),
            user_read_through: Set(None),
            version: Set(1),
            created_at: Set(chat.created_at),
            updated_at: Set(chat.created_at),
            staff_notified_at: Set(None),
            language: Set(chat.language.code().to_owned()),
        };
        if let Err(error) = chats::Entity::insert(row.clone())
            .exec_without_returning(&txn)
            .await
        {
            return Err(if is_unique_violation(&error) {
                CreateError::SessionHasOpenChat
            } else {
                CreateError::Chat(
                    anyhow::Error::new(error)
                        .context(format!("failed to store chat {}", chat.id))
                        .into(),
                )
            });
        }
        insert_messages(&txn, chat.id, messages).await?;
        txn.commit()
            .await
            .context("failed to commit the new chat")
            .map_err(ChatError::from)?;
        to_chat(chats::Model {
            id: chat.id.to_string(),
            session_id: chat.session.as_ref().to_owned(),
            user_id: chat.user.as_ref().map(|u| u.id.get()),
            user_name: chat.user.map(|u| u.name),
            accepted_by: None,
            status: ChatStatus::Ai.as_str().to_owned(),
            staff_read_through: None,
            user_read_through: None,
            version: 1,
            created_at: chat.created_at,
            updated_at: chat.created_at,
            staff_notified_at: None,
            language: chat.language.code().to_owned(),
        })
        .map_err(CreateError::Chat)
    }
}

async fn ensure_exists(db: &impl ConnectionTrait, id: ChatId) -> Result<(), ChatError> {
    let found = chats::Entity::find_by_id(id.to_string())
        .select_only()
        .column(chats::Column::Id)
        .into_tuple::<String>()
        .one(db)
        .await
        .with_context(|| format!("failed to look for chat {id}"))?;
    found.map(|_| ()).ok_or(ChatError::NotFound(id))
}

async fn insert_messages(
    db: &impl ConnectionTrait,
    chat: ChatId,
    messages: Vec<NewMessage>,
) -> Result<Vec<ChatMessage>, ChatError> {
    let mut stored = Vec::with_capacity(messages.len());
    for message in messages {
        let inserted = chat_messages::Entity::insert(chat_messages::ActiveModel {
            chat_id: Set(chat.to_string()),
            sender_type: Set(message.sender.as_str().to_owned()),
            message: Set(message.text.clone()),
            created_at: Set(message.created_at),
            ..Default::default()
        })
        .exec(db)
        .await
        .with_context(|| format!("failed to store a message of chat {chat}"))?;
        stored.push(ChatMessage {
            id: MessageId::new(inserted.last_insert_id),
            sender: message.sender,
            text: message.text,
            created_at: message.created_at,
        });
    }
    Ok(stored)
}

fn parse_session(text: &str) -> Result<SessionId, ChatError> {
    Ok(SessionId::parse(text).with_context(|| format!("stored session id {text:?} is invalid"))?)
}

fn parse_status(text: &str) -> Result<ChatStatus, ChatError> {
    Ok(text
        .parse::<ChatStatus>()
        .with_context(|| format!("stored chat status {text:?} is invalid"))?)
}

fn to_version(version: i64) -> Result<u64, ChatError> {
    Ok(u64::try_from(version).context("a chat's version is negative")?)
}

fn to_chat(row: chats::Model) -> Result<Chat, ChatError> {
    let id: ChatId = row
        .id
        .parse()
        .with_context(|| format!("stored chat id {:?} is invalid", row.id))?;
    Ok(Chat {
        id,
        session: parse_session(&row.session_id)?,
        user: row.user_id.map(|user_id| ChatUser {
            id: UserId::new(user_id),
            name: row.user_name.unwrap_or_default(),
        }),
        accepted_by: row.accepted_by.map(UserId::new),
        status: parse_status(&row.status)?,
        staff_read_through: row.staff_read_through.map(MessageId::new),
        user_read_through: row.user_read_through.map(MessageId::new),
        created_at: row.created_at,
        updated_at: row.updated_at,
        version: to_version(row.version)?,
        // a code no longer offered reads as English, the language every other falls back to
        language: row.language.parse().unwrap_or_default(),
    })
}

fn to_message(row: chat_messages::Model) -> Result<ChatMessage, ChatError> {
    let sender: SenderType = row
        .sender_type
        .parse()
        .with_context(|| format!("message {} has an invalid sender", row.id))?;
    Ok(ChatMessage {
        id: MessageId::new(row.id),
        sender,
        text: row.message,
        created_at: row.created_at,
    })
}

/// The chats of one page of the staff's list: the filter's, after the cursor.
fn staff_page(query: &StaffChatsQuery) -> sea_orm::Select<chats::Entity> {
    let statuses = match query.filter {
        StaffFilter::Open => Condition::any()
            .add(chats::Column::Status.eq(ChatStatus::Pending.as_str()))
            .add(chats::Column::Status.eq(ChatStatus::Connected.as_str())),
        StaffFilter::Closed => {
            Condition::all().add(chats::Column::Status.eq(ChatStatus::Closed.as_str()))
        }
        StaffFilter::All => Condition::all().add(chats::Column::Status.ne(ChatStatus::Ai.as_str())),
    };
    let mut select = chats::Entity::find().filter(statuses);
    if let Some(cursor) = &query.before {
        // keyset: strictly after the cursor in (updated_at desc, id desc) order
        select = select.filter(
            Condition::any()
                .add(chats::Column::UpdatedAt.lt(cursor.updated_at))
                .add(
                    Condition::all()
                        .add(chats::Column::UpdatedAt.eq(cursor.updated_at))
                        .add(chats::Column::Id.lt(cursor.id.to_string())),
                ),
        );
    }
    select
}

/// The sessions of the account's chats (for the live updates sent to them), as a subquery with
/// one `?` (the account's id).
pub(crate) const ITS_SESSIONS: &str = "(SELECT session_id FROM chats WHERE user_id = ?)";
/// The rate limit buckets of the account's chats' sessions, as a subquery with two `?`: the
/// buckets' prefix and the account's id.
pub(crate) const ITS_SESSION_BUCKETS: &str =
    "(SELECT ? || session_id FROM chats WHERE user_id = ?)";

/// The account's chats and their messages, gone with it.
pub(crate) fn chats_forgotten(id: i64) -> [Step; 2] {
    [
        by_id(
            "DELETE FROM chat_messages WHERE chat_id IN (SELECT id FROM chats WHERE user_id = ?)",
            id,
        ),
        by_id("DELETE FROM chats WHERE user_id = ?", id),
    ]
}

/// Every chat of the account for its export, oldest first, with its messages.
pub(crate) async fn chat_records(
    db: &impl ConnectionTrait,
    user: UserId,
) -> anyhow::Result<Vec<ChatRecord>> {
    let rows = chats::Entity::find()
        .filter(chats::Column::UserId.eq(user.get()))
        .order_by_asc(chats::Column::CreatedAt)
        .all(db)
        .await
        .with_context(|| format!("failed to load the chats of user {user}"))?;
    let mut out = Vec::with_capacity(rows.len());
    for chat in rows {
        let messages = chat_messages::Entity::find()
            .filter(chat_messages::Column::ChatId.eq(chat.id.clone()))
            .order_by_asc(chat_messages::Column::Id)
            .all(db)
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
