//! What callers hand the store's own (non-port) calls, and what those calls build: kept apart
//! from the modules that write them, so the store's methods and those modules do not use each
//! other in a circle.

use chrono::{DateTime, Utc};

/// One demo staff login as seeded: the address and its generated password.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DemoLogin {
    pub email: String,
    pub password: String,
}

/// One session as stored.
#[derive(Debug, Clone, Copy)]
pub struct SessionRow<'a> {
    pub key: &'a str,
    /// The session's key-value state as a JSON object.
    pub state: &'a str,
    pub expires_at: DateTime<Utc>,
    /// The user the session holds, if any.
    pub user_id: Option<i64>,
}

/// The connection pool now: connections open (in use or idle) and idle ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolUse {
    pub open: u32,
    pub idle: u32,
}
