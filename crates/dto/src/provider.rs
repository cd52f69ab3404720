//! What the API answers the payment providers' own calls.

use serde::Serialize;

/// What Stripe hears back when its event is taken (or knowingly ignored).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct WebhookReceived {
    /// Always `true`.
    pub received: bool,
}
