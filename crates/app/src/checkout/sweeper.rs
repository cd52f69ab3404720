//! Expires pending orders whose payment window has passed and gives their stock back, in
//! case the provider's own expiry never arrives (PayPal has none; a webhook may be lost).

use std::time::Duration;

use actix_web::web;
use orders::CheckoutService;

use crate::state::AppState;

/// How often each instance sweeps. Several instances sweeping at once is harmless: an order
/// is released only by the change that moves it out of pending.
pub const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// One sweep over the shop's orders.
#[derive(Clone)]
pub struct Sweeper {
    state: web::Data<AppState>,
}

impl Sweeper {
    pub(crate) fn new(state: web::Data<AppState>) -> Self {
        Sweeper { state }
    }

    /// Expires every stale pending order (its stock released once) and refreshes the product
    /// snapshot when any was; returns how many it expired.
    pub async fn run_once(&self) -> anyhow::Result<usize> {
        let expired = self.state.checkout.service.expire_stale().await?;
        if !expired.is_empty() {
            super::refresh_stock(&self.state).await;
        }
        Ok(expired.len())
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
