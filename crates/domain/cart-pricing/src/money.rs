use std::fmt;

use rust_decimal::{Decimal, RoundingStrategy};

/// An amount of US dollars, exact to the cent and never negative.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Money(Decimal);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    #[error("must be a number")]
    NotANumber,
    #[error("must not be negative")]
    Negative,
    #[error("must not have more than two decimals")]
    TooPrecise,
    #[error("is too large")]
    TooLarge,
}

/// The largest amount the shop accepts for one price: ten million dollars.
const MAX_CENTS: i64 = 1_000_000_000;

impl Money {
    pub const ZERO: Money = Money(Decimal::ZERO);

    /// Whole cents as a constant (`cents` within the shop's limit).
    pub(crate) const fn cents_const(cents: u32) -> Money {
        Money(Decimal::from_parts(cents, 0, 0, false, 2))
    }

    pub fn from_cents(cents: i64) -> Result<Self, MoneyError> {
        if cents < 0 {
            return Err(MoneyError::Negative);
        }
        if cents > MAX_CENTS {
            return Err(MoneyError::TooLarge);
        }
        Ok(Money(Decimal::new(cents, 2)))
    }

    /// Parses a decimal such as `"4.99"` or `"12"`; more than two decimals is refused rather
    /// than silently rounded.
    pub fn parse(text: &str) -> Result<Self, MoneyError> {
        let value: Decimal = text.trim().parse().map_err(|_| MoneyError::NotANumber)?;
        Self::try_from(value)
    }

    pub fn cents(&self) -> i64 {
        // The constructor keeps the value within MAX_CENTS with at most two decimals.
        let scaled = (self.0 * Decimal::ONE_HUNDRED).trunc();
        i64::try_from(scaled).unwrap_or(i64::MAX)
    }

    pub fn as_decimal(&self) -> Decimal {
        self.0
    }

    /// Rounds an exact decimal half-up to the cent, the rule for every computed amount.
    fn round_half_up(value: Decimal) -> Money {
        let rounded = value.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero);
        Money(rounded.max(Decimal::ZERO))
    }

    pub fn times(&self, quantity: u32) -> Money {
        Money(self.0 * Decimal::from(quantity))
    }

    /// The amount after a percentage discount: amount x (1 - percent / 100), half-up to cents.
    pub fn discounted(&self, percent: DiscountPercent) -> Money {
        let factor = Decimal::ONE - Decimal::from(percent.get()) / Decimal::ONE_HUNDRED;
        Self::round_half_up(self.0 * factor)
    }

    /// `(self + fixed) / kept`, half-up to the cent: what the shopper pays so that the shop
    /// keeps this amount after a processor's fee ([`crate::PaymentMethod::fee_parts`]).
    pub(crate) fn with_fee(&self, fixed: Money, kept: Decimal) -> Money {
        Self::round_half_up((self.0 + fixed.0) / kept)
    }

    pub fn checked_sub(&self, other: Money) -> Option<Money> {
        let diff = self.0 - other.0;
        (diff >= Decimal::ZERO).then_some(Money(diff))
    }
}

impl TryFrom<Decimal> for Money {
    type Error = MoneyError;

    fn try_from(value: Decimal) -> Result<Self, Self::Error> {
        if value.is_sign_negative() && !value.is_zero() {
            return Err(MoneyError::Negative);
        }
        if value.normalize().scale() > 2 {
            return Err(MoneyError::TooPrecise);
        }
        if value > Decimal::new(MAX_CENTS, 2) {
            return Err(MoneyError::TooLarge);
        }
        Ok(Money(value.round_dp(2)))
    }
}

impl std::ops::Add for Money {
    type Output = Money;
    fn add(self, rhs: Money) -> Money {
        Money(self.0 + rhs.0)
    }
}

impl std::iter::Sum for Money {
    fn sum<I: Iterator<Item = Money>>(iter: I) -> Money {
        iter.fold(Money::ZERO, |acc, m| acc + m)
    }
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${:.2}", self.0)
    }
}

/// A promo discount: a whole percentage from 1 to 100.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiscountPercent(u8);

impl DiscountPercent {
    pub fn new(value: i64) -> Option<Self> {
        u8::try_from(value)
            .ok()
            .filter(|v| (1..=100).contains(v))
            .map(DiscountPercent)
    }

    pub fn get(&self) -> u8 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    fn money(text: &str) -> Money {
        Money::parse(text).unwrap()
    }

    #[test]
    fn parses_whole_and_two_decimal_amounts() {
        assert_eq!(money("4.99").cents(), 499);
        assert_eq!(money("12").cents(), 1200);
        assert_eq!(money(" 0.5 ").cents(), 50);
    }

    #[test]
    fn refuses_negative_imprecise_and_garbage_amounts() {
        assert_eq!(Money::parse("-1"), Err(MoneyError::Negative));
        assert_eq!(Money::parse("1.999"), Err(MoneyError::TooPrecise));
        assert_eq!(Money::parse("abc"), Err(MoneyError::NotANumber));
        assert_eq!(Money::parse("10000000.01"), Err(MoneyError::TooLarge));
        assert_eq!(Money::from_cents(-5), Err(MoneyError::Negative));
    }

    #[test]
    fn trailing_zeros_are_not_extra_precision() {
        assert_eq!(money("4.500").cents(), 450);
    }

    #[test]
    fn displays_dollars_with_two_decimals() {
        assert_eq!(money("5").to_string(), "$5.00");
        assert_eq!(money("0.1").to_string(), "$0.10");
    }

    #[test]
    fn card_total_adds_the_processing_fee_rounded_half_up() {
        // (10.00 + 0.30) / 0.956 = 10.77405...
        assert_eq!(
            crate::PaymentMethod::Card.grand_total(money("10")),
            money("10.77")
        );
        // (0 + 0.30) / 0.956 = 0.31380...
        assert_eq!(
            crate::PaymentMethod::Card.grand_total(Money::ZERO),
            money("0.31")
        );
        // (99.99 + 0.30) / 0.956 = 104.905857...
        assert_eq!(
            crate::PaymentMethod::Card.grand_total(money("99.99")),
            money("104.91")
        );
    }

    #[test]
    fn paypal_total_adds_its_own_fee() {
        // (10.00 + 0.49) / 0.9501 = 11.04094...
        assert_eq!(
            crate::PaymentMethod::Paypal.grand_total(money("10")),
            money("11.04")
        );
    }

    #[test]
    fn a_discount_takes_the_percentage_off_rounded_half_up() {
        let ten = DiscountPercent::new(10).unwrap();
        assert_eq!(money("24.99").discounted(ten), money("22.49")); // 22.491
        let half = DiscountPercent::new(50).unwrap();
        assert_eq!(money("0.05").discounted(half), money("0.03")); // 0.025 -> 0.03
        let all = DiscountPercent::new(100).unwrap();
        assert_eq!(money("7.77").discounted(all), Money::ZERO);
    }

    #[test]
    fn sums_and_multiplies_exactly() {
        let total: Money = [money("0.1"), money("0.2")].into_iter().sum();
        assert_eq!(total.as_decimal(), dec!(0.3));
        assert_eq!(money("1.99").times(3), money("5.97"));
        assert_eq!(money("5").checked_sub(money("6")), None);
        assert_eq!(money("6").checked_sub(money("5")), Some(money("1")));
    }
}
