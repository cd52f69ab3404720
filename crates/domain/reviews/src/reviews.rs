//! Verified reviews: only the holder of a delivered order (its link, its session or its owner)
//! leaves one, once per order; 1 to 5 stars and up to 1,000 characters, shown under the first
//! letters of the Roblox name. Staff hide a review with a reason; it is kept, with who and why.

use std::future::Future;

use chrono::{DateTime, Utc};
use shared::Actor;

use orders::{Order, OrderError, OrderId, OrderStatus};
use shared::Clock;

/// The longest review text, in characters.
pub const MAX_REVIEW_CHARS: usize = 1000;
/// The longest reason for hiding a review, in characters.
pub const MAX_HIDE_REASON_CHARS: usize = 500;

/// A review to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewReview {
    pub order_id: OrderId,
    pub rating: u8,
    pub text: String,
    /// What the review is shown under: the Roblox name's first letters.
    pub name: String,
    pub created_at: DateTime<Utc>,
}

/// A review as the shop shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Review {
    pub id: i64,
    pub order_id: OrderId,
    pub rating: u8,
    pub text: String,
    pub name: String,
    pub created_at: DateTime<Utc>,
    /// The products of the reviewed order.
    pub product_ids: Vec<i64>,
}

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

/// The reviews shown, with their average and count.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewSummary {
    /// `None` without reviews.
    pub average: Option<f64>,
    pub count: usize,
    pub reviews: Vec<Review>,
}

/// The name a review shows once its author deleted their account.
pub const ANONYMOUS_NAME: &str = "Anonymous";

/// The first letters of a Roblox name: "Builderman" is shown as "Bu***".
pub fn initials(roblox_username: &str) -> String {
    let first: String = roblox_username.chars().take(2).collect();
    format!("{first}***")
}

/// The review rules over their store and a clock.
#[derive(Debug, Clone)]
pub struct Reviews<R, C> {
    repository: R,
    clock: C,
}

impl<R: ReviewRepository, C: Clock> Reviews<R, C> {
    pub fn new(repository: R, clock: C) -> Self {
        Reviews { repository, clock }
    }

    /// The buyer's review of `order` (whose access the caller has checked).
    #[tracing::instrument(skip(self, order, text), fields(order = %order.id))]
    pub async fn leave(
        &self,
        order: &Order,
        rating: i64,
        text: &str,
    ) -> Result<Review, ReviewError> {
        let rating = u8::try_from(rating)
            .ok()
            .filter(|r| (1..=5).contains(r))
            .ok_or_else(|| ReviewError::Invalid {
                field: "rating",
                message: "Choose from 1 to 5 stars.".to_owned(),
            })?;
        let text = text.trim();
        if text.chars().count() > MAX_REVIEW_CHARS {
            return Err(ReviewError::Invalid {
                field: "text",
                message: format!("A review holds at most {MAX_REVIEW_CHARS} characters."),
            });
        }
        if order.status() != OrderStatus::Delivered {
            return Err(ReviewError::NotDelivered);
        }
        let review = NewReview {
            order_id: order.id,
            rating,
            text: text.to_owned(),
            name: if order.buyer.is_erased() {
                ANONYMOUS_NAME.to_owned()
            } else {
                initials(order.buyer.roblox_username.as_ref())
            },
            created_at: self.clock.now(),
        };
        match self.repository.add_review(review).await? {
            Some(review) => {
                tracing::info!(review = review.id, rating, "review left");
                Ok(review)
            }
            None => Err(ReviewError::AlreadyReviewed),
        }
    }

    /// The visible reviews, newest first, with their average and count (of one product's
    /// orders when `product` is given).
    pub async fn summary(&self, product: Option<i64>) -> Result<ReviewSummary, ReviewError> {
        let reviews = self.repository.visible_reviews(product).await?;
        let count = reviews.len();
        let average = (count > 0).then(|| {
            let sum: u32 = reviews.iter().map(|r| u32::from(r.rating)).sum();
            (f64::from(sum) / count as f64 * 10.0).round() / 10.0
        });
        Ok(ReviewSummary {
            average,
            count,
            reviews,
        })
    }

    /// Staff hide a review, saying why.
    #[tracing::instrument(skip(self, staff, reason))]
    pub async fn hide(&self, id: i64, staff: &Actor, reason: &str) -> Result<(), ReviewError> {
        let reason = reason.trim();
        if reason.is_empty() || reason.chars().count() > MAX_HIDE_REASON_CHARS {
            return Err(ReviewError::Invalid {
                field: "reason",
                message: format!(
                    "Say why the review is hidden (up to {MAX_HIDE_REASON_CHARS} characters)."
                ),
            });
        }
        if self
            .repository
            .hide_review(id, staff, reason.to_owned(), self.clock.now())
            .await?
        {
            Ok(())
        } else {
            Err(ReviewError::NotFound)
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_name_is_shown_by_its_first_letters() {
        assert_eq!(initials("Builderman"), "Bu***");
        assert_eq!(initials("X"), "X***");
    }

    #[tokio::test]
    async fn the_average_is_rounded_to_a_tenth_and_absent_without_reviews() {
        use chrono::TimeZone;
        let at = Utc.with_ymd_and_hms(2026, 11, 24, 12, 0, 0).unwrap();
        let review = move |rating| Review {
            id: 1,
            order_id: OrderId::new(1),
            rating,
            text: String::new(),
            name: "Bu***".into(),
            created_at: at,
            product_ids: vec![1],
        };
        let mut repo = MockReviewRepository::new();
        repo.expect_visible_reviews().returning(move |product| {
            let found = if product.is_some() {
                vec![]
            } else {
                vec![review(5), review(4), review(4)]
            };
            Box::pin(async move { Ok(found) })
        });
        let reviews = Reviews::new(repo, shared::FixedClock(at));
        let all = reviews.summary(None).await.unwrap();
        assert_eq!((all.average, all.count), (Some(4.3), 3));
        let none = reviews.summary(Some(9)).await.unwrap();
        assert_eq!((none.average, none.count), (None, 0));
    }
}
