//! Promo codes' errors as HTTP answers.

use super::api::ApiError;

impl From<promo::CreatePromoError> for ApiError {
    fn from(error: promo::CreatePromoError) -> Self {
        match error {
            promo::CreatePromoError::Duplicate(code) => {
                ApiError::field("code", format!("The promo code {code} already exists."))
            }
            promo::CreatePromoError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<promo::UpdatePromoError> for ApiError {
    fn from(error: promo::UpdatePromoError) -> Self {
        match error {
            promo::UpdatePromoError::NotFound(_) => ApiError::NotFound(error.to_string().into()),
            promo::UpdatePromoError::MaxUsesBelowUses { .. } => {
                ApiError::field("max_uses", error.to_string())
            }
            promo::UpdatePromoError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<promo::DeletePromoError> for ApiError {
    fn from(error: promo::DeletePromoError) -> Self {
        match error {
            promo::DeletePromoError::NotFound(_) => ApiError::NotFound(error.to_string().into()),
            promo::DeletePromoError::Used(_) => ApiError::Conflict(error.to_string().into()),
            promo::DeletePromoError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<promo::ListPromoError> for ApiError {
    fn from(error: promo::ListPromoError) -> Self {
        match error {
            promo::ListPromoError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<promo::ValidatePromoError> for ApiError {
    fn from(error: promo::ValidatePromoError) -> Self {
        match error {
            promo::ValidatePromoError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}
