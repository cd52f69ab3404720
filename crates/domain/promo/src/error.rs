use crate::PromoCode;

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
