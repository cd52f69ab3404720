//! Server-side sessions in the shop's database (the store's `sessions` rows), for
//! actix-session: every instance on the same database sees the same sessions, and deleting a
//! row really ends a session.

use std::collections::HashMap;

use actix_session::storage::{LoadError, SaveError, SessionKey, SessionStore, UpdateError};
use actix_web::cookie::time::Duration;
use anyhow::Context;
use chrono::{DateTime, TimeDelta, Utc};
use store::{SessionRow, Store};

use crate::keys::{session_user, USER_ID_KEY};

/// actix-session's store on the `sessions` table (SQLite or PostgreSQL).
#[derive(Debug, Clone)]
pub struct DatabaseSessionStore {
    store: Store,
}

impl DatabaseSessionStore {
    pub fn new(store: Store) -> Self {
        DatabaseSessionStore { store }
    }

    /// Ends every session holding this user; returns how many.
    pub async fn end_sessions_of(&self, user_id: i64) -> anyhow::Result<u64> {
        self.store.end_sessions_of(user_id).await
    }

    /// `ttl` from now, on the shop's clock (the store's).
    fn expiry(&self, ttl: &Duration) -> DateTime<Utc> {
        self.store.now() + TimeDelta::seconds(ttl.whole_seconds())
    }

    async fn insert(
        &self,
        state: HashMap<String, String>,
        ttl: &Duration,
    ) -> anyhow::Result<SessionKey> {
        let json = serde_json::to_string(&state).context("failed to serialise a session")?;
        let key = new_key();
        self.store
            .insert_session(SessionRow {
                key: &key,
                state: &json,
                expires_at: self.expiry(ttl),
                user_id: session_user(&state),
            })
            .await?;
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

impl SessionStore for DatabaseSessionStore {
    async fn load(
        &self,
        session_key: &SessionKey,
    ) -> Result<Option<HashMap<String, String>>, LoadError> {
        let state = self
            .store
            .session_state(session_key.as_ref(), self.store.now())
            .await
            .map_err(LoadError::Other)?;
        state
            .map(|state| {
                serde_json::from_str(&state)
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
        if let Err(error) = self.store.purge_expired_sessions(self.store.now()).await {
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
        let json = serde_json::to_string(&session_state)
            .context("failed to serialise a session")
            .map_err(UpdateError::Serialization)?;
        let updated = self
            .store
            .update_session(SessionRow {
                key: session_key.as_ref(),
                state: &json,
                expires_at: self.expiry(ttl),
                user_id: session_user(&session_state),
            })
            .await
            .map_err(UpdateError::Other)?;
        if updated {
            return Ok(session_key);
        }
        // Deleted meanwhile (logout elsewhere, a password reset, purge): start a new one rather
        // than revive it, and without its user, who was logged out.
        session_state.remove(USER_ID_KEY);
        self.insert(session_state, ttl)
            .await
            .map_err(UpdateError::Other)
    }

    async fn update_ttl(&self, session_key: &SessionKey, ttl: &Duration) -> anyhow::Result<()> {
        self.store
            .extend_session(session_key.as_ref(), self.expiry(ttl))
            .await
    }

    async fn delete(&self, session_key: &SessionKey) -> anyhow::Result<()> {
        self.store.delete_session(session_key.as_ref()).await
    }
}
