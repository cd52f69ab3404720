//! What the API sends and receives, apart from the handlers, so that both the handlers and
//! the in-memory snapshots can use them.

pub mod account;
pub mod checkout;
mod money;
pub mod order;
mod product;
pub mod profile;
pub mod responses;

pub(crate) use money::dollars;
pub use product::ProductResponse;

/// The staff calls' shared answers (OpenAPI).
pub mod staff;
