//! Who an account is, as every domain names it.

use std::fmt;

/// A user's database id (a bare number wherever it is written, e.g. in a server push event).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct UserId(i64);

impl UserId {
    pub fn new(id: i64) -> Self {
        UserId(id)
    }

    pub fn get(self) -> i64 {
        self.0
    }
}

impl fmt::Display for UserId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}
