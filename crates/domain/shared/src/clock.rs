//! The time now, as a port: the app passes its one clock to every service and adapter, and
//! tests fix it ([`FixedClock`], or `MockClock` with the `mocks` feature) or move it forward.

use chrono::{DateTime, Utc};

/// The time now.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait Clock: Send + Sync + std::fmt::Debug + 'static {
    fn now(&self) -> DateTime<Utc>;
}

/// The system's clock, which the app's clock reads in production (and tests that want the
/// real time).
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that always tells the same time, for tests.
#[derive(Debug, Clone, Copy)]
pub struct FixedClock(pub DateTime<Utc>);

impl Clock for FixedClock {
    fn now(&self) -> DateTime<Utc> {
        self.0
    }
}
