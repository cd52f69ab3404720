//! The sales report's windows, periods and series.

use chrono::{DateTime, Datelike, Days, Months, NaiveDate, NaiveTime, Utc};
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
