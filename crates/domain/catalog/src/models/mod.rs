mod product;
mod query;

pub use product::{Product, ProductDraft, ProductId, Stock};
pub use query::{in_category, matches_search, sort_for_storefront, STOREFRONT_CATEGORIES};
