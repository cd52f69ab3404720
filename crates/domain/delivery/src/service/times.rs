//! Delivery times as a service: the dashboard's figures over the last [`REPORT_DAYS`] days,
//! read from where delivered orders are kept, up to the shop's clock.

use chrono::{DateTime, Duration, Utc};
use orders::OrderError;

use crate::models::{report, DeliveryReport, REPORT_DAYS};
use crate::ports::DeliveryTimesRepository;

/// The dashboard's delivery figures over the last [`REPORT_DAYS`] days.
pub async fn last_month<R: DeliveryTimesRepository>(
    repository: &R,
    now: DateTime<Utc>,
    default_minutes: u32,
) -> Result<DeliveryReport, OrderError> {
    let orders = repository
        .delivered_since(now - Duration::days(REPORT_DAYS))
        .await?;
    Ok(report(&orders, now, default_minutes))
}

/// The dashboard's delivery figures as a service: where the times are read, and the shop's
/// clock.
#[derive(Debug, Clone)]
pub struct DeliveryTimes<R, C> {
    repository: R,
    clock: C,
}

impl<R: DeliveryTimesRepository, C: shared::Clock> DeliveryTimes<R, C> {
    pub fn new(repository: R, clock: C) -> Self {
        DeliveryTimes { repository, clock }
    }

    /// The figures of the last [`REPORT_DAYS`] days up to now, with the promise
    /// (`default_minutes` under [`PROMISE_MIN_SAMPLES`](crate::PROMISE_MIN_SAMPLES) deliveries in the last week).
    pub async fn last_month(&self, default_minutes: u32) -> Result<DeliveryReport, OrderError> {
        last_month(&self.repository, self.clock.now(), default_minutes).await
    }
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::models::times_fixtures::{at, delivered};
    use crate::ports::MockDeliveryTimesRepository;

    #[tokio::test]
    async fn the_service_reads_the_last_30_days_up_to_the_shops_clock() {
        let now = at(26, 30);
        let mut repository = MockDeliveryTimesRepository::new();
        repository
            .expect_delivered_since()
            .withf(move |since| *since == now - Duration::days(REPORT_DAYS))
            .times(1)
            .returning(|_| Box::pin(async { Ok(vec![delivered(26, 5, 20, "Ann")]) }));
        let times = DeliveryTimes::new(repository, shared::FixedClock(now));
        let report = times.last_month(15).await.unwrap();
        assert_eq!(
            report,
            super::report(&[delivered(26, 5, 20, "Ann")], now, 15)
        );
    }
}
