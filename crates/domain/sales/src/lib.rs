//! Sales statistics for the dashboard: units sold per item by day, ISO week and month, and in
//! all, from paid and delivered orders.

mod stats;

pub use stats::{
    Granularity, PeriodSales, SalesReport, SalesRepository, SalesStatistics, Series, DAYS, MONTHS,
    WEEKS,
};
