//! The day's exchange rates (`exchange_rates`, one row per currency, rates against the euro)
//! and the daily fetch's turn (`exchange_rate_fetch`, one row): an instance leases the fetch
//! with a conditional update that moves its due time to the lease's end, so of every instance
//! one fetches; the others see it due again only once the lease has run out.

use std::collections::BTreeMap;

use anyhow::Context;
use cart_pricing::{CurrencyCode, Decimal, ReferenceRates};
use chrono::{DateTime, NaiveDate, Utc};
use sea_orm::TransactionTrait;

use crate::sql::{fetch_all, run};
use crate::Store;

impl Store {
    /// The rates last stored, if any.
    pub async fn exchange_rates(&self) -> anyhow::Result<Option<ReferenceRates>> {
        let rows = fetch_all(
            &self.db,
            "SELECT currency, per_euro, as_of, sample FROM exchange_rates ORDER BY currency",
            vec![],
        )
        .await
        .context("failed to read the exchange rates")?;
        let mut per_euro = BTreeMap::new();
        let mut day: Option<(NaiveDate, bool)> = None;
        for row in rows {
            let currency: String = row.try_get("", "currency")?;
            let rate: String = row.try_get("", "per_euro")?;
            let code: CurrencyCode = currency
                .parse()
                .with_context(|| format!("bad stored currency {currency:?}"))?;
            let rate: Decimal = rate
                .parse()
                .with_context(|| format!("bad stored rate of {currency}"))?;
            per_euro.insert(code, rate);
            day = Some((row.try_get("", "as_of")?, row.try_get("", "sample")?));
        }
        Ok(day.map(|(as_of, sample)| ReferenceRates {
            as_of,
            sample,
            per_euro,
        }))
    }

    /// Replaces the stored rates with `rates`, at once.
    pub async fn save_exchange_rates(
        &self,
        rates: &ReferenceRates,
        fetched_at: DateTime<Utc>,
    ) -> anyhow::Result<()> {
        let txn = self.db.begin().await?;
        run(&txn, "DELETE FROM exchange_rates", vec![]).await?;
        for (code, rate) in &rates.per_euro {
            run(
                &txn,
                "INSERT INTO exchange_rates (currency, per_euro, as_of, sample, fetched_at) \
                 VALUES (?, ?, ?, ?, ?)",
                vec![
                    code.as_str().into(),
                    rate.normalize().to_string().into(),
                    rates.as_of.into(),
                    rates.sample.into(),
                    fetched_at.into(),
                ],
            )
            .await?;
        }
        txn.commit()
            .await
            .context("failed to store the exchange rates")
    }

    /// Whether this instance takes the fetch due at `now`; the lease runs `until`.
    pub async fn lease_rate_fetch(
        &self,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
    ) -> anyhow::Result<bool> {
        let leased = self
            .execute(
                "UPDATE exchange_rate_fetch SET due_at = ? WHERE id = 1 AND due_at <= ?",
                vec![until.into(), now.into()],
                "lease the exchange rates' fetch",
            )
            .await?;
        Ok(leased == 1)
    }

    /// The fetch ended: the next one is due at `next`; `error` says why it failed, if it did.
    pub async fn rate_fetch_ended(
        &self,
        next: DateTime<Utc>,
        error: Option<String>,
    ) -> anyhow::Result<()> {
        let failed = i64::from(error.is_some());
        self.execute(
            "UPDATE exchange_rate_fetch SET due_at = ?, failures = failures + ?, last_error = ? \
             WHERE id = 1",
            vec![next.into(), failed.into(), error.into()],
            "record the exchange rates' fetch",
        )
        .await?;
        Ok(())
    }
}
