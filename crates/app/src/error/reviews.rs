//! Verified reviews' refusals, as HTTP answers.

use super::api::ApiError;

impl From<reviews::ReviewError> for ApiError {
    fn from(error: reviews::ReviewError) -> Self {
        use reviews::ReviewError;
        match error {
            ReviewError::NotDelivered => ApiError::field("order", error.to_string()),
            ReviewError::AlreadyReviewed => ApiError::Conflict(error.to_string().into()),
            ReviewError::Invalid { field, message } => ApiError::field(field, message),
            ReviewError::NotFound => {
                ApiError::NotFound(l10n::Text::new("error-review-not-found").into())
            }
            ReviewError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}
