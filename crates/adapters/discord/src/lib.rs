//! Discord for Garden Shop.
//!
//! * [`DiscordOAuth`] links a shopper's Discord account: the authorize URL, the OAuth2 code
//!   exchange (through the `oauth2` crate) and the `users/@me` lookup; when the shop has a bot
//!   token and guild id, it hands the shopper's access token on so that the join to the shop's
//!   server can be queued ([`orders::gateways::DiscordIdentityProvider`]).
//! * [`DiscordGuildDoor`] makes one attempt at that join, `PUT guilds/{guild}/members/{user}`
//!   ([`orders::GuildDoor`]); the outbox loop retries it while the token lasts.
//! * [`StaffNotifier`] posts messages for staff to a channel webhook from a background task,
//!   with retries, never blocking or failing the caller
//!   ([`orders::gateways::StaffNotifications`]).
//! * [`ChatAlerts`] tells staff, through that notifier, that a shopper asked the help chat for a
//!   live agent ([`chat::StaffAlerts`]).
//! * [`DiscordTickets`] keeps each paid order's ticket, a private thread in the ticket channel
//!   ([`orders::tickets::TicketDesk`]), through a small client over reqwest that never waits
//!   out a rate limit itself (the outbox puts the job off).

mod answers;
mod chat_alerts;
mod guild;
mod notifier;
mod oauth;
mod settings;
mod tickets;

pub use chat_alerts::ChatAlerts;
pub use guild::DiscordGuildDoor;
pub use notifier::{render_webhook_body, NotifierFailures, RetryPolicy, StaffNotifier};
pub use oauth::{avatar_url, DiscordOAuth, DiscordSetupError, SCOPES};
pub use settings::DiscordSettings;
pub use tickets::{ticket_settings, DiscordTickets, TicketSetupError};
