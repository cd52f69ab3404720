use crate::ProductId;

#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error("Product not found.")]
    NotFound(ProductId),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}
