//! The review rules over their store and the shop clock.

use orders::{Order, OrderStatus};
use shared::Actor;
use shared::Clock;

use crate::error::ReviewError;
use crate::models::{
    initials, NewReview, Review, ReviewSummary, ANONYMOUS_NAME, MAX_HIDE_REASON_CHARS,
    MAX_REVIEW_CHARS,
};
use crate::ports::ReviewRepository;

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
    use chrono::Utc;
    use orders::OrderId;

    use super::*;
    use crate::models::initials;
    use crate::ports::MockReviewRepository;

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
