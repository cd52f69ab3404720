//! Where the units sold are added up.

use chrono::{DateTime, Utc};
use orders::OrderError;
use std::future::Future;

use crate::models::{Granularity, PeriodSales};

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
}
