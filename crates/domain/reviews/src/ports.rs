//! Where reviews are kept.

use chrono::{DateTime, Utc};
use orders::OrderError;
use shared::Actor;
use std::future::Future;

use crate::models::{NewReview, Review};

/// Where reviews are kept.
#[cfg_attr(test, mockall::automock)]
pub trait ReviewRepository: Send + Sync + 'static {
    /// Stores the review unless the order has one (`Ok(None)` then: one per order, enforced by
    /// a unique key, so two at once cannot both pass).
    fn add_review(
        &self,
        review: NewReview,
    ) -> impl Future<Output = Result<Option<Review>, OrderError>> + Send;

    /// The reviews not hidden, newest first, of orders that are not refunded or disputed (a
    /// won dispute brings one back); only those of orders with `product` when given.
    fn visible_reviews(
        &self,
        product: Option<i64>,
    ) -> impl Future<Output = Result<Vec<Review>, OrderError>> + Send;

    /// Hides the review (kept, with who and why), and records it in the audit log by `by` in
    /// the same transaction; `false` when there is no such review (nothing written).
    fn hide_review(
        &self,
        id: i64,
        by: &Actor,
        reason: String,
        at: DateTime<Utc>,
    ) -> impl Future<Output = Result<bool, OrderError>> + Send;
}
