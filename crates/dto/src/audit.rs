//! The staff audit log (`GET /api/admin/audit`) as the API sends it.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use shared::AuditEntry;

/// Who acted: a staff member, or the command line (`id` null).
#[derive(Serialize, utoipa::ToSchema)]
pub struct AuditActorJson {
    /// The staff member's user id; null for the command line.
    pub id: Option<i64>,
    /// Their name at the time of the entry.
    pub name: String,
}

/// One staff action.
#[derive(Serialize, utoipa::ToSchema)]
pub struct AuditEntryJson {
    id: i64,
    at: DateTime<Utc>,
    actor: AuditActorJson,
    /// The kind of action, dotted (`stock.set`, `product.update`, ...).
    #[schema(example = "stock.set")]
    kind: String,
    /// What was acted on, e.g. `product:12`.
    #[schema(example = "product:12")]
    target: String,
    /// The values the action replaced; null when there were none (a creation).
    #[schema(value_type = Option<Object>)]
    before: Option<Value>,
    /// The values the action wrote; null when there are none (a deletion).
    #[schema(value_type = Option<Object>)]
    after: Option<Value>,
    /// The client's address (through trusted proxies); null for the command line.
    ip: Option<String>,
}

/// A page of the log, and what the filters can choose from.
#[derive(Serialize, utoipa::ToSchema)]
pub struct AuditPage {
    /// Newest first.
    pub entries: Vec<AuditEntryJson>,
    /// Pass as `cursor` for the next (older) page; null on the last page.
    pub next_cursor: Option<i64>,
    /// Everyone with entries, by name (the command line has id null; filter it with
    /// `actor_id=cli`).
    pub actors: Vec<AuditActorJson>,
    /// Every kind of entry.
    pub kinds: Vec<&'static str>,
}

/// A JSON column read back; text that is not JSON (never written) is passed on as a string.
fn json(text: Option<String>) -> Option<Value> {
    text.map(|text| serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

pub fn to_json(entry: AuditEntry) -> AuditEntryJson {
    AuditEntryJson {
        id: entry.id,
        at: entry.at,
        actor: AuditActorJson {
            id: entry.actor_id,
            name: entry.actor_name,
        },
        kind: entry.kind,
        target: entry.target,
        before: json(entry.before),
        after: json(entry.after),
        ip: entry.ip,
    }
}
