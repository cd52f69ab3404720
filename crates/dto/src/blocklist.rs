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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BlockKind {
    Email,
    DiscordId,
    RobloxUsername,
    Ip,
}

impl From<blocklist::BlockKind> for BlockKind {
    fn from(kind: blocklist::BlockKind) -> Self {
        match kind {
            blocklist::BlockKind::Email => BlockKind::Email,
            blocklist::BlockKind::DiscordId => BlockKind::DiscordId,
            blocklist::BlockKind::RobloxUsername => BlockKind::RobloxUsername,
            blocklist::BlockKind::Ip => BlockKind::Ip,
        }
    }
}

/// Whether an entry blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BlockStatus {
    /// It blocks checkout (until `expires_at`, when set).
    Active,
    /// Recorded for staff to confirm or remove (what a buyer typed at a chargeback, which
    /// could be a stranger's): blocks nothing.
    Flagged,
}

impl From<blocklist::BlockStatus> for BlockStatus {
    fn from(status: blocklist::BlockStatus) -> Self {
        match status {
            blocklist::BlockStatus::Active => BlockStatus::Active,
            blocklist::BlockStatus::Flagged => BlockStatus::Flagged,
        }
    }
}

/// An identity the shop does not sell to.
#[derive(Serialize, ToSchema)]
#[schema(as = BlocklistEntry)]
pub struct EntryJson {
    id: i64,
    kind: BlockKind,
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
    status: BlockStatus,
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
        kind: entry.kind.into(),
        kind_label: entry.kind.label(),
        canonical: entry.canonical(),
        value: entry.value,
        status: entry.status.into(),
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
// `NewEntry` is what is read, field by field, so that the service names the first bad one;
// the test below holds this document to the parser's fields and the domain's kinds.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_and_status_is_sent_as_stored() {
        for kind in blocklist::BlockKind::ALL {
            let sent = serde_json::to_value(BlockKind::from(kind)).unwrap();
            assert_eq!(sent, kind.as_str());
        }
        for status in [
            blocklist::BlockStatus::Active,
            blocklist::BlockStatus::Flagged,
        ] {
            let sent = serde_json::to_value(BlockStatus::from(status)).unwrap();
            assert_eq!(sent, status.as_str());
        }
    }

    #[test]
    fn the_documented_entry_has_the_fields_the_parser_reads_for_every_kind() {
        let doc = serde_json::to_value(<NewEntryDoc as utoipa::PartialSchema>::schema()).unwrap();
        let variants = doc["oneOf"].as_array().unwrap();
        let kinds: Vec<&str> = blocklist::BlockKind::ALL
            .iter()
            .map(|kind| kind.as_str())
            .collect();
        let documented: Vec<&str> = variants
            .iter()
            .map(|variant| variant["properties"]["kind"]["enum"][0].as_str().unwrap())
            .collect();
        assert_eq!(documented, kinds);
        // the parser's fields, every one named (a new one fails to compile here)
        let NewEntry {
            kind,
            value,
            reason,
        } = serde_json::from_str(r#"{"kind": "ip", "value": "203.0.113.7", "reason": "r"}"#)
            .unwrap();
        assert!(kind.is_some() && value.is_some() && reason.is_some());
        for variant in variants {
            let mut fields: Vec<&String> =
                variant["properties"].as_object().unwrap().keys().collect();
            fields.sort();
            assert_eq!(fields, ["kind", "reason", "value"]);
        }
    }
}
