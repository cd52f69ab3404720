//! HTTP API tests: the real app on a random port, on a fresh SQLite or PostgreSQL database.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod admin;
mod aftersale;
mod audit;
mod audit_ops;
mod audit_support;
mod auth;
mod auth_abuse;
mod backup;
mod chat;
mod checkout;
mod checkout_abuse;
mod checkout_identity;
mod checkout_support;
mod events;
mod first_load;
mod helpers;
mod media;
mod metrics;
mod order_page;
mod privacy;
mod products;
mod proofs;
mod safety;
mod spa;
mod stripe_webhook;
