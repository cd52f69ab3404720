//! The super_admin's changes of the blocklist, over its store and the shop clock.

use orders::BlockKind;
use shared::{Actor, Clock};

use crate::error::BlocklistError;
use crate::models::{BlockEntry, BlockStatus, BlocklistLimits, NewBlock};
use crate::ports::BlocklistRepository;

/// The super_admin's view of the blocklist.
#[derive(Debug, Clone)]
pub struct BlocklistAdmin<R, C> {
    repository: R,
    clock: C,
    limits: BlocklistLimits,
}

impl<R: BlocklistRepository, C: Clock> BlocklistAdmin<R, C> {
    pub fn new(repository: R, clock: C, limits: BlocklistLimits) -> Self {
        BlocklistAdmin {
            repository,
            clock,
            limits,
        }
    }

    /// The newest entries (at most `list_limit`) and the count of all.
    pub async fn list(&self) -> Result<(Vec<BlockEntry>, u64), BlocklistError> {
        Ok(self.repository.entries(self.limits.list_limit).await?)
    }

    /// Adds `value` of `kind` (both as typed) with `reason`, by the staff member `actor`.
    #[tracing::instrument(skip_all, fields(kind = kind))]
    pub async fn add(
        &self,
        kind: &str,
        value: &str,
        reason: &str,
        actor: &Actor,
    ) -> Result<BlockEntry, BlocklistError> {
        let kind = BlockKind::parse(kind).ok_or_else(|| BlocklistError::Invalid {
            field: "kind",
            message: "The kind must be email, discord_id, roblox_username or ip.".to_owned(),
        })?;
        let value = kind
            .normalise(value)
            .map_err(|message| BlocklistError::Invalid {
                field: "value",
                message,
            })?;
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(BlocklistError::Invalid {
                field: "reason",
                message: "Say why this is blocked.".to_owned(),
            });
        }
        if reason.chars().count() > self.limits.max_reason_chars {
            return Err(BlocklistError::Invalid {
                field: "reason",
                message: format!(
                    "The reason can be at most {} characters.",
                    self.limits.max_reason_chars
                ),
            });
        }
        let added = self
            .repository
            .add(
                NewBlock {
                    kind,
                    value,
                    reason: reason.to_owned(),
                    added_by: actor.user_id,
                    created_at: self.clock.now(),
                    status: BlockStatus::Active,
                    expires_at: None,
                },
                actor,
            )
            .await?
            .ok_or(BlocklistError::Duplicate(kind))?;
        tracing::info!(entry = added.id, %kind, "blocklist entry added");
        Ok(added)
    }

    /// Confirms a flagged entry: it blocks from now on.
    #[tracing::instrument(skip(self, actor))]
    pub async fn confirm(&self, id: i64, actor: &Actor) -> Result<BlockEntry, BlocklistError> {
        let entry = self
            .repository
            .confirm(id, actor)
            .await?
            .ok_or(BlocklistError::NotFound(id))?;
        tracing::info!(entry = id, "blocklist entry confirmed");
        Ok(entry)
    }

    #[tracing::instrument(skip(self, actor))]
    pub async fn remove(&self, id: i64, actor: &Actor) -> Result<(), BlocklistError> {
        if self.repository.remove(id, actor).await? {
            tracing::info!(entry = id, "blocklist entry removed");
            Ok(())
        } else {
            Err(BlocklistError::NotFound(id))
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use chrono::TimeZone;
    use shared::FixedClock;

    use super::*;
    use crate::*;
    use chrono::Utc;
    use shared::UserId;

    fn staff(id: i64) -> Actor {
        Actor::staff(UserId::new(id), "Ada", "203.0.113.7")
    }

    fn admin(repo: MockBlocklistRepository) -> BlocklistAdmin<MockBlocklistRepository, FixedClock> {
        BlocklistAdmin::new(
            repo,
            FixedClock(Utc.with_ymd_and_hms(2026, 11, 24, 12, 0, 0).unwrap()),
            BlocklistLimits {
                max_reason_chars: 10,
                list_limit: 5,
            },
        )
    }

    #[tokio::test]
    async fn adding_checks_every_field_before_the_store_is_asked() {
        let admin = admin(MockBlocklistRepository::new());
        for (kind, value, reason, field) in [
            ("phone", "1", "why", "kind"),
            ("email", "nope", "why", "value"),
            ("email", "a@b.co", "  ", "reason"),
            ("email", "a@b.co", "far too long a reason", "reason"),
        ] {
            match admin.add(kind, value, reason, &staff(1)).await.unwrap_err() {
                BlocklistError::Invalid { field: got, .. } => assert_eq!(got, field),
                other => panic!("{other:?}"),
            }
        }
    }

    #[tokio::test]
    async fn a_value_blocked_already_is_a_conflict() {
        let mut repo = MockBlocklistRepository::new();
        repo.expect_add()
            .withf(|entry, actor| {
                entry.value == "kid@example.com"
                    && entry.added_by == Some(UserId::new(4))
                    && actor.user_id == Some(UserId::new(4))
            })
            .returning(|_, _| Box::pin(async { Ok(None) }));
        let error = admin(repo)
            .add("email", "KID@example.com", "fraud", &staff(4))
            .await
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "This e-mail is on the blocklist already."
        );
    }
}
