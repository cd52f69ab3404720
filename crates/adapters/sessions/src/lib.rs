//! Where the shop's sessions live, as actix-session stores: the shop's database by default
//! (the store's `sessions` rows), Redis when the app is given a Redis URL (`session.redis_url`).
//! Either way every session of one user can be ended at once (a password reset, a role change):
//! the database row names its user; Redis keeps a set of each user's session keys.
//!
//! This crate takes plain values (a URL, the store); the app's settings and wiring choose them,
//! and the cookie, its key and the middleware stay in the app (`auth::session`).

mod database;
mod keys;
mod redis;
mod shop;

pub use database::DatabaseSessionStore;
pub use keys::{session_user, USER_ID_KEY};
pub use redis::{RedisSessions, CONNECT_TIMEOUT, RECONNECT_DELAY, REDIS_TIMEOUT};
pub use shop::ShopSessionStore;
