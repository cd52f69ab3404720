//! Why a refund or a provider's event did not happen.

use orders::gateways::PaymentError;
use orders::{CaptureError, OrderError, OrderId, OrderStatus, PaymentProvider, TransitionError};

/// Why a refund did not happen.
#[derive(Debug, thiserror::Error)]
pub enum RefundError {
    #[error("Order not found.")]
    NotFound(OrderId),
    /// 409: the order is not paid or delivered (or is disputed).
    #[error(transparent)]
    Refused(TransitionError),
    /// 409: this instance has no way to reach the order's provider (PayPal switched off).
    #[error("This order was paid through {0}, which this shop cannot reach now. Refund it there.")]
    NoProvider(PaymentProvider),
    /// 502: the provider refused or failed; nothing changed.
    #[error("The payment provider did not refund the order: {0}")]
    Provider(#[source] PaymentError),
    /// 409: the provider refunded the payment, but meanwhile the order moved on (a dispute
    /// opened): it is left as it is for staff to check.
    #[error(
        "The payment was refunded at the provider, but order #{order} is {} now: check it.",
        .status.label().to_lowercase()
    )]
    MovedOn { order: OrderId, status: OrderStatus },
    #[error(transparent)]
    Unknown(anyhow::Error),
}

impl From<OrderError> for RefundError {
    fn from(error: OrderError) -> Self {
        match error {
            OrderError::NotFound(id) => RefundError::NotFound(id),
            OrderError::Unknown(e) => RefundError::Unknown(e),
        }
    }
}

/// Why a provider's event was not taken.
#[derive(Debug, thiserror::Error)]
pub enum EventError {
    /// The event's payment page is not the one recorded with the order (Stripe: 400).
    #[error("order {0} was not paid through this payment session")]
    WrongPage(OrderId),
    /// The order the event changed could not be found afterwards.
    #[error("Order not found.")]
    NotFound(OrderId),
    /// The buyer's return could not be applied (see [`CaptureError`]).
    #[error(transparent)]
    Capture(CaptureError),
    /// The store failed: nothing is lost, the provider sends the event again (Stripe: 500).
    #[error(transparent)]
    Unknown(anyhow::Error),
}

impl From<OrderError> for EventError {
    fn from(error: OrderError) -> Self {
        match error {
            OrderError::NotFound(id) => EventError::NotFound(id),
            OrderError::Unknown(e) => EventError::Unknown(e),
        }
    }
}
