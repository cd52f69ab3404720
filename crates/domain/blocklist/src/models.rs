//! The entries of the blocklist and its limits.

use chrono::{DateTime, Utc};
use orders::{canonical_email, BlockKind, StaffMember};
use shared::UserId;

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
