//! The currencies the shop offers, at the day's rates (issue 36): every instance keeps the
//! rates last stored and re-reads them each round; the instance that wins the day's lease
//! (`store::Store::lease_rate_fetch`) fetches them from `currency.rates_url`, stores them and
//! counts the outcome (`shop_exchange_rate_fetches_total`). A failed fetch keeps the old rates
//! and is tried again after `currency.retry_minutes`; rates older than
//! `currency.max_age_hours` stop the other currencies from being offered.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use cart_pricing::{
    Conversion, CurrencyCode, CurrencyPolicy, OfferedCurrency, ReferenceRates, Rounding,
};
use chrono::{DateTime, Duration, NaiveTime, Utc};
use rates::RatesSource;
use store::Store;

use crate::auth::AppClock;
use crate::settings::CurrencySettings;
use shared::Clock;

/// How long a fetch's lease holds the day's turn.
const LEASE_MINUTES: i64 = 5;
/// The next day's fetch, after the ECB's 16:00 CET publication (15:00 UTC in winter).
const FETCH_AT_UTC: (u32, u32) = (15, 30);

/// Why checkout cannot charge in the currency asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CurrencyUnavailable {
    #[error("not a currency code")]
    NotACode,
    #[error("not offered right now")]
    NotOffered,
}

/// The shop's currencies and the day's rates.
pub struct Currencies {
    policy: CurrencyPolicy,
    rates: RwLock<Option<Arc<ReferenceRates>>>,
    store: Store,
    source: Option<RatesSource>,
    clock: AppClock,
    retry: Duration,
    fetched: AtomicU64,
    failed: AtomicU64,
}

impl std::fmt::Debug for Currencies {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Currencies")
            .field("policy", &self.policy)
            .finish_non_exhaustive()
    }
}

impl CurrencySettings {
    /// The policy these settings describe, or what is wrong with them.
    pub fn policy(&self) -> anyhow::Result<CurrencyPolicy> {
        let code = |text: &str| {
            text.trim()
                .parse::<CurrencyCode>()
                .map_err(|_| anyhow::anyhow!("currency: {text:?} is not a currency code"))
        };
        let base = code(&self.base)?;
        let offered = self
            .offered
            .iter()
            .map(|text| code(text))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let mut minor_units = BTreeMap::new();
        for currency in offered.iter().chain([&base]) {
            let units = iso_currency::Currency::from_code(currency.as_str())
                .ok_or_else(|| anyhow::anyhow!("currency: {currency} is not an ISO 4217 code"))?
                .exponent()
                .unwrap_or(0);
            minor_units.insert(*currency, u32::from(units));
        }
        if minor_units.get(&base) != Some(&2) {
            anyhow::bail!("currency.base must have cents (two decimals), like USD or EUR");
        }
        let mut rounding = BTreeMap::new();
        for (text, rule) in &self.rounding {
            let currency = code(text)?;
            let units = minor_units.get(&currency).copied().unwrap_or(2);
            let rule = Rounding::parse(rule, units)
                .map_err(|error| anyhow::anyhow!("currency.rounding.{currency} {error}"))?;
            rounding.insert(currency, rule);
        }
        Ok(CurrencyPolicy {
            base,
            offered,
            rounding,
            minor_units,
            max_age: Duration::hours(self.max_age_hours),
        })
    }
}

impl Currencies {
    pub fn new(settings: &CurrencySettings, store: Store, clock: AppClock) -> anyhow::Result<Self> {
        let url = settings.rates_url.trim();
        Ok(Currencies {
            policy: settings.policy()?,
            rates: RwLock::new(None),
            store,
            source: (!url.is_empty()).then(|| RatesSource::new(url)),
            clock,
            retry: Duration::minutes(settings.retry_minutes),
            fetched: AtomicU64::new(0),
            failed: AtomicU64::new(0),
        })
    }

    /// The currency of record (`currency.base`): prices, the dashboard's revenue.
    pub fn base(&self) -> CurrencyCode {
        self.policy.base
    }

    /// The currencies offered now: the base first.
    pub fn offered(&self) -> Vec<OfferedCurrency> {
        let rates = self.rates.read().map(|rates| rates.clone()).unwrap_or(None);
        self.policy.offer(rates.as_deref(), self.clock.now())
    }

    /// The conversion checkout charges `code` at (`None`: the base currency).
    pub fn conversion(&self, code: Option<&str>) -> Result<Conversion, CurrencyUnavailable> {
        let Some(code) = code.map(str::trim).filter(|code| !code.is_empty()) else {
            return Ok(Conversion::base(self.policy.base));
        };
        let code: CurrencyCode = code
            .to_ascii_uppercase()
            .parse()
            .map_err(|_| CurrencyUnavailable::NotACode)?;
        self.offered()
            .into_iter()
            .find(|offered| offered.conversion.code == code)
            .map(|offered| offered.conversion)
            .ok_or(CurrencyUnavailable::NotOffered)
    }

    /// (fetched, failed): this instance's fetches of the rates, for `/metrics`.
    pub fn fetch_counts(&self) -> (u64, u64) {
        (
            self.fetched.load(Ordering::Relaxed),
            self.failed.load(Ordering::Relaxed),
        )
    }

    /// Reads the stored rates (at start, before the first round).
    pub async fn load(&self) {
        match self.store.exchange_rates().await {
            Ok(stored) => {
                if let Ok(mut rates) = self.rates.write() {
                    *rates = stored.map(Arc::new);
                }
            }
            Err(error) => tracing::warn!(error = %format!("{error:#}"), "exchange rates unread"),
        }
    }

    /// One round: fetch the rates if this instance takes the day's turn, then read the stored
    /// ones (another instance's fetch included).
    pub async fn round(&self) {
        if let Some(source) = &self.source {
            if let Err(error) = self.fetch_if_due(source).await {
                tracing::warn!(error = %format!("{error:#}"), "exchange rates round failed");
            }
        }
        self.load().await;
    }

    async fn fetch_if_due(&self, source: &RatesSource) -> anyhow::Result<()> {
        let now = self.clock.now();
        if !self
            .store
            .lease_rate_fetch(now, now + Duration::minutes(LEASE_MINUTES))
            .await?
        {
            return Ok(());
        }
        match source.fetch().await {
            Ok(rates) => {
                self.store.save_exchange_rates(&rates, now).await?;
                self.fetched.fetch_add(1, Ordering::Relaxed);
                tracing::info!(as_of = %rates.as_of, currencies = rates.per_euro.len(), "exchange rates fetched");
                self.store.rate_fetch_ended(next_fetch(now), None).await
            }
            Err(error) => {
                self.failed.fetch_add(1, Ordering::Relaxed);
                tracing::warn!(error = %error, "exchange rates not fetched; the last ones stay");
                self.store
                    .rate_fetch_ended(now + self.retry, Some(error.to_string()))
                    .await
            }
        }
    }
}

/// The next day's fetch time after `now`.
fn next_fetch(now: DateTime<Utc>) -> DateTime<Utc> {
    let (hour, minute) = FETCH_AT_UTC;
    let time = NaiveTime::from_hms_opt(hour, minute, 0).unwrap_or_default();
    let today = now.date_naive().and_time(time).and_utc();
    if today > now {
        today
    } else {
        today + Duration::days(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_fetch_is_the_next_half_past_three_utc() {
        let at = |text: &str| text.parse::<DateTime<Utc>>().unwrap_or_default();
        assert_eq!(
            next_fetch(at("2026-11-30T10:00:00Z")),
            at("2026-11-30T15:30:00Z")
        );
        assert_eq!(
            next_fetch(at("2026-11-30T15:30:00Z")),
            at("2026-12-01T15:30:00Z")
        );
        assert_eq!(
            next_fetch(at("2026-11-30T23:59:00Z")),
            at("2026-12-01T15:30:00Z")
        );
    }

    #[test]
    fn the_settings_say_what_is_wrong() {
        let good = CurrencySettings {
            base: "USD".into(),
            offered: vec!["USD".into(), "EUR".into(), "JPY".into()],
            rates_url: String::new(),
            max_age_hours: 120,
            retry_minutes: 60,
            check_every_seconds: 60,
            rounding: BTreeMap::from([("EUR".into(), "0.99".into())]),
        };
        let policy = good.policy().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(policy.minor_units[&"JPY".parse().unwrap_or(policy.base)], 0);
        let bad = |change: fn(&mut CurrencySettings)| {
            let mut settings = good.clone();
            change(&mut settings);
            settings.policy().is_err()
        };
        assert!(bad(|s| s.base = "usd".into()));
        assert!(bad(|s| s.base = "JPY".into()));
        assert!(bad(|s| s.offered.push("XYZ".into())));
        assert!(bad(|s| {
            s.rounding.insert("JPY".into(), "0.99".into());
        }));
        assert!(bad(|s| {
            s.rounding.insert("EUR".into(), "nice".into());
        }));
    }
}
