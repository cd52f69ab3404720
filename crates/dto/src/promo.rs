//! Promo codes as the API reads and sends them: checking a code, and the super_admin's codes.

use promo::PromoSummary;
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::lenient::{Patch, WholeNumber};

/// A promo code to check. A `discord_id` in the body is ignored: the code is checked for the
/// Discord account linked in this session.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = ValidatePromoRequest)]
pub struct ValidatePromo {
    #[serde(default)]
    #[schema(required = true, nullable = false, example = "SPRING10")]
    pub promo_code: Option<String>,
}

/// A promo code that applies.
#[derive(Debug, Serialize, ToSchema)]
pub struct PromoValid {
    /// The discount in percent.
    #[schema(minimum = 1, maximum = 100)]
    pub discount: u8,
}

/// A new promo code. The fields are read leniently (numbers may also come as digits in a
/// string) so that every problem is answered at once, per field.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = NewPromoCode)]
pub struct CreatePromo {
    /// Letters, digits, `-` and `_`, up to 32; stored in capitals.
    #[serde(default)]
    #[schema(
        required = true,
        nullable = false,
        min_length = 1,
        max_length = 32,
        pattern = "^[A-Za-z0-9_-]+$",
        example = "SUMMER10"
    )]
    pub code: Option<String>,
    /// The discount, a whole percent.
    #[serde(default)]
    #[schema(required = true, value_type = u8, minimum = 1, maximum = 100, example = 10)]
    pub discount_percent: Patch<WholeNumber>,
    /// When it stops working: an RFC 3339 time, `YYYY-MM-DDTHH:MM[:SS]` (UTC) or a date (the
    /// end of that day, UTC); null, empty or left out: never.
    #[serde(default)]
    #[schema(format = DateTime, example = "2026-12-31T23:59:59Z")]
    pub expires_at: Option<String>,
    /// How many orders may use it in all; null, empty or left out: no limit. (Stored up to
    /// 2147483647.)
    #[serde(default)]
    #[schema(value_type = Option<u32>, minimum = 1, example = 100)]
    pub max_uses: Patch<WholeNumber>,
}

/// A promo code as created.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[schema(as = CreatedPromoCode)]
pub struct CreatedPromo {
    /// In capitals.
    #[schema(example = "SUMMER10")]
    pub code: String,
    #[schema(minimum = 1, maximum = 100, example = 10)]
    pub discount_percent: u8,
    /// RFC 3339; null: it never expires.
    #[schema(required = true, format = DateTime)]
    pub expires_at: Option<String>,
    /// null: no limit.
    #[schema(required = true, minimum = 1)]
    pub max_uses: Option<u32>,
}

/// A promo code as staff see it in the list.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = PromoCodeJson)]
pub struct PromoCodeJson {
    id: i64,
    /// In capitals.
    #[schema(example = "SUMMER10")]
    code: String,
    #[schema(minimum = 1, maximum = 100, example = 10)]
    discount_percent: u8,
    /// RFC 3339; null: it never expires.
    #[schema(required = true, format = DateTime)]
    expires_at: Option<String>,
    /// null: no limit.
    #[schema(required = true, minimum = 1)]
    max_uses: Option<u32>,
    /// Pending and paid orders holding a use of it.
    #[schema(example = 3)]
    uses: u32,
    /// false: switched off, refused at checkout like an expired code.
    active: bool,
    /// RFC 3339.
    #[schema(format = DateTime)]
    created_at: String,
}

impl From<PromoSummary> for PromoCodeJson {
    fn from(summary: PromoSummary) -> Self {
        let promo = summary.promo;
        PromoCodeJson {
            id: promo.id.get(),
            code: promo.code.to_string(),
            discount_percent: promo.discount.get(),
            expires_at: promo.expires_at.map(|at| at.to_rfc3339()),
            max_uses: promo.max_uses.map(|max| max.get()),
            uses: summary.uses,
            active: promo.active,
            created_at: promo.created_at.to_rfc3339(),
        }
    }
}

/// A change to a promo code: any of these fields; the ones left out stay as they are.
// Read leniently, as at creation, so that every problem is answered at once, per field.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = PromoCodeChange)]
pub struct ChangePromo {
    /// The code itself cannot change: given at all, it is refused by name.
    #[serde(default)]
    #[schema(ignore)]
    pub code: Patch<IgnoredAny>,
    /// A whole percent (digits in a string are read too).
    #[serde(default)]
    #[schema(value_type = Option<u8>, minimum = 1, maximum = 100, example = 15)]
    pub discount_percent: Patch<WholeNumber>,
    /// As at creation; null or empty: never expires.
    #[serde(default)]
    #[schema(value_type = Option<String>, format = DateTime, example = "2026-12-31T23:59:59Z")]
    pub expires_at: Patch<String>,
    /// At least 1 and not below the uses so far; null or empty: no limit.
    #[serde(default)]
    #[schema(value_type = Option<u32>, minimum = 1, example = 100)]
    pub max_uses: Patch<WholeNumber>,
    /// false switches the code off (refused at checkout, kept for the order history); true
    /// switches it back on.
    #[serde(default)]
    #[schema(value_type = Option<bool>)]
    pub active: Patch<bool>,
}
