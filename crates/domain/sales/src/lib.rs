//! Sales statistics for the dashboard: units sold per item, by day (the last 30 days), by ISO
//! week (the last 12) and by month (the last 12), every period present (0 when nothing sold),
//! and in all. Only paid and delivered orders count. The store adds the units up (GROUP BY over
//! the orders' payment time); this module chooses the windows and names the periods.

mod models;
mod ports;
mod service;

pub use models::{Granularity, PeriodSales, SalesReport, Series, DAYS, MONTHS, WEEKS};
#[cfg(test)]
pub use ports::MockSalesRepository;
pub use ports::SalesRepository;
pub use service::SalesStatistics;
