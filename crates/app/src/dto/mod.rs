//! What the API sends and receives, apart from the handlers, so that both the handlers and
//! the in-memory snapshots can use them.

pub mod account;
pub mod admin_orders;
pub mod admin_products;
pub mod audit;
pub mod blocklist;
pub mod chat;
pub mod checkout;
pub mod discord;
pub mod health;
pub mod order;
pub mod private_server;
pub mod profile;
pub mod promo;
pub mod proofs;
pub mod responses;
pub mod reviews;
pub mod roblox;
pub mod sales;
pub mod site;
mod money;
mod product;

pub(crate) use money::dollars;
pub use product::ProductResponse;

/// The staff calls' shared answers (OpenAPI).
pub mod staff;

/// What the payment providers' own calls hear back.
pub mod provider;
