//! Discord's limits on the shop's bot on both databases (`discord_limits`, one row named
//! `discord`): every instance reads and writes the same row, each write one upsert, so a global
//! 429 heard by one instance holds them all, and every instance's invalid answers add up.

use anyhow::Context;
use chrono::{DateTime, Utc};
use orders::{DiscordLimitRepository, DiscordLimitState, OrderError};

use crate::sql::fetch_one;
use crate::Store;

const ROW: &str = "discord";

impl DiscordLimitRepository for Store {
    #[tracing::instrument(skip(self))]
    async fn discord_limits(&self) -> Result<DiscordLimitState, OrderError> {
        let row = fetch_one(
            &self.db,
            "SELECT paused_until, window_start, invalid_count FROM discord_limits \
                 WHERE name = ?",
            vec![ROW.into()],
        )
        .await
        .context("failed to read Discord's limits")?;
        let Some(row) = row else {
            return Ok(DiscordLimitState::default());
        };
        let invalid: i32 = row
            .try_get("", "invalid_count")
            .context("bad invalid_count")?;
        Ok(DiscordLimitState {
            paused_until: row
                .try_get("", "paused_until")
                .context("bad paused_until")?,
            window_start: row
                .try_get("", "window_start")
                .context("bad window_start")?,
            invalid: u32::try_from(invalid).unwrap_or(0),
        })
    }

    #[tracing::instrument(skip(self))]
    async fn pause_discord(&self, until: DateTime<Utc>) -> Result<(), OrderError> {
        self.execute(
            "INSERT INTO discord_limits (name, paused_until, invalid_count) VALUES (?, ?, 0) \
             ON CONFLICT (name) DO UPDATE SET paused_until = CASE \
             WHEN discord_limits.paused_until IS NULL \
             OR discord_limits.paused_until < excluded.paused_until \
             THEN excluded.paused_until ELSE discord_limits.paused_until END",
            vec![ROW.into(), until.into()],
            "pause Discord's jobs",
        )
        .await?;
        Ok(())
    }

    #[tracing::instrument(skip(self))]
    async fn count_invalid_discord_answer(
        &self,
        now: DateTime<Utc>,
        window_over: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        self.execute(
            "INSERT INTO discord_limits (name, window_start, invalid_count) VALUES (?, ?, 1) \
             ON CONFLICT (name) DO UPDATE SET \
             invalid_count = CASE WHEN discord_limits.window_start IS NULL \
             OR discord_limits.window_start <= ? THEN 1 \
             ELSE discord_limits.invalid_count + 1 END, \
             window_start = CASE WHEN discord_limits.window_start IS NULL \
             OR discord_limits.window_start <= ? THEN excluded.window_start \
             ELSE discord_limits.window_start END",
            vec![
                ROW.into(),
                now.into(),
                window_over.into(),
                window_over.into(),
            ],
            "count an invalid answer of Discord",
        )
        .await?;
        Ok(())
    }
}
