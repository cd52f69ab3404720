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
        let mut products: Vec<Product> = self
            .repository
            .all_products()
            .await?
            .into_iter()
            .filter(|p| !p.archived)
            .collect();
        sort_for_storefront(&mut products);
        Ok(products)
    }

    #[tracing::instrument(skip(self))]
    async fn visible_product(&self, id: ProductId) -> Result<Product, CatalogError> {
        let product = self.repository.product(id).await?;
        if product.archived {
            return Err(CatalogError::NotFound(id));
        }
        Ok(product)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;
    use crate::ports::MockProductRepository;

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
