//! What reviews are: the review stored and shown, the summary, their limits and names.

use chrono::{DateTime, Utc};
use orders::OrderId;

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
