use crate::gateways::{DiscordIdentity, RobloxUsername};

/// Where the order's receipt goes: the shop's one e-mail type (trimmed, lowercased).
pub use shared::{Email, InvalidEmail};

/// Who bought an order and where it is delivered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Buyer {
    pub discord: DiscordIdentity,
    pub roblox_username: RobloxUsername,
    pub email: Email,
    /// The logged-in account's id (`accounts::UserId`), `None` for a guest checkout.
    pub user_id: Option<i64>,
}
