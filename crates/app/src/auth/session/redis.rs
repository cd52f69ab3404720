//! Sessions in Redis: actix-session's Redis store plus, per user, a set of their session keys,
//! so every session of one user can be ended at once.

use std::collections::HashMap;

use actix_session::storage::{RedisSessionStore, SaveError, SessionKey, SessionStore, UpdateError};
use actix_web::cookie::time::Duration;
use anyhow::Context;
use redis::AsyncCommands;
use sha2::{Digest, Sha256};

use crate::auth::keys::{session_user, USER_ID_KEY};

/// actix-session's Redis store plus, per user, a set of their session keys.
#[derive(Clone)]
pub struct RedisSessions {
    pub(super) store: RedisSessionStore,
    connection: redis::aio::ConnectionManager,
    /// Tells apart the user ids of shops (databases) that share one Redis.
    namespace: String,
}

impl RedisSessions {
    /// Connects now, so a wrong URL stops the start. `database_url` names the shop whose user
    /// ids the sets hold.
    pub async fn connect(url: &str, database_url: &str) -> anyhow::Result<Self> {
        let store = RedisSessionStore::new(url)
            .await
            .context("could not connect to the session Redis (session.redis_url)")?;
        let client = redis::Client::open(url).context("session.redis_url is not valid")?;
        let connection = redis::aio::ConnectionManager::new(client)
            .await
            .context("could not connect to the session Redis (session.redis_url)")?;
        let namespace = hex::encode(&Sha256::digest(database_url.as_bytes())[..8]);
        Ok(RedisSessions {
            store,
            connection,
            namespace,
        })
    }

    /// PING, given at most `timeout`.
    pub async fn ping(&self, timeout: std::time::Duration) -> anyhow::Result<()> {
        let mut connection = self.connection.clone();
        let pong = tokio::time::timeout(timeout, async move {
            redis::cmd("PING")
                .query_async::<String>(&mut connection)
                .await
        })
        .await
        .map_err(|_| anyhow::anyhow!("no answer within {} ms", timeout.as_millis()))?
        .context("PING failed")?;
        anyhow::ensure!(pong == "PONG", "PING answered {pong:?}");
        Ok(())
    }

    fn user_set(&self, user: i64) -> String {
        format!("garden:{}:user-sessions:{user}", self.namespace)
    }

    /// Adds the session to its user's set, which lives as long as the newest session.
    async fn remember(&self, key: &SessionKey, user: i64, ttl: &Duration) -> anyhow::Result<()> {
        let set = self.user_set(user);
        let mut connection = self.connection.clone();
        redis::pipe()
            .sadd(&set, key.as_ref())
            .expire(&set, ttl.whole_seconds())
            .exec_async(&mut connection)
            .await
            .context("failed to note a session of a user in Redis")?;
        Ok(())
    }

    pub(super) async fn end_sessions_of(&self, user: i64) -> anyhow::Result<u64> {
        let set = self.user_set(user);
        let mut connection = self.connection.clone();
        let keys: Vec<String> = connection
            .smembers(&set)
            .await
            .context("failed to list a user's sessions in Redis")?;
        let mut ended = 0_u64;
        for key in &keys {
            let removed: u64 = connection
                .del(key)
                .await
                .context("failed to end a session in Redis")?;
            ended += removed;
        }
        let _: u64 = connection
            .del(&set)
            .await
            .context("failed to forget a user's sessions in Redis")?;
        Ok(ended)
    }

    pub(super) async fn save(
        &self,
        state: HashMap<String, String>,
        ttl: &Duration,
    ) -> Result<SessionKey, SaveError> {
        let user = session_user(&state);
        let key = self.store.save(state, ttl).await?;
        if let Some(user) = user {
            self.remember(&key, user, ttl)
                .await
                .map_err(SaveError::Other)?;
        }
        Ok(key)
    }

    pub(super) async fn update(
        &self,
        key: SessionKey,
        mut state: HashMap<String, String>,
        ttl: &Duration,
    ) -> Result<SessionKey, UpdateError> {
        let user = session_user(&state);
        let old = key.as_ref().to_owned();
        let saved = self.store.update(key, state.clone(), ttl).await?;
        let Some(user) = user else {
            return Ok(saved);
        };
        if saved.as_ref() != old {
            // The session was ended meanwhile (logout, a password reset) and actix-session
            // saved its state under a new key: not with the user, who was logged out.
            self.store
                .delete(&saved)
                .await
                .map_err(UpdateError::Other)?;
            state.remove(USER_ID_KEY);
            return self
                .store
                .save(state, ttl)
                .await
                .map_err(|error| match error {
                    SaveError::Serialization(e) => UpdateError::Serialization(e),
                    SaveError::Other(e) => UpdateError::Other(e),
                });
        }
        self.remember(&saved, user, ttl)
            .await
            .map_err(UpdateError::Other)?;
        Ok(saved)
    }
}
