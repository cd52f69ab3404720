use crate::{PromoCode, PromoId};

/// Why a promo code could not be created.
#[derive(Debug, thiserror::Error)]
pub enum CreatePromoError {
    #[error("The promo code {0} already exists.")]
    Duplicate(PromoCode),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// Why a promo code could not be checked at all (a refused code is not an error: see
/// [`crate::PromoValidation`]).
#[derive(Debug, thiserror::Error)]
pub enum ValidatePromoError {
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// Why a promo code could not be changed.
#[derive(Debug, thiserror::Error)]
pub enum UpdatePromoError {
    #[error("Promo code not found.")]
    NotFound(PromoId),
    /// The new use limit is below the uses so far.
    #[error("This code has been used {uses} times already: the usage limit cannot be lower.")]
    MaxUsesBelowUses { uses: u32 },
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// Why a promo code could not be deleted.
#[derive(Debug, thiserror::Error)]
pub enum DeletePromoError {
    #[error("Promo code not found.")]
    NotFound(PromoId),
    /// An order used it: it stays for the order history (deactivate it instead).
    #[error("This code has been used on an order, so it stays for the order history. Deactivate it instead.")]
    Used(PromoId),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// Why the promo codes could not be listed.
#[derive(Debug, thiserror::Error)]
pub enum ListPromoError {
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}
