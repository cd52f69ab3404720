use shared::{Language, UserId};

use crate::gateways::{DiscordIdentity, RobloxUsername};

/// Where the order's receipt goes: the shop's one e-mail type (trimmed, lowercased).
pub use shared::{Email, InvalidEmail};

/// Who bought an order and where it is delivered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Buyer {
    /// The Discord account the buyer linked. Checkout always has one; `None` only on an order
    /// kept for the books after its buyer deleted their account (the e-mail address and Roblox
    /// username are then placeholders too, see `accounts::Erasure`).
    pub discord: Option<DiscordIdentity>,
    pub roblox_username: RobloxUsername,
    pub email: Email,
    /// The logged-in account's id, `None` for a guest checkout.
    pub user_id: Option<UserId>,
    /// The language the order was placed in: its mails are written in it.
    pub language: Language,
}

impl Buyer {
    /// Whether the buyer deleted their account since: the order no longer names anyone, and
    /// nothing is sent to them or blocked in their name.
    pub fn is_erased(&self) -> bool {
        self.discord.is_none()
    }
}
