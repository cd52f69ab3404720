//! The sales report's windows, periods and series.

use chrono::{DateTime, Datelike, Days, Months, NaiveDate, NaiveTime, Utc};
use rust_decimal::{Decimal, RoundingStrategy};
use std::collections::BTreeMap;

/// Days in the daily chart, today included.
pub const DAYS: u32 = 30;

/// ISO weeks in the weekly chart, this one included.
pub const WEEKS: u32 = 12;

/// Months in the monthly chart, this one included.
pub const MONTHS: u32 = 12;

/// How sales are bucketed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Granularity {
    Day,
    /// ISO weeks, Monday to Sunday.
    Week,
    Month,
}

/// Units of one item sold in one period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeriodSales {
    /// The product's current name (its name on the order when the product is gone).
    pub item: String,
    /// The period's first day: the day itself, the week's Monday, the month's first.
    pub period_start: NaiveDate,
    pub units: u64,
}

/// Item name -> period key -> units.
pub type Series = BTreeMap<String, BTreeMap<String, u64>>;

/// The dashboard's numbers in the spec's shape.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SalesReport {
    /// Keys `2026-11-21`.
    pub daily: Series,
    /// Keys `2026-W47` (ISO week-numbering year and week).
    pub weekly: Series,
    /// Keys `2026-11`.
    pub monthly: Series,
    /// Item name -> units ever sold.
    pub overall: BTreeMap<String, u64>,
    /// What the counted orders brought in, in the base currency.
    pub revenue: Revenue,
}

/// The base currency's decimals: the shop's currency policy refuses a base without cents.
pub const BASE_DECIMALS: u32 = 2;

/// What orders paid alike paid: `orders` orders each paid `amount` minor units of a currency
/// with `minor_units` decimals, at `rate` units of that currency per unit of the base currency
/// (the order's own rate, kept from its checkout).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payments {
    pub amount: i64,
    pub minor_units: u32,
    pub rate: Decimal,
    pub orders: u64,
}

/// The payments of orders paid on one day (UTC).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayPayments {
    pub day: NaiveDate,
    pub payments: Payments,
}

/// Revenue in cents of the base currency: each order's amount paid at its own rate, rounded
/// half-up to the cent order by order, then added up.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Revenue {
    /// Day (`2026-11-21`) -> cents; every day of the daily window present, 0 without orders.
    pub daily: BTreeMap<String, i64>,
    /// Every counted order ever.
    pub overall: i64,
}

impl Payments {
    /// Their amount back in the base currency, in its cents: one order's amount divided by its
    /// rate, rounded half-up to the cent, times the orders. `None` for a rate that is not
    /// positive or an amount past what cents can count.
    pub fn in_base_cents(&self) -> Option<i64> {
        if self.rate <= Decimal::ZERO {
            return None;
        }
        let paid = Decimal::try_new(self.amount, self.minor_units).ok()?;
        let mut one = paid
            .checked_div(self.rate)?
            .round_dp_with_strategy(BASE_DECIMALS, RoundingStrategy::MidpointAwayFromZero);
        one.rescale(BASE_DECIMALS);
        let cents = i64::try_from(one.mantissa()).ok()?;
        cents.checked_mul(i64::try_from(self.orders).ok()?)
    }
}

impl Granularity {
    /// The period's name as the dashboard shows it.
    pub fn key(&self, start: NaiveDate) -> String {
        match self {
            Granularity::Day => start.format("%Y-%m-%d").to_string(),
            Granularity::Week => {
                let week = start.iso_week();
                format!("{}-W{:02}", week.year(), week.week())
            }
            Granularity::Month => format!("{}-{:02}", start.year(), start.month()),
        }
    }

    /// The first day of the period `day` falls in.
    pub fn start_of(&self, day: NaiveDate) -> NaiveDate {
        match self {
            Granularity::Day => day,
            Granularity::Week => day - Days::new(u64::from(day.weekday().num_days_from_monday())),
            Granularity::Month => day.with_day(1).unwrap_or(day),
        }
    }

    pub(crate) fn next(&self, start: NaiveDate) -> NaiveDate {
        match self {
            Granularity::Day => start + Days::new(1),
            Granularity::Week => start + Days::new(7),
            Granularity::Month => start + Months::new(1),
        }
    }

    fn count(&self) -> u32 {
        match self {
            Granularity::Day => DAYS,
            Granularity::Week => WEEKS,
            Granularity::Month => MONTHS,
        }
    }

    /// The chart's periods ending with the one `today` is in, oldest first, as start days.
    pub fn window(&self, today: NaiveDate) -> Vec<NaiveDate> {
        let last = self.start_of(today);
        let back = self.count().saturating_sub(1);
        let first = match self {
            Granularity::Day => last - Days::new(u64::from(back)),
            Granularity::Week => last - Days::new(7 * u64::from(back)),
            Granularity::Month => last - Months::new(back),
        };
        let mut periods = Vec::with_capacity(self.count() as usize);
        let mut start = first;
        while start <= last {
            periods.push(start);
            start = self.next(start);
        }
        periods
    }
}

pub(crate) fn midnight(day: NaiveDate) -> DateTime<Utc> {
    day.and_time(NaiveTime::MIN).and_utc()
}
