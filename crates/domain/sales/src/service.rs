//! The statistics over their store and the shop clock.

use chrono::NaiveDate;
use orders::OrderError;
use shared::Clock;
use std::collections::BTreeMap;

use crate::models::{midnight, Granularity, SalesReport, Series};
use crate::ports::SalesRepository;

/// The dashboard's statistics over the store and a clock.
#[derive(Debug, Clone)]
pub struct SalesStatistics<R, C> {
    repository: R,
    clock: C,
}

impl<R: SalesRepository, C: Clock> SalesStatistics<R, C> {
    pub fn new(repository: R, clock: C) -> Self {
        SalesStatistics { repository, clock }
    }

    /// Daily, weekly and monthly series up to today (UTC), and the totals.
    #[tracing::instrument(skip(self))]
    pub async fn report(&self) -> Result<SalesReport, OrderError> {
        let today = self.clock.now().date_naive();
        let mut report = SalesReport {
            daily: self.series(Granularity::Day, today).await?,
            weekly: self.series(Granularity::Week, today).await?,
            monthly: self.series(Granularity::Month, today).await?,
            overall: BTreeMap::new(),
        };
        for (item, units) in self.repository.units_sold_overall().await? {
            *report.overall.entry(item).or_default() += units;
        }
        Ok(report)
    }

    /// Every item sold in the window, with every period of the window (0 when none sold).
    async fn series(
        &self,
        granularity: Granularity,
        today: NaiveDate,
    ) -> Result<Series, OrderError> {
        let periods = granularity.window(today);
        let (Some(first), Some(last)) = (periods.first(), periods.last()) else {
            return Ok(Series::new());
        };
        let empty: BTreeMap<String, u64> = periods
            .iter()
            .map(|start| (granularity.key(*start), 0))
            .collect();
        let sold = self
            .repository
            .units_sold(
                granularity,
                midnight(*first),
                midnight(granularity.next(*last)),
            )
            .await?;
        let mut series = Series::new();
        for sale in sold {
            let key = granularity.key(granularity.start_of(sale.period_start));
            let counts = series.entry(sale.item).or_insert_with(|| empty.clone());
            if let Some(units) = counts.get_mut(&key) {
                *units += sale.units;
            }
        }
        Ok(series)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::*;
    use chrono::TimeZone;
    use chrono::Utc;
    use shared::FixedClock;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn periods_are_named_like_the_dashboard_expects() {
        assert_eq!(Granularity::Day.key(day(2026, 11, 1)), "2026-11-01");
        assert_eq!(Granularity::Week.key(day(2026, 11, 16)), "2026-W47");
        assert_eq!(Granularity::Month.key(day(2026, 2, 1)), "2026-02");
        // 2027-01-01 is a Friday of ISO week 53 of 2026.
        assert_eq!(Granularity::Week.key(day(2027, 1, 1)), "2026-W53");
        assert_eq!(
            Granularity::Week.start_of(day(2026, 11, 22)),
            day(2026, 11, 16)
        );
        assert_eq!(
            Granularity::Month.start_of(day(2026, 11, 22)),
            day(2026, 11, 1)
        );
    }

    #[test]
    fn windows_end_with_the_current_period_and_have_the_right_length() {
        let today = day(2026, 11, 21); // a Saturday
        let days = Granularity::Day.window(today);
        assert_eq!(
            (days.len(), days[0], days[29]),
            (30, day(2026, 10, 23), today)
        );
        let weeks = Granularity::Week.window(today);
        assert_eq!(
            (weeks.len(), weeks[0], weeks[11]),
            (12, day(2026, 8, 31), day(2026, 11, 16))
        );
        let months = Granularity::Month.window(today);
        assert_eq!(
            (months.len(), months[0], months[11]),
            (12, day(2025, 12, 1), day(2026, 11, 1))
        );
    }

    #[tokio::test]
    async fn the_report_fills_every_period_and_adds_up_items_of_the_same_name() {
        let clock = FixedClock(Utc.with_ymd_and_hms(2026, 11, 21, 15, 30, 0).unwrap());
        let mut repo = MockSalesRepository::new();
        repo.expect_units_sold().returning(|granularity, from, to| {
            let expected_from = match granularity {
                Granularity::Day => day(2026, 10, 23),
                Granularity::Week => day(2026, 8, 31),
                Granularity::Month => day(2025, 12, 1),
            };
            let expected_to = match granularity {
                Granularity::Day => day(2026, 11, 22),
                Granularity::Week => day(2026, 11, 23),
                Granularity::Month => day(2026, 12, 1),
            };
            assert_eq!((from, to), (midnight(expected_from), midnight(expected_to)));
            let start = granularity.start_of(day(2026, 11, 20));
            Box::pin(async move {
                Ok(vec![
                    PeriodSales {
                        item: "Raccoon".into(),
                        period_start: start,
                        units: 2,
                    },
                    // another product with the same name: one line on the chart
                    PeriodSales {
                        item: "Raccoon".into(),
                        period_start: start,
                        units: 1,
                    },
                ])
            })
        });
        repo.expect_units_sold_overall()
            .returning(|| Box::pin(async { Ok(vec![("Raccoon".into(), 3), ("Owl".into(), 9)]) }));
        let report = SalesStatistics::new(repo, clock).report().await.unwrap();

        let daily = &report.daily["Raccoon"];
        assert_eq!(daily.len(), 30);
        assert_eq!(daily["2026-11-20"], 3);
        assert_eq!(daily["2026-11-21"], 0);
        assert_eq!(daily.values().sum::<u64>(), 3);
        assert_eq!(report.weekly["Raccoon"].len(), 12);
        assert_eq!(report.weekly["Raccoon"]["2026-W47"], 3);
        assert_eq!(report.monthly["Raccoon"]["2026-11"], 3);
        assert_eq!(report.monthly["Raccoon"]["2025-12"], 0);
        assert!(
            !report.daily.contains_key("Owl"),
            "no sales in the window: no line"
        );
        assert_eq!(report.overall["Owl"], 9);
        assert_eq!(report.overall["Raccoon"], 3);
    }
}
