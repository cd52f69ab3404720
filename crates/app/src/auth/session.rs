//! The session cookie and where sessions live: the shop's database by default, Redis when
//! `session.redis_url` is set. Either way every session of one user can be ended at once (a
//! password reset, a role change): the database row names its user; Redis keeps a set of each
//! user's session keys.

use std::collections::HashMap;

use actix_session::{
    config::{PersistentSession, TtlExtensionPolicy},
    storage::{LoadError, RedisSessionStore, SaveError, SessionKey, SessionStore, UpdateError},
    SessionMiddleware,
};
use actix_web::cookie::{time::Duration, Key, SameSite};
use anyhow::{bail, Context};
use base64::Engine;
use redis::AsyncCommands;
use secrecy::ExposeSecret;
use sha2::{Digest, Sha256};
use store::{session_user, DatabaseSessionStore, SESSION_USER_KEY};

use crate::settings::SessionSettings;

pub const COOKIE_NAME: &str = "garden_session";

/// How long a session lasts without use; every change extends it.
const SESSION_TTL: Duration = Duration::days(14);

/// Either store, chosen at startup.
#[derive(Clone)]
pub enum ShopSessionStore {
    Database(DatabaseSessionStore),
    Redis(RedisSessions),
}

/// actix-session's Redis store plus, per user, a set of their session keys.
#[derive(Clone)]
pub struct RedisSessions {
    store: RedisSessionStore,
    connection: redis::aio::ConnectionManager,
    /// Tells apart the user ids of shops (databases) that share one Redis.
    namespace: String,
}

impl ShopSessionStore {
    /// Redis when a URL is configured (connecting now, so a wrong URL stops the start), else
    /// the database.
    pub async fn from_settings(
        settings: &SessionSettings,
        db: store::DatabaseConnection,
        database_url: &str,
    ) -> anyhow::Result<Self> {
        match settings.redis_url.as_deref().filter(|url| !url.is_empty()) {
            Some(url) => {
                let store = RedisSessionStore::new(url)
                    .await
                    .context("could not connect to the session Redis (session.redis_url)")?;
                let client = redis::Client::open(url).context("session.redis_url is not valid")?;
                let connection = redis::aio::ConnectionManager::new(client)
                    .await
                    .context("could not connect to the session Redis (session.redis_url)")?;
                let namespace = hex::encode(&Sha256::digest(database_url.as_bytes())[..8]);
                Ok(ShopSessionStore::Redis(RedisSessions {
                    store,
                    connection,
                    namespace,
                }))
            }
            None => Ok(ShopSessionStore::Database(DatabaseSessionStore::new(db))),
        }
    }
}

impl RedisSessions {
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

    async fn end_sessions_of(&self, user: i64) -> anyhow::Result<u64> {
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

    async fn save(
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

    async fn update(
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
            state.remove(SESSION_USER_KEY);
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
            ShopSessionStore::Redis(redis) => redis.store.load(session_key).await,
        }
    }

    async fn save(
        &self,
        session_state: HashMap<String, String>,
        ttl: &Duration,
    ) -> Result<SessionKey, SaveError> {
        match self {
            ShopSessionStore::Database(store) => store.save(session_state, ttl).await,
            ShopSessionStore::Redis(store) => store.save(session_state, ttl).await,
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
            ShopSessionStore::Redis(store) => store.update(session_key, session_state, ttl).await,
        }
    }

    async fn update_ttl(&self, session_key: &SessionKey, ttl: &Duration) -> anyhow::Result<()> {
        match self {
            ShopSessionStore::Database(store) => store.update_ttl(session_key, ttl).await,
            ShopSessionStore::Redis(redis) => redis.store.update_ttl(session_key, ttl).await,
        }
    }

    async fn delete(&self, session_key: &SessionKey) -> anyhow::Result<()> {
        match self {
            ShopSessionStore::Database(store) => store.delete(session_key).await,
            ShopSessionStore::Redis(redis) => redis.store.delete(session_key).await,
        }
    }
}

/// The cookie key from `session.key`: base64 of at least 64 bytes. Without one the shop does
/// not start: a key made up at each start would log everyone out on every restart and differ
/// between instances.
pub fn cookie_key(settings: &SessionSettings) -> anyhow::Result<Key> {
    let encoded = settings.key.expose_secret().trim();
    if encoded.is_empty() {
        bail!(
            "session.key is not set: give 64 or more random bytes in base64, e.g. \
             SHOP__SESSION__KEY=$(openssl rand -base64 64 | tr -d '\\n')"
        );
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .context("session.key is not valid base64")?;
    if bytes.len() < 64 {
        bail!(
            "session.key holds {} bytes; it needs at least 64",
            bytes.len()
        );
    }
    Ok(Key::from(&bytes))
}

/// The session middleware: cookie `garden_session`, HttpOnly, SameSite=Lax, Secure when
/// `session.secure`, encrypted with the key, 14 days from the last change.
pub fn middleware(
    store: ShopSessionStore,
    key: Key,
    secure: bool,
) -> SessionMiddleware<ShopSessionStore> {
    SessionMiddleware::builder(store, key)
        .cookie_name(COOKIE_NAME.to_owned())
        .cookie_http_only(true)
        .cookie_same_site(SameSite::Lax)
        .cookie_secure(secure)
        .cookie_path("/".to_owned())
        .session_lifecycle(
            PersistentSession::default()
                .session_ttl(SESSION_TTL)
                .session_ttl_extension_policy(TtlExtensionPolicy::OnStateChanges),
        )
        .build()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use base64::Engine;

    use super::*;

    fn settings(key: &str) -> SessionSettings {
        SessionSettings {
            key: key.to_owned().into(),
            ..SessionSettings::default()
        }
    }

    #[test]
    fn the_key_must_be_base64_of_64_bytes_or_more() {
        let b64 = |n: usize| base64::engine::general_purpose::STANDARD.encode(vec![7_u8; n]);
        assert!(cookie_key(&settings(&b64(64))).is_ok());
        assert!(cookie_key(&settings(&b64(96))).is_ok());
        let short = cookie_key(&settings(&b64(63))).err().unwrap().to_string();
        assert!(short.contains("at least 64"), "{short}");
        let missing = cookie_key(&settings("")).err().unwrap().to_string();
        assert!(missing.contains("session.key is not set"), "{missing}");
        assert!(cookie_key(&settings("not base64!")).is_err());
    }
}
