#[cfg(feature = "testing")]
use std::sync::{
    atomic::{AtomicI64, Ordering},
    Arc,
};
#[cfg(feature = "testing")]
use std::time::Duration;

use chrono::{DateTime, Utc};

/// The shop's one clock (the shared kernel's [`shared::Clock`]): the system time, for accounts,
/// checkout, promo codes, the help chat and proofs alike. With the `testing` feature (the app's
/// own tests enable it) tests move it forward to see codes, tokens and rate limits expire without
/// waiting; a build without it has no way to move time.
#[derive(Debug, Clone, Default)]
pub struct AppClock {
    #[cfg(feature = "testing")]
    offset_secs: Arc<AtomicI64>,
}

#[cfg(feature = "testing")]
impl AppClock {
    pub fn advance(&self, by: Duration) {
        let secs = i64::try_from(by.as_secs()).unwrap_or(i64::MAX);
        self.offset_secs.fetch_add(secs, Ordering::SeqCst);
    }
}

impl shared::Clock for AppClock {
    #[cfg(not(feature = "testing"))]
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }

    #[cfg(feature = "testing")]
    fn now(&self) -> DateTime<Utc> {
        Utc::now() + chrono::TimeDelta::seconds(self.offset_secs.load(Ordering::SeqCst))
    }
}
