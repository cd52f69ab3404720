//! Delivery times: paid → claimed, claimed → delivered and paid → delivered of each delivered
//! order, their median and 90th percentile per day and per member of staff, and the shop's
//! promise ("usually under N minutes"): the 75th percentile of paid → delivered over the last
//! 7 days rounded up to 5 minutes, or the configured default while fewer than
//! [`PROMISE_MIN_SAMPLES`] orders were delivered in those 7 days.

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, NaiveDate, Utc};

/// Deliveries in the last 7 days below which the promise is the configured default.
pub const PROMISE_MIN_SAMPLES: usize = 10;
/// The window the promise is measured over.
pub const PROMISE_WINDOW_DAYS: i64 = 7;

/// The three durations measured per order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryStep {
    PaidToClaimed,
    ClaimedToDelivered,
    PaidToDelivered,
}

impl DeliveryStep {
    pub const ALL: [DeliveryStep; 3] = [
        DeliveryStep::PaidToClaimed,
        DeliveryStep::ClaimedToDelivered,
        DeliveryStep::PaidToDelivered,
    ];

    /// As `/metrics` labels it.
    pub fn as_str(&self) -> &'static str {
        match self {
            DeliveryStep::PaidToClaimed => "paid_to_claimed",
            DeliveryStep::ClaimedToDelivered => "claimed_to_delivered",
            DeliveryStep::PaidToDelivered => "paid_to_delivered",
        }
    }
}

/// One delivered order's times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveredOrder {
    pub paid_at: DateTime<Utc>,
    /// The claim the delivery was made under (every delivery has one since the handoff; older
    /// deliveries may lack it).
    pub claimed_at: Option<DateTime<Utc>>,
    pub delivered_at: DateTime<Utc>,
    /// Who delivered it (`None`: an account deleted since, or an old delivery).
    pub staff_name: Option<String>,
}

impl DeliveredOrder {
    /// The step's duration in whole seconds (never negative); `None` when a time is missing.
    pub fn seconds(&self, step: DeliveryStep) -> Option<i64> {
        let (from, to) = match step {
            DeliveryStep::PaidToClaimed => (self.paid_at, self.claimed_at?),
            DeliveryStep::ClaimedToDelivered => (self.claimed_at?, self.delivered_at),
            DeliveryStep::PaidToDelivered => (self.paid_at, self.delivered_at),
        };
        Some((to - from).num_seconds().max(0))
    }
}

/// The nearest-rank percentile `p` (0 < p ≤ 100) of `values`; `None` when empty.
pub fn percentile(values: &[i64], p: u32) -> Option<i64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let rank = (u64::from(p.clamp(1, 100)) * sorted.len() as u64).div_ceil(100);
    let index = usize::try_from(rank)
        .unwrap_or(usize::MAX)
        .clamp(1, sorted.len())
        - 1;
    sorted.get(index).copied()
}

/// The shop's promise in minutes from the paid → delivered seconds of the last 7 days.
pub fn promise_minutes(paid_to_delivered: &[i64], default_minutes: u32) -> u32 {
    if paid_to_delivered.len() < PROMISE_MIN_SAMPLES {
        return default_minutes;
    }
    let p75 = percentile(paid_to_delivered, 75).unwrap_or(0);
    let minutes = (p75 + 59) / 60;
    let rounded = ((minutes + 4) / 5 * 5).max(5);
    u32::try_from(rounded).unwrap_or(u32::MAX)
}

/// Median and 90th percentile of one step, in seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Spread {
    pub median_seconds: Option<i64>,
    pub p90_seconds: Option<i64>,
}

impl Spread {
    fn of(values: &[i64]) -> Self {
        Spread {
            median_seconds: percentile(values, 50),
            p90_seconds: percentile(values, 90),
        }
    }
}

/// The three spreads of a group of deliveries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryFigures {
    pub delivered: usize,
    pub paid_to_claimed: Spread,
    pub claimed_to_delivered: Spread,
    pub paid_to_delivered: Spread,
}

impl DeliveryFigures {
    pub fn of(orders: &[&DeliveredOrder]) -> Self {
        let values = |step| {
            orders
                .iter()
                .filter_map(|o| o.seconds(step))
                .collect::<Vec<_>>()
        };
        DeliveryFigures {
            delivered: orders.len(),
            paid_to_claimed: Spread::of(&values(DeliveryStep::PaidToClaimed)),
            claimed_to_delivered: Spread::of(&values(DeliveryStep::ClaimedToDelivered)),
            paid_to_delivered: Spread::of(&values(DeliveryStep::PaidToDelivered)),
        }
    }
}

/// The dashboard's delivery section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryReport {
    pub estimate_minutes: u32,
    /// Per day of delivery (UTC), oldest first.
    pub by_day: Vec<(NaiveDate, DeliveryFigures)>,
    /// Per member of staff, by name.
    pub by_staff: Vec<(String, DeliveryFigures)>,
}

/// The days the dashboard shows.
pub const REPORT_DAYS: i64 = 30;

/// Builds the report and the promise from delivered orders.
pub fn report(
    orders: &[DeliveredOrder],
    now: DateTime<Utc>,
    default_minutes: u32,
) -> DeliveryReport {
    let week_ago = now - Duration::days(PROMISE_WINDOW_DAYS);
    let recent: Vec<i64> = orders
        .iter()
        .filter(|o| o.delivered_at >= week_ago)
        .filter_map(|o| o.seconds(DeliveryStep::PaidToDelivered))
        .collect();
    let mut days: BTreeMap<NaiveDate, Vec<&DeliveredOrder>> = BTreeMap::new();
    let mut staff: BTreeMap<String, Vec<&DeliveredOrder>> = BTreeMap::new();
    for order in orders {
        days.entry(order.delivered_at.date_naive())
            .or_default()
            .push(order);
        if let Some(name) = &order.staff_name {
            staff.entry(name.clone()).or_default().push(order);
        }
    }
    DeliveryReport {
        estimate_minutes: promise_minutes(&recent, default_minutes),
        by_day: days
            .into_iter()
            .map(|(day, orders)| (day, DeliveryFigures::of(&orders)))
            .collect(),
        by_staff: staff
            .into_iter()
            .map(|(name, orders)| (name, DeliveryFigures::of(&orders)))
            .collect(),
    }
}

/// The deliveries the times' tests measure (the model and the service).
#[cfg(test)]
pub(crate) mod fixtures {
    use chrono::TimeZone;

    use super::*;

    pub(crate) fn at(day: u32, minute: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, day, 12, minute, 0).unwrap()
    }

    pub(crate) fn delivered(
        day: u32,
        claim_after: u32,
        deliver_after: u32,
        staff: &str,
    ) -> DeliveredOrder {
        DeliveredOrder {
            paid_at: at(day, 0),
            claimed_at: Some(at(day, claim_after)),
            delivered_at: at(day, deliver_after),
            staff_name: Some(staff.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{at, delivered};
    use super::*;

    #[test]
    fn percentiles_take_the_nearest_rank() {
        let values = [5, 1, 4, 2, 3];
        assert_eq!(percentile(&values, 50), Some(3));
        assert_eq!(percentile(&values, 90), Some(5));
        assert_eq!(percentile(&values, 20), Some(1));
        assert_eq!(percentile(&[], 50), None);
        assert_eq!(percentile(&[7], 90), Some(7));
    }

    #[test]
    fn the_promise_is_the_default_until_ten_deliveries_then_their_p75_rounded_up_to_5() {
        let nine = vec![60; 9];
        assert_eq!(promise_minutes(&nine, 10), 10);
        // 10 deliveries: 1..=10 minutes; p75 is the 8th: 8 minutes -> 10
        let ten: Vec<i64> = (1..=10).map(|m| m * 60).collect();
        assert_eq!(promise_minutes(&ten, 30), 10);
        // 16 min 1 s -> 17 whole minutes -> 20
        assert_eq!(promise_minutes(&[16 * 60 + 1; 12], 10), 20);
        // fast deliveries never promise under 5 minutes
        assert_eq!(promise_minutes(&[10; 12], 10), 5);
    }

    #[test]
    fn the_report_groups_by_day_and_staff_and_measures_the_last_week_only_for_the_promise() {
        let now = at(26, 30);
        let mut orders = vec![
            delivered(25, 2, 12, "Ann"),
            delivered(25, 4, 6, "Bo"),
            delivered(26, 1, 21, "Ann"),
        ];
        // eleven old deliveries of an hour each: outside the week, they do not move the promise
        orders.extend((0..11).map(|_| DeliveredOrder {
            paid_at: at(10, 0),
            claimed_at: None,
            delivered_at: at(10, 0) + Duration::hours(1),
            staff_name: None,
        }));
        let report = report(&orders, now, 10);
        assert_eq!(report.estimate_minutes, 10);
        assert_eq!(report.by_day.len(), 3);
        let (day, figures) = &report.by_day[1];
        assert_eq!(day.to_string(), "2026-11-25");
        assert_eq!(figures.delivered, 2);
        assert_eq!(figures.paid_to_claimed.median_seconds, Some(120));
        assert_eq!(figures.paid_to_claimed.p90_seconds, Some(240));
        assert_eq!(figures.claimed_to_delivered.median_seconds, Some(120));
        assert_eq!(figures.paid_to_delivered.p90_seconds, Some(720));
        let old = &report.by_day[0].1;
        assert_eq!(old.paid_to_claimed, Spread::default());
        assert_eq!(old.paid_to_delivered.median_seconds, Some(3600));
        let names: Vec<&str> = report.by_staff.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["Ann", "Bo"]);
        assert_eq!(report.by_staff[0].1.delivered, 2);
        assert_eq!(
            report.by_staff[0].1.paid_to_delivered.median_seconds,
            Some(720)
        );
    }
}
