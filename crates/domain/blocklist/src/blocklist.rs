//! The blocklist: e-mail addresses, Discord accounts, Roblox usernames and client addresses the
//! shop does not sell to. Checkout asks `orders::Blocklist` first, before it reads or
//! reserves anything; a chargeback blocks the buyer's identities (see `aftersale`); the
//! super_admin adds and removes entries ([`BlocklistAdmin`]).
//!
//! Values are stored normalised: e-mails trimmed and lowercased, Roblox usernames lowercased
//! (Roblox ignores case), Discord ids as their snowflake, addresses as parsed IPs (an
//! IPv4-mapped IPv6 address as the IPv4 one). Each entry is compared by its match form
//! ([`orders::BlockKind::match_form`]), so one entry matches every spelling that reaches the same
//! inbox or network: an e-mail without its `+tag` (and, at Gmail, without dots), an IPv6
//! address as its /64 (one subscriber's network, as the rate limits count it).
//!
//! Only what the shop verified blocks on its own: a chargeback blocks the Discord account
//! (proven by OAuth) and, for 30 days, the address the order came from. The e-mail and Roblox
//! username the buyer typed could be anyone's, so they become *flagged* entries that block
//! nothing until a super_admin confirms them ([`BlockStatus`]).

use std::future::Future;

use chrono::{DateTime, Utc};
use orders::{canonical_email, BlockKind, StaffMember};
use shared::{Actor, Clock, UserId};

/// Whether an entry blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlockStatus {
    /// It blocks checkout (until `expires_at`, when it has one).
    Active,
    /// Recorded for staff to look at (what a buyer typed at a chargeback); blocks nothing
    /// until confirmed.
    Flagged,
}

impl BlockStatus {
    pub fn as_str(&self) -> &'static str {
        match self {
            BlockStatus::Active => "active",
            BlockStatus::Flagged => "flagged",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "active" => Some(BlockStatus::Active),
            "flagged" => Some(BlockStatus::Flagged),
            _ => None,
        }
    }
}

/// An entry about to be added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewBlock {
    pub kind: BlockKind,
    /// Normalised (see [`BlockKind::normalise`]).
    pub value: String,
    pub reason: String,
    /// The member of staff who added it; `None` when the shop did (a chargeback).
    pub added_by: Option<UserId>,
    pub created_at: DateTime<Utc>,
    pub status: BlockStatus,
    /// When it stops blocking; `None`: never.
    pub expires_at: Option<DateTime<Utc>>,
}

/// An entry of the blocklist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockEntry {
    pub id: i64,
    pub kind: BlockKind,
    pub value: String,
    pub reason: String,
    /// `None` when the shop added it itself, or the account is gone.
    pub added_by: Option<StaffMember>,
    pub created_at: DateTime<Utc>,
    pub status: BlockStatus,
    /// When it stops blocking; `None`: never.
    pub expires_at: Option<DateTime<Utc>>,
}

impl BlockEntry {
    /// The canonical form an e-mail entry is compared by; `None` for other kinds.
    pub fn canonical(&self) -> Option<String> {
        (self.kind == BlockKind::Email).then(|| canonical_email(&self.value))
    }
}

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

/// The blocklist's limits (`blocklist.*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlocklistLimits {
    /// The longest reason, in characters.
    pub max_reason_chars: usize,
    /// How many entries the list answers at most (newest first).
    pub list_limit: u64,
}

impl Default for BlocklistLimits {
    fn default() -> Self {
        BlocklistLimits {
            max_reason_chars: 200,
            list_limit: 1000,
        }
    }
}

/// Why a blocklist change did not happen.
#[derive(Debug, thiserror::Error)]
pub enum BlocklistError {
    /// 422: a field is missing or malformed.
    #[error("{message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    /// 409: the same kind and value are blocked already.
    #[error("This {} is on the blocklist already.", .0.label().to_lowercase())]
    Duplicate(BlockKind),
    /// 404.
    #[error("Blocklist entry not found.")]
    NotFound(i64),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

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
