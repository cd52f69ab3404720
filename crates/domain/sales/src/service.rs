//! The statistics over their store and the shop clock.

use chrono::NaiveDate;
use orders::OrderError;
use shared::Clock;
use std::collections::BTreeMap;

use crate::models::{midnight, Granularity, Payments, Revenue, SalesReport, Series};
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
            revenue: self.revenue(today).await?,
        };
        for (item, units) in self.repository.units_sold_overall().await? {
            *report.overall.entry(item).or_default() += units;
        }
        Ok(report)
    }

    /// Revenue in the base currency per day of the daily window (every day present) and in all.
    async fn revenue(&self, today: NaiveDate) -> Result<Revenue, OrderError> {
        let days = Granularity::Day.window(today);
        let mut revenue = Revenue {
            daily: days
                .iter()
                .map(|day| (Granularity::Day.key(*day), 0))
                .collect(),
            overall: 0,
        };
        if let (Some(first), Some(last)) = (days.first(), days.last()) {
            let paid = self
                .repository
                .payments_by_day(midnight(*first), midnight(Granularity::Day.next(*last)))
                .await?;
            for day in paid {
                let cents = in_base_cents(&day.payments)?;
                if let Some(total) = revenue.daily.get_mut(&Granularity::Day.key(day.day)) {
                    *total = add(*total, cents)?;
                }
            }
        }
        for payments in self.repository.payments_overall().await? {
            revenue.overall = add(revenue.overall, in_base_cents(&payments)?)?;
        }
        Ok(revenue)
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

fn in_base_cents(payments: &Payments) -> Result<i64, OrderError> {
    payments.in_base_cents().ok_or_else(|| {
        OrderError::Unknown(anyhow::anyhow!(
            "orders paid {} minor units ({} decimals) at a rate of {}: not convertible",
            payments.amount,
            payments.minor_units,
            payments.rate
        ))
    })
}

fn add(total: i64, cents: i64) -> Result<i64, OrderError> {
    total
        .checked_add(cents)
        .ok_or_else(|| OrderError::Unknown(anyhow::anyhow!("the revenue is past what cents count")))
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
        repo.expect_payments_by_day()
            .returning(|_, _| Box::pin(async { Ok(vec![]) }));
        repo.expect_payments_overall()
            .returning(|| Box::pin(async { Ok(vec![]) }));
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

    fn paid(amount: i64, minor_units: u32, rate: &str, orders: u64) -> Payments {
        Payments {
            amount,
            minor_units,
            rate: rate.parse().unwrap(),
            orders,
        }
    }

    #[test]
    fn each_order_comes_back_at_its_own_rate_rounded_half_up_to_the_cent() {
        // R$ 57.43 at 5.34144 reais per dollar: 10.7517... dollars
        assert_eq!(paid(5743, 2, "5.34144", 1).in_base_cents(), Some(1075));
        // an exact tie goes up (banker's rounding would give 5.02)
        assert_eq!(paid(1005, 2, "2", 1).in_base_cents(), Some(503));
        // rounded order by order, then added: 3 x 0.005 is 3 cents, not 2
        assert_eq!(paid(1, 2, "2", 3).in_base_cents(), Some(3));
        // a zero-decimal currency
        assert_eq!(paid(750, 0, "150", 2).in_base_cents(), Some(1000));
        // the base currency itself
        assert_eq!(paid(2000, 2, "1", 4).in_base_cents(), Some(8000));
        assert_eq!(paid(2000, 2, "0", 1).in_base_cents(), None);
        assert_eq!(paid(2000, 2, "-1.5", 1).in_base_cents(), None);
    }

    #[tokio::test]
    async fn revenue_adds_each_day_and_every_order_in_the_base_currency() {
        let clock = FixedClock(Utc.with_ymd_and_hms(2026, 11, 21, 15, 30, 0).unwrap());
        let mut repo = MockSalesRepository::new();
        repo.expect_units_sold()
            .returning(|_, _, _| Box::pin(async { Ok(vec![]) }));
        repo.expect_units_sold_overall()
            .returning(|| Box::pin(async { Ok(vec![]) }));
        repo.expect_payments_by_day()
            .times(1)
            .returning(|from, to| {
                assert_eq!(
                    (from, to),
                    (midnight(day(2026, 10, 23)), midnight(day(2026, 11, 22)))
                );
                Box::pin(async {
                    Ok(vec![
                        DayPayments {
                            day: day(2026, 11, 20),
                            payments: paid(2665, 2, "1", 2),
                        },
                        DayPayments {
                            day: day(2026, 11, 20),
                            payments: paid(5743, 2, "5.34144", 1),
                        },
                        DayPayments {
                            day: day(2026, 11, 21),
                            payments: paid(1005, 2, "2", 1),
                        },
                    ])
                })
            });
        repo.expect_payments_overall().times(1).returning(|| {
            Box::pin(async {
                Ok(vec![
                    paid(2665, 2, "1", 3),
                    paid(5743, 2, "5.34144", 1),
                    paid(1005, 2, "2", 1),
                    paid(12345, 2, "4.12345", 1),
                ])
            })
        });
        let revenue = SalesStatistics::new(repo, clock)
            .report()
            .await
            .unwrap()
            .revenue;

        assert_eq!(revenue.daily.len(), 30);
        assert_eq!(revenue.daily["2026-11-20"], 2 * 2665 + 1075);
        assert_eq!(revenue.daily["2026-11-21"], 503);
        assert_eq!(revenue.daily["2026-10-23"], 0);
        assert_eq!(revenue.daily.values().sum::<i64>(), 2 * 2665 + 1075 + 503);
        assert_eq!(revenue.overall, 3 * 2665 + 1075 + 503 + 2994);
    }

    #[tokio::test]
    async fn an_order_with_a_rate_that_cannot_convert_fails_the_report() {
        let clock = FixedClock(Utc.with_ymd_and_hms(2026, 11, 21, 15, 30, 0).unwrap());
        let mut repo = MockSalesRepository::new();
        repo.expect_units_sold()
            .returning(|_, _, _| Box::pin(async { Ok(vec![]) }));
        repo.expect_units_sold_overall()
            .returning(|| Box::pin(async { Ok(vec![]) }));
        repo.expect_payments_by_day()
            .returning(|_, _| Box::pin(async { Ok(vec![]) }));
        repo.expect_payments_overall()
            .returning(|| Box::pin(async { Ok(vec![paid(100, 2, "0", 1)]) }));
        let result = SalesStatistics::new(repo, clock).report().await;
        assert!(matches!(result, Err(OrderError::Unknown(_))));
    }
}
