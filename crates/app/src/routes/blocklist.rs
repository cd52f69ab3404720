//! `/api/admin/blocklist` (super_admin): the identities the shop does not sell to.

use actix_web::{web, HttpResponse};
use chrono::{DateTime, Utc};
use orders::BlockEntry;
use serde::{Deserialize, Serialize};

use crate::auth::RequireSuperAdmin;
use crate::client_ip::ClientIp;
use crate::error::ApiError;
use crate::services::BlocklistService;

#[derive(Serialize)]
struct AddedBy {
    id: i64,
    name: String,
}

#[derive(Serialize)]
struct EntryJson {
    id: i64,
    kind: &'static str,
    kind_label: &'static str,
    value: String,
    reason: String,
    /// `null` when the shop added it itself (a chargeback).
    added_by: Option<AddedBy>,
    created_at: DateTime<Utc>,
}

fn to_json(entry: BlockEntry) -> EntryJson {
    EntryJson {
        id: entry.id,
        kind: entry.kind.as_str(),
        kind_label: entry.kind.label(),
        value: entry.value,
        reason: entry.reason,
        added_by: entry.added_by.map(|staff| AddedBy {
            id: staff.id,
            name: staff.name,
        }),
        created_at: entry.created_at,
    }
}

/// `GET /api/admin/blocklist`: `{entries: [...], total}`, newest first.
pub async fn list(
    _admin: RequireSuperAdmin,
    blocklist: web::Data<BlocklistService>,
) -> Result<HttpResponse, ApiError> {
    let (entries, total) = blocklist.list().await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(serde_json::json!({
            "entries": entries.into_iter().map(to_json).collect::<Vec<_>>(),
            "total": total,
        })))
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

/// `POST /api/admin/blocklist {kind, value, reason}`: 201 with the entry; 422 for a bad kind,
/// value or reason; 409 when it is blocked already.
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

/// `DELETE /api/admin/blocklist/{id}`: 204; 404 when there is no such entry.
pub async fn remove(
    RequireSuperAdmin(admin): RequireSuperAdmin,
    ip: ClientIp,
    blocklist: web::Data<BlocklistService>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = path
        .parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| ApiError::NotFound("Blocklist entry not found.".to_owned()))?;
    blocklist.remove(id, &admin.actor(ip)).await?;
    Ok(HttpResponse::NoContent().finish())
}
