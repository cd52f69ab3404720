//! `/api/admin/blocklist` (super_admin): the identities the shop does not sell to.

use actix_web::{web, HttpResponse};
use blocklist::BlockEntry;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::RequireSuperAdmin;
use crate::client_ip::ClientIp;
use crate::dto::staff::{SuperAdminJson, SuperAdminOnly};
use crate::error::ApiError;
use crate::services::BlocklistService;

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
struct EntryJson {
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
struct ListJson {
    /// Newest first, at most 1000.
    entries: Vec<EntryJson>,
    /// Every entry, listed or not.
    total: u64,
}

fn to_json(entry: BlockEntry) -> EntryJson {
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

/// `GET /api/admin/blocklist`: `{entries: [...], total}`, newest first.
#[utoipa::path(
    get,
    path = "/api/admin/blocklist",
    operation_id = "admin_list_blocklist",
    tag = "staff: blocklist",
    summary = "The blocklist",
    description = "The identities the shop does not sell to, newest first (super_admin).",
    responses(
        (status = 200, description = "The entries.", body = ListJson,
            headers(("Cache-Control" = String, description = "`no-store`"))),
        SuperAdminOnly,
    ),
    security(("session_cookie" = [])),
)]
pub async fn list(
    _admin: RequireSuperAdmin,
    blocklist: web::Data<BlocklistService>,
) -> Result<HttpResponse, ApiError> {
    let (entries, total) = blocklist.list().await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(ListJson {
            entries: entries.into_iter().map(to_json).collect(),
            total,
        }))
}

#[derive(Debug, Deserialize)]
pub struct NewEntry {
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    value: Option<String>,
    #[serde(default)]
    reason: Option<String>,
}

/// An identity to block: its `kind`, the `value` of that kind and why (`reason`, 1 to 200
/// characters). The fields are read leniently: a missing one answers 422 naming it.
#[derive(Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[schema(as = NewBlocklistEntry)]
#[allow(dead_code)] // a schema only: `NewEntry` is what is read
enum NewEntryDoc {
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

/// `POST /api/admin/blocklist {kind, value, reason}`: 201 with the entry; 422 for a bad kind,
/// value or reason; 409 when it is blocked already.
#[utoipa::path(
    post,
    path = "/api/admin/blocklist",
    operation_id = "admin_add_blocklist_entry",
    tag = "staff: blocklist",
    summary = "Block an identity",
    description = "Adds an e-mail, Discord id, Roblox username or IP address to the blocklist: \
                   checkout refuses it from then on (super_admin).",
    request_body = NewEntryDoc,
    responses(
        (status = 201, description = "The new entry.", body = EntryJson),
        SuperAdminJson,
        (status = 409, description = "This identity is blocked already.", body = crate::error::ErrorBody),
        (status = 422, description = "A bad `kind`, a `value` that is not of that kind, or a missing or too long \
            `reason` (or a field of the wrong JSON type).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn add(
    RequireSuperAdmin(admin): RequireSuperAdmin,
    ip: ClientIp,
    blocklist: web::Data<BlocklistService>,
    body: web::Json<NewEntry>,
) -> Result<HttpResponse, ApiError> {
    let entry = blocklist
        .add(
            body.kind.as_deref().unwrap_or_default(),
            body.value.as_deref().unwrap_or_default(),
            body.reason.as_deref().unwrap_or_default(),
            &admin.actor(ip),
        )
        .await?;
    Ok(HttpResponse::Created().json(to_json(entry)))
}

fn entry_id(path: &str) -> Result<i64, ApiError> {
    path.parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| ApiError::NotFound("Blocklist entry not found.".to_owned()))
}

/// `POST /api/admin/blocklist/{id}/confirm`: 200 with the entry, now active; 404 when there is
/// no such entry.
#[utoipa::path(
    post,
    path = "/api/admin/blocklist/{id}/confirm",
    operation_id = "admin_confirm_blocklist_entry",
    tag = "staff: blocklist",
    summary = "Confirm a flagged entry",
    description = "Makes a flagged entry active: checkout refuses it from then on. An active \
                   entry is answered as it is (super_admin).",
    params(("id" = i64, Path, description = "The entry's id.", minimum = 1)),
    responses(
        (status = 200, description = "The entry, active.", body = EntryJson),
        SuperAdminOnly,
        (status = 404, description = "No entry has this id (or the id is not a positive whole number).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn confirm(
    RequireSuperAdmin(admin): RequireSuperAdmin,
    ip: ClientIp,
    blocklist: web::Data<BlocklistService>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let entry = blocklist
        .confirm(entry_id(&path)?, &admin.actor(ip))
        .await?;
    Ok(HttpResponse::Ok().json(to_json(entry)))
}

/// `DELETE /api/admin/blocklist/{id}`: 204; 404 when there is no such entry.
#[utoipa::path(
    delete,
    path = "/api/admin/blocklist/{id}",
    operation_id = "admin_remove_blocklist_entry",
    tag = "staff: blocklist",
    summary = "Unblock an identity",
    description = "Removes an entry from the blocklist (super_admin).",
    params(("id" = i64, Path, description = "The entry's id.", minimum = 1)),
    responses(
        (status = 204, description = "Removed; no body."),
        SuperAdminOnly,
        (status = 404, description = "No entry has this id (or the id is not a positive whole number).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn remove(
    RequireSuperAdmin(admin): RequireSuperAdmin,
    ip: ClientIp,
    blocklist: web::Data<BlocklistService>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    blocklist.remove(entry_id(&path)?, &admin.actor(ip)).await?;
    Ok(HttpResponse::NoContent().finish())
}
