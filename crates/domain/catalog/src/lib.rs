//! The catalog: what the shop sells, in which order the storefront shows it, and how shoppers
//! find it.

pub mod admin;
pub mod error;
#[cfg(test)]
mod fixtures;
pub mod models;
pub mod ports;
pub mod service;

pub use admin::{
    AdminError, CatalogAdmin, ImageRejected, ImageStore, PreparedImage, ProductWrites, Removal,
    StockChange,
};
pub use error::CatalogError;
pub use models::{
    in_category, sort_for_storefront, Change, FieldError, InvalidProduct, Product, ProductDraft,
    ProductFields, ProductForm, ProductId, Stock, MAX_PER_ACCOUNT, MAX_STOCK,
};
pub use ports::{CatalogService, ProductRepository, StockNotices};
pub use service::Catalog;
