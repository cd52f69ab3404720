//! The app's rate limits: one call per limited request, counted atomically in the shared store
//! (see `shared::limits`), refused with 429 and `Retry-After`.

use accounts::Clock;
use shared::{admit, Rule};
use store::Store;

use crate::{auth::AppClock, error::ApiError};

/// Counts requests against the limits in the settings.
#[derive(Debug, Clone)]
pub struct RateLimits {
    store: Store,
    clock: AppClock,
}

impl RateLimits {
    pub fn new(store: Store, clock: AppClock) -> Self {
        RateLimits { store, clock }
    }

    /// Counts one request of `key` under `rule`; refused: 429 "Too many attempts. Try again in
    /// …" with `Retry-After`.
    pub async fn check(&self, bucket: &str, key: &str, rule: Rule) -> Result<(), ApiError> {
        match admit(&self.store, bucket, key, rule, self.clock.now())
            .await
            .map_err(ApiError::internal)?
        {
            Ok(()) => Ok(()),
            Err(refused) => {
                tracing::info!(bucket, "rate limit reached");
                Err(ApiError::too_many(refused.retry_after))
            }
        }
    }
}
