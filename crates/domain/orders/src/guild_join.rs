//! Adding a buyer to the shop's Discord server (issue 21). Linking Discord hands the shop the
//! buyer's OAuth access token (scope `guilds.join`); the join is not made inline but queued
//! ([`GuildJoins::queue`], one pending join per Discord account: a new link replaces the token
//! and starts over) and made by the outbox loop ([`GuildJoins::run_due`]), each join leased
//! first so that of several instances one makes it. A failure that another attempt may cure
//! (Discord unavailable, rate limited) is tried again with the outbox's doubling wait for as
//! long as the token lasts (Discord's last 7 days); one that cannot be cured (the bot lacks the
//! permission, the token is invalid or revoked) gives up at once. The token is deleted as soon
//! as the join is made or given up, and expired joins are swept, so no token stays behind.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};

pub use crate::models::{AccessToken, GuildAccess};
use crate::{Clock, DiscordId, JobFailed, JobGate, MailRetry, Open, OrderError};

/// A join waiting to be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingGuildJoin {
    pub id: i64,
    pub discord_id: DiscordId,
    pub token: AccessToken,
    /// When the token stops working, and the join is given up.
    pub expires_at: DateTime<Utc>,
    /// Failed attempts so far.
    pub attempts: u32,
}

/// Where pending joins live (the `guild_joins` table).
#[cfg_attr(test, mockall::automock)]
pub trait GuildJoinRepository: Send + Sync + 'static {
    /// Queues the join of `discord_id`, due at once: a new row, or for an account with a
    /// pending join, its token and expiry replaced and its attempts, lease and error reset.
    fn queue(
        &self,
        discord_id: DiscordId,
        token: AccessToken,
        expires_at: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<(), OrderError>> + Send;

    /// Up to `limit` joins due at `now` whose token has not expired and which no instance holds,
    /// oldest first.
    fn due(
        &self,
        now: DateTime<Utc>,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<PendingGuildJoin>, OrderError>> + Send;

    /// Takes the join for one attempt until `lease_until`; `false` when another instance holds
    /// it (or it is gone).
    fn lease(
        &self,
        id: i64,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
    ) -> impl Future<Output = Result<bool, OrderError>> + Send;

    /// The join is made: deletes it (and its token).
    fn done(&self, id: i64) -> impl Future<Output = Result<(), OrderError>> + Send;

    /// Records a failed attempt of `join`: `retry_at` the next try (attempts counted, the lease
    /// let go), or `None` to give up (the row deleted). Changes nothing when the account was
    /// linked again meanwhile (the token is not `join.token` any more): the new link starts
    /// over.
    fn failed(
        &self,
        join: &PendingGuildJoin,
        attempts: u32,
        retry_at: Option<DateTime<Utc>>,
        error: String,
    ) -> impl Future<Output = Result<(), OrderError>> + Send;

    /// Deletes every join whose token has expired at `now`; answers how many.
    fn sweep_expired(
        &self,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<u64, OrderError>> + Send;
}

/// Why one attempt to add a buyer to the server failed.
#[derive(Debug, thiserror::Error)]
pub enum GuildJoinError {
    /// Discord could not be reached, timed out, rate limited the shop or failed on its side:
    /// another attempt may work.
    #[error("Discord is unavailable: {0}")]
    Unavailable(String),
    /// The bot may not add members to the server (403).
    #[error("the bot may not add members to the shop's server: {0}")]
    MissingPermission(String),
    /// Discord refused the buyer's token (401, 400): invalid, revoked or without `guilds.join`.
    #[error("Discord refused the buyer's access token: {0}")]
    InvalidToken(String),
    /// 429: another attempt may pass after Discord's wait (not counted as an attempt).
    #[error("Discord rate limited the bot")]
    RateLimited(#[source] crate::RateLimited),
    /// Any other refusal or an unreadable answer: another attempt would fail the same way.
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

impl GuildJoinError {
    /// Whether another attempt may succeed.
    pub fn retry_helps(&self) -> bool {
        matches!(
            self,
            GuildJoinError::Unavailable(_) | GuildJoinError::RateLimited(_)
        )
    }

    /// The failure as the outbox's gate learns from it (Discord's limits), when it is one the
    /// gate counts: a 429, or the bot refused (403).
    fn as_job_failure(&self) -> Option<JobFailed> {
        match self {
            GuildJoinError::RateLimited(limit) => {
                Some(JobFailed::retry(anyhow::Error::new(*limit)))
            }
            GuildJoinError::MissingPermission(_) => Some(JobFailed::give_up(anyhow::Error::new(
                crate::InvalidRequest { status: 403 },
            ))),
            _ => None,
        }
    }
}

/// Where a buyer is added to the shop's server (Discord's `PUT guilds/{guild}/members/{user}`).
#[cfg_attr(test, mockall::automock)]
pub trait GuildDoor: Send + Sync + 'static {
    /// One attempt to add `discord_id` with their token. `Ok` when they are a member (added now
    /// or already). Fails with `GuildJoinError::Unavailable` for a network error, a timeout,
    /// 429 or 5xx; `MissingPermission` for 403; `InvalidToken` for 401 and 400; `Unknown`
    /// otherwise.
    fn join(
        &self,
        discord_id: &DiscordId,
        token: &AccessToken,
    ) -> impl Future<Output = Result<(), GuildJoinError>> + Send;
}

/// Why a join was given up, as the failures metric names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GiveUpReason {
    MissingPermission,
    InvalidToken,
    /// The token expired before a join could be made.
    Expired,
    Other,
}

impl GiveUpReason {
    pub const ALL: [GiveUpReason; 4] = [
        GiveUpReason::MissingPermission,
        GiveUpReason::InvalidToken,
        GiveUpReason::Expired,
        GiveUpReason::Other,
    ];

    pub fn as_str(&self) -> &'static str {
        match self {
            GiveUpReason::MissingPermission => "missing_permission",
            GiveUpReason::InvalidToken => "invalid_token",
            GiveUpReason::Expired => "expired",
            GiveUpReason::Other => "other",
        }
    }

    fn of(error: &GuildJoinError) -> Self {
        match error {
            GuildJoinError::MissingPermission(_) => GiveUpReason::MissingPermission,
            GuildJoinError::InvalidToken(_) => GiveUpReason::InvalidToken,
            // retrying would have helped: it was the token's time that ran out
            GuildJoinError::Unavailable(_) | GuildJoinError::RateLimited(_) => {
                GiveUpReason::Expired
            }
            GuildJoinError::Unknown(_) => GiveUpReason::Other,
        }
    }
}

/// What one round of joins did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GuildJoinRound {
    pub joined: usize,
    /// Failed attempts that will be tried again.
    pub retrying: usize,
    /// Joins given up (expired ones swept included).
    pub given_up: usize,
}

/// How many joins to take per round.
const BATCH: u32 = 50;
/// How long an attempt holds a join before another instance may try it.
const LEASE_SECONDS: i64 = 120;

/// Queues and makes the joins, over their ports.
#[derive(Debug, Clone)]
pub struct GuildJoins<R, D, C, G = Open> {
    repository: R,
    door: D,
    clock: C,
    retry: MailRetry,
    given_up: Arc<[AtomicU64; 4]>,
    gate: G,
}

impl<R: GuildJoinRepository, D: GuildDoor, C: Clock> GuildJoins<R, D, C, Open> {
    /// `retry` gives the waits between attempts (its `max_attempts` is not used: a join is
    /// tried for as long as its token lasts).
    pub fn new(repository: R, door: D, clock: C, retry: MailRetry) -> Self {
        GuildJoins {
            repository,
            door,
            clock,
            retry,
            given_up: Arc::default(),
            gate: Open,
        }
    }
}

impl<R: GuildJoinRepository, D: GuildDoor, C: Clock, G: JobGate> GuildJoins<R, D, C, G> {
    /// The same joins, held while `gate` is closed (Discord's global limit and invalid-request
    /// budget), and teaching it what Discord answered.
    pub fn gated<G2: JobGate>(self, gate: G2) -> GuildJoins<R, D, C, G2> {
        GuildJoins {
            repository: self.repository,
            door: self.door,
            clock: self.clock,
            retry: self.retry,
            given_up: self.given_up,
            gate,
        }
    }

    /// Queues the join of a buyer who just linked Discord (replacing any pending one of theirs).
    #[tracing::instrument(skip(self, access))]
    pub async fn queue(
        &self,
        discord_id: DiscordId,
        access: GuildAccess,
    ) -> Result<(), OrderError> {
        let now = self.clock.now();
        self.repository
            .queue(discord_id, access.token, now + access.lasts, now)
            .await
    }

    /// Joins given up so far by this instance, per reason, counted by every clone.
    pub fn failures(&self) -> Vec<(&'static str, u64)> {
        GiveUpReason::ALL
            .iter()
            .zip(self.given_up.iter())
            .map(|(reason, count)| (reason.as_str(), count.load(Ordering::Relaxed)))
            .collect()
    }

    fn count(&self, reason: GiveUpReason, n: u64) {
        if let Some(i) = GiveUpReason::ALL.iter().position(|r| *r == reason) {
            self.given_up[i].fetch_add(n, Ordering::Relaxed);
        }
    }

    /// Deletes the expired joins, then makes every join due now, each leased first; a failure
    /// is tried again later with a doubling wait while the token lasts, unless retrying cannot
    /// help.
    pub async fn run_due(&self) -> Result<GuildJoinRound, OrderError> {
        let now = self.clock.now();
        let mut round = GuildJoinRound::default();
        let swept = self.repository.sweep_expired(now).await?;
        if swept > 0 {
            tracing::warn!(
                joins = swept,
                "buyers' tokens expired before they could be added to the shop's server"
            );
            self.count(GiveUpReason::Expired, swept);
            round.given_up += usize::try_from(swept).unwrap_or(usize::MAX);
        }
        let due = self.repository.due(now, BATCH).await?;
        if due.is_empty() || self.gate.closed_until(now).await?.is_some() {
            return Ok(round);
        }
        for join in due {
            let leased = self
                .repository
                .lease(join.id, now, now + Duration::seconds(LEASE_SECONDS))
                .await?;
            if !leased {
                continue;
            }
            match self.door.join(&join.discord_id, &join.token).await {
                Ok(()) => {
                    tracing::info!(discord_id = %join.discord_id, "buyer added to the shop's server");
                    self.repository.done(join.id).await?;
                    round.joined += 1;
                }
                Err(GuildJoinError::RateLimited(limit)) => {
                    if self.rate_limited(&join, limit, &mut round).await? {
                        break;
                    }
                }
                Err(error) => self.join_failed(&join, error, &mut round).await?,
            }
        }
        Ok(round)
    }

    /// Discord rate limited the join: put off by Discord's wait, the attempt not counted (given
    /// up when the token ends first). `true` when the gate closed, so the round stops.
    async fn rate_limited(
        &self,
        join: &PendingGuildJoin,
        limit: crate::RateLimited,
        round: &mut GuildJoinRound,
    ) -> Result<bool, OrderError> {
        let now = self.clock.now();
        self.gate
            .failed(now, &JobFailed::retry(anyhow::Error::new(limit)))
            .await?;
        let retry_at = Some(now + limit.retry_after).filter(|at| *at < join.expires_at);
        if retry_at.is_none() {
            self.count(GiveUpReason::Expired, 1);
            round.given_up += 1;
        } else {
            round.retrying += 1;
        }
        self.repository
            .failed(
                join,
                join.attempts,
                retry_at,
                "Discord rate limited the bot".to_owned(),
            )
            .await?;
        Ok(self.gate.closed_until(now).await?.is_some())
    }

    /// The join failed: tried again later with a doubling wait while the token lasts, unless
    /// retrying cannot help.
    async fn join_failed(
        &self,
        join: &PendingGuildJoin,
        error: GuildJoinError,
        round: &mut GuildJoinRound,
    ) -> Result<(), OrderError> {
        if let Some(failure) = error.as_job_failure() {
            self.gate.failed(self.clock.now(), &failure).await?;
        }
        let attempts = join.attempts + 1;
        let retry_at = error
            .retry_helps()
            .then(|| self.clock.now() + self.retry.delay_after(attempts))
            .filter(|at| *at < join.expires_at);
        if retry_at.is_some() {
            tracing::warn!(
                discord_id = %join.discord_id, attempts, error = %error,
                "could not add a buyer to the shop's server; trying again later"
            );
            round.retrying += 1;
        } else {
            let reason = GiveUpReason::of(&error);
            tracing::warn!(
                discord_id = %join.discord_id, attempts, reason = reason.as_str(),
                error = %error,
                "could not add a buyer to the shop's server; giving up"
            );
            self.count(reason, 1);
            round.given_up += 1;
        }
        self.repository
            .failed(join, attempts, retry_at, error.to_string())
            .await
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use chrono::TimeZone;
    use mockall::predicate::{always, eq};
    use shared::FixedClock;

    use super::*;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 26, 12, 0, 0).unwrap()
    }

    fn nelly() -> DiscordId {
        DiscordId::parse("80351110224678912").unwrap()
    }

    fn pending(attempts: u32, expires_at: DateTime<Utc>) -> PendingGuildJoin {
        PendingGuildJoin {
            id: 3,
            discord_id: nelly(),
            token: AccessToken::new("user-token"),
            expires_at,
            attempts,
        }
    }

    /// A repository with nothing expired and `join` due, leased as asked.
    fn one_due(join: PendingGuildJoin, leased: bool) -> MockGuildJoinRepository {
        let mut repo = MockGuildJoinRepository::new();
        repo.expect_sweep_expired()
            .returning(|_| Box::pin(async { Ok(0) }));
        repo.expect_due()
            .with(eq(now()), always())
            .returning(move |_, _| {
                let join = join.clone();
                Box::pin(async move { Ok(vec![join]) })
            });
        repo.expect_lease()
            .with(
                eq(3),
                eq(now()),
                eq(now() + Duration::seconds(LEASE_SECONDS)),
            )
            .returning(move |_, _, _| Box::pin(async move { Ok(leased) }));
        repo
    }

    fn door(answer: fn() -> Result<(), GuildJoinError>) -> MockGuildDoor {
        let mut door = MockGuildDoor::new();
        door.expect_join()
            .withf(|id, token| *id == nelly() && token.expose() == "user-token")
            .times(1)
            .returning(move |_, _| Box::pin(async move { answer() }));
        door
    }

    fn joins(
        repo: MockGuildJoinRepository,
        door: MockGuildDoor,
    ) -> GuildJoins<MockGuildJoinRepository, MockGuildDoor, FixedClock> {
        GuildJoins::new(repo, door, FixedClock(now()), MailRetry::default())
    }

    fn expect_failed(
        repo: &mut MockGuildJoinRepository,
        attempts: u32,
        retry_at: Option<DateTime<Utc>>,
    ) {
        repo.expect_failed()
            .withf(move |join, a, at, _| join.id == 3 && *a == attempts && *at == retry_at)
            .times(1)
            .returning(|_, _, _, _| Box::pin(async { Ok(()) }));
    }

    #[test]
    fn a_token_never_shows_in_debug_output() {
        let join = pending(0, now());
        assert!(!format!("{join:?}").contains("user-token"));
        assert_eq!(join.token.expose(), "user-token");
    }

    #[tokio::test]
    async fn a_link_queues_the_join_until_its_token_expires() {
        let mut repo = MockGuildJoinRepository::new();
        repo.expect_queue()
            .withf(|id, token, expires_at, at| {
                *id == nelly()
                    && token.expose() == "t"
                    && *expires_at == now() + Duration::days(7)
                    && *at == now()
            })
            .times(1)
            .returning(|_, _, _, _| Box::pin(async { Ok(()) }));
        joins(repo, MockGuildDoor::new())
            .queue(
                nelly(),
                GuildAccess {
                    token: AccessToken::new("t"),
                    lasts: GuildAccess::DEFAULT_LIFETIME,
                },
            )
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn a_join_made_is_deleted() {
        let mut repo = one_due(pending(0, now() + Duration::days(7)), true);
        repo.expect_done()
            .with(eq(3))
            .times(1)
            .returning(|_| Box::pin(async { Ok(()) }));
        let round = joins(repo, door(|| Ok(()))).run_due().await.unwrap();
        assert_eq!(round.joined, 1);
    }

    #[tokio::test]
    async fn a_join_another_instance_holds_is_left_alone() {
        let repo = one_due(pending(0, now() + Duration::days(7)), false);
        let round = joins(repo, MockGuildDoor::new()).run_due().await.unwrap();
        assert_eq!(round, GuildJoinRound::default());
    }

    #[tokio::test]
    async fn discord_unavailable_is_tried_again_with_a_doubling_wait() {
        let mut repo = one_due(pending(2, now() + Duration::days(7)), true);
        let retry = MailRetry::default();
        expect_failed(&mut repo, 3, Some(now() + retry.delay_after(3)));
        let joins = joins(
            repo,
            door(|| Err(GuildJoinError::Unavailable("503".into()))),
        );
        let round = joins.run_due().await.unwrap();
        assert_eq!(round.retrying, 1);
        assert!(joins.failures().iter().all(|(_, n)| *n == 0));
    }

    #[tokio::test]
    async fn retrying_goes_on_past_the_mail_attempts_while_the_token_lasts() {
        let mut repo = one_due(pending(40, now() + Duration::days(7)), true);
        expect_failed(
            &mut repo,
            41,
            Some(now() + MailRetry::default().delay_after(41)),
        );
        joins(
            repo,
            door(|| Err(GuildJoinError::Unavailable("429".into()))),
        )
        .run_due()
        .await
        .unwrap();
    }

    #[tokio::test]
    async fn a_retry_after_the_token_expires_gives_up_now() {
        let mut repo = one_due(pending(0, now() + Duration::seconds(10)), true);
        expect_failed(&mut repo, 1, None);
        let joins = joins(
            repo,
            door(|| Err(GuildJoinError::Unavailable("500".into()))),
        );
        assert_eq!(joins.run_due().await.unwrap().given_up, 1);
        assert!(joins.failures().contains(&("expired", 1)));
    }

    #[tokio::test]
    async fn a_missing_permission_gives_up_at_once() {
        let mut repo = one_due(pending(0, now() + Duration::days(7)), true);
        expect_failed(&mut repo, 1, None);
        let joins = joins(
            repo,
            door(|| Err(GuildJoinError::MissingPermission("50013".into()))),
        );
        assert_eq!(joins.run_due().await.unwrap().given_up, 1);
        assert!(joins.failures().contains(&("missing_permission", 1)));
    }

    #[tokio::test]
    async fn a_revoked_token_gives_up_at_once() {
        let mut repo = one_due(pending(0, now() + Duration::days(7)), true);
        expect_failed(&mut repo, 1, None);
        let joins = joins(
            repo,
            door(|| Err(GuildJoinError::InvalidToken("401".into()))),
        );
        joins.run_due().await.unwrap();
        assert!(joins.failures().contains(&("invalid_token", 1)));
    }

    #[tokio::test]
    async fn expired_joins_are_swept_and_counted() {
        let mut repo = MockGuildJoinRepository::new();
        repo.expect_sweep_expired()
            .with(eq(now()))
            .times(1)
            .returning(|_| Box::pin(async { Ok(2) }));
        repo.expect_due()
            .returning(|_, _| Box::pin(async { Ok(vec![]) }));
        let joins = joins(repo, MockGuildDoor::new());
        assert_eq!(joins.run_due().await.unwrap().given_up, 2);
        assert!(joins.failures().contains(&("expired", 2)));
    }
}
