//! The gate of every Discord job (the outbox's staff and ticket lanes, the server joins):
//! Discord's limits on the shop's bot, shared by every instance through the database
//! (`orders::DiscordLimits`).

use orders::DiscordLimits;
use store::Store;

/// Discord's limits on the shop's bot, shared by every instance through the database.
pub type DiscordGate = DiscordLimits<Store>;

/// The gate of every Discord job, with `discord.invalid_request_budget`.
pub fn discord_gate(store: Store, settings: &crate::settings::Settings) -> DiscordGate {
    DiscordLimits::new(store, settings.discord.invalid_request_budget)
}
