//! Server-side sessions in the shop's database, for actix-session: every instance on the same
//! database sees the same sessions, and deleting a row really ends a session. Each row names
//! the user its session holds, so every session of one user can be ended at once.

use std::collections::HashMap;

use actix_session::storage::{LoadError, SaveError, SessionKey, SessionStore, UpdateError};
use actix_web::cookie::time::Duration;
use anyhow::Context;
use chrono::{TimeDelta, Utc};
use sea_orm::{
    sea_query::Expr, ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter,
};

use crate::entities::sessions;

/// The session key holding the logged-in user's id (a JSON number), copied into the row's
/// `user_id` column.
pub const SESSION_USER_KEY: &str = "user_id";

/// The user a session's state holds, if any.
pub fn session_user(state: &HashMap<String, String>) -> Option<i64> {
    state
        .get(SESSION_USER_KEY)
        .and_then(|value| serde_json::from_str(value).ok())
}

/// actix-session's store on the `sessions` table (SQLite or PostgreSQL).
#[derive(Debug, Clone)]
pub struct DatabaseSessionStore {
    db: DatabaseConnection,
}

impl DatabaseSessionStore {
    pub fn new(db: DatabaseConnection) -> Self {
        DatabaseSessionStore { db }
    }

    /// Deletes every expired session; returns how many.
    pub async fn purge_expired(&self) -> anyhow::Result<u64> {
        let deleted = sessions::Entity::delete_many()
            .filter(sessions::Column::ExpiresAt.lte(Utc::now()))
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

    async fn insert(
        &self,
        state: HashMap<String, String>,
        ttl: &Duration,
    ) -> anyhow::Result<SessionKey> {
        let json = serde_json::to_string(&state).context("failed to serialise a session")?;
        let key = new_key();
        sessions::Entity::insert(sessions::ActiveModel {
            id: Set(key.clone()),
            state: Set(json),
            expires_at: Set(expiry(ttl)),
            user_id: Set(session_user(&state)),
        })
        .exec_without_returning(&self.db)
        .await
        .context("failed to store a session")?;
        SessionKey::try_from(key).context("a generated session key was refused")
    }
}

/// 64 hex characters from two v4 UUIDs: 244 random bits from the OS.
fn new_key() -> String {
    format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

fn expiry(ttl: &Duration) -> chrono::DateTime<Utc> {
    Utc::now() + TimeDelta::seconds(ttl.whole_seconds())
}

impl SessionStore for DatabaseSessionStore {
    async fn load(
        &self,
        session_key: &SessionKey,
    ) -> Result<Option<HashMap<String, String>>, LoadError> {
        let row = sessions::Entity::find_by_id(session_key.as_ref().to_owned())
            .filter(sessions::Column::ExpiresAt.gt(Utc::now()))
            .one(&self.db)
            .await
            .context("failed to load a session")
            .map_err(LoadError::Other)?;
        row.map(|row| {
            serde_json::from_str(&row.state)
                .context("a stored session is not a JSON object of strings")
                .map_err(LoadError::Deserialization)
        })
        .transpose()
    }

    async fn save(
        &self,
        session_state: HashMap<String, String>,
        ttl: &Duration,
    ) -> Result<SessionKey, SaveError> {
        // Expired rows go on every new session, so the table never grows without bound.
        if let Err(error) = self.purge_expired().await {
            tracing::warn!(error = ?error, "could not purge expired sessions");
        }
        self.insert(session_state, ttl)
            .await
            .map_err(SaveError::Other)
    }

    async fn update(
        &self,
        session_key: SessionKey,
        mut session_state: HashMap<String, String>,
        ttl: &Duration,
    ) -> Result<SessionKey, UpdateError> {
        let user_id = session_user(&session_state);
        let json = serde_json::to_string(&session_state)
            .context("failed to serialise a session")
            .map_err(UpdateError::Serialization)?;
        let updated = sessions::Entity::update_many()
            .col_expr(sessions::Column::State, Expr::value(json))
            .col_expr(sessions::Column::ExpiresAt, Expr::value(expiry(ttl)))
            .col_expr(sessions::Column::UserId, Expr::value(user_id))
            .filter(sessions::Column::Id.eq(session_key.as_ref()))
            .exec(&self.db)
            .await
            .context("failed to update a session")
            .map_err(UpdateError::Other)?;
        if updated.rows_affected == 1 {
            return Ok(session_key);
        }
        // Deleted meanwhile (logout elsewhere, a password reset, purge): start a new one rather
        // than revive it, and without its user, who was logged out.
        session_state.remove(SESSION_USER_KEY);
        self.insert(session_state, ttl)
            .await
            .map_err(UpdateError::Other)
    }

    async fn update_ttl(&self, session_key: &SessionKey, ttl: &Duration) -> anyhow::Result<()> {
        sessions::Entity::update_many()
            .col_expr(sessions::Column::ExpiresAt, Expr::value(expiry(ttl)))
            .filter(sessions::Column::Id.eq(session_key.as_ref()))
            .exec(&self.db)
            .await
            .context("failed to extend a session")?;
        Ok(())
    }

    async fn delete(&self, session_key: &SessionKey) -> anyhow::Result<()> {
        sessions::Entity::delete_by_id(session_key.as_ref().to_owned())
            .exec(&self.db)
            .await
            .context("failed to delete a session")?;
        Ok(())
    }
}
