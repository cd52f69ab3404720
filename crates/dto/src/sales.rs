//! The Sales Dashboard's numbers (`GET /api/admin/sales-stats`) as the API sends them.

use std::collections::BTreeMap;

use delivery::{DeliveryReport, Spread};
use serde::Serialize;
use utoipa::ToSchema;

/// The Sales Dashboard's numbers: units sold per item, by period. Every period of each chart is
/// present for every item, 0 when nothing sold; paid and delivered orders only. (The fields are
/// in alphabetical order, as the answer has always written them.)
#[derive(Serialize, ToSchema)]
pub struct SalesStats {
    /// Item name -> day (`2026-11-21`) -> units.
    #[schema(example = json!({"Golden Raccoon": {"2026-11-20": 0, "2026-11-21": 3}}))]
    pub daily: BTreeMap<String, BTreeMap<String, u64>>,
    /// Item name -> month (`2026-11`) -> units.
    #[schema(example = json!({"Golden Raccoon": {"2026-10": 0, "2026-11": 4}}))]
    pub monthly: BTreeMap<String, BTreeMap<String, u64>>,
    /// Item name -> units ever sold.
    #[schema(example = json!({"Golden Raccoon": 4}))]
    pub overall: BTreeMap<String, u64>,
    /// Item name -> ISO week (`2026-W47`) -> units.
    #[schema(example = json!({"Golden Raccoon": {"2026-W46": 1, "2026-W47": 3}}))]
    pub weekly: BTreeMap<String, BTreeMap<String, u64>>,
    /// Delivery times of the last 30 days and the shop's promise.
    pub delivery: DeliveryStats,
    /// Disputes so far, and the dispute rate of the last 30 days against the warning line.
    pub disputes: DisputeStats,
    /// What the same orders brought in, in the base currency.
    pub revenue: RevenueStats,
}

/// Revenue in the base currency: each paid or delivered order's amount paid converted back at
/// its own rate (amount paid / rate), rounded half-up to the cent order by order, then added up.
/// Refunded and disputed orders are not counted, as in the units.
#[derive(Serialize, ToSchema)]
pub struct RevenueStats {
    /// Day of payment (UTC, `2026-11-21`) -> revenue; every day of the daily chart present, 0
    /// without orders.
    #[schema(example = json!({"2026-11-20": 0, "2026-11-21": 64.05}))]
    pub daily: BTreeMap<String, f64>,
    /// Every counted order ever.
    #[schema(example = 1234.5)]
    pub overall: f64,
    /// The base currency the amounts are in (`currency.base`).
    #[schema(example = "USD")]
    pub currency: String,
}

impl RevenueStats {
    /// Revenue in cents of the base currency `currency` (which has cents: the currency policy
    /// refuses a base without them): per day and overall.
    pub fn new(daily_cents: BTreeMap<String, i64>, overall_cents: i64, currency: String) -> Self {
        RevenueStats {
            daily: daily_cents
                .into_iter()
                .map(|(day, cents)| (day, crate::cents_in_dollars(cents)))
                .collect(),
            overall: crate::cents_in_dollars(overall_cents),
            currency,
        }
    }
}

/// The disputes an owner watches: a shop whose dispute rate passes the card networks' lines
/// loses its payment account.
#[derive(Serialize, ToSchema)]
pub struct DisputeStats {
    /// Every dispute ever opened, and how they ended (pending: no outcome yet).
    #[schema(example = 3)]
    opened: u64,
    won: u64,
    lost: u64,
    pending: u64,
    /// The money lost to disputes, in the shop's currency.
    #[schema(example = 12.5)]
    lost_amount: f64,
    /// The days the rate counts back.
    #[schema(example = 30)]
    window_days: i64,
    /// Disputes opened and orders paid in the window.
    opened_in_window: u64,
    paid_in_window: u64,
    /// Disputes per paid order in the window, in percent; null without paid orders.
    #[schema(required = true, example = 0.4)]
    rate_percent: Option<f64>,
    /// `disputes.warn_rate_percent`: the line the dashboard warns at.
    #[schema(example = 0.75)]
    warn_rate_percent: f64,
    /// The rate is at or over the line.
    over_warning: bool,
}

impl From<disputes::DisputeFigures> for DisputeStats {
    fn from(figures: disputes::DisputeFigures) -> Self {
        let counts = figures.counts;
        DisputeStats {
            opened: counts.opened,
            won: counts.won,
            lost: counts.lost,
            pending: counts.pending,
            lost_amount: crate::cents_in_dollars(counts.lost_minor),
            window_days: disputes::RATE_WINDOW_DAYS,
            opened_in_window: counts.opened_in_window,
            paid_in_window: counts.paid_in_window,
            rate_percent: figures.rate_percent,
            warn_rate_percent: figures.warn_rate_percent,
            over_warning: figures.over_warning,
        }
    }
}

/// The median and 90th percentile of one step, in seconds (null without deliveries).
#[derive(Serialize, ToSchema)]
pub struct SpreadJson {
    #[schema(required = true, example = 240)]
    median_seconds: Option<i64>,
    #[schema(required = true, example = 600)]
    p90_seconds: Option<i64>,
}

impl From<Spread> for SpreadJson {
    fn from(spread: Spread) -> Self {
        SpreadJson {
            median_seconds: spread.median_seconds,
            p90_seconds: spread.p90_seconds,
        }
    }
}

/// One day's deliveries.
#[derive(Serialize, ToSchema)]
pub struct DeliveryDay {
    /// The day of delivery (UTC).
    #[schema(example = "2026-11-26")]
    date: String,
    delivered: usize,
    paid_to_claimed: SpreadJson,
    claimed_to_delivered: SpreadJson,
    paid_to_delivered: SpreadJson,
}

/// One member of staff's deliveries.
#[derive(Serialize, ToSchema)]
pub struct DeliveryStaff {
    #[schema(example = "Ann")]
    staff_name: String,
    delivered: usize,
    paid_to_claimed: SpreadJson,
    claimed_to_delivered: SpreadJson,
    paid_to_delivered: SpreadJson,
}

/// Delivery times of the last 30 days: per day (oldest first) and per member of staff.
#[derive(Serialize, ToSchema)]
pub struct DeliveryStats {
    /// The promise: "usually under N minutes".
    #[schema(example = 10)]
    estimate_minutes: u32,
    by_day: Vec<DeliveryDay>,
    by_staff: Vec<DeliveryStaff>,
}

impl From<DeliveryReport> for DeliveryStats {
    fn from(report: DeliveryReport) -> Self {
        DeliveryStats {
            estimate_minutes: report.estimate_minutes,
            by_day: report
                .by_day
                .into_iter()
                .map(|(day, f)| DeliveryDay {
                    date: day.to_string(),
                    delivered: f.delivered,
                    paid_to_claimed: f.paid_to_claimed.into(),
                    claimed_to_delivered: f.claimed_to_delivered.into(),
                    paid_to_delivered: f.paid_to_delivered.into(),
                })
                .collect(),
            by_staff: report
                .by_staff
                .into_iter()
                .map(|(name, f)| DeliveryStaff {
                    staff_name: name,
                    delivered: f.delivered,
                    paid_to_claimed: f.paid_to_claimed.into(),
                    claimed_to_delivered: f.claimed_to_delivered.into(),
                    paid_to_delivered: f.paid_to_delivered.into(),
                })
                .collect(),
        }
    }
}
