//! The blocklist: e-mail addresses, Discord accounts, Roblox usernames and client addresses the
//! shop does not sell to. Checkout asks `orders::Blocklist` first, before it reads or
//! reserves anything; a chargeback blocks the buyer's identities (see `aftersale`); the
//! super_admin adds and removes entries ([`BlocklistAdmin`]).
//!
//! Values are stored normalised: e-mails trimmed and lowercased, Roblox usernames lowercased
//! (Roblox ignores case), Discord ids as their snowflake, addresses as parsed IPs (an
//! IPv4-mapped IPv6 address as the IPv4 one). Each entry is compared by its match form
//! ([`orders::BlockKind::match_form`]), so one entry matches every spelling that reaches the same
//! inbox or network: an e-mail without its `+tag` (and, at Gmail, without dots), an IPv6
//! address as its /64 (one subscriber's network, as the rate limits count it).
//!
//! Only what the shop verified blocks on its own: a chargeback blocks the Discord account
//! (proven by OAuth) and, for 30 days, the address the order came from. The e-mail and Roblox
//! username the buyer typed could be anyone's, so they become *flagged* entries that block
//! nothing until a super_admin confirms them ([`BlockStatus`]).

mod error;
mod models;
mod ports;
mod service;

pub use error::BlocklistError;
pub use models::{BlockEntry, BlockStatus, BlocklistLimits, NewBlock};
pub use orders::{canonical_email, normalise_ip, BlockKind, Blocklist, BuyerIdentities};
pub use ports::BlocklistRepository;
#[cfg(test)]
pub use ports::MockBlocklistRepository;
pub use service::BlocklistAdmin;
