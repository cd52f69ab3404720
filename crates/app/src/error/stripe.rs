//! The Stripe webhook's own refusal, as an HTTP answer.

use stripe_adapter::WebhookError;

use super::api::ApiError;

/// A Stripe webhook delivery whose signature does not check out (or that cannot be read).
impl From<WebhookError> for ApiError {
    fn from(error: WebhookError) -> Self {
        ApiError::BadRequest(format!("Webhook refused: {error}.").into())
    }
}
