//! The day's exchange rates and the currencies the shop offers at them.
//!
//! The reference rates are rates against the euro (the European Central Bank publishes them
//! each working day around 16:00 CET); the shop's rate for a currency is the cross rate against
//! its base currency, rounded half-up to [`RATE_DECIMALS`] decimals, so that the server and the
//! browser convert with the very same number. Rates older than the age limit stop a currency
//! from being offered, except a development sample's, which is exempt.

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Utc};
use rust_decimal::{Decimal, RoundingStrategy};

use crate::{Conversion, CurrencyCode, Rounding};

/// The decimals of a cross rate.
pub const RATE_DECIMALS: u32 = 6;

/// One day's reference rates: how many units of each currency one euro buys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferenceRates {
    /// The day they are for.
    pub as_of: NaiveDate,
    /// From the development sample file: exempt from the age limit.
    pub sample: bool,
    /// Per currency, units per euro (the euro itself is 1 whether listed or not).
    pub per_euro: BTreeMap<CurrencyCode, Decimal>,
}

/// A currency the shop offers: the conversion and the day of its rate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OfferedCurrency {
    pub conversion: Conversion,
    pub as_of: Option<NaiveDate>,
}

/// How the shop offers currencies: its base, the others it offers, their rounding rules (by
/// code; "minor" when absent) and their decimals (by code), and the age limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CurrencyPolicy {
    pub base: CurrencyCode,
    pub offered: Vec<CurrencyCode>,
    pub rounding: BTreeMap<CurrencyCode, Rounding>,
    pub minor_units: BTreeMap<CurrencyCode, u32>,
    pub max_age: Duration,
}

impl ReferenceRates {
    /// Units of `code` per euro.
    fn per_euro(&self, code: CurrencyCode) -> Option<Decimal> {
        if code == CurrencyCode::EUR {
            return Some(Decimal::ONE);
        }
        self.per_euro
            .get(&code)
            .copied()
            .filter(|rate| *rate > Decimal::ZERO)
    }

    /// How many units of `code` one unit of `base` buys, rounded half-up to [`RATE_DECIMALS`].
    pub fn cross_rate(&self, base: CurrencyCode, code: CurrencyCode) -> Option<Decimal> {
        if base == code {
            return Some(Decimal::ONE);
        }
        let rate = self.per_euro(code)? / self.per_euro(base)?;
        Some(rate.round_dp_with_strategy(RATE_DECIMALS, RoundingStrategy::MidpointAwayFromZero))
    }

    /// When they were published: 16:00 in Frankfurt, taken as 15:00 UTC.
    pub fn published_at(&self) -> DateTime<Utc> {
        self.as_of
            .and_time(NaiveTime::from_hms_opt(15, 0, 0).unwrap_or_default())
            .and_utc()
    }

    /// Whether they may still be used at `now`.
    pub fn fresh_at(&self, now: DateTime<Utc>, max_age: Duration) -> bool {
        self.sample || now - self.published_at() <= max_age
    }
}

impl CurrencyPolicy {
    /// The currencies offered at `now`: the base always, every other offered currency whose
    /// rate is known and fresh, in the configured order.
    pub fn offer(
        &self,
        rates: Option<&ReferenceRates>,
        now: DateTime<Utc>,
    ) -> Vec<OfferedCurrency> {
        let mut offered = vec![OfferedCurrency {
            conversion: Conversion::base(self.base),
            as_of: rates.map(|rates| rates.as_of),
        }];
        let Some(rates) = rates.filter(|rates| rates.fresh_at(now, self.max_age)) else {
            return offered;
        };
        for code in self.offered.iter().filter(|code| **code != self.base) {
            if let Some(rate) = rates.cross_rate(self.base, *code) {
                offered.push(OfferedCurrency {
                    conversion: Conversion {
                        code: *code,
                        rate,
                        minor_units: self.minor_units.get(code).copied().unwrap_or(2),
                        rounding: self.rounding.get(code).cloned().unwrap_or(Rounding::Minor),
                    },
                    as_of: Some(rates.as_of),
                });
            }
        }
        offered
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use rust_decimal_macros::dec;

    use super::*;

    fn code(text: &str) -> CurrencyCode {
        text.parse().unwrap()
    }

    fn rates(as_of: &str, sample: bool) -> ReferenceRates {
        ReferenceRates {
            as_of: as_of.parse().unwrap(),
            sample,
            per_euro: BTreeMap::from([
                (code("USD"), dec!(1.0567)),
                (code("BRL"), dec!(5.6443)),
                (code("JPY"), dec!(158.91)),
                (code("GBP"), dec!(0.8341)),
            ]),
        }
    }

    fn policy() -> CurrencyPolicy {
        CurrencyPolicy {
            base: code("USD"),
            offered: vec![
                code("USD"),
                code("EUR"),
                code("BRL"),
                code("JPY"),
                code("PLN"),
            ],
            rounding: BTreeMap::from([(code("BRL"), Rounding::parse("0.90", 2).unwrap())]),
            minor_units: BTreeMap::from([(code("JPY"), 0)]),
            max_age: Duration::hours(120),
        }
    }

    #[test]
    fn cross_rates_are_taken_through_the_euro_and_rounded_to_six_decimals() {
        let rates = rates("2026-11-27", false);
        // 5.6443 / 1.0567 = 5.341440...
        assert_eq!(
            rates.cross_rate(code("USD"), code("BRL")),
            Some(dec!(5.341440))
        );
        // 1 / 1.0567 = 0.946342...
        assert_eq!(
            rates.cross_rate(code("USD"), code("EUR")),
            Some(dec!(0.946342))
        );
        assert_eq!(
            rates.cross_rate(code("EUR"), code("BRL")),
            Some(dec!(5.6443))
        );
        assert_eq!(
            rates.cross_rate(code("USD"), code("USD")),
            Some(Decimal::ONE)
        );
        assert_eq!(rates.cross_rate(code("USD"), code("PLN")), None);
    }

    #[test]
    fn fresh_rates_offer_every_currency_they_know_with_its_rule() {
        let now = "2026-11-30T10:00:00Z".parse().unwrap();
        let offered = policy().offer(Some(&rates("2026-11-27", false)), now);
        let codes: Vec<&str> = offered.iter().map(|o| o.conversion.code.as_str()).collect();
        assert_eq!(codes, ["USD", "EUR", "BRL", "JPY"]);
        assert_eq!(offered[2].conversion.rounding.as_str(), "0.90");
        assert_eq!(offered[3].conversion.minor_units, 0);
        assert_eq!(offered[0].conversion.rate, Decimal::ONE);
    }

    #[test]
    fn stale_rates_leave_the_base_currency_only_unless_they_are_the_sample() {
        // Friday's rates (15:00 UTC) are 121 hours old on Wednesday at 16:00
        let now = "2026-12-02T16:00:00Z".parse().unwrap();
        let offered = policy().offer(Some(&rates("2026-11-27", false)), now);
        assert_eq!(offered.len(), 1);
        assert_eq!(offered[0].conversion.code, code("USD"));
        let sample = policy().offer(Some(&rates("2026-11-27", true)), now);
        assert_eq!(sample.len(), 4);
        // within the limit: 120 hours to the minute
        let edge = "2026-12-02T15:00:00Z".parse().unwrap();
        assert_eq!(
            policy()
                .offer(Some(&rates("2026-11-27", false)), edge)
                .len(),
            4
        );
    }

    #[test]
    fn without_rates_only_the_base_currency_is_offered() {
        let offered = policy().offer(None, Utc::now());
        assert_eq!(offered.len(), 1);
        assert_eq!(offered[0].as_of, None);
    }
}
