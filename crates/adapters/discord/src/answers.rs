//! Reading Discord's refusals the same way for every call the shop makes (the ticket's bot
//! calls, the staff webhook, the server joins): a 429 says how long to wait and whether the
//! limit is the bot's global one; 401 and 403 count against Discord's invalid-request budget.
//! Nothing here waits or retries: the outbox puts the job off ([`orders::RateLimited`]).

use chrono::Duration;
use orders::RateLimited;
use reqwest::header::HeaderMap;
use serde::Deserialize;

/// The wait when a 429 names none in a form the shop can read.
const UNSAID_WAIT_MS: i64 = 5_000;
/// The longest wait taken from an answer (a garbage `retry_after` cannot park a job for days).
const LONGEST_WAIT_MS: i64 = 3_600_000;

#[derive(Deserialize, Default)]
struct LimitBody {
    #[serde(default)]
    retry_after: Option<f64>,
    #[serde(default)]
    global: Option<bool>,
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get(name)
        .and_then(|value| value.to_str().ok())
        .map(str::trim)
}

/// What a 429 with these headers and body asks: its wait (the body's `retry_after`, else the
/// `Retry-After` header, in seconds), whether it is global (`X-RateLimit-Scope: global`,
/// `X-RateLimit-Global: true` or `"global": true`), and whether Discord counts it as invalid
/// (every 429 but a `shared` resource's).
pub(crate) fn rate_limited(headers: &HeaderMap, body: &[u8]) -> RateLimited {
    let said: LimitBody = serde_json::from_slice(body).unwrap_or_default();
    let scope = header(headers, "x-ratelimit-scope").map(str::to_ascii_lowercase);
    let global = said.global == Some(true)
        || scope.as_deref() == Some("global")
        || header(headers, "x-ratelimit-global").is_some_and(|v| v.eq_ignore_ascii_case("true"));
    let seconds = said
        .retry_after
        .or_else(|| header(headers, "retry-after").and_then(|v| v.parse::<f64>().ok()))
        .filter(|s| s.is_finite() && *s >= 0.0);
    let millis = seconds.map_or(UNSAID_WAIT_MS, |s| {
        // rounded up: waking a moment early only meets the limit again
        (s * 1000.0).ceil().min(LONGEST_WAIT_MS as f64) as i64
    });
    RateLimited {
        retry_after: Duration::milliseconds(millis.clamp(1, LONGEST_WAIT_MS)),
        global,
        counted: scope.as_deref() != Some("shared"),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use reqwest::header::{HeaderName, HeaderValue};

    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(k, v)| {
                (
                    HeaderName::from_bytes(k.as_bytes()).unwrap(),
                    HeaderValue::from_str(v).unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn a_429_says_its_wait_and_scope_by_header_or_body() {
        let route = rate_limited(
            &headers(&[("x-ratelimit-scope", "user"), ("retry-after", "1")]),
            br#"{"message": "You are being rate limited.", "retry_after": 0.3, "global": false}"#,
        );
        assert_eq!(route.retry_after, Duration::milliseconds(300));
        assert!(!route.global && route.counted);

        let global = rate_limited(
            &headers(&[("x-ratelimit-scope", "global"), ("retry-after", "2")]),
            b"<html>",
        );
        assert_eq!(global.retry_after, Duration::seconds(2));
        assert!(global.global && global.counted);
        assert!(rate_limited(&HeaderMap::new(), br#"{"retry_after": 1, "global": true}"#).global);

        let shared = rate_limited(&headers(&[("x-ratelimit-scope", "shared")]), b"garbage");
        assert!(!shared.global && !shared.counted);
        assert_eq!(shared.retry_after, Duration::milliseconds(UNSAID_WAIT_MS));

        let absurd = rate_limited(&HeaderMap::new(), br#"{"retry_after": 1e300}"#);
        assert_eq!(absurd.retry_after, Duration::milliseconds(LONGEST_WAIT_MS));
    }
}
