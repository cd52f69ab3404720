//! The delivery queue and the messages on an order's page, as HTTP answers.

use delivery::{MessageError, MessagesClosed, QueueError, ReadyRefusal, ReceivedRefusal};

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
            | QueueError::Held(_)
            | QueueError::NotHeld(_) => ApiError::Conflict(error.to_string().into()),
            // the buyer's own steps: in their language
            QueueError::NotReady(refusal) => ApiError::Conflict(
                l10n::Text::new(match refusal {
                    ReadyRefusal::NotWaiting => "error-ready-not-waiting",
                    ReadyRefusal::Held => "error-ready-held",
                    ReadyRefusal::NotClaimed => "error-ready-not-claimed",
                    ReadyRefusal::AlreadySaid => "error-ready-already",
                })
                .into(),
            ),
            QueueError::NotReceivable(refusal) => ApiError::Conflict(
                l10n::Text::new(match refusal {
                    ReceivedRefusal::AlreadySaid => "error-received-already",
                    ReceivedRefusal::NotDelivered => "error-received-not-delivered",
                })
                .into(),
            ),
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
            MessageError::Closed(reason) => ApiError::Conflict(
                match reason {
                    MessagesClosed::NotPaid => l10n::Text::new("error-messages-not-paid"),
                    MessagesClosed::AfterDelivery { days } => {
                        l10n::Text::new("error-messages-after-delivery").with("days", days)
                    }
                    MessagesClosed::Closed => l10n::Text::new("error-messages-closed"),
                }
                .into(),
            ),
            MessageError::TooMany { retry_after } => ApiError::too_many(retry_after),
            MessageError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}
