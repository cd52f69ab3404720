//! Sessions in Redis: each session's state under its key, as actix-session's Redis store keeps
//! it (JSON, `SET … NX/XX EX`), plus, per user, a set of their session keys, so every session
//! of one user can be ended at once.
//!
//! The entries go through the shop's own connection manager, with connection and response
//! timeouts and a bounded reconnection backoff ([`RECONNECT_DELAY`]): actix-session's store
//! builds one without either, which hung a start on a Redis that does not answer and, once
//! Redis had been stopped and started again, kept requests waiting on its reconnection backoff
//! long after Redis was back.

use std::collections::HashMap;

use actix_session::storage::{
    generate_session_key, LoadError, SaveError, SessionKey, SessionStore, UpdateError,
};
use actix_web::cookie::time::Duration;
use anyhow::Context;
use redis::AsyncCommands;
use sha2::{Digest, Sha256};

use crate::keys::{session_user, USER_ID_KEY};

/// How long connecting to Redis at start may take.
pub const CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// How long one session read or write in Redis may take. Past it the request is answered 503
/// (the app's session middleware wrapper) instead of waiting on a Redis that is gone; the
/// connection reconnects by itself when Redis is back.
pub const REDIS_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// The longest wait between two reconnection attempts while Redis is away is under twice this
/// (the connection manager adds up to 100 % jitter), so a Redis that comes back is used again
/// within 2 s.
///
/// Why it is set: redis-rs hands its `factor` to backon as the *multiplier* of a backoff that
/// starts at 1 s and stops growing at backon's own 60 s; the default factor of 100 (meant as
/// 100 ms units) made the second retry wait 60 to 120 s, which is what kept sessions down for a
/// minute and a half after outages of 12 and 25 s (issue 32). Capped at 1 s, every retry waits
/// 1 to 2 s.
pub const RECONNECT_DELAY: std::time::Duration = std::time::Duration::from_secs(1);

/// The connection manager's settings: [`REDIS_TIMEOUT`] per connection and answer, and
/// reconnection attempts [`RECONNECT_DELAY`] apart for as long as Redis is away (each request
/// meanwhile waits at most [`REDIS_TIMEOUT`] and is answered 503).
fn manager_config() -> redis::aio::ConnectionManagerConfig {
    let cap_ms = u64::try_from(RECONNECT_DELAY.as_millis()).unwrap_or(u64::MAX);
    redis::aio::ConnectionManagerConfig::new()
        .set_connection_timeout(REDIS_TIMEOUT)
        .set_response_timeout(REDIS_TIMEOUT)
        .set_factor(2)
        .set_max_delay(cap_ms)
        .set_number_of_retries(usize::MAX)
}

/// `call`, given at most [`REDIS_TIMEOUT`].
async fn within<T>(call: impl std::future::Future<Output = T>) -> anyhow::Result<T> {
    tokio::time::timeout(REDIS_TIMEOUT, call)
        .await
        .map_err(|_| {
            anyhow::anyhow!(
                "the session Redis (session.redis_url) did not answer within {} s",
                REDIS_TIMEOUT.as_secs()
            )
        })
}

/// The URL without its password, for messages.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            format!("{}***{}", &url[..scheme + 3], &url[at..])
        }
        _ => url.to_owned(),
    }
}

/// The sessions' entries, stored as actix-session's `RedisSessionStore` stores them (the same
/// keys and JSON, so sessions live on across the change and between versions).
#[derive(Clone)]
struct Entries {
    connection: redis::aio::ConnectionManager,
}

impl SessionStore for Entries {
    async fn load(
        &self,
        session_key: &SessionKey,
    ) -> Result<Option<HashMap<String, String>>, LoadError> {
        let value: Option<String> = self
            .connection
            .clone()
            .get(session_key.as_ref())
            .await
            .map_err(|error| LoadError::Other(error.into()))?;
        value
            .map(|value| {
                serde_json::from_str(&value)
                    .map_err(|error| LoadError::Deserialization(error.into()))
            })
            .transpose()
    }

    async fn save(
        &self,
        session_state: HashMap<String, String>,
        ttl: &Duration,
    ) -> Result<SessionKey, SaveError> {
        let body = serde_json::to_string(&session_state)
            .map_err(|error| SaveError::Serialization(error.into()))?;
        let key = generate_session_key();
        redis::cmd("SET")
            .arg(key.as_ref())
            .arg(body)
            .arg("NX")
            .arg("EX")
            .arg(ttl.whole_seconds())
            .exec_async(&mut self.connection.clone())
            .await
            .map_err(|error| SaveError::Other(error.into()))?;
        Ok(key)
    }

    async fn update(
        &self,
        session_key: SessionKey,
        session_state: HashMap<String, String>,
        ttl: &Duration,
    ) -> Result<SessionKey, UpdateError> {
        let body = serde_json::to_string(&session_state)
            .map_err(|error| UpdateError::Serialization(error.into()))?;
        let set: redis::Value = redis::cmd("SET")
            .arg(session_key.as_ref())
            .arg(body)
            .arg("XX")
            .arg("EX")
            .arg(ttl.whole_seconds())
            .query_async(&mut self.connection.clone())
            .await
            .map_err(|error| UpdateError::Other(error.into()))?;
        match set {
            // gone meanwhile (ended, expired): a new key, as actix-session does
            redis::Value::Nil => self
                .save(session_state, ttl)
                .await
                .map_err(|error| match error {
                    SaveError::Serialization(e) => UpdateError::Serialization(e),
                    SaveError::Other(e) => UpdateError::Other(e),
                }),
            _ => Ok(session_key),
        }
    }

    async fn update_ttl(&self, session_key: &SessionKey, ttl: &Duration) -> anyhow::Result<()> {
        let _: bool = self
            .connection
            .clone()
            .expire(session_key.as_ref(), ttl.whole_seconds())
            .await?;
        Ok(())
    }

    async fn delete(&self, session_key: &SessionKey) -> anyhow::Result<()> {
        let _: u64 = self.connection.clone().del(session_key.as_ref()).await?;
        Ok(())
    }
}

/// The sessions' entries plus, per user, a set of their session keys.
#[derive(Clone)]
pub struct RedisSessions {
    store: Entries,
    connection: redis::aio::ConnectionManager,
    /// Tells apart the user ids of shops (databases) that share one Redis.
    namespace: String,
}

impl RedisSessions {
    /// Connects now, so a wrong URL stops the start: within [`CONNECT_TIMEOUT`], or the start
    /// fails naming `session.redis_url` (it never hangs on a Redis that does not answer).
    /// `database_url` names the shop whose user ids the sets hold.
    pub async fn connect(url: &str, database_url: &str) -> anyhow::Result<Self> {
        let unreachable = || {
            format!(
                "could not connect to the session Redis at {} (session.redis_url) within {} s",
                redact(url),
                CONNECT_TIMEOUT.as_secs()
            )
        };
        let client = redis::Client::open(url).context("session.redis_url is not valid")?;
        // One plain attempt first, so a wrong URL fails at once with its own error (the
        // manager's attempts go on for as long as Redis is away), then the manager.
        let connect = async move {
            let probe = redis::AsyncConnectionConfig::new()
                .set_connection_timeout(REDIS_TIMEOUT)
                .set_response_timeout(REDIS_TIMEOUT);
            client
                .get_multiplexed_async_connection_with_config(&probe)
                .await?;
            redis::aio::ConnectionManager::new_with_config(client, manager_config()).await
        };
        let connection = tokio::time::timeout(CONNECT_TIMEOUT, connect)
            .await
            .map_err(|_| anyhow::anyhow!(unreachable()))?
            .with_context(unreachable)?;
        let store = Entries {
            connection: connection.clone(),
        };
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

    /// Ends every session of this user; returns how many.
    pub async fn end_sessions_of(&self, user: i64) -> anyhow::Result<u64> {
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

    /// Stores the session and notes it in its user's set.
    async fn save_noting_user(
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

    /// Stores the session's new state and notes it in its user's set.
    async fn update_noting_user(
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

/// Every call given at most [`REDIS_TIMEOUT`].
impl SessionStore for RedisSessions {
    async fn load(
        &self,
        session_key: &SessionKey,
    ) -> Result<Option<HashMap<String, String>>, LoadError> {
        within(self.store.load(session_key))
            .await
            .unwrap_or_else(|late| Err(LoadError::Other(late)))
    }

    async fn save(
        &self,
        session_state: HashMap<String, String>,
        ttl: &Duration,
    ) -> Result<SessionKey, SaveError> {
        within(self.save_noting_user(session_state, ttl))
            .await
            .unwrap_or_else(|late| Err(SaveError::Other(late)))
    }

    async fn update(
        &self,
        session_key: SessionKey,
        session_state: HashMap<String, String>,
        ttl: &Duration,
    ) -> Result<SessionKey, UpdateError> {
        within(self.update_noting_user(session_key, session_state, ttl))
            .await
            .unwrap_or_else(|late| Err(UpdateError::Other(late)))
    }

    async fn update_ttl(&self, session_key: &SessionKey, ttl: &Duration) -> anyhow::Result<()> {
        within(self.store.update_ttl(session_key, ttl)).await?
    }

    async fn delete(&self, session_key: &SessionKey) -> anyhow::Result<()> {
        within(self.store.delete(session_key)).await?
    }
}
