//! Sales statistics added up by the database: one GROUP BY over the lines of paid and
//! delivered orders in a range of `paid_at` (indexed), bucketed by day, ISO week or month.
//! Revenue: the same orders (no lines), grouped by day and by what they paid (amount, decimals,
//! rate), so the domain converts each group once in exact decimals.

use anyhow::Context;
use chrono::{DateTime, NaiveDate, Utc};
use orders::{OrderError, OrderStatus};
use sales::{DayPayments, Granularity, Payments, PeriodSales, SalesRepository};
use sea_orm::{ConnectionTrait, DatabaseBackend, QueryResult};

use crate::sql::fetch_all;
use crate::Store;

/// The first day of the period of `paid_at`, as `YYYY-MM-DD` text, in each database's dialect
/// (UTC throughout).
fn period_start(backend: DatabaseBackend, granularity: Granularity) -> &'static str {
    match (backend, granularity) {
        (DatabaseBackend::Postgres, Granularity::Day) => {
            "to_char(o.paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
        }
        (DatabaseBackend::Postgres, Granularity::Week) => {
            "to_char(date_trunc('week', o.paid_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD')"
        }
        (DatabaseBackend::Postgres, Granularity::Month) => {
            "to_char(o.paid_at AT TIME ZONE 'UTC', 'YYYY-MM-01')"
        }
        (_, Granularity::Day) => "date(o.paid_at)",
        // to the next Sunday (or the same day), then back to that week's Monday
        (_, Granularity::Week) => "date(o.paid_at, 'weekday 0', '-6 days')",
        (_, Granularity::Month) => "strftime('%Y-%m-01', o.paid_at)",
    }
}

const COUNTED: [OrderStatus; 2] = [OrderStatus::Paid, OrderStatus::Delivered];

fn units(row: &QueryResult) -> Result<u64, OrderError> {
    let units: i64 = row.try_get("", "units").context("no units column")?;
    Ok(u64::try_from(units).unwrap_or(0))
}

/// The lines of the orders counted (their two statuses the `?`), each with its product's row
/// as `p` (its name now) where it still exists.
fn sold() -> String {
    let product = crate::products::product_join("p", "l.product_id");
    format!(
        "FROM orders o JOIN order_lines l ON l.order_id = o.id {product} WHERE o.status IN (?, ?)"
    )
}

/// The counted orders (their two statuses the `?`), without their lines.
const PAID_ORDERS: &str = "FROM orders o WHERE o.status IN (?, ?)";

/// What a row of orders that paid alike paid (columns `amount_paid`, `minor_units`, `rate`,
/// `orders`).
fn payments(row: &QueryResult) -> Result<Payments, OrderError> {
    let amount: i64 = row
        .try_get("", "amount_paid")
        .context("no amount_paid column")?;
    let minor_units: i32 = row
        .try_get("", "minor_units")
        .context("no minor_units column")?;
    let rate: String = row.try_get("", "rate").context("no rate column")?;
    let orders: i64 = row.try_get("", "orders").context("no orders column")?;
    Ok(Payments {
        amount,
        minor_units: u32::try_from(minor_units)
            .with_context(|| format!("orders with {minor_units} minor units"))?,
        rate: rate
            .trim()
            .parse()
            .with_context(|| format!("orders with a rate of {rate:?}"))?,
        orders: u64::try_from(orders).unwrap_or(0),
    })
}

impl SalesRepository for Store {
    #[tracing::instrument(skip(self))]
    async fn units_sold(
        &self,
        granularity: Granularity,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<PeriodSales>, OrderError> {
        let backend = self.db.get_database_backend();
        let sql = format!(
            "SELECT MAX(COALESCE(p.name, l.name)) AS item, {period} AS period, \
             CAST(SUM(l.quantity) AS BIGINT) AS units \
             {SOLD} AND o.paid_at >= ? AND o.paid_at < ? \
             GROUP BY l.product_id, {period}",
            period = period_start(backend, granularity),
            SOLD = sold(),
        );
        let rows = fetch_all(
            &self.db,
            &sql,
            vec![
                COUNTED[0].as_str().into(),
                COUNTED[1].as_str().into(),
                from.into(),
                to.into(),
            ],
        )
        .await
        .context("failed to add up the sales")?;
        rows.iter()
            .map(|row| {
                let item: String = row.try_get("", "item").context("no item column")?;
                let period: String = row.try_get("", "period").context("no period column")?;
                let period_start = NaiveDate::parse_from_str(&period, "%Y-%m-%d")
                    .with_context(|| format!("the database named a period {period:?}"))?;
                Ok(PeriodSales {
                    item,
                    period_start,
                    units: units(row)?,
                })
            })
            .collect()
    }

    #[tracing::instrument(skip(self))]
    async fn units_sold_overall(&self) -> Result<Vec<(String, u64)>, OrderError> {
        let rows = fetch_all(
            &self.db,
            &format!(
                "SELECT MAX(COALESCE(p.name, l.name)) AS item, \
                     CAST(SUM(l.quantity) AS BIGINT) AS units {} GROUP BY l.product_id",
                sold()
            ),
            vec![COUNTED[0].as_str().into(), COUNTED[1].as_str().into()],
        )
        .await
        .context("failed to add up the sales")?;
        rows.iter()
            .map(|row| {
                let item: String = row.try_get("", "item").context("no item column")?;
                Ok((item, units(row)?))
            })
            .collect()
    }

    #[tracing::instrument(skip(self))]
    async fn payments_by_day(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<DayPayments>, OrderError> {
        let day = period_start(self.db.get_database_backend(), Granularity::Day);
        let sql = format!(
            "SELECT {day} AS period, o.amount_paid AS amount_paid, o.minor_units AS minor_units, \
             o.rate AS rate, CAST(COUNT(*) AS BIGINT) AS orders \
             {PAID_ORDERS} AND o.paid_at >= ? AND o.paid_at < ? \
             GROUP BY {day}, o.amount_paid, o.minor_units, o.rate"
        );
        let rows = fetch_all(
            &self.db,
            &sql,
            vec![
                COUNTED[0].as_str().into(),
                COUNTED[1].as_str().into(),
                from.into(),
                to.into(),
            ],
        )
        .await
        .context("failed to add up the revenue")?;
        rows.iter()
            .map(|row| {
                let period: String = row.try_get("", "period").context("no period column")?;
                let day = NaiveDate::parse_from_str(&period, "%Y-%m-%d")
                    .with_context(|| format!("the database named a day {period:?}"))?;
                Ok(DayPayments {
                    day,
                    payments: payments(row)?,
                })
            })
            .collect()
    }

    #[tracing::instrument(skip(self))]
    async fn payments_overall(&self) -> Result<Vec<Payments>, OrderError> {
        let rows = fetch_all(
            &self.db,
            &format!(
                "SELECT o.amount_paid AS amount_paid, o.minor_units AS minor_units, \
                 o.rate AS rate, CAST(COUNT(*) AS BIGINT) AS orders \
                 {PAID_ORDERS} GROUP BY o.amount_paid, o.minor_units, o.rate"
            ),
            vec![COUNTED[0].as_str().into(), COUNTED[1].as_str().into()],
        )
        .await
        .context("failed to add up the revenue")?;
        rows.iter().map(payments).collect()
    }
}
