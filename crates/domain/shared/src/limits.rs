//! Rate limits: how many requests of one kind one key (an address, an IP, a Discord account, a
//! chat) may make in a window.
//!
//! Counting is fixed-window and atomic: [`RateLimiter::hit`] records one request and returns the
//! window's count including it, in one step of the shared store, so N parallel requests see N
//! different counts and at most `max` of them are let through. A refused request still counts,
//! which keeps a flood refused until its window ends.

use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};

/// The key a client address counts under, for every per-address limit (and the blocklist): an
/// IPv6 client as its /64 (one subscriber's network, whose addresses it may rotate through at
/// will), an IPv4 client (and an IPv4-mapped IPv6 one) as its address. The one function for it:
/// a limit keyed any other way can be stepped around.
pub fn network_key(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let [a, b, c, d, ..] = v6.segments();
                format!("{a:x}:{b:x}:{c:x}:{d:x}::/64")
            }
        },
    }
}

/// `max` requests per `window`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    pub max: u32,
    pub window: Duration,
}

impl Rule {
    pub const fn new(max: u32, window: Duration) -> Self {
        Rule { max, window }
    }

    pub const fn per_minute(max: u32) -> Self {
        Rule::new(max, Duration::from_secs(60))
    }

    pub const fn per_hour(max: u32) -> Self {
        Rule::new(max, Duration::from_secs(3600))
    }

    /// The window `now` falls in, as `[start, end)`. Windows are aligned to the Unix epoch, so
    /// every instance agrees on them.
    pub fn window_at(&self, now: DateTime<Utc>) -> (DateTime<Utc>, DateTime<Utc>) {
        let length = i64::try_from(self.window.as_secs().max(1)).unwrap_or(i64::MAX);
        let start = now.timestamp().div_euclid(length) * length;
        let start = DateTime::from_timestamp(start, 0).unwrap_or(now);
        (start, start + TimeDelta::seconds(length))
    }
}

/// A refused request: try again after `retry_after` (whole seconds, at least one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused {
    pub retry_after: Duration,
}

/// The count of a window after one more request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowHits {
    pub count: u32,
}

#[derive(Debug, thiserror::Error)]
pub enum LimitError {
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// The shared counters behind every rate limit.
pub trait RateLimiter: Send + Sync + 'static {
    /// Records one request in `bucket`'s window starting at `window_start` and returns the
    /// window's count including it, atomically.
    fn hit(
        &self,
        bucket: &str,
        window_start: DateTime<Utc>,
    ) -> impl Future<Output = Result<WindowHits, LimitError>> + Send;

    /// Takes one request back from `bucket`'s count in the window starting at `window_start`
    /// (never below zero): a request that turned out not to count, e.g. a successful login.
    fn release(
        &self,
        bucket: &str,
        window_start: DateTime<Utc>,
    ) -> impl Future<Output = Result<(), LimitError>> + Send;

    /// Forgets `bucket`'s count in the window starting at `window_start` (e.g. failed logins
    /// after a successful one).
    fn clear(
        &self,
        bucket: &str,
        window_start: DateTime<Utc>,
    ) -> impl Future<Output = Result<(), LimitError>> + Send;
}

/// Counts one request of `key` under `rule` and says whether it is let through.
///
/// `bucket` names the limit ("login-ip", "chat-send", ...); the stored key is `bucket:key`.
pub async fn admit<L: RateLimiter + ?Sized>(
    limiter: &L,
    bucket: &str,
    key: &str,
    rule: Rule,
    now: DateTime<Utc>,
) -> Result<Result<(), Refused>, LimitError> {
    let (start, end) = rule.window_at(now);
    let hits = limiter.hit(&format!("{bucket}:{key}"), start).await?;
    if hits.count <= rule.max {
        return Ok(Ok(()));
    }
    Ok(Err(Refused {
        retry_after: seconds_until(now, end),
    }))
}

/// Forgets `key`'s count under `rule` in the current window.
pub async fn forget<L: RateLimiter + ?Sized>(
    limiter: &L,
    bucket: &str,
    key: &str,
    rule: Rule,
    now: DateTime<Utc>,
) -> Result<(), LimitError> {
    let (start, _) = rule.window_at(now);
    limiter.clear(&format!("{bucket}:{key}"), start).await
}

/// Takes back one request of `key` counted by [`admit`] at `now` under `rule`.
pub async fn give_back<L: RateLimiter + ?Sized>(
    limiter: &L,
    bucket: &str,
    key: &str,
    rule: Rule,
    now: DateTime<Utc>,
) -> Result<(), LimitError> {
    let (start, _) = rule.window_at(now);
    limiter.release(&format!("{bucket}:{key}"), start).await
}

/// From `now` until `later` in whole seconds, rounded up, at least one.
pub fn seconds_until(now: DateTime<Utc>, later: DateTime<Utc>) -> Duration {
    let wait = (later - now).to_std().unwrap_or_default();
    let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    Duration::from_secs(secs.max(1))
}

/// Counters in this process's memory: for domain unit tests and single-process tools. The shop
/// itself counts in its database so every instance shares the counts.
#[derive(Debug, Default)]
pub struct MemoryLimiter {
    counts: Mutex<HashMap<(String, i64), u32>>,
}

impl MemoryLimiter {
    pub fn new() -> Self {
        MemoryLimiter::default()
    }
}

impl RateLimiter for MemoryLimiter {
    async fn hit(
        &self,
        bucket: &str,
        window_start: DateTime<Utc>,
    ) -> Result<WindowHits, LimitError> {
        let mut counts = self
            .counts
            .lock()
            .map_err(|_| anyhow::anyhow!("the rate limit counters were poisoned"))?;
        let count = counts
            .entry((bucket.to_owned(), window_start.timestamp()))
            .or_insert(0);
        *count = count.saturating_add(1);
        Ok(WindowHits { count: *count })
    }

    async fn release(&self, bucket: &str, window_start: DateTime<Utc>) -> Result<(), LimitError> {
        let mut counts = self
            .counts
            .lock()
            .map_err(|_| anyhow::anyhow!("the rate limit counters were poisoned"))?;
        if let Some(count) = counts.get_mut(&(bucket.to_owned(), window_start.timestamp())) {
            *count = count.saturating_sub(1);
        }
        Ok(())
    }

    async fn clear(&self, bucket: &str, window_start: DateTime<Utc>) -> Result<(), LimitError> {
        let mut counts = self
            .counts
            .lock()
            .map_err(|_| anyhow::anyhow!("the rate limit counters were poisoned"))?;
        counts.remove(&(bucket.to_owned(), window_start.timestamp()));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(secs, 0).unwrap_or_default()
    }

    #[test]
    fn an_ipv6_client_counts_as_its_64_an_ipv4_client_as_its_address() {
        let key = |text: &str| network_key(text.parse().unwrap_or(IpAddr::from([0, 0, 0, 0])));
        assert_eq!(key("203.0.113.7"), "203.0.113.7");
        assert_eq!(key("::ffff:203.0.113.7"), "203.0.113.7");
        assert_eq!(key("2001:db8:1:2::1"), "2001:db8:1:2::/64");
        assert_eq!(
            key("2001:0db8:0001:0002:ffff:1:2:3"),
            key("2001:db8:1:2:aaaa::9")
        );
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_ne!(key("203.0.113.7"), key("203.0.113.8"));
    }

    #[tokio::test]
    async fn lets_max_through_then_refuses_until_the_window_ends() -> Result<(), LimitError> {
        let limiter = MemoryLimiter::new();
        let rule = Rule::per_minute(3);
        for _ in 0..3 {
            assert_eq!(admit(&limiter, "t", "k", rule, at(125)).await?, Ok(()));
        }
        let refused = admit(&limiter, "t", "k", rule, at(125)).await?;
        assert_eq!(
            refused,
            Err(Refused {
                retry_after: Duration::from_secs(55)
            })
        );
        // another key is counted on its own
        assert_eq!(admit(&limiter, "t", "other", rule, at(125)).await?, Ok(()));
        // the next window starts afresh
        assert_eq!(admit(&limiter, "t", "k", rule, at(180)).await?, Ok(()));
        Ok(())
    }

    #[tokio::test]
    async fn forget_clears_the_current_window() -> Result<(), LimitError> {
        let limiter = MemoryLimiter::new();
        let rule = Rule::per_minute(1);
        assert_eq!(admit(&limiter, "t", "k", rule, at(10)).await?, Ok(()));
        assert!(admit(&limiter, "t", "k", rule, at(10)).await?.is_err());
        forget(&limiter, "t", "k", rule, at(20)).await?;
        assert_eq!(admit(&limiter, "t", "k", rule, at(20)).await?, Ok(()));
        Ok(())
    }

    #[tokio::test]
    async fn a_request_given_back_frees_its_place() -> Result<(), LimitError> {
        let limiter = MemoryLimiter::new();
        let rule = Rule::per_minute(2);
        assert_eq!(admit(&limiter, "t", "k", rule, at(10)).await?, Ok(()));
        give_back(&limiter, "t", "k", rule, at(10)).await?;
        assert_eq!(admit(&limiter, "t", "k", rule, at(10)).await?, Ok(()));
        assert_eq!(admit(&limiter, "t", "k", rule, at(10)).await?, Ok(()));
        assert!(admit(&limiter, "t", "k", rule, at(10)).await?.is_err());
        Ok(())
    }

    #[test]
    fn windows_are_aligned_to_the_epoch() {
        let rule = Rule::new(1, Duration::from_secs(900));
        assert_eq!(rule.window_at(at(1000)), (at(900), at(1800)));
        assert_eq!(rule.window_at(at(900)), (at(900), at(1800)));
    }
}
