//! The pending joins of buyers to the shop's Discord server (`guild_joins`) on both databases.
//! Queueing is one `INSERT … ON CONFLICT (discord_id) DO UPDATE`, so a new link replaces the
//! token and starts over; each attempt first leases the row with a conditional UPDATE of
//! `lease_until`, as the outbox does with its due time; a failed attempt changes the row only
//! while it still holds the token that was tried (a new link meanwhile starts over).

use anyhow::Context;
use chrono::{DateTime, Utc};
use orders::{AccessToken, DiscordId, GuildJoinRepository, OrderError, PendingGuildJoin};
use sea_orm::{ConnectionTrait, QueryResult};

use crate::sql::statement;
use crate::Store;

fn join_of(row: &QueryResult) -> anyhow::Result<PendingGuildJoin> {
    let id: i64 = row.try_get("", "id").context("bad guild join id")?;
    let discord_id: String = row.try_get("", "discord_id").context("bad discord_id")?;
    let attempts: i32 = row.try_get("", "attempts").context("bad attempts")?;
    Ok(PendingGuildJoin {
        id,
        discord_id: DiscordId::parse(&discord_id)
            .map_err(|e| anyhow::anyhow!("guild join {id} has a bad discord_id: {e}"))?,
        token: AccessToken::new(
            row.try_get::<String>("", "access_token")
                .context("bad access_token")?,
        ),
        expires_at: row.try_get("", "expires_at").context("bad expires_at")?,
        attempts: u32::try_from(attempts).unwrap_or(0),
    })
}

impl GuildJoinRepository for Store {
    #[tracing::instrument(skip(self, token))]
    async fn queue(
        &self,
        discord_id: DiscordId,
        token: AccessToken,
        expires_at: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        self.execute(
            "INSERT INTO guild_joins \
             (discord_id, access_token, expires_at, attempts, next_attempt_at, created_at) \
             VALUES (?, ?, ?, 0, ?, ?) \
             ON CONFLICT (discord_id) DO UPDATE SET access_token = excluded.access_token, \
             expires_at = excluded.expires_at, attempts = 0, \
             next_attempt_at = excluded.next_attempt_at, lease_until = NULL, last_error = NULL, \
             created_at = excluded.created_at",
            vec![
                discord_id.as_str().into(),
                token.expose().into(),
                expires_at.into(),
                now.into(),
                now.into(),
            ],
            "queue a guild join",
        )
        .await?;
        Ok(())
    }

    #[tracing::instrument(skip(self))]
    async fn due(
        &self,
        now: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<PendingGuildJoin>, OrderError> {
        let rows = self
            .db
            .query_all(statement(
                &self.db,
                "SELECT id, discord_id, access_token, expires_at, attempts FROM guild_joins \
                 WHERE next_attempt_at <= ? AND expires_at > ? \
                 AND (lease_until IS NULL OR lease_until <= ?) ORDER BY id LIMIT ?",
                vec![now.into(), now.into(), now.into(), i64::from(limit).into()],
            ))
            .await
            .context("failed to read the due guild joins")?;
        Ok(rows.iter().map(join_of).collect::<anyhow::Result<_>>()?)
    }

    #[tracing::instrument(skip(self))]
    async fn lease(
        &self,
        id: i64,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
    ) -> Result<bool, OrderError> {
        let leased = self
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
        self.execute(
            "DELETE FROM guild_joins WHERE id = ?",
            vec![id.into()],
            "delete a guild join made",
        )
        .await?;
        Ok(())
    }

    #[tracing::instrument(skip(self, join, error), fields(id = join.id))]
    async fn failed(
        &self,
        join: &PendingGuildJoin,
        attempts: u32,
        retry_at: Option<DateTime<Utc>>,
        error: String,
    ) -> Result<(), OrderError> {
        let token = join.token.expose();
        match retry_at {
            Some(at) => {
                let error: String = error.chars().take(2000).collect();
                let attempts = i32::try_from(attempts).unwrap_or(i32::MAX);
                self.execute(
                    "UPDATE guild_joins SET attempts = ?, next_attempt_at = ?, \
                     lease_until = NULL, last_error = ? WHERE id = ? AND access_token = ?",
                    vec![
                        attempts.into(),
                        at.into(),
                        error.into(),
                        join.id.into(),
                        token.into(),
                    ],
                    "record a failed guild join",
                )
                .await?
            }
            None => {
                self.execute(
                    "DELETE FROM guild_joins WHERE id = ? AND access_token = ?",
                    vec![join.id.into(), token.into()],
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
            .execute(
                "DELETE FROM guild_joins WHERE expires_at <= ?",
                vec![now.into()],
                "delete the expired guild joins",
            )
            .await?)
    }
}
