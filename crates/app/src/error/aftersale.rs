//! After the sale: payment providers' events and refunds, as HTTP answers.

use aftersale::EventError;

use super::api::ApiError;
use super::orders::SESSION_MISMATCH;

/// A payment provider's event that was not taken: 400 when its page is not the order's, 500
/// when the store failed (Stripe sends it again); PayPal's return answers as its capture.
impl From<EventError> for ApiError {
    fn from(error: EventError) -> Self {
        match error {
            EventError::WrongPage(_) => ApiError::BadRequest(SESSION_MISMATCH.to_owned().into()),
            EventError::NotFound(_) => ApiError::NotFound(error.to_string().into()),
            EventError::Capture(refused) => refused.into(),
            EventError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<aftersale::RefundError> for ApiError {
    fn from(error: aftersale::RefundError) -> Self {
        use aftersale::RefundError;
        match error {
            RefundError::NotFound(_) => ApiError::NotFound(error.to_string().into()),
            RefundError::Refused(_) | RefundError::NoProvider(_) | RefundError::MovedOn { .. } => {
                ApiError::Conflict(error.to_string().into())
            }
            RefundError::Provider(ref cause) => {
                tracing::warn!(error = %cause, "the payment provider refused a refund");
                ApiError::BadGateway(
                    "The payment provider did not refund the order; nothing changed. Try again \
                     later or refund it at the provider."
                        .into(),
                )
            }
            RefundError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}
