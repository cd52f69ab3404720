//! The catalog's errors (products, the admin's edits) as HTTP answers.

use catalog::{AdminError, CatalogError};

use super::api::{ApiError, FieldErrors};

impl From<CatalogError> for ApiError {
    fn from(error: CatalogError) -> Self {
        match error {
            CatalogError::NotFound(_) => {
                ApiError::NotFound(l10n::Text::new("error-product-not-found").into())
            }
            CatalogError::UnlimitedStock(_) => ApiError::field("type", error.to_string()),
            CatalogError::DropHeld(_) => ApiError::Conflict(error.to_string().into()),
            CatalogError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<AdminError> for ApiError {
    fn from(error: AdminError) -> Self {
        match error {
            AdminError::Invalid(invalid) => {
                let mut errors = FieldErrors::new();
                for problem in invalid.0 {
                    errors.add(problem.field, problem.message);
                }
                match errors.finish() {
                    Err(api) => api,
                    Ok(()) => ApiError::field("product", "The product is not valid."),
                }
            }
            AdminError::NotFound(_) => ApiError::NotFound(error.to_string().into()),
            AdminError::DropHeld(_) => ApiError::Conflict(error.to_string().into()),
            AdminError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}
