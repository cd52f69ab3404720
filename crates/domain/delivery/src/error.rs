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
    #[error("{}", .0.sentence())]
    NotReady(ReadyRefusal),
    /// 409: "I got my items" before the delivery, or a second time.
    #[error("{}", .0.sentence())]
    NotReceivable(ReceivedRefusal),
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
    #[error("{}", .0.sentence())]
    Closed(MessagesClosed),
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

/// Why the buyer's "I'm in the game" was not taken. The buyer reads it: the app words it in
/// their language; `sentence` is the English.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadyRefusal {
    /// Not a paid order waiting for delivery.
    NotWaiting,
    /// On a risk hold: staff check the payment first.
    Held,
    /// No member of staff took it yet.
    NotClaimed,
    /// Said already for this claim.
    AlreadySaid,
}

impl ReadyRefusal {
    pub fn sentence(self) -> &'static str {
        match self {
            ReadyRefusal::NotWaiting => {
                "Only a paid order waiting for delivery can be marked ready."
            }
            ReadyRefusal::Held => {
                "We're checking this payment before delivery. You don't need to do anything."
            }
            ReadyRefusal::NotClaimed => {
                "No one has picked up your order yet. When a member of staff does, their \
                 private server shows here: join it, then press this."
            }
            ReadyRefusal::AlreadySaid => "Staff already know you are in the game.",
        }
    }
}

/// Why the buyer's "I got my items" was not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReceivedRefusal {
    AlreadySaid,
    NotDelivered,
}

impl ReceivedRefusal {
    pub fn sentence(self) -> &'static str {
        match self {
            ReceivedRefusal::AlreadySaid => "You already told us you got your items.",
            ReceivedRefusal::NotDelivered => {
                "You can confirm your items once staff marked the order delivered."
            }
        }
    }
}

/// Why an order takes no message now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessagesClosed {
    /// Not paid yet.
    NotPaid,
    /// Delivered more than `days` ago.
    AfterDelivery { days: u32 },
    /// Refunded, disputed, expired or cancelled.
    Closed,
}

impl MessagesClosed {
    pub fn sentence(self) -> String {
        match self {
            MessagesClosed::NotPaid => "Messages open once the order is paid.".to_owned(),
            MessagesClosed::AfterDelivery { days } => format!(
                "Messages about an order close {days} days after its delivery. Ask us in the \
                 help chat."
            ),
            MessagesClosed::Closed => {
                "This order is closed for messages. Ask us in the help chat.".to_owned()
            }
        }
    }
}
