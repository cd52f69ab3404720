use std::sync::{
    atomic::{AtomicI64, Ordering},
    Arc,
};
use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};

/// The shop's one clock (the shared kernel's [`shared::Clock`]): the system time, for accounts,
/// checkout, promo codes, the help chat and proofs alike. Tests move it forward to see codes,
/// tokens and rate limits expire without waiting; nothing else ever calls `advance`.
#[derive(Debug, Clone, Default)]
pub struct AppClock {
    offset_secs: Arc<AtomicI64>,
}

impl AppClock {
    pub fn advance(&self, by: Duration) {
        let secs = i64::try_from(by.as_secs()).unwrap_or(i64::MAX);
        self.offset_secs.fetch_add(secs, Ordering::SeqCst);
    }
}

impl shared::Clock for AppClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now() + TimeDelta::seconds(self.offset_secs.load(Ordering::SeqCst))
    }
}
