use std::collections::HashMap;

use crate::{
    sort_for_storefront, CatalogError, CatalogService, Product, ProductId, ProductRepository,
};

#[derive(Debug, Clone)]
pub struct Catalog<R> {
    repository: R,
}

impl<R: ProductRepository> Catalog<R> {
    pub fn new(repository: R) -> Self {
        Catalog { repository }
    }

    pub fn repository(&self) -> &R {
        &self.repository
    }
}

impl<R: ProductRepository> CatalogService for Catalog<R> {
    #[tracing::instrument(skip(self))]
    async fn storefront(&self) -> Result<Vec<Product>, CatalogError> {
        let all = self.repository.all_products().await?;
        let by_id: HashMap<ProductId, &Product> = all.iter().map(|p| (p.id, p)).collect();
        let mut products: Vec<Product> = all
            .iter()
            .filter(|p| !p.archived)
            .map(|p| Product {
                stock: p.available_stock(|id| by_id.get(&id).copied()),
                ..p.clone()
            })
            .collect();
        sort_for_storefront(&mut products);
        Ok(products)
    }

    #[tracing::instrument(skip(self))]
    async fn visible_product(&self, id: ProductId) -> Result<Product, CatalogError> {
        let mut product = self.repository.product(id).await?;
        if product.archived {
            return Err(CatalogError::NotFound(id));
        }
        let mut components = Vec::with_capacity(product.related_ids.len());
        for component in &product.related_ids {
            match self.repository.product(*component).await {
                Ok(found) => components.push(found),
                // removed since the bundle was saved: not counted, as in the storefront list
                Err(CatalogError::NotFound(_)) => {}
                Err(error) => return Err(error),
            }
        }
        product.stock = product.available_stock(|id| components.iter().find(|p| p.id == id));
        Ok(product)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;
    use crate::ports::MockProductRepository;
    use crate::Stock;

    fn product(id: i64, price: &str, archived: bool) -> Product {
        Product {
            archived,
            ..fixtures::product(id, price)
        }
    }

    #[tokio::test]
    async fn storefront_leaves_archived_products_out_and_orders_the_rest() {
        let mut repo = MockProductRepository::new();
        repo.expect_all_products().returning(|| {
            Box::pin(async {
                Ok(vec![
                    product(1, "9.00", false),
                    product(2, "1.00", true),
                    product(3, "2.00", false),
                ])
            })
        });
        let catalog = Catalog::new(repo);
        let ids: Vec<i64> = catalog
            .storefront()
            .await
            .unwrap()
            .iter()
            .map(|p| p.id.get())
            .collect();
        assert_eq!(ids, vec![3, 1]);
    }

    fn stocked(id: i64, stock: Stock, related: &[i64], archived: bool) -> Product {
        Product {
            stock,
            related_ids: related.iter().copied().map(ProductId::new).collect(),
            ..product(id, "1.00", archived)
        }
    }

    /// A component sold out (and, being a one-off, archived), another with 2 left, and a
    /// bundle of each with 5 of its own.
    fn shop() -> Vec<Product> {
        vec![
            stocked(1, Stock::Finite(0), &[], true),
            stocked(2, Stock::Finite(2), &[], false),
            stocked(10, Stock::Finite(5), &[1, 2], false),
            stocked(11, Stock::Finite(5), &[2], false),
        ]
    }

    #[tokio::test]
    async fn the_storefront_shows_a_bundle_with_its_scarcest_components_stock() {
        let mut repo = MockProductRepository::new();
        repo.expect_all_products()
            .returning(|| Box::pin(async { Ok(shop()) }));
        let catalog = Catalog::new(repo);
        let stock: Vec<(i64, Stock)> = catalog
            .storefront()
            .await
            .unwrap()
            .iter()
            .map(|p| (p.id.get(), p.stock))
            .collect();
        assert_eq!(
            stock,
            vec![
                (2, Stock::Finite(2)),
                (10, Stock::Finite(0)),
                (11, Stock::Finite(2))
            ]
        );
    }

    #[tokio::test]
    async fn a_bundle_page_shows_the_stock_its_components_allow() {
        let mut repo = MockProductRepository::new();
        repo.expect_product().returning(|id| {
            let found = shop().into_iter().find(|p| p.id == id);
            Box::pin(async move { found.ok_or(CatalogError::NotFound(id)) })
        });
        let catalog = Catalog::new(repo);
        let shown = |id| catalog.visible_product(ProductId::new(id));
        assert_eq!(shown(10).await.unwrap().stock, Stock::Finite(0));
        assert_eq!(shown(11).await.unwrap().stock, Stock::Finite(2));
        assert_eq!(shown(2).await.unwrap().stock, Stock::Finite(2));
    }

    #[tokio::test]
    async fn an_archived_product_is_not_found_on_the_storefront() {
        let mut repo = MockProductRepository::new();
        repo.expect_product()
            .returning(|id| Box::pin(async move { Ok(product(id.get(), "1.00", true)) }));
        let catalog = Catalog::new(repo);
        let result = catalog.visible_product(ProductId::new(7)).await;
        assert!(matches!(result, Err(CatalogError::NotFound(id)) if id.get() == 7));
    }
}
