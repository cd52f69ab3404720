//! The shop's session store: the database or Redis, chosen at startup.

use std::collections::HashMap;

use actix_session::storage::{LoadError, SaveError, SessionKey, SessionStore, UpdateError};
use actix_web::cookie::time::Duration;

use crate::database::DatabaseSessionStore;
use crate::redis::RedisSessions;

/// Either store, chosen at startup.
#[derive(Clone)]
pub enum ShopSessionStore {
    Database(DatabaseSessionStore),
    Redis(RedisSessions),
}

impl ShopSessionStore {
    /// Redis when a URL is given (connecting now, so a wrong URL stops the start), else the
    /// database. `database_url` names the shop whose user ids Redis keeps sets of.
    pub async fn connect(
        redis_url: Option<&str>,
        store: store::Store,
        database_url: &str,
    ) -> anyhow::Result<Self> {
        match redis_url.filter(|url| !url.is_empty()) {
            Some(url) => Ok(ShopSessionStore::Redis(
                RedisSessions::connect(url, database_url).await?,
            )),
            None => Ok(ShopSessionStore::Database(DatabaseSessionStore::new(store))),
        }
    }

    /// Whether Redis answers a PING within `timeout`; `None` when sessions live in the database
    /// (the readiness check pings the database itself).
    pub async fn ping(&self, timeout: std::time::Duration) -> Option<anyhow::Result<()>> {
        match self {
            ShopSessionStore::Database(_) => None,
            ShopSessionStore::Redis(redis) => Some(redis.ping(timeout).await),
        }
    }
}

impl accounts::UserSessions for ShopSessionStore {
    async fn end_all(&self, user: accounts::UserId) -> Result<u64, accounts::RepoError> {
        let ended = match self {
            ShopSessionStore::Database(store) => store.end_sessions_of(user.get()).await?,
            ShopSessionStore::Redis(store) => store.end_sessions_of(user.get()).await?,
        };
        Ok(ended)
    }
}

impl SessionStore for ShopSessionStore {
    async fn load(
        &self,
        session_key: &SessionKey,
    ) -> Result<Option<HashMap<String, String>>, LoadError> {
        match self {
            ShopSessionStore::Database(store) => store.load(session_key).await,
            ShopSessionStore::Redis(redis) => redis.load(session_key).await,
        }
    }

    async fn save(
        &self,
        session_state: HashMap<String, String>,
        ttl: &Duration,
    ) -> Result<SessionKey, SaveError> {
        match self {
            ShopSessionStore::Database(store) => store.save(session_state, ttl).await,
            ShopSessionStore::Redis(redis) => redis.save(session_state, ttl).await,
        }
    }

    async fn update(
        &self,
        session_key: SessionKey,
        session_state: HashMap<String, String>,
        ttl: &Duration,
    ) -> Result<SessionKey, UpdateError> {
        match self {
            ShopSessionStore::Database(store) => {
                store.update(session_key, session_state, ttl).await
            }
            ShopSessionStore::Redis(redis) => redis.update(session_key, session_state, ttl).await,
        }
    }

    async fn update_ttl(&self, session_key: &SessionKey, ttl: &Duration) -> anyhow::Result<()> {
        match self {
            ShopSessionStore::Database(store) => store.update_ttl(session_key, ttl).await,
            ShopSessionStore::Redis(redis) => redis.update_ttl(session_key, ttl).await,
        }
    }

    async fn delete(&self, session_key: &SessionKey) -> anyhow::Result<()> {
        match self {
            ShopSessionStore::Database(store) => store.delete(session_key).await,
            ShopSessionStore::Redis(redis) => redis.delete(session_key).await,
        }
    }
}
