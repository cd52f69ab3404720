//! The delivery queue and the messages on an order's page, as HTTP answers.

use delivery::{MessageError, QueueError};

use super::api::ApiError;

impl From<QueueError> for ApiError {
    fn from(error: QueueError) -> Self {
        match error {
            QueueError::NotFound(_) => {
                ApiError::NotFound(l10n::Text::new("error-order-not-found").into())
            }
            QueueError::AlreadyClaimed { .. }
            | QueueError::NotYours { .. }
            | QueueError::Refused(_)
            | QueueError::NotPaid(_)
            | QueueError::NoPrivateServer
            | QueueError::NotClaimed
            | QueueError::NotReady(_)
            | QueueError::NotReceivable(_)
            | QueueError::Held(_)
            | QueueError::NotHeld(_) => ApiError::Conflict(error.to_string().into()),
            QueueError::UnknownProof(_) => ApiError::field("proof_id", error.to_string()),
            QueueError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

/// A message on an order's page that was not kept.
impl From<MessageError> for ApiError {
    fn from(error: MessageError) -> Self {
        match error {
            MessageError::NotFound(_) => {
                ApiError::NotFound(l10n::Text::new("error-order-not-found").into())
            }
            MessageError::Text(_) => ApiError::field("text", error.to_string()),
            MessageError::Closed(_) => ApiError::Conflict(error.to_string().into()),
            MessageError::TooMany { retry_after } => ApiError::too_many(retry_after),
            MessageError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}
