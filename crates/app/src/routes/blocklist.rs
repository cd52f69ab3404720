//! `/api/admin/blocklist` (super_admin): the identities the shop does not sell to.

use super::path_id::{BlockEntryId, Id};
use actix_web::{web, HttpResponse};

use crate::auth::RequireSuperAdmin;
use crate::client_ip::ClientIp;
use crate::error::ApiError;
use crate::services::BlocklistService;
use dto::blocklist::{to_json, EntryJson, ListJson, NewEntry, NewEntryDoc};
use dto::staff::{SuperAdminJson, SuperAdminOnly};

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
    Id(BlockEntryId(id)): Id<BlockEntryId>,
) -> Result<HttpResponse, ApiError> {
    let entry = blocklist.confirm(id, &admin.actor(ip)).await?;
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
    Id(BlockEntryId(id)): Id<BlockEntryId>,
) -> Result<HttpResponse, ApiError> {
    blocklist.remove(id, &admin.actor(ip)).await?;
    Ok(HttpResponse::NoContent().finish())
}
