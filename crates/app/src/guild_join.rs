//! Adding linked buyers to the shop's Discord server (`orders::guild_join`): the link route
//! queues the join and wakes the outbox loop, which makes it (`crate::outbox`) and retries it
//! while the buyer's token lasts. On only with `discord.bot_token` and `discord.guild_id`.

use std::sync::Arc;

use anyhow::Context;
use discord::DiscordGuildDoor;
use orders::{DiscordId, GuildAccess, GuildJoins};
use store::{GuildJoinStore, Store, TokenSeal};
use tokio::sync::Notify;

use crate::auth::AppClock;
use crate::settings::Settings;

/// The joins over this shop's store (the tokens sealed at rest), Discord and clock, held by
/// Discord's limits.
pub type ShopGuildJoins =
    GuildJoins<GuildJoinStore, DiscordGuildDoor, AppClock, crate::discord_gate::DiscordGate>;

/// The seal of the buyers' access tokens while their join is pending, keyed from the session
/// key (`session.key`, which every instance shares) under a label of its own
/// (`store::TokenSeal`). A new session key leaves the pending joins unreadable: they are
/// dropped, and their buyers can still join through the invite.
fn token_seal(settings: &Settings) -> anyhow::Result<TokenSeal> {
    let session_key = crate::auth::session::cookie_key(&settings.session)?;
    TokenSeal::derive(session_key.master())
}

/// The joins when the bot token and guild id are set, else `None`; waits between attempts as
/// the buyer's mail does (`mail.retry_*`).
pub fn build(
    settings: &Settings,
    store: Store,
    clock: AppClock,
) -> anyhow::Result<Option<ShopGuildJoins>> {
    let Some(door) = DiscordGuildDoor::from_settings(&settings.discord)
        .context("the Discord guild settings are not usable")?
    else {
        return Ok(None);
    };
    let joins = GuildJoinStore::new(store.clone(), token_seal(settings)?);
    Ok(Some(
        GuildJoins::new(joins, door, clock, settings.mail.retry())
            .gated(crate::discord_gate::discord_gate(store, settings)),
    ))
}

/// The link route's side: queues a buyer's join and wakes the outbox loop to make it now.
#[derive(Clone)]
pub struct GuildJoinQueue {
    joins: Option<ShopGuildJoins>,
    wake: Arc<Notify>,
}

impl GuildJoinQueue {
    pub fn new(joins: Option<ShopGuildJoins>, wake: Arc<Notify>) -> Self {
        GuildJoinQueue { joins, wake }
    }

    /// Queues the join; a failure is logged and never fails the link (the buyer can still
    /// join through the invite).
    pub async fn queue(&self, discord_id: DiscordId, access: GuildAccess) {
        let Some(joins) = &self.joins else {
            return;
        };
        match joins.queue(discord_id, access).await {
            Ok(()) => self.wake.notify_one(),
            Err(error) => {
                tracing::warn!(error = ?error, "could not queue the buyer's join to the shop's server");
            }
        }
    }
}
