//! The store: sea-orm repositories for the domain's ports. One code path serves SQLite (the
//! embedded default) and PostgreSQL (production); the SQL differences stay inside this crate.

mod accounts;
mod admin_products;
mod aftersale;
mod audit;
/// `garden-shop backup` and `restore`: the database and the media directory, owner-only.
pub mod backup;
mod blocklist;
mod chat_changes;
mod chats;
mod connection;
mod delivery;
mod demo_logins;
mod discord_limits;
mod dispute_rows;
mod disputes;
mod entities;
mod evidence;
mod exchange_rates;
mod guild_joins;
mod jobs;
mod lifecycle;
mod operations;
mod order_messages;
mod order_rows;
mod orders;
mod outbox;
mod personal_orders;
mod privacy;
mod products;
mod promo;
mod proofs;
/// Server push's transport: [`push::ShopEvents`].
pub mod push;
mod push_events;
mod rate_limits;
mod records;
mod reviews;
mod sales;
mod sessions;
mod sql;
mod store;
mod tickets;
mod tracking;

pub use connection::{connect, is_unreachable, Backend, SetupLock, StoreError, DATABASE_TIMEOUT};
pub use guild_joins::{GuildJoinStore, TokenSeal};
pub use operations::{sqlite_path, JobCount, ShopCounts};
pub use push_events::PushBounds;
pub use records::{DemoLogin, PoolUse, SessionRow};
pub use sea_orm::DatabaseConnection;
pub use store::Store;

/// Fresh databases for tests (the `testing` feature).
#[cfg(feature = "testing")]
pub mod testing;
