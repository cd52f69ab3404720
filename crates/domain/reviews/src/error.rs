//! Why a review was not taken or not hidden.

use orders::OrderError;

/// Why a review was not taken or not hidden.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// 422: only a delivered order can be reviewed.
    #[error("You can review this order once it has been delivered.")]
    NotDelivered,
    /// 409: one review per order.
    #[error("This order has already been reviewed.")]
    AlreadyReviewed,
    /// 422: a field out of bounds.
    #[error("{message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    /// 404.
    #[error("Review not found.")]
    NotFound,
    #[error(transparent)]
    Unknown(anyhow::Error),
}

impl From<OrderError> for ReviewError {
    fn from(error: OrderError) -> Self {
        match error {
            OrderError::NotFound(_) => ReviewError::NotFound,
            OrderError::Unknown(e) => ReviewError::Unknown(e),
        }
    }
}
