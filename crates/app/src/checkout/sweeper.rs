//! Expires pending orders whose payment window has passed and gives their stock back, in
//! case the provider's own expiry never arrives (PayPal has none; a webhook may be lost).
//! The background module runs it every [`SWEEP_EVERY`].

use std::sync::Arc;
use std::time::Duration;

use orders::CheckoutService;

use super::CheckoutKit;

/// How often each instance sweeps. Several instances sweeping at once is harmless: an order
/// is released only by the change that moves it out of pending.
pub const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// One sweep over the shop's orders.
#[derive(Clone)]
pub struct Sweeper {
    kit: Arc<CheckoutKit>,
}

impl Sweeper {
    pub(crate) fn new(kit: Arc<CheckoutKit>) -> Self {
        Sweeper { kit }
    }

    /// Expires every stale pending order (its stock released once) and refreshes the product
    /// snapshot when any was; returns how many it expired.
    pub async fn run_once(&self) -> anyhow::Result<usize> {
        let expired = self.kit.service.expire_stale().await?;
        if !expired.is_empty() {
            self.kit.stock.on_stock_changed().await;
        }
        Ok(expired.len())
    }
}
