//! Where the entries are kept.

use shared::Actor;
use std::future::Future;

use crate::models::{BlockEntry, NewBlock};

/// Where the entries are kept.
#[cfg_attr(test, mockall::automock)]
pub trait BlocklistRepository: Send + Sync + 'static {
    /// The newest `limit` entries, newest first, and how many there are in all.
    fn entries(
        &self,
        limit: u64,
    ) -> impl Future<Output = anyhow::Result<(Vec<BlockEntry>, u64)>> + Send;

    /// Adds the entry, and the audit log's entry for it by `actor` in the same transaction;
    /// `Ok(None)` when its kind and value are on the list already (nothing changed).
    fn add(
        &self,
        entry: NewBlock,
        actor: &Actor,
    ) -> impl Future<Output = anyhow::Result<Option<BlockEntry>>> + Send;

    /// Removes the entry, and records it in the audit log by `actor` in the same transaction;
    /// `false` when there was none with this id (nothing written).
    fn remove(&self, id: i64, actor: &Actor) -> impl Future<Output = anyhow::Result<bool>> + Send;

    /// Makes a flagged entry active, and records it in the audit log by `actor` in the same
    /// transaction; answers the entry as it is now (active already: unchanged, nothing
    /// written), `None` when there is none with this id.
    fn confirm(
        &self,
        id: i64,
        actor: &Actor,
    ) -> impl Future<Output = anyhow::Result<Option<BlockEntry>>> + Send;
}
