//! Verified reviews: only the holder of a delivered order (its link, its session or its owner)
//! leaves one, once per order; staff hide a review with a reason (docs/product.md).

mod reviews;

pub use reviews::{
    initials, NewReview, Review, ReviewError, ReviewRepository, ReviewSummary, Reviews,
    ANONYMOUS_NAME, MAX_HIDE_REASON_CHARS, MAX_REVIEW_CHARS,
};
