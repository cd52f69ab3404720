//! Why a delivery action did not happen.

use orders::{OrderError, OrderId, OrderStatus, TransitionError};

/// Why a queue action did not happen.
#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    #[error("Order not found.")]
    NotFound(OrderId),
    /// 409: someone else is on it.
    #[error("Already claimed by {by}.")]
    AlreadyClaimed { by: String },
    /// 409: only the one who claimed it can let it go.
    #[error("Only {by} can release this order.")]
    NotYours { by: String },
    /// 409: the order is not (or no longer) paid.
    #[error(transparent)]
    Refused(TransitionError),
    /// 409: claiming needs a paid order.
    #[error("Only paid orders can be claimed; this one is {}.", .0.label())]
    NotPaid(OrderStatus),
    /// 422: the proof named does not exist.
    #[error("Proof {0} does not exist.")]
    UnknownProof(i64),
    /// 409: a claim shows the buyer the claimer's private server: set one first.
    #[error(
        "Set your private server link first (Your private server link, above the queue): the \
         buyer joins you there."
    )]
    NoPrivateServer,
    /// 409: a delivery needs its claim.
    #[error("Claim this order first.")]
    NotClaimed,
    /// 409: the buyer already said so for this claim, or the order is not waiting.
    #[error("{0}")]
    NotReady(&'static str),
    /// 409: "I got my items" before the delivery, or a second time.
    #[error("{0}")]
    NotReceivable(&'static str),
    /// 409: the order is on a risk hold: out of the queue until it is released.
    #[error(
        "Order #{0} is on hold for a fraud check: refund it, or release it to the queue \
         before delivering it."
    )]
    Held(OrderId),
    /// 409: only an order on a risk hold can be released to the queue.
    #[error("Order #{0} is not on hold.")]
    NotHeld(OrderId),
    #[error(transparent)]
    Unknown(anyhow::Error),
}

impl From<OrderError> for QueueError {
    fn from(error: OrderError) -> Self {
        match error {
            OrderError::NotFound(id) => QueueError::NotFound(id),
            OrderError::Unknown(e) => QueueError::Unknown(e),
        }
    }
}

/// Why a message was not kept.
#[derive(Debug, thiserror::Error)]
pub enum MessageError {
    /// 404: no such order (or, for the buyer, not theirs: the caller checks that first).
    #[error("Order not found.")]
    NotFound(OrderId),
    /// 422: the text is empty or too long.
    #[error(transparent)]
    Text(#[from] crate::models::MessageTextError),
    /// 409: the order is not open for messages (not paid yet, closed, or delivered too long
    /// ago).
    #[error("{0}")]
    Closed(String),
    /// 429: this side of the order wrote its messages for this minute.
    #[error("Too many messages. Try again in a minute.")]
    TooMany { retry_after: std::time::Duration },
    #[error(transparent)]
    Unknown(anyhow::Error),
}

impl From<OrderError> for MessageError {
    fn from(error: OrderError) -> Self {
        match error {
            OrderError::NotFound(id) => MessageError::NotFound(id),
            OrderError::Unknown(e) => MessageError::Unknown(e),
        }
    }
}
