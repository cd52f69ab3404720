//! Sales statistics for the dashboard: units sold per item, by day (the last 30 days), by ISO
//! week (the last 12) and by month (the last 12), every period present (0 when nothing sold),
//! and in all. Only paid and delivered orders count. The store adds the units up (GROUP BY over
//! the orders' payment time); this module chooses the windows and names the periods.
//!
//! Revenue, per day of the daily window and in all, in the base currency: the same orders (paid
//! and delivered; refunded and disputed ones are not revenue), each one's amount paid converted
//! back at its own rate and rounded half-up to the cent, then added up. The store groups the
//! orders that paid alike; the conversion is here, in exact decimals.

mod models;
mod ports;
mod service;

pub use models::{
    DayPayments, Granularity, Payments, PeriodSales, Revenue, SalesReport, Series, BASE_DECIMALS,
    DAYS, MONTHS, WEEKS,
};
#[cfg(test)]
pub use ports::MockSalesRepository;
pub use ports::SalesRepository;
pub use service::SalesStatistics;
