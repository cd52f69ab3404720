//! Discord's limits on the shop's bot, kept in the database because they belong to the bot's
//! token and the shop's address, not to one process: a global 429 holds every Discord job of
//! every instance until its end, and the answers Discord counts as invalid (401, 403, 429) are
//! counted per ten-minute window so the shop stops well before Discord's own budget (10,000 per
//! ten minutes, past which Cloudflare bans the address for an hour).

use std::future::Future;

use chrono::{DateTime, Duration, Utc};

use crate::{JobFailed, JobGate, OrderError};

/// Discord's window for invalid requests.
pub const INVALID_WINDOW: Duration = Duration::minutes(10);

/// What the database keeps of Discord's limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DiscordLimitState {
    /// The end of the last global rate limit.
    pub paused_until: Option<DateTime<Utc>>,
    /// The start of the current window of invalid answers, and how many it has counted.
    pub window_start: Option<DateTime<Utc>>,
    pub invalid: u32,
}

/// Where Discord's limits are kept (one row, shared by every instance).
#[cfg_attr(test, mockall::automock)]
pub trait DiscordLimitRepository: Send + Sync + 'static {
    fn discord_limits(&self) -> impl Future<Output = Result<DiscordLimitState, OrderError>> + Send;

    /// Holds Discord's jobs until `until`, or keeps a later hold already there.
    fn pause_discord(
        &self,
        until: DateTime<Utc>,
    ) -> impl Future<Output = Result<(), OrderError>> + Send;

    /// Counts one invalid answer at `now`: in the current window, or as the first of a new
    /// window starting at `now` when the current one started at or before `window_over`.
    fn count_invalid_discord_answer(
        &self,
        now: DateTime<Utc>,
        window_over: DateTime<Utc>,
    ) -> impl Future<Output = Result<(), OrderError>> + Send;
}

/// The gate of every Discord job ([`JobGate`]).
#[derive(Debug, Clone)]
pub struct DiscordLimits<R> {
    repository: R,
    /// Invalid answers per window after which the shop stops calling Discord until the window
    /// ends (`discord.invalid_request_budget`, well under Discord's 10,000).
    budget: u32,
}

impl<R: DiscordLimitRepository> DiscordLimits<R> {
    pub fn new(repository: R, budget: u32) -> Self {
        DiscordLimits {
            repository,
            budget: budget.max(1),
        }
    }

    /// When Discord may be called again, as `state` says at `now`; `None`: now.
    pub fn closed_until_in(
        &self,
        state: &DiscordLimitState,
        now: DateTime<Utc>,
    ) -> Option<DateTime<Utc>> {
        let paused = state.paused_until.filter(|until| *until > now);
        let spent = state
            .window_start
            .map(|start| start + INVALID_WINDOW)
            .filter(|end| *end > now && state.invalid >= self.budget);
        paused.max(spent)
    }

    /// Learns from an answer of Discord, wherever it came from: a global limit holds every
    /// Discord job until its end, an invalid answer is counted.
    pub async fn observe(&self, now: DateTime<Utc>, failed: &JobFailed) -> Result<(), OrderError> {
        if let Some(limit) = failed.limited.filter(|limit| limit.global) {
            self.repository
                .pause_discord(now + limit.retry_after)
                .await?;
        }
        if failed.invalid {
            self.repository
                .count_invalid_discord_answer(now, now - INVALID_WINDOW)
                .await?;
        }
        Ok(())
    }
}

impl<R: DiscordLimitRepository> JobGate for DiscordLimits<R> {
    async fn closed_until(&self, now: DateTime<Utc>) -> Result<Option<DateTime<Utc>>, OrderError> {
        let state = self.repository.discord_limits().await?;
        Ok(self.closed_until_in(&state, now))
    }

    async fn failed(&self, now: DateTime<Utc>, failed: &JobFailed) -> Result<(), OrderError> {
        self.observe(now, failed).await
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;
    use crate::RateLimited;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 28, 12, 0, 0).unwrap()
    }

    fn limits() -> DiscordLimits<MockDiscordLimitRepository> {
        DiscordLimits::new(MockDiscordLimitRepository::new(), 3)
    }

    #[test]
    fn a_global_limit_closes_until_its_end_and_a_spent_budget_until_its_window_ends() {
        let l = limits();
        let paused = DiscordLimitState {
            paused_until: Some(now() + Duration::seconds(5)),
            ..Default::default()
        };
        assert_eq!(l.closed_until_in(&paused, now()), paused.paused_until);
        assert_eq!(
            l.closed_until_in(&paused, now() + Duration::seconds(5)),
            None
        );
        let spent = DiscordLimitState {
            paused_until: None,
            window_start: Some(now() - Duration::minutes(4)),
            invalid: 3,
        };
        assert_eq!(
            l.closed_until_in(&spent, now()),
            Some(now() + Duration::minutes(6))
        );
        let under = DiscordLimitState {
            invalid: 2,
            ..spent
        };
        assert_eq!(l.closed_until_in(&under, now()), None);
        assert_eq!(
            l.closed_until_in(&spent, now() + Duration::minutes(6)),
            None
        );
    }

    #[tokio::test]
    async fn a_global_429_pauses_every_instance_and_counts_as_invalid() {
        let mut repo = MockDiscordLimitRepository::new();
        repo.expect_pause_discord()
            .withf(|until| *until == now() + Duration::seconds(2))
            .times(1)
            .returning(|_| Box::pin(async { Ok(()) }));
        repo.expect_count_invalid_discord_answer()
            .withf(|at, over| *at == now() && *over == now() - INVALID_WINDOW)
            .times(1)
            .returning(|_, _| Box::pin(async { Ok(()) }));
        let limits = DiscordLimits::new(repo, 100);
        let failed = JobFailed::retry(anyhow::Error::new(RateLimited {
            retry_after: Duration::seconds(2),
            global: true,
            counted: true,
        }));
        assert!(failed.invalid && failed.limited.is_some());
        limits.observe(now(), &failed).await.unwrap();
    }
}
