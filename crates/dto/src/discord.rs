//! Discord linking as the API reads and sends it: the identity, the OAuth callback's code and
//! state.

use orders::gateways::DiscordIdentity;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The identity as the session keeps it and the API answers it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(as = DiscordIdentity)]
pub struct IdentityBody {
    /// Discord's user id (a snowflake, as a string).
    #[schema(example = "80351110224678912")]
    pub discord_id: String,
    pub username: String,
    /// The avatar's URL, when the account has one.
    pub avatar: Option<String>,
}

impl From<&DiscordIdentity> for IdentityBody {
    fn from(identity: &DiscordIdentity) -> Self {
        IdentityBody {
            discord_id: identity.discord_id.to_string(),
            username: identity.username.clone(),
            avatar: identity.avatar_url.clone(),
        }
    }
}

/// What Discord handed back to the shop's callback page.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = DiscordAuthRequest)]
pub struct DiscordAuth {
    /// Discord's authorization code.
    #[serde(default)]
    #[schema(required = true, nullable = false)]
    pub code: Option<String>,
    /// The `state` Discord returned; it must be the one in the state cookie.
    #[serde(default)]
    #[schema(required = true, nullable = false)]
    pub state: Option<String>,
}

/// The Discord account linked in this session.
#[derive(Debug, Serialize, ToSchema)]
pub struct LinkedIdentity {
    /// `null` when none is linked.
    pub identity: Option<IdentityBody>,
}

/// A short confirmation.
#[derive(Debug, Serialize, ToSchema)]
pub struct DiscordUnlinked {
    #[schema(example = "Discord unlinked.")]
    pub message: String,
}
