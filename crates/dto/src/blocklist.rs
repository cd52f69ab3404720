//! The blocklist (`/api/admin/blocklist…`) as the API reads and sends it.

use blocklist::BlockEntry;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The member of staff who added an entry.
#[derive(Serialize, ToSchema)]
#[schema(as = BlockAddedBy)]
struct AddedBy {
    id: i64,
    #[schema(example = "Ann")]
    name: String,
}

/// What kind of identity an entry blocks.
#[derive(ToSchema)]
#[schema(as = BlockKind, rename_all = "snake_case")]
#[allow(dead_code)] // a schema only: `BlockKind::as_str` writes it and `BlockKind::parse` reads it
enum KindDoc {
    Email,
    DiscordId,
    RobloxUsername,
    Ip,
}

/// Whether an entry blocks.
#[derive(ToSchema)]
#[schema(as = BlockStatus, rename_all = "snake_case")]
#[allow(dead_code)] // a schema only: `BlockStatus::as_str` writes it
enum StatusDoc {
    /// It blocks checkout (until `expires_at`, when set).
    Active,
    /// Recorded for staff to confirm or remove (what a buyer typed at a chargeback, which
    /// could be a stranger's): blocks nothing.
    Flagged,
}

/// An identity the shop does not sell to.
#[derive(Serialize, ToSchema)]
#[schema(as = BlocklistEntry)]
pub struct EntryJson {
    id: i64,
    #[schema(value_type = KindDoc)]
    kind: &'static str,
    /// The kind in words: `E-mail`, `Discord id`, `Roblox username`, `IP address`.
    #[schema(example = "E-mail")]
    kind_label: &'static str,
    /// Normalised: a lower-case e-mail or Roblox username, an IP address as the shop writes it.
    #[schema(example = "scam.mer+shop@gmail.com")]
    value: String,
    /// E-mail entries: the one inbox the address reaches, which checkout compares (no
    /// `+tag`; at gmail.com and googlemail.com no dots either); `null` for other kinds. An
    /// IPv6 entry covers its whole /64 network.
    #[schema(required = true, example = "scammer@gmail.com")]
    canonical: Option<String>,
    #[schema(value_type = StatusDoc)]
    status: &'static str,
    /// When it stops blocking (a chargeback's client address, after 30 days); `null`: never.
    #[schema(required = true)]
    expires_at: Option<DateTime<Utc>>,
    reason: String,
    /// `null` when the shop added it itself (a chargeback).
    #[schema(required = true)]
    added_by: Option<AddedBy>,
    created_at: DateTime<Utc>,
}

/// The newest entries and how many there are in all.
#[derive(Serialize, ToSchema)]
#[schema(as = BlocklistPage)]
pub struct ListJson {
    /// Newest first, at most 1000.
    pub entries: Vec<EntryJson>,
    /// Every entry, listed or not.
    pub total: u64,
}

pub fn to_json(entry: BlockEntry) -> EntryJson {
    EntryJson {
        id: entry.id,
        kind: entry.kind.as_str(),
        kind_label: entry.kind.label(),
        canonical: entry.canonical(),
        value: entry.value,
        status: entry.status.as_str(),
        expires_at: entry.expires_at,
        reason: entry.reason,
        added_by: entry.added_by.map(|staff| AddedBy {
            id: staff.id.get(),
            name: staff.name,
        }),
        created_at: entry.created_at,
    }
}

#[derive(Debug, Deserialize)]
pub struct NewEntry {
    #[serde(default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub value: Option<String>,
    #[serde(default)]
    pub reason: Option<String>,
}

/// An identity to block: its `kind`, the `value` of that kind and why (`reason`, 1 to 200
/// characters). The fields are read leniently: a missing one answers 422 naming it.
#[derive(Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[schema(as = NewBlocklistEntry)]
#[allow(dead_code)] // a schema only: `NewEntry` is what is read
pub enum NewEntryDoc {
    Email {
        /// Stored in lower case.
        #[schema(format = Email, example = "scammer@example.com")]
        value: String,
        #[schema(min_length = 1, max_length = 200, example = "Chargeback on order 12")]
        reason: String,
    },
    DiscordId {
        /// A Discord user id: up to 20 digits, not 0.
        #[schema(pattern = "^[0-9]{1,20}$", example = "100000000000000001")]
        value: String,
        #[schema(min_length = 1, max_length = 200)]
        reason: String,
    },
    RobloxUsername {
        /// 3 to 20 letters, digits and at most one `_`, not at either end; stored in lower
        /// case.
        #[schema(
            pattern = "^[A-Za-z0-9]+(_[A-Za-z0-9]+)?$",
            min_length = 3,
            max_length = 20,
            example = "Builder_Bob"
        )]
        value: String,
        #[schema(min_length = 1, max_length = 200)]
        reason: String,
    },
    Ip {
        /// An IPv4 or IPv6 address, e.g. `203.0.113.7`; an IPv4-mapped IPv6 address is stored as
        /// the IPv4 one.
        #[schema(example = "203.0.113.7")]
        value: String,
        #[schema(min_length = 1, max_length = 200)]
        reason: String,
    },
}
