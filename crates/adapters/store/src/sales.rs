//! Sales statistics added up by the database: one GROUP BY over the lines of paid and
//! delivered orders in a range of `paid_at` (indexed), bucketed by day, ISO week or month.

use anyhow::Context;
use chrono::{DateTime, NaiveDate, Utc};
use orders::{OrderError, OrderStatus};
use sales::{Granularity, PeriodSales, SalesRepository};
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
}
