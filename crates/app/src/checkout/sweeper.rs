//! Expires pending orders whose payment window has passed and gives their stock and promo use
//! back, in case the provider's own expiry never arrives (PayPal has none; a webhook may be
//! lost). Each order's payment page is closed at the provider first (see
//! [`super::close_unpaid`]): one that turns out paid is confirmed instead, one the provider
//! could not close is tried again next time, and orders held for staff review are left alone.
//! It also forgets rate-limit windows older than two days.

use std::time::Duration;

use actix_web::web;
use orders::{CheckoutService, Closing, OrderError, ReleaseError};

use super::{close_unpaid, CloseError, Closed};
use crate::state::AppState;

/// How often each instance sweeps. Several instances sweeping at once is harmless: an order
/// is released only by the change that moves it out of pending.
pub const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// How long rate-limit windows are kept (the longest window is an hour; a day is the longest
/// any limit could want).
const RATE_LIMIT_RETENTION: chrono::Duration = chrono::Duration::days(2);

/// One sweep over the shop's orders.
#[derive(Clone)]
pub struct Sweeper {
    state: web::Data<AppState>,
}

impl Sweeper {
    pub(crate) fn new(state: web::Data<AppState>) -> Self {
        Sweeper { state }
    }

    /// Expires every stale pending order (its payment page closed, its stock released once)
    /// and purges old rate-limit windows; returns how many orders it expired.
    pub async fn run_once(&self) -> anyhow::Result<usize> {
        let kit = &self.state.checkout;
        let purged = self
            .state
            .store
            .purge_rate_limits(kit.clock_now() - RATE_LIMIT_RETENTION)
            .await;
        if let Err(error) = purged {
            tracing::warn!(error = ?error, "could not purge old rate-limit windows");
        }
        let mut expired = 0;
        for id in kit.service.stale_orders().await? {
            let order = match kit.service.order(id).await {
                Ok(order) => order,
                Err(OrderError::NotFound(_)) => continue,
                Err(OrderError::Unknown(error)) => return Err(error),
            };
            match close_unpaid(&self.state, &order, Closing::Expired).await {
                Ok(Closed::Released(_)) => expired += 1,
                Ok(Closed::Paid) => {}
                // paid, cancelled or held for review meanwhile, or gone: nothing to do
                Err(CloseError::Release(
                    ReleaseError::Refused(_)
                    | ReleaseError::UnderReview(_)
                    | ReleaseError::NotFound(_)
                    | ReleaseError::ReferenceMismatch(_),
                )) => {}
                Err(error) => {
                    tracing::warn!(order = %id, error = ?error, "could not expire a stale order; trying again next sweep");
                }
            }
        }
        if expired > 0 {
            tracing::info!(count = expired, "expired stale pending orders");
        }
        Ok(expired)
    }
}

/// Sweeps every `every` until the runtime stops.
pub fn spawn_sweeper(sweeper: Sweeper, every: Duration) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(every);
        loop {
            ticker.tick().await;
            if let Err(error) = sweeper.run_once().await {
                tracing::warn!(error = ?error, "could not expire stale orders");
            }
        }
    });
}
