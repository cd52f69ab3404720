//! The `sessions` table: the rows behind server-side sessions, so that every instance on the
//! same database sees the same sessions and deleting a row really ends a session. Each row
//! names the user its session holds, so every session of one user can be ended at once. The
//! app's session store turns these rows into actix-session's; this crate knows nothing of it.

use anyhow::Context;
use chrono::{DateTime, Utc};
use sea_orm::{sea_query::Expr, ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};

use crate::entities::sessions;
use crate::records::SessionRow;
use crate::Store;

impl Store {
    /// The state of the session `key`, unless it has expired at `now`.
    pub async fn session_state(
        &self,
        key: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Option<String>> {
        let row = sessions::Entity::find_by_id(key.to_owned())
            .filter(sessions::Column::ExpiresAt.gt(now))
            .one(&self.db)
            .await
            .context("failed to load a session")?;
        Ok(row.map(|row| row.state))
    }

    pub async fn insert_session(&self, row: SessionRow<'_>) -> anyhow::Result<()> {
        sessions::Entity::insert(sessions::ActiveModel {
            id: Set(row.key.to_owned()),
            state: Set(row.state.to_owned()),
            expires_at: Set(row.expires_at),
            user_id: Set(row.user_id),
        })
        .exec_without_returning(&self.db)
        .await
        .context("failed to store a session")?;
        Ok(())
    }

    /// Writes the session's new state; false when the session is gone (ended meanwhile).
    pub async fn update_session(&self, row: SessionRow<'_>) -> anyhow::Result<bool> {
        let updated = sessions::Entity::update_many()
            .col_expr(sessions::Column::State, Expr::value(row.state))
            .col_expr(sessions::Column::ExpiresAt, Expr::value(row.expires_at))
            .col_expr(sessions::Column::UserId, Expr::value(row.user_id))
            .filter(sessions::Column::Id.eq(row.key))
            .exec(&self.db)
            .await
            .context("failed to update a session")?;
        Ok(updated.rows_affected == 1)
    }

    pub async fn extend_session(&self, key: &str, expires_at: DateTime<Utc>) -> anyhow::Result<()> {
        sessions::Entity::update_many()
            .col_expr(sessions::Column::ExpiresAt, Expr::value(expires_at))
            .filter(sessions::Column::Id.eq(key))
            .exec(&self.db)
            .await
            .context("failed to extend a session")?;
        Ok(())
    }

    pub async fn delete_session(&self, key: &str) -> anyhow::Result<()> {
        sessions::Entity::delete_by_id(key.to_owned())
            .exec(&self.db)
            .await
            .context("failed to delete a session")?;
        Ok(())
    }

    /// Deletes every session expired at `now`; returns how many.
    pub async fn purge_expired_sessions(&self, now: DateTime<Utc>) -> anyhow::Result<u64> {
        let deleted = sessions::Entity::delete_many()
            .filter(sessions::Column::ExpiresAt.lte(now))
            .exec(&self.db)
            .await
            .context("failed to purge expired sessions")?;
        Ok(deleted.rows_affected)
    }

    /// Ends every session holding this user; returns how many.
    pub async fn end_sessions_of(&self, user_id: i64) -> anyhow::Result<u64> {
        let deleted = sessions::Entity::delete_many()
            .filter(sessions::Column::UserId.eq(user_id))
            .exec(&self.db)
            .await
            .with_context(|| format!("failed to end the sessions of user {user_id}"))?;
        Ok(deleted.rows_affected)
    }
}

/// The database's sessions of an erased account (the service also ends them where they live).
pub(crate) fn sessions_forgotten(id: i64) -> crate::sql::Step {
    crate::sql::by_id("DELETE FROM sessions WHERE user_id = ?", id)
}
