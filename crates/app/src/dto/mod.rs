//! What the API sends and receives, apart from the handlers, so that both the handlers and
//! the in-memory snapshots can use them.

pub mod checkout;
mod money;
mod product;
pub mod responses;

pub(crate) use money::dollars;
pub use product::ProductResponse;

/// The staff calls' shared answers (OpenAPI).
pub mod staff;

/// What the payment providers' own calls hear back.
pub mod provider;
