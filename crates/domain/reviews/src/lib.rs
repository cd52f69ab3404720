//! Verified reviews: only the holder of a delivered order (its link, its session or its owner)
//! leaves one, once per order; 1 to 5 stars and up to 1,000 characters, shown under the first
//! letters of the Roblox name. Staff hide a review with a reason; it is kept, with who and why
//! (docs/product.md).

mod error;
mod models;
mod ports;
mod service;

pub use error::ReviewError;
pub use models::{
    initials, NewReview, Review, ReviewSummary, ANONYMOUS_NAME, MAX_HIDE_REASON_CHARS,
    MAX_REVIEW_CHARS,
};
#[cfg(test)]
pub use ports::MockReviewRepository;
pub use ports::ReviewRepository;
pub use service::Reviews;
