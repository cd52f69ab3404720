//! HTTP API tests: the real app on a random port, on a fresh SQLite or PostgreSQL database.

mod helpers;
mod media;
mod products;
mod spa;
