//! Prices in the shopper's currency. The price of record is in the shop's base currency
//! ([`Money`]); a [`Conversion`] turns a cart into the amounts a shopper sees and pays in
//! another one, in this order, the same on the server and in the browser
//! (`frontend/src/lib/currency.ts`, both pinned by `tests/vectors/currency.json`):
//!
//! 1. each unit price converted at the rate and rounded by the currency's rule ([`Rounding`]);
//! 2. line totals (unit × quantity) summed into the subtotal;
//! 3. the promo percentage applied to the subtotal, half-up to the minor unit;
//! 4. the processing fee computed on that total, its fixed part converted at the same rate and
//!    rounded half-up to the minor unit.
//!
//! Amounts in a currency are whole minor units (`i64`): cents, or yen for a zero-decimal
//! currency.

use std::fmt;
use std::str::FromStr;

use rust_decimal::{Decimal, RoundingStrategy};

use crate::{DiscountPercent, Money, PaymentMethod};

/// An ISO 4217 currency code: three ASCII capital letters (`USD`, `BRL`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CurrencyCode([u8; 3]);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("must be a currency code of three capital letters, such as USD")]
pub struct InvalidCurrencyCode;

impl CurrencyCode {
    pub const USD: CurrencyCode = CurrencyCode(*b"USD");
    pub const EUR: CurrencyCode = CurrencyCode(*b"EUR");

    pub fn as_str(&self) -> &str {
        // only ASCII capitals get in
        std::str::from_utf8(&self.0).unwrap_or("???")
    }

    /// The code in lower case, as Stripe takes it (`brl`).
    pub fn lowercase(&self) -> String {
        self.as_str().to_ascii_lowercase()
    }
}

impl FromStr for CurrencyCode {
    type Err = InvalidCurrencyCode;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bytes: [u8; 3] = text
            .as_bytes()
            .try_into()
            .map_err(|_| InvalidCurrencyCode)?;
        if bytes.iter().all(u8::is_ascii_uppercase) {
            Ok(CurrencyCode(bytes))
        } else {
            Err(InvalidCurrencyCode)
        }
    }
}

impl fmt::Display for CurrencyCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a converted unit price is rounded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rounding {
    /// Half-up to the minor unit (the cent).
    Minor,
    /// To the nearest price with this ending (ties upwards), never below the ending itself:
    /// `"0.99"` gives 4.99, 5.99, …; `"9"` gives 9, 19, 29, …; `"90"` gives 90, 190, …. The
    /// ending repeats every power of ten above its whole part (`"0.99"`: every 1, `"9"`: every
    /// 10, `"4.99"`: every 10).
    Ending(PriceEnding),
}

/// A price ending of [`Rounding::Ending`], in minor units of its currency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PriceEnding {
    text: String,
    ending: i64,
    step: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidRounding {
    #[error("must be \"minor\" or a price ending such as \"0.99\"")]
    NotARule,
    #[error("has more decimals than the currency's minor unit")]
    TooPrecise,
}

impl Rounding {
    /// `"minor"`, or a price ending such as `"0.99"` for a currency of `minor_units` decimals.
    pub fn parse(text: &str, minor_units: u32) -> Result<Rounding, InvalidRounding> {
        let text = text.trim();
        if text == "minor" {
            return Ok(Rounding::Minor);
        }
        let value: Decimal = text.parse().map_err(|_| InvalidRounding::NotARule)?;
        if value.is_sign_negative() || text.starts_with(['+', '-']) {
            return Err(InvalidRounding::NotARule);
        }
        if value.scale() > minor_units {
            return Err(InvalidRounding::TooPrecise);
        }
        let whole_digits = text
            .split('.')
            .next()
            .unwrap_or_default()
            .trim_start_matches('0');
        let exponent = u32::try_from(whole_digits.len()).map_err(|_| InvalidRounding::NotARule)?;
        let to_minor = |major: Decimal| {
            i64::try_from((major * Decimal::from(10i64.pow(minor_units))).trunc())
                .map_err(|_| InvalidRounding::NotARule)
        };
        let step = 10i64
            .checked_pow(exponent)
            .ok_or(InvalidRounding::NotARule)?;
        Ok(Rounding::Ending(PriceEnding {
            text: text.to_owned(),
            ending: to_minor(value)?,
            step: to_minor(Decimal::from(step))?,
        }))
    }

    /// As `/api/site` names it: `"minor"` or the ending.
    pub fn as_str(&self) -> &str {
        match self {
            Rounding::Minor => "minor",
            Rounding::Ending(ending) => &ending.text,
        }
    }

    /// `exact` (in minor units, any precision) rounded by this rule to whole minor units.
    fn apply(&self, exact: Decimal) -> i64 {
        let half_up = |value: Decimal| {
            i64::try_from(value.round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero))
                .unwrap_or(i64::MAX)
        };
        match self {
            Rounding::Minor => half_up(exact),
            Rounding::Ending(PriceEnding { ending, step, .. }) => {
                let (ending, step) = (Decimal::from(*ending), Decimal::from(*step));
                let below = ((exact - ending) / step).floor() * step + ending;
                let above = below + step;
                let chosen = if below < ending || above - exact <= exact - below {
                    above.max(ending)
                } else {
                    below
                };
                half_up(chosen)
            }
        }
    }
}

/// One currency as the shop offers it: its code, how many of its units one unit of the base
/// currency buys, its minor units (2, or 0 for a zero-decimal currency) and its rounding rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conversion {
    pub code: CurrencyCode,
    pub rate: Decimal,
    pub minor_units: u32,
    pub rounding: Rounding,
}

/// A cart's amounts in the currency it is paid in, whole minor units: what the shopper sees
/// and what the provider charges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Charge {
    pub currency: CurrencyCode,
    /// Units of `currency` per unit of the base currency.
    pub rate: Decimal,
    pub minor_units: u32,
    /// Each line's unit price, converted and rounded, in the cart's line order.
    pub unit_prices: Vec<i64>,
    pub subtotal: i64,
    pub discount: i64,
    /// After the discount, before the fee: the checkout request's `total`.
    pub total: i64,
    pub fee: i64,
    pub grand_total: i64,
}

impl Conversion {
    /// The base currency itself: rate 1, to the cent.
    pub fn base(code: CurrencyCode) -> Conversion {
        Conversion {
            code,
            rate: Decimal::ONE,
            minor_units: 2,
            rounding: Rounding::Minor,
        }
    }

    fn minor_per_major(&self) -> Decimal {
        Decimal::from(10i64.pow(self.minor_units))
    }

    /// A unit price of record converted and rounded by the currency's rule.
    pub fn unit_price(&self, base: Money) -> i64 {
        self.rounding
            .apply(base.as_decimal() * self.rate * self.minor_per_major())
    }

    /// Any other amount of record (the fee's fixed part) converted, half-up to the minor unit.
    pub fn amount(&self, base: Money) -> i64 {
        Rounding::Minor.apply(base.as_decimal() * self.rate * self.minor_per_major())
    }

    /// The cart's amounts in this currency: `lines` are each line's unit price of record and
    /// quantity.
    pub fn charge(
        &self,
        lines: impl IntoIterator<Item = (Money, u32)>,
        discount_percent: Option<DiscountPercent>,
        method: PaymentMethod,
    ) -> Charge {
        let converted = lines
            .into_iter()
            .map(|(unit, quantity)| (self.unit_price(unit), quantity));
        self.charge_converted(converted, discount_percent, method)
    }

    /// The cart's amounts in this currency from unit prices already converted (minor units)
    /// and their quantities: an order's lines as they were charged.
    pub fn charge_converted(
        &self,
        lines: impl IntoIterator<Item = (i64, u32)>,
        discount_percent: Option<DiscountPercent>,
        method: PaymentMethod,
    ) -> Charge {
        let mut subtotal = 0i64;
        let unit_prices: Vec<i64> = lines
            .into_iter()
            .map(|(unit, quantity)| {
                subtotal += unit * i64::from(quantity);
                unit
            })
            .collect();
        let total = match discount_percent {
            Some(percent) => Rounding::Minor.apply(
                Decimal::from(subtotal) * Decimal::from(100 - i64::from(percent.get()))
                    / Decimal::ONE_HUNDRED,
            ),
            None => subtotal,
        };
        let (fixed, kept) = method.fee_parts();
        let fixed = self.amount(fixed);
        let grand_total = Rounding::Minor.apply(Decimal::from(total + fixed) / kept);
        Charge {
            currency: self.code,
            rate: self.rate,
            minor_units: self.minor_units,
            unit_prices,
            subtotal,
            discount: subtotal - total,
            total,
            fee: grand_total - total,
            grand_total,
        }
    }
}

impl Charge {
    /// Whether the total the client showed (in this currency, major units) differs from this
    /// one by more than one minor unit.
    pub fn differs_from_client_total(&self, client_total: Decimal) -> bool {
        let shown = client_total * Decimal::from(10i64.pow(self.minor_units));
        (Decimal::from(self.total) - shown).abs() > Decimal::ONE
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use rust_decimal_macros::dec;

    use super::*;

    fn money(text: &str) -> Money {
        Money::parse(text).unwrap()
    }

    fn brl(rounding: &str) -> Conversion {
        Conversion {
            code: "BRL".parse().unwrap(),
            rate: dec!(5.3412),
            minor_units: 2,
            rounding: Rounding::parse(rounding, 2).unwrap(),
        }
    }

    #[test]
    fn a_code_is_three_capital_letters() {
        assert_eq!("BRL".parse::<CurrencyCode>().unwrap().as_str(), "BRL");
        assert_eq!("BRL".parse::<CurrencyCode>().unwrap().lowercase(), "brl");
        for bad in ["brl", "BR", "BRLL", "B1L", "", "ÄÖÜ"] {
            assert_eq!(
                bad.parse::<CurrencyCode>(),
                Err(InvalidCurrencyCode),
                "{bad}"
            );
        }
    }

    #[test]
    fn minor_rounding_is_half_up_to_the_cent() {
        // 4.99 × 5.3412 = 26.652588 → 26.65
        assert_eq!(brl("minor").unit_price(money("4.99")), 2665);
        // 0.50 × 5.3412 = 2.6706 → 2.67
        assert_eq!(brl("minor").unit_price(money("0.50")), 267);
    }

    #[test]
    fn a_price_ending_picks_the_nearest_price_with_it() {
        let charm = brl("0.99");
        // 26.652588 → 26.99 (0.34 away) rather than 25.99 (0.66 away)
        assert_eq!(charm.unit_price(money("4.99")), 2699);
        // 1.00 × 5.3412 = 5.3412 → 4.99 (0.35 away) rather than 5.99 (0.65)
        assert_eq!(charm.unit_price(money("1.00")), 499);
        // below the ending itself: the ending
        assert_eq!(charm.unit_price(money("0.01")), 99);
        let nine = Rounding::parse("9", 0).unwrap();
        let yen = Conversion {
            code: "JPY".parse().unwrap(),
            rate: dec!(150.3),
            minor_units: 0,
            rounding: nine,
        };
        // 4.99 × 150.3 = 749.997 → 749
        assert_eq!(yen.unit_price(money("4.99")), 749);
        // 1.00 × 150.3 = 150.3 → 149 (1.3 away) rather than 159
        assert_eq!(yen.unit_price(money("1.00")), 149);
    }

    #[test]
    fn a_tie_between_two_endings_goes_up() {
        let conversion = Conversion {
            code: "EUR".parse().unwrap(),
            rate: Decimal::ONE,
            minor_units: 2,
            rounding: Rounding::parse("0.99", 2).unwrap(),
        };
        // 5.49 is 0.50 from both 4.99 and 5.99
        assert_eq!(conversion.unit_price(money("5.49")), 599);
    }

    #[test]
    fn a_rounding_rule_is_minor_or_an_ending_within_the_minor_unit() {
        assert_eq!(Rounding::parse("minor", 0).unwrap(), Rounding::Minor);
        assert_eq!(Rounding::parse("0.99", 0), Err(InvalidRounding::TooPrecise));
        for bad in ["", "cents", "-0.99", "+1", "0.9.9"] {
            assert_eq!(
                Rounding::parse(bad, 2),
                Err(InvalidRounding::NotARule),
                "{bad}"
            );
        }
        assert_eq!(Rounding::parse("0.99", 2).unwrap().as_str(), "0.99");
    }

    #[test]
    fn the_base_currency_charges_exactly_the_priced_cart() {
        let usd = Conversion::base(CurrencyCode::USD);
        let charge = usd.charge(
            [(money("24.99"), 1)],
            DiscountPercent::new(10),
            PaymentMethod::Card,
        );
        assert_eq!(
            (
                charge.subtotal,
                charge.total,
                charge.fee,
                charge.grand_total
            ),
            (2499, 2249, 135, 2384)
        );
    }

    #[test]
    fn a_converted_cart_follows_the_four_steps() {
        let charge = brl("minor").charge(
            [(money("4.99"), 3), (money("0.50"), 1)],
            DiscountPercent::new(15),
            PaymentMethod::Card,
        );
        assert_eq!(charge.unit_prices, vec![2665, 267]);
        assert_eq!(charge.subtotal, 3 * 2665 + 267);
        // 8262 × 0.85 = 7022.7 → 7023
        assert_eq!(charge.total, 7023);
        // fixed part 0.30 × 5.3412 = 1.60236 → 160; (7023 + 160) / 0.956 = 7513.59 → 7514
        assert_eq!(charge.grand_total, 7514);
        assert_eq!(charge.fee, 491);
        assert_eq!(charge.discount, 8262 - 7023);
    }

    #[test]
    fn a_client_total_within_one_minor_unit_is_accepted() {
        let charge = brl("minor").charge([(money("4.99"), 1)], None, PaymentMethod::Card);
        assert!(!charge.differs_from_client_total(dec!(26.65)));
        assert!(!charge.differs_from_client_total(dec!(26.66)));
        assert!(charge.differs_from_client_total(dec!(26.67)));
        assert!(charge.differs_from_client_total(dec!(4.99)));
    }
}
