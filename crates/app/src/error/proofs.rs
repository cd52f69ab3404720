//! Proofs of delivery's errors as HTTP answers.

use proofs::{ProofError, PublishError};

use super::api::ApiError;

impl From<ProofError> for ApiError {
    fn from(error: ProofError) -> Self {
        match error {
            ProofError::NotFound(_) => ApiError::NotFound(error.to_string().into()),
            ProofError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

/// Every refusal of a proof is about its pictures: 422 under `images`.
impl From<PublishError> for ApiError {
    fn from(error: PublishError) -> Self {
        match error {
            PublishError::Unknown(cause) => ApiError::Internal(cause),
            PublishError::NoImages | PublishError::TooManyImages | PublishError::Image { .. } => {
                ApiError::field("images", error.to_string())
            }
        }
    }
}
