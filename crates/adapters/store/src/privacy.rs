//! A shopper's data: the chats of an account for its export, and the erasure of an account
//! (`accounts::AccountEraser`) in one transaction.

use accounts::{AccountEraser, Erased, Erasure, RepoError, UserId};
use anyhow::Context;
use chrono::{DateTime, Utc};
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, TransactionTrait,
};

use crate::admin_products::statement;
use crate::entities::{chat_messages, chats};
use crate::Store;

/// One chat of an account, with its messages oldest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportedChat {
    pub id: String,
    pub status: String,
    pub created_at: DateTime<Utc>,
    /// (sender: `user`, `ai`, `admin` or `system`; text; when)
    pub messages: Vec<(String, String, DateTime<Utc>)>,
}

impl Store {
    /// Every chat of the account, oldest first, with its messages.
    pub async fn chats_of_user(&self, user: UserId) -> anyhow::Result<Vec<ExportedChat>> {
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
            out.push(ExportedChat {
                id: chat.id,
                status: chat.status,
                created_at: chat.created_at,
                messages: messages
                    .into_iter()
                    .map(|m| (m.sender_type, m.message, m.created_at))
                    .collect(),
            });
        }
        Ok(out)
    }
}

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
        let steps: [(&str, Vec<sea_orm::Value>); 6] = [
            // a pending join to the shop's Discord server holds the access token of a Discord
            // account the user ordered with: gone before the orders forget the user
            (
                "DELETE FROM guild_joins WHERE discord_id IN \
                 (SELECT discord_id FROM orders WHERE user_id = ?)",
                vec![id.into()],
            ),
            (
                "UPDATE orders SET email = ?, discord_username = ?, discord_avatar = NULL, \
                 roblox_username = ?, client_ip = NULL, buyer_token = NULL, user_id = NULL \
                 WHERE user_id = ?",
                vec![
                    erasure.email.clone().into(),
                    erasure.name.clone().into(),
                    erasure.name.clone().into(),
                    id.into(),
                ],
            ),
            (
                "DELETE FROM chat_messages WHERE chat_id IN (SELECT id FROM chats WHERE user_id = ?)",
                vec![id.into()],
            ),
            ("DELETE FROM chats WHERE user_id = ?", vec![id.into()]),
            (
                "DELETE FROM password_reset_tokens WHERE user_id = ?",
                vec![id.into()],
            ),
            ("DELETE FROM users WHERE id = ?", vec![id.into()]),
        ];
        for (sql, values) in steps {
            txn.execute(statement(&txn, sql, values))
                .await
                .with_context(|| format!("failed to erase user {id}: {sql}"))?;
        }
        txn.commit()
            .await
            .with_context(|| format!("failed to commit the erasure of user {id}"))?;
        Ok(Erased::Done)
    }
}
