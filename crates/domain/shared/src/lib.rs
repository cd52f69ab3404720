//! The shared kernel: ideas every domain crate uses the same way, so each has one type.
//!
//! - [`limits`]: rate limits counted atomically in a store every instance shares, and the key
//!   a client address counts under ([`network_key`]: an IPv6 client's /64).
//! - [`clock`]: the time now, as a port ([`Clock`]), so tests can fix or move it.
//! - [`DiscordId`] and [`Email`]: the identities orders, promo codes and accounts share;
//!   [`escape_markdown`] for any text a person typed that goes to Discord.
//! - [`images`]: the port that checks, stores and removes uploaded pictures ([`ImageStore`]).
//! - [`links`]: the outside links the shop hands to buyers: a Discord invite, a member of
//!   staff's private game server ([`PrivateServerUrl`]).
//! - [`audit`]: who did a staff action ([`Actor`]), its kind, and the port that reads the log.
//! - [`Language`]: the languages the shop speaks to shoppers in, by BCP 47 code.
//! - [`UserId`]: an account's id, the same type in accounts, orders, chat and the audit log.
//! - [`upstream::excerpt`]: the bounded, single-line excerpt of an outside system's failed
//!   answer that logs and stored errors keep (never the whole body).

pub mod audit;
pub mod clock;
mod discord;
mod email;
pub mod images;
mod language;
pub mod limits;
pub mod links;
pub mod upstream;
mod user;

pub use audit::{
    Actor, ActorFilter, AuditActor, AuditEntry, AuditKind, AuditLog, AuditPage, AuditQuery,
    AuditTrail,
};
pub use clock::{Clock, FixedClock};
pub use discord::{discord_text, escape_markdown, is_format_char, DiscordId, DiscordIdError};
pub use email::{Email, InvalidEmail};
pub use images::{ImageRejected, ImageStore, PreparedImage};
pub use language::{Language, UnknownLanguage};
pub use limits::{
    admit, forget, give_back, network_key, seconds_until, LimitError, MemoryLimiter, RateLimiter,
    Refused, Rule, WindowHits,
};
pub use links::{InvalidPrivateServerUrl, PrivateServerUrl};
pub use user::UserId;

/// What telling a change's subscribers returns (a domain's notices port, e.g.
/// `orders::OrderNotices`): awaited, never failing (a subscriber logs its own failures, so a
/// write that committed is never turned into a failed one).
pub type Published<'a> = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + 'a>>;

/// Tells no one: a service's notices until it is given some (each domain's notices port is
/// implemented for it).
#[derive(Debug, Clone, Copy, Default)]
pub struct Unheard;

#[cfg(any(test, feature = "mocks"))]
pub use clock::MockClock;
#[cfg(any(test, feature = "mocks"))]
pub use images::MockImageStore;
