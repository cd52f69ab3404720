//! The pending joins of buyers to the shop's Discord server (`guild_joins`) on both databases.
//! Queueing is one `INSERT … ON CONFLICT (discord_id) DO UPDATE`, so a new link replaces the
//! token and starts over; each attempt first leases the row with a conditional UPDATE of
//! `lease_until`, as the outbox does with its due time; a failed attempt changes the row only
//! while it still holds the token that was tried (a new link meanwhile starts over).
//!
//! The buyers' access tokens (good for 7 days) are sealed at rest ([`TokenSeal`]): a copy of
//! the database, a backup or a log of its statements shows no token. A row is deleted as soon
//! as its join is made or given up.

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use anyhow::Context;
use chrono::{DateTime, Utc};
use orders::{AccessToken, DiscordId, GuildJoinRepository, OrderError, PendingGuildJoin};
use rand::RngCore;
use sea_orm::QueryResult;

use crate::sql::{fetch_all, fetch_one};
use crate::Store;

/// The prefix of a sealed token, naming its format (and so the key's derivation).
const SEALED_V1: &str = "v1:";

/// AES-256-GCM's nonce: 96 bits, random for each token.
const NONCE_LEN: usize = 12;

/// Seals the guild joins' access tokens: AES-256-GCM under a key derived with HKDF-SHA256 from
/// the server's secret (the session key) under a label of its own, a random nonce per token,
/// and the Discord account as associated data (a sealed token moved to another account's row
/// does not open). Stored as `v1:` and the hex of nonce, ciphertext and tag.
#[derive(Clone)]
pub struct TokenSeal {
    cipher: Aes256Gcm,
}

impl std::fmt::Debug for TokenSeal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenSeal(…)")
    }
}

impl TokenSeal {
    /// The seal of `secret` (at least 32 bytes only the server knows).
    pub fn derive(secret: &[u8]) -> anyhow::Result<Self> {
        anyhow::ensure!(
            secret.len() >= 32,
            "the guild join tokens' secret needs at least 32 bytes"
        );
        let mut key = [0_u8; 32];
        hkdf::Hkdf::<sha2::Sha256>::new(None, secret)
            .expand(b"garden-shop guild-join tokens v1", &mut key)
            .map_err(|_| anyhow::anyhow!("HKDF could not derive the guild join tokens' key"))?;
        let cipher = Aes256Gcm::new_from_slice(&key)
            .map_err(|_| anyhow::anyhow!("the guild join tokens' key is not 32 bytes"))?;
        Ok(TokenSeal { cipher })
    }

    /// The token sealed for `account`'s row.
    pub fn seal(&self, token: &AccessToken, account: &DiscordId) -> anyhow::Result<String> {
        let mut nonce = [0_u8; NONCE_LEN];
        rand::rngs::OsRng.fill_bytes(&mut nonce);
        let sealed = self
            .cipher
            .encrypt(
                Nonce::from_slice(&nonce),
                Payload {
                    msg: token.expose().as_bytes(),
                    aad: account.as_str().as_bytes(),
                },
            )
            .map_err(|_| anyhow::anyhow!("failed to seal a guild join token"))?;
        Ok(format!(
            "{SEALED_V1}{}{}",
            hex::encode(nonce),
            hex::encode(sealed)
        ))
    }

    /// The token in `stored`, sealed for `account`'s row; an error for anything else (a plain
    /// token, another key's or another account's seal, a damaged value).
    pub fn open(&self, stored: &str, account: &DiscordId) -> anyhow::Result<AccessToken> {
        let bytes = stored
            .strip_prefix(SEALED_V1)
            .and_then(|hex_text| hex::decode(hex_text).ok())
            .filter(|bytes| bytes.len() > NONCE_LEN)
            .context("the stored guild join token is not sealed")?;
        let (nonce, sealed) = bytes.split_at(NONCE_LEN);
        let token = self
            .cipher
            .decrypt(
                Nonce::from_slice(nonce),
                Payload {
                    msg: sealed,
                    aad: account.as_str().as_bytes(),
                },
            )
            .map_err(|_| anyhow::anyhow!("the stored guild join token does not open"))?;
        let token = String::from_utf8(token).context("an opened guild join token is not text")?;
        Ok(AccessToken::new(token))
    }
}

/// The guild joins' repository: the store, with the tokens sealed at rest.
#[derive(Debug, Clone)]
pub struct GuildJoinStore {
    store: Store,
    seal: TokenSeal,
}

impl GuildJoinStore {
    pub fn new(store: Store, seal: TokenSeal) -> Self {
        GuildJoinStore { store, seal }
    }
}

/// A row as stored: its token still sealed.
struct StoredJoin {
    id: i64,
    discord_id: DiscordId,
    sealed: String,
    expires_at: DateTime<Utc>,
    attempts: u32,
}

fn join_of(row: &QueryResult) -> anyhow::Result<StoredJoin> {
    let id: i64 = row.try_get("", "id").context("bad guild join id")?;
    let discord_id: String = row.try_get("", "discord_id").context("bad discord_id")?;
    let attempts: i32 = row.try_get("", "attempts").context("bad attempts")?;
    Ok(StoredJoin {
        id,
        discord_id: DiscordId::parse(&discord_id)
            .map_err(|e| anyhow::anyhow!("guild join {id} has a bad discord_id: {e}"))?,
        sealed: row
            .try_get::<String>("", "access_token")
            .context("bad access_token")?,
        expires_at: row.try_get("", "expires_at").context("bad expires_at")?,
        attempts: u32::try_from(attempts).unwrap_or(0),
    })
}

impl GuildJoinRepository for GuildJoinStore {
    #[tracing::instrument(skip(self, token))]
    async fn queue(
        &self,
        discord_id: DiscordId,
        token: AccessToken,
        expires_at: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        let sealed = self.seal.seal(&token, &discord_id)?;
        self.store
            .execute(
                "INSERT INTO guild_joins \
             (discord_id, access_token, expires_at, attempts, next_attempt_at, created_at) \
             VALUES (?, ?, ?, 0, ?, ?) \
             ON CONFLICT (discord_id) DO UPDATE SET access_token = excluded.access_token, \
             expires_at = excluded.expires_at, attempts = 0, \
             next_attempt_at = excluded.next_attempt_at, lease_until = NULL, last_error = NULL, \
             created_at = excluded.created_at",
                vec![
                    discord_id.as_str().into(),
                    sealed.into(),
                    expires_at.into(),
                    now.into(),
                    now.into(),
                ],
                "queue a guild join",
            )
            .await?;
        Ok(())
    }

    /// A row whose token does not open (written under another session key, or plain) can never
    /// be joined: it is deleted, and the others are answered.
    #[tracing::instrument(skip(self))]
    async fn due(
        &self,
        now: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<PendingGuildJoin>, OrderError> {
        let db = &self.store.db;
        let rows = fetch_all(
            db,
            "SELECT id, discord_id, access_token, expires_at, attempts FROM guild_joins \
                 WHERE next_attempt_at <= ? AND expires_at > ? \
                 AND (lease_until IS NULL OR lease_until <= ?) ORDER BY id LIMIT ?",
            vec![now.into(), now.into(), now.into(), i64::from(limit).into()],
        )
        .await
        .context("failed to read the due guild joins")?;
        let mut due = Vec::with_capacity(rows.len());
        for row in &rows {
            let stored = join_of(row)?;
            match self.seal.open(&stored.sealed, &stored.discord_id) {
                Ok(token) => due.push(PendingGuildJoin {
                    id: stored.id,
                    discord_id: stored.discord_id,
                    token,
                    expires_at: stored.expires_at,
                    attempts: stored.attempts,
                }),
                Err(error) => {
                    tracing::warn!(id = stored.id, error = %error, "deleting a guild join whose token cannot be read");
                    self.store
                        .execute(
                            "DELETE FROM guild_joins WHERE id = ? AND access_token = ?",
                            vec![stored.id.into(), stored.sealed.into()],
                            "delete an unreadable guild join",
                        )
                        .await?;
                }
            }
        }
        Ok(due)
    }

    #[tracing::instrument(skip(self))]
    async fn lease(
        &self,
        id: i64,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
    ) -> Result<bool, OrderError> {
        let leased = self
            .store
            .execute(
                "UPDATE guild_joins SET lease_until = ? WHERE id = ? AND next_attempt_at <= ? \
                 AND (lease_until IS NULL OR lease_until <= ?)",
                vec![lease_until.into(), id.into(), now.into(), now.into()],
                "lease a guild join",
            )
            .await?;
        Ok(leased == 1)
    }

    #[tracing::instrument(skip(self))]
    async fn done(&self, id: i64) -> Result<(), OrderError> {
        self.store
            .execute(
                "DELETE FROM guild_joins WHERE id = ?",
                vec![id.into()],
                "delete a guild join made",
            )
            .await?;
        Ok(())
    }

    /// The row is changed only while it still holds the token that was tried: its sealed value
    /// is read and opened, then the change is made only if that same sealed value is still
    /// there (a new link meanwhile seals a new value).
    #[tracing::instrument(skip(self, join, error), fields(id = join.id))]
    async fn failed(
        &self,
        join: &PendingGuildJoin,
        attempts: u32,
        retry_at: Option<DateTime<Utc>>,
        error: String,
    ) -> Result<(), OrderError> {
        let db = &self.store.db;
        let stored: Option<String> = fetch_one(
            db,
            "SELECT access_token FROM guild_joins WHERE id = ?",
            vec![join.id.into()],
        )
        .await
        .context("failed to read a guild join")?
        .map(|row| row.try_get::<String>("", "access_token"))
        .transpose()
        .context("bad access_token")?;
        let Some(sealed) = stored else {
            return Ok(());
        };
        let same = self
            .seal
            .open(&sealed, &join.discord_id)
            .is_ok_and(|token| token == join.token);
        if !same {
            return Ok(());
        }
        match retry_at {
            Some(at) => {
                let error: String = error.chars().take(2000).collect();
                let attempts = i32::try_from(attempts).unwrap_or(i32::MAX);
                self.store
                    .execute(
                        "UPDATE guild_joins SET attempts = ?, next_attempt_at = ?, \
                         lease_until = NULL, last_error = ? WHERE id = ? AND access_token = ?",
                        vec![
                            attempts.into(),
                            at.into(),
                            error.into(),
                            join.id.into(),
                            sealed.into(),
                        ],
                        "record a failed guild join",
                    )
                    .await?
            }
            None => {
                self.store
                    .execute(
                        "DELETE FROM guild_joins WHERE id = ? AND access_token = ?",
                        vec![join.id.into(), sealed.into()],
                        "give up a guild join",
                    )
                    .await?
            }
        };
        Ok(())
    }

    #[tracing::instrument(skip(self))]
    async fn sweep_expired(&self, now: DateTime<Utc>) -> Result<u64, OrderError> {
        Ok(self
            .store
            .execute(
                "DELETE FROM guild_joins WHERE expires_at <= ?",
                vec![now.into()],
                "delete the expired guild joins",
            )
            .await?)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn nelly() -> DiscordId {
        DiscordId::parse("80351110224678912").unwrap()
    }

    #[test]
    fn a_sealed_token_opens_only_with_its_key_and_for_its_account() {
        let seal = TokenSeal::derive(&[7; 64]).unwrap();
        let token = AccessToken::new("user-access-token");
        let sealed = seal.seal(&token, &nelly()).unwrap();
        assert!(sealed.starts_with("v1:"), "{sealed}");
        assert!(!sealed.contains("user-access-token"));
        assert_eq!(seal.open(&sealed, &nelly()).unwrap(), token);
        // a random nonce each time
        assert_ne!(seal.seal(&token, &nelly()).unwrap(), sealed);
        // another key, another account, a plain or damaged value: no token
        let other = TokenSeal::derive(&[8; 64]).unwrap();
        assert!(other.open(&sealed, &nelly()).is_err());
        let someone = DiscordId::parse("100000000000000002").unwrap();
        assert!(seal.open(&sealed, &someone).is_err());
        assert!(seal.open("user-access-token", &nelly()).is_err());
        let mut damaged = sealed.clone();
        damaged.replace_range(10..12, if &sealed[10..12] == "00" { "01" } else { "00" });
        assert!(seal.open(&damaged, &nelly()).is_err());
        assert!(TokenSeal::derive(&[7; 31]).is_err());
    }
}
