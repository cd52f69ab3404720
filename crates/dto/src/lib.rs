//! The API's contract: what every call reads and answers, with its OpenAPI schema, one module
//! per area. Built from domain types; the app's handlers, its in-memory snapshots and its
//! OpenAPI document use it, and it knows nothing of HTTP servers (docs/architecture.md).

pub mod account;
pub mod admin_orders;
pub mod admin_products;
pub mod audit;
pub mod blocklist;
pub mod chat;
pub mod checkout;
pub mod discord;
pub mod disputes;
mod error_code;
pub mod health;
pub mod lenient;
mod money;
pub mod order;
pub mod order_messages;
pub mod private_server;
mod product;
pub mod profile;
pub mod promo;
pub mod proofs;
pub mod responses;
pub mod reviews;
pub mod roblox;
pub mod sales;
pub mod site;

pub use error_code::ErrorCode;
pub use money::{cents_in_dollars, dollars, in_major_units};
pub use product::ProductResponse;

/// The staff calls' shared answers (OpenAPI).
pub mod staff;

/// What the payment providers' own calls hear back.
pub mod provider;
