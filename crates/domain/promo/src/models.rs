use std::fmt;

use cart_pricing::DiscountPercent;
use chrono::{DateTime, Utc};
pub use shared::{DiscordId, DiscordIdError};

/// A promo code as shoppers type it: trimmed and uppercased, 1 to 32 of `A-Z 0-9 _ -`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PromoCode(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PromoCodeError {
    #[error("Enter a promo code.")]
    Empty,
    #[error("A promo code has at most 32 characters.")]
    TooLong,
    #[error("A promo code may contain only letters, digits, '_' and '-'.")]
    BadCharacter,
}

impl PromoCode {
    pub const MAX_LEN: usize = 32;

    pub fn parse(text: &str) -> Result<Self, PromoCodeError> {
        let code = text.trim().to_uppercase();
        if code.is_empty() {
            return Err(PromoCodeError::Empty);
        }
        if code.chars().count() > Self::MAX_LEN {
            return Err(PromoCodeError::TooLong);
        }
        if !code
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_' || c == '-')
        {
            return Err(PromoCodeError::BadCharacter);
        }
        Ok(PromoCode(code))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for PromoCode {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PromoCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// How many paid orders in all may use a code: at least one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MaxUses(u32);

impl MaxUses {
    pub fn new(value: i64) -> Option<Self> {
        u32::try_from(value).ok().filter(|v| *v >= 1).map(MaxUses)
    }

    pub fn get(&self) -> u32 {
        self.0
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PromoId(i64);

impl PromoId {
    pub fn new(value: i64) -> Self {
        PromoId(value)
    }

    pub fn get(&self) -> i64 {
        self.0
    }
}

impl fmt::Display for PromoId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A promo code to create.
#[derive(Debug, Clone, PartialEq)]
pub struct NewPromo {
    pub code: PromoCode,
    pub discount: DiscountPercent,
    pub expires_at: Option<DateTime<Utc>>,
    pub max_uses: Option<MaxUses>,
}

/// A stored promo code.
#[derive(Debug, Clone, PartialEq)]
pub struct Promo {
    pub id: PromoId,
    pub code: PromoCode,
    pub discount: DiscountPercent,
    pub expires_at: Option<DateTime<Utc>>,
    pub max_uses: Option<MaxUses>,
    /// Switched off by staff: refused like an expired code, kept for the orders that used it.
    pub active: bool,
    pub created_at: DateTime<Utc>,
}

/// A code as staff see it in the list: with how often it was used so far.
#[derive(Debug, Clone, PartialEq)]
pub struct PromoSummary {
    pub promo: Promo,
    /// Pending and paid orders holding a use of it.
    pub uses: u32,
}

/// A change to a code: only the fields given change. It applies to later orders only (an
/// order keeps the discount it was placed with).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PromoChange {
    pub discount: Option<DiscountPercent>,
    /// `Some(None)`: never expires.
    pub expires_at: Option<Option<DateTime<Utc>>>,
    /// `Some(None)`: no limit.
    pub max_uses: Option<Option<MaxUses>>,
    pub active: Option<bool>,
}

impl PromoChange {
    /// Whether the change asks for nothing.
    pub fn is_empty(&self) -> bool {
        *self == PromoChange::default()
    }

    /// The code with the change applied.
    pub fn apply(&self, promo: &Promo) -> Promo {
        Promo {
            discount: self.discount.unwrap_or(promo.discount),
            expires_at: self.expires_at.unwrap_or(promo.expires_at),
            max_uses: self.max_uses.unwrap_or(promo.max_uses),
            active: self.active.unwrap_or(promo.active),
            ..promo.clone()
        }
    }
}

/// A code with what the rules need to know about its use.
#[derive(Debug, Clone, PartialEq)]
pub struct PromoUsage {
    pub promo: Promo,
    /// Redemptions so far: one per paid order that used the code.
    pub uses: u32,
    /// Whether the Discord account asking has already redeemed it.
    pub used_by_account: bool,
}

/// Why a code does not apply, worded for the shopper.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    #[error("Invalid promo code")]
    Invalid,
    #[error("This promo code is no longer active.")]
    Inactive,
    #[error("This promo code has expired.")]
    Expired,
    #[error("This promo code has reached its usage limit.")]
    UsedUp,
    #[error("You have already used this promo code.")]
    AlreadyUsed,
}

/// A code that applies to this shopper now.
#[derive(Debug, Clone, PartialEq)]
pub struct AppliedPromo {
    pub id: PromoId,
    pub code: PromoCode,
    pub discount: DiscountPercent,
}

/// The answer to "may this shopper use this code now?".
#[derive(Debug, Clone, PartialEq)]
pub enum PromoValidation {
    Valid(AppliedPromo),
    Rejected(Rejection),
}

/// The rules, in the order a shopper should hear about them: switched off, expired, already
/// used (by this account: its own pending or paid order may hold the code's last use), used up.
/// A code expires at `expires_at` itself.
pub fn evaluate(usage: &PromoUsage, now: DateTime<Utc>) -> PromoValidation {
    let promo = &usage.promo;
    if !promo.active {
        return PromoValidation::Rejected(Rejection::Inactive);
    }
    if promo.expires_at.is_some_and(|at| now >= at) {
        return PromoValidation::Rejected(Rejection::Expired);
    }
    if usage.used_by_account {
        return PromoValidation::Rejected(Rejection::AlreadyUsed);
    }
    if promo.max_uses.is_some_and(|max| usage.uses >= max.get()) {
        return PromoValidation::Rejected(Rejection::UsedUp);
    }
    PromoValidation::Valid(AppliedPromo {
        id: promo.id,
        code: promo.code.clone(),
        discount: promo.discount,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_trimmed_and_uppercased() {
        assert_eq!(
            PromoCode::parse("  summer-10_x ").unwrap().as_str(),
            "SUMMER-10_X"
        );
    }

    #[test]
    fn a_code_has_one_to_32_allowed_characters() {
        assert_eq!(PromoCode::parse("   "), Err(PromoCodeError::Empty));
        assert!(PromoCode::parse(&"A".repeat(32)).is_ok());
        assert_eq!(
            PromoCode::parse(&"A".repeat(33)),
            Err(PromoCodeError::TooLong)
        );
        assert_eq!(
            PromoCode::parse("TEN OFF"),
            Err(PromoCodeError::BadCharacter)
        );
        assert_eq!(PromoCode::parse("ÉTÉ"), Err(PromoCodeError::BadCharacter));
        assert_eq!(PromoCode::parse("10%"), Err(PromoCodeError::BadCharacter));
    }

    #[test]
    fn max_uses_is_at_least_one() {
        assert!(MaxUses::new(0).is_none());
        assert!(MaxUses::new(-1).is_none());
        assert_eq!(MaxUses::new(5).map(|m| m.get()), Some(5));
    }

    #[test]
    fn rejections_read_as_the_shopper_is_told() {
        assert_eq!(Rejection::Invalid.to_string(), "Invalid promo code");
        assert_eq!(
            Rejection::Inactive.to_string(),
            "This promo code is no longer active."
        );
        assert_eq!(
            Rejection::Expired.to_string(),
            "This promo code has expired."
        );
        assert_eq!(
            Rejection::UsedUp.to_string(),
            "This promo code has reached its usage limit."
        );
        assert_eq!(
            Rejection::AlreadyUsed.to_string(),
            "You have already used this promo code."
        );
    }
}
