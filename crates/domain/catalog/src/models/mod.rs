mod form;
mod product;
mod query;

pub use form::{FieldError, InvalidProduct, ProductFields, ProductForm, MAX_STOCK};
pub use product::{Product, ProductDraft, ProductId, Stock};
pub use query::{in_category, sort_for_storefront};
