//! Roblox usernames as the API reads and sends them (`POST /api/roblox/avatar`).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A Roblox username to look up.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = RobloxAvatarRequest)]
pub struct AvatarRequest {
    /// 3 to 20 letters and digits with at most one `_`, not first or last.
    #[serde(default)]
    #[schema(
        required = true,
        nullable = false,
        min_length = 3,
        max_length = 20,
        pattern = "^[A-Za-z0-9]+(_[A-Za-z0-9]+)?$",
        example = "Builderman"
    )]
    pub username: Option<String>,
}

/// A Roblox account as Roblox spells it.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = RobloxAvatar)]
pub struct AvatarResponse {
    /// The headshot; `null` when Roblox has none to show (pending or moderated).
    pub avatar_url: Option<String>,
    /// The canonical spelling of the username.
    pub username: String,
}
