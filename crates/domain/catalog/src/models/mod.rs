mod form;
mod product;
mod query;

pub use form::{Change, FieldError, InvalidProduct, ProductFields, ProductForm, MAX_STOCK};
pub use product::{Product, ProductDraft, ProductId, Stock, MAX_PER_ACCOUNT};
pub use query::{in_category, sort_for_storefront};
