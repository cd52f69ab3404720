use std::future::Future;

use crate::{CatalogError, Product, ProductDraft, ProductId};

/// Where products are kept.
#[cfg_attr(test, mockall::automock)]
pub trait ProductRepository: Send + Sync + 'static {
    /// Every product, archived ones included, with their `related_ids`; in no particular order.
    /// Fails only with `CatalogError::Unknown`.
    fn all_products(&self) -> impl Future<Output = Result<Vec<Product>, CatalogError>> + Send;

    /// The product with this id, archived or not. `CatalogError::NotFound` when there is none.
    fn product(&self, id: ProductId) -> impl Future<Output = Result<Product, CatalogError>> + Send;

    /// How many products exist, archived ones included.
    fn count_products(&self) -> impl Future<Output = Result<u64, CatalogError>> + Send;

    /// Stores products under the ids given, all or none; used for the demo catalog.
    /// Ids that are taken fail the whole call with `CatalogError::Unknown`.
    fn insert_with_ids(
        &self,
        products: Vec<(ProductId, ProductDraft)>,
    ) -> impl Future<Output = Result<(), CatalogError>> + Send;
}

/// Who hears, after it committed, that a write changed the catalog or its stock (a product
/// written, an order placed, paid or released): the storefront's product list.
pub trait StockNotices: Send + Sync + 'static {
    fn stock_changed(&self) -> shared::Published<'_>;
}

impl StockNotices for shared::Unheard {
    fn stock_changed(&self) -> shared::Published<'_> {
        Box::pin(async {})
    }
}

/// What the catalog offers the rest of the shop.
pub trait CatalogService: Send + Sync + 'static {
    /// The products the storefront shows, in storefront order.
    fn storefront(&self) -> impl Future<Output = Result<Vec<Product>, CatalogError>> + Send;

    /// A product the storefront shows. `NotFound` for unknown and archived products.
    fn visible_product(
        &self,
        id: ProductId,
    ) -> impl Future<Output = Result<Product, CatalogError>> + Send;
}
