//! What a Discord link gives the shop to add the buyer to its server (`crate::guild_join` makes
//! the join; the link's identity carries it).

use std::fmt;

use chrono::Duration;

/// A buyer's OAuth access token. Its `Debug` and `Display` never show it.
#[derive(Clone, PartialEq, Eq)]
pub struct AccessToken(String);

impl AccessToken {
    pub fn new(token: impl Into<String>) -> Self {
        AccessToken(token.into())
    }

    /// The token itself, for the one request that needs it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for AccessToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AccessToken(***)")
    }
}

/// What a Discord link gives the shop to add the buyer to its server: the token and how long
/// it works from now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuildAccess {
    pub token: AccessToken,
    pub lasts: Duration,
}

impl GuildAccess {
    /// How long a token works when Discord's answer does not say (Discord's own is 7 days).
    pub const DEFAULT_LIFETIME: Duration = Duration::days(7);
}
