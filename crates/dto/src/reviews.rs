//! Verified reviews as the API reads and sends them.

use reviews::Review;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// A verified buyer's review of a delivered order.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ReviewPayload {
    /// Stars, 1 to 5.
    #[schema(minimum = 1, maximum = 5)]
    pub rating: i64,
    /// What the buyer says (trimmed; at most 1000 characters; may be empty).
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub text: String,
}

/// A review as the shop shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReviewResponse {
    pub id: i64,
    #[schema(minimum = 1, maximum = 5)]
    pub rating: u8,
    pub text: String,
    /// The reviewer as shown: the first letters of the Roblox name ("Bu***").
    pub name: String,
    #[schema(format = DateTime)]
    pub created_at: String,
    /// The products of the reviewed order.
    pub product_ids: Vec<i64>,
}

impl From<&Review> for ReviewResponse {
    fn from(review: &Review) -> Self {
        ReviewResponse {
            id: review.id,
            rating: review.rating,
            text: review.text.clone(),
            name: review.name.clone(),
            created_at: review.created_at.to_rfc3339(),
            product_ids: review.product_ids.clone(),
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only the reviews of orders with this product.
    pub product_id: Option<i64>,
}

/// The shop's reviews and their average.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReviewsResponse {
    /// The average rating; `null` without reviews.
    pub average: Option<f64>,
    pub count: usize,
    /// Newest first.
    pub reviews: Vec<ReviewResponse>,
}

/// Why a review is hidden.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = HideReviewRequest)]
pub struct HidePayload {
    /// 1 to 500 characters (after trimming).
    #[serde(default)]
    #[schema(
        required = true,
        min_length = 1,
        max_length = 500,
        example = "Rude language"
    )]
    pub reason: String,
}

/// A review hidden.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ReviewHidden {
    /// Always true.
    pub hidden: bool,
    /// The review's id.
    pub id: i64,
}
