//! Where the units sold are added up.

use chrono::{DateTime, Utc};
use orders::OrderError;
use std::future::Future;

use crate::models::{DayPayments, Granularity, Payments, PeriodSales};

/// Where the sold units are added up.
#[cfg_attr(test, mockall::automock)]
pub trait SalesRepository: Send + Sync + 'static {
    /// Units per product and period of the lines of orders that are paid or delivered and were
    /// paid in `[from, to)` (UTC), added up by the database. One entry per product and period
    /// with sales; fails only with `OrderError::Unknown`.
    fn units_sold(
        &self,
        granularity: Granularity,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> impl Future<Output = Result<Vec<PeriodSales>, OrderError>> + Send;

    /// Units per product of every paid or delivered order ever, as (item, units).
    fn units_sold_overall(
        &self,
    ) -> impl Future<Output = Result<Vec<(String, u64)>, OrderError>> + Send;

    /// What the orders that are paid or delivered and were paid in `[from, to)` (UTC) paid,
    /// one entry per day of payment (UTC) and alike amount, decimals and rate, with how many
    /// orders paid it; fails only with `OrderError::Unknown`.
    fn payments_by_day(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> impl Future<Output = Result<Vec<DayPayments>, OrderError>> + Send;

    /// What every paid or delivered order ever paid, one entry per alike amount, decimals and
    /// rate; fails only with `OrderError::Unknown`.
    fn payments_overall(&self) -> impl Future<Output = Result<Vec<Payments>, OrderError>> + Send;
}
