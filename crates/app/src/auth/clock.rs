use std::sync::Arc;

use chrono::{DateTime, Utc};
use shared::clock::SystemClock;

/// The shop's one clock (the shared kernel's [`shared::Clock`]): the system time, for accounts,
/// checkout, promo codes, the help chat, proofs and the adapters that stamp rows or name files
/// alike. The server runs on [`AppClock::system`]; tests build the app on a clock of their own
/// ([`AppClock::new`]) to see codes, tokens and rate limits expire without waiting. No setting
/// reaches it.
#[derive(Debug, Clone)]
pub struct AppClock(Arc<dyn shared::Clock>);

impl AppClock {
    pub fn new(clock: impl shared::Clock) -> Self {
        AppClock(Arc::new(clock))
    }

    pub fn system() -> Self {
        AppClock::new(SystemClock)
    }
}

impl shared::Clock for AppClock {
    fn now(&self) -> DateTime<Utc> {
        self.0.now()
    }
}
