//! The chat domain's `ChatChanges` port: what an instance's poll cache (`chat::ChatVersions`)
//! needs to notice writes made by OTHER instances: the chats changed since a moment (one read
//! of three columns), the number of chats (a drop means a delete somewhere) and which of a set
//! of chats still exist.

use anyhow::Context;
use chat::{ChatChange, ChatChanges, ChatError, ChatId};
use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QuerySelect};

use crate::entities::chats;
use crate::Store;

/// How many ids one lookup of `existing_chats` sends.
const EXISTING_CHUNK: usize = 500;

impl ChatChanges for Store {
    /// Every chat whose `updated_at` is at or after `since` (every write raises it).
    #[tracing::instrument(skip(self))]
    async fn chats_changed_since(
        &self,
        since: DateTime<Utc>,
    ) -> Result<Vec<ChatChange>, ChatError> {
        let rows = chats::Entity::find()
            .select_only()
            .column(chats::Column::Id)
            .column(chats::Column::Version)
            .column(chats::Column::Status)
            .filter(chats::Column::UpdatedAt.gte(since))
            .into_tuple::<(String, i64, String)>()
            .all(&self.db)
            .await
            .context("failed to read the recently changed chats")?;
        rows.into_iter()
            .map(|(id, version, status)| {
                Ok(ChatChange {
                    id: id
                        .parse()
                        .with_context(|| format!("stored chat id {id:?} is invalid"))?,
                    version: u64::try_from(version).context("a chat's version is negative")?,
                    status: status
                        .parse()
                        .with_context(|| format!("stored chat status {status:?} is invalid"))?,
                })
            })
            .collect()
    }

    /// How many chats there are.
    #[tracing::instrument(skip(self))]
    async fn chat_count(&self) -> Result<u64, ChatError> {
        Ok(chats::Entity::find()
            .count(&self.db)
            .await
            .context("failed to count the chats")?)
    }

    /// Which of `ids` still exist.
    #[tracing::instrument(skip_all, fields(count = ids.len()))]
    async fn existing_chats(&self, ids: &[ChatId]) -> Result<Vec<ChatId>, ChatError> {
        if ids.is_empty() {
            return Ok(vec![]);
        }
        // in chunks: the cache may know many chats, and a statement's variables are limited
        let mut rows = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(EXISTING_CHUNK) {
            rows.extend(
                chats::Entity::find()
                    .select_only()
                    .column(chats::Column::Id)
                    .filter(chats::Column::Id.is_in(chunk.iter().map(ToString::to_string)))
                    .into_tuple::<String>()
                    .all(&self.db)
                    .await
                    .context("failed to look the cached chats up")?,
            );
        }
        rows.into_iter()
            .map(|id| {
                Ok(id
                    .parse()
                    .with_context(|| format!("stored chat id {id:?} is invalid"))?)
            })
            .collect()
    }
}
