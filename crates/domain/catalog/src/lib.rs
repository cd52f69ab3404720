//! The catalog: what the shop sells, in which order the storefront shows it, and how shoppers
//! find it.

pub mod error;
#[cfg(test)]
mod fixtures;
pub mod models;
pub mod ports;
pub mod service;

pub use error::CatalogError;
pub use models::{in_category, sort_for_storefront, Product, ProductDraft, ProductId, Stock};
pub use ports::{CatalogService, ProductRepository};
pub use service::Catalog;
