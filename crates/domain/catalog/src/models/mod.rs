mod product;
mod query;

pub use product::{Product, ProductDraft, ProductId, Stock};
pub use query::{in_category, sort_for_storefront};
