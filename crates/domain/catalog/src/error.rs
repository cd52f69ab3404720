use crate::ProductId;

#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error("Product not found.")]
    NotFound(ProductId),
    /// Units were to be taken away from a product whose stock is unlimited: nothing changed.
    #[error(
        "This product's stock is unlimited: there is nothing to take away. Set a count instead."
    )]
    UnlimitedStock(ProductId),
    /// Orders hold units of this drop and its release time was to move to the future.
    #[error("Orders already hold units of this drop: its release time cannot move to the future.")]
    DropHeld(ProductId),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}
