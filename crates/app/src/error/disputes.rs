//! Disputes' errors as HTTP answers.

use disputes::DisputeError;

use super::api::ApiError;

impl From<DisputeError> for ApiError {
    fn from(error: DisputeError) -> Self {
        match error {
            DisputeError::NotFound(_) => ApiError::NotFound("Dispute not found.".into()),
            DisputeError::Conflict(message) => ApiError::Conflict(message.into()),
            DisputeError::NoteTooLong { .. } => ApiError::field("note", error.to_string()),
            DisputeError::Provider(cause) => {
                tracing::warn!(error = %cause, "Stripe refused or failed a dispute call");
                ApiError::BadGateway(
                    "Stripe did not take it: nothing changed. Try again in a minute.".into(),
                )
            }
            DisputeError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}
