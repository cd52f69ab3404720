use std::sync::Arc;

use anyhow::Context;
use chrono::{DateTime, Utc};
use sea_orm::{DatabaseConnection, DatabaseTransaction, TransactionTrait};
use shared::Clock;

use crate::connection::Backend;

/// The repositories, sharing one connection pool and the shop's clock, which stamps the rows
/// written (created, updated, audited) and tells sessions' expiry. Cloning is cheap.
#[derive(Debug, Clone)]
pub struct Store {
    pub(crate) db: DatabaseConnection,
    clock: Arc<dyn Clock>,
}

impl Store {
    pub fn new(db: DatabaseConnection, clock: impl Clock) -> Self {
        Store {
            db,
            clock: Arc::new(clock),
        }
    }

    /// The time now, on the shop's clock.
    pub fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    pub fn connection(&self) -> &DatabaseConnection {
        &self.db
    }

    pub fn backend(&self) -> Backend {
        Backend::of(&self.db)
    }

    /// A transaction on the pool.
    pub(crate) async fn begin(&self) -> anyhow::Result<DatabaseTransaction> {
        self.db
            .begin()
            .await
            .context("failed to start a transaction")
    }
}
