//! Discord for Garden Shop.
//!
//! * [`DiscordOAuth`] links a shopper's Discord account: the authorize URL, the OAuth2 code
//!   exchange (through the `oauth2` crate), the `users/@me` lookup and, when the shop has a bot
//!   token and guild id, adding the shopper to the shop's server
//!   ([`orders::gateways::DiscordIdentityProvider`]).
//! * [`StaffNotifier`] posts messages for staff to a channel webhook from a background task,
//!   with retries, never blocking or failing the caller
//!   ([`orders::gateways::StaffNotifications`]).
//! * [`DiscordTickets`] keeps each paid order's ticket, a private thread in the ticket channel
//!   ([`orders::tickets::TicketDesk`]), through twilight-http.

mod notifier;
mod oauth;
mod settings;
mod tickets;

pub use notifier::{render_webhook_body, NotifierFailures, RetryPolicy, StaffNotifier};
pub use oauth::{avatar_url, DiscordOAuth, DiscordSetupError, SCOPES};
pub use settings::DiscordSettings;
pub use tickets::{ticket_settings, DiscordTickets, TicketSetupError};
