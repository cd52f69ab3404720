//! A member of staff's private server link (`/api/admin/private-server`) as the API reads and
//! sends it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The caller's private server link.
#[derive(Debug, Serialize, ToSchema)]
pub struct PrivateServer {
    /// Null when none is set.
    #[schema(
        required = true,
        example = "https://www.roblox.com/share?code=abc123&type=Server"
    )]
    pub url: Option<String>,
}

/// A new private server link.
#[derive(Debug, Deserialize, ToSchema)]
pub struct PrivateServerRequest {
    /// An https link on roblox.com, at most 300 characters.
    #[schema(
        max_length = 300,
        example = "https://www.roblox.com/share?code=abc123&type=Server"
    )]
    pub url: String,
}
