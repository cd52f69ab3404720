//! `GET /api/admin/audit` (super_admin): the staff audit log, newest first, filtered by staff
//! member, kind and time, a page at a time. Read only: no call changes or removes an entry.

use actix_web::{web, HttpRequest, HttpResponse};
use chrono::{DateTime, NaiveDate, Utc};
use shared::{ActorFilter, AuditKind, AuditQuery};

use crate::auth::RequireSuperAdmin;
use crate::error::{ApiError, FieldErrors};
use crate::services::AuditService;
use dto::audit::{to_json, AuditActorJson, AuditPage};

/// Entries per page unless `limit` says otherwise.
pub const PAGE_SIZE: u64 = 50;
/// The most entries one page may hold.
pub const MAX_PAGE_SIZE: u64 = 100;

/// A time as RFC 3339 (`2026-11-25T10:00:00Z`) or a day (`2026-11-25`, midnight UTC).
fn time(text: &str) -> Option<DateTime<Utc>> {
    let text = text.trim();
    if let Ok(at) = DateTime::parse_from_rfc3339(text) {
        return Some(at.with_timezone(&Utc));
    }
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .ok()
        .and_then(|day| day.and_hms_opt(0, 0, 0))
        .map(|at| at.and_utc())
}

fn positive(text: &str) -> Option<i64> {
    text.trim().parse::<i64>().ok().filter(|n| *n > 0)
}

/// One parameter of the query string, put into `query`; a bad value is named in `errors`.
/// Unknown parameters are ignored.
fn filter(query: &mut AuditQuery, name: &str, value: &str, errors: &mut FieldErrors) {
    match name {
        "actor_id" => match value.trim() {
            "cli" => query.actor = Some(ActorFilter::CommandLine),
            other => match positive(other) {
                Some(id) => query.actor = Some(ActorFilter::Staff(id)),
                None => errors.add(
                    "actor_id",
                    "Choose a staff member by id, or cli for the command line.",
                ),
            },
        },
        "kind" => match AuditKind::parse(value.trim()) {
            Some(kind) => query.kind = Some(kind),
            None => errors.add("kind", "This is not a kind of audit entry."),
        },
        "since" => match time(value) {
            Some(at) => query.since = Some(at),
            None => errors.add("since", "Enter the date as YYYY-MM-DD or an RFC 3339 time."),
        },
        "before" => match time(value) {
            Some(at) => query.before = Some(at),
            None => errors.add(
                "before",
                "Enter the date as YYYY-MM-DD or an RFC 3339 time.",
            ),
        },
        "cursor" => match positive(value) {
            Some(id) => query.older_than = Some(id),
            None => errors.add("cursor", "The cursor is the next_cursor of a page."),
        },
        "limit" => match positive(value)
            .and_then(|n| u64::try_from(n).ok())
            .filter(|n| *n <= MAX_PAGE_SIZE)
        {
            Some(limit) => query.limit = limit,
            None => errors.add(
                "limit",
                format!("The limit is a whole number from 1 to {MAX_PAGE_SIZE}."),
            ),
        },
        _ => {}
    }
}

/// The query string as a filter; every bad parameter is named in one 422.
fn query(request: &HttpRequest) -> Result<AuditQuery, ApiError> {
    let pairs = web::Query::<Vec<(String, String)>>::from_query(request.query_string())
        .map_err(|_| ApiError::BadRequest("The query string cannot be read.".into()))?
        .into_inner();
    let mut query = AuditQuery {
        actor: None,
        kind: None,
        since: None,
        before: None,
        older_than: None,
        limit: PAGE_SIZE,
    };
    let mut errors = FieldErrors::new();
    for (name, value) in &pairs {
        if value.trim().is_empty() {
            continue; // an empty filter is no filter
        }
        filter(&mut query, name, value, &mut errors);
    }
    if let (Some(since), Some(before)) = (query.since, query.before) {
        if before <= since {
            errors.add("before", "The end must be after the start.");
        }
    }
    errors.finish()?;
    Ok(query)
}

/// `GET /api/admin/audit?actor_id=&kind=&since=&before=&cursor=&limit=`: the staff audit log,
/// newest first (`since` inclusive, `before` exclusive).
#[utoipa::path(
    get,
    path = "/api/admin/audit",
    operation_id = "admin_list_audit",
    tag = "staff: audit",
    params(
        ("actor_id" = Option<String>, Query, description = "A staff member's user id, or `cli` for the command line."),
        ("kind" = Option<String>, Query, description = "One kind, e.g. `stock.set`."),
        ("since" = Option<String>, Query, description = "At or after: `YYYY-MM-DD` (midnight UTC) or RFC 3339."),
        ("before" = Option<String>, Query, description = "Strictly before: `YYYY-MM-DD` (midnight UTC) or RFC 3339."),
        ("cursor" = Option<i64>, Query, description = "The previous page's `next_cursor`."),
        ("limit" = Option<u64>, Query, description = "Entries per page, 1 to 100 (50)."),
    ),
    responses(
        (status = 200, description = "A page of the log, newest first.", body = AuditPage),
        (status = 401, description = "Not logged in.", body = crate::error::ErrorBody),
        (status = 403, description = "Not a super_admin.", body = crate::error::ErrorBody),
        (status = 422, description = "A bad filter.", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn list(
    _admin: RequireSuperAdmin,
    request: HttpRequest,
    audit: web::Data<AuditService>,
) -> Result<HttpResponse, ApiError> {
    let page = audit
        .page(query(&request)?)
        .await
        .map_err(ApiError::internal)?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(AuditPage {
            entries: page.entries.into_iter().map(to_json).collect(),
            next_cursor: page.next_cursor,
            actors: page
                .actors
                .into_iter()
                .map(|actor| AuditActorJson {
                    id: actor.id,
                    name: actor.name,
                })
                .collect(),
            kinds: AuditKind::ALL.iter().map(|kind| kind.as_str()).collect(),
        }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_days_or_rfc3339() {
        assert_eq!(
            time("2026-11-25").map(|t| t.to_rfc3339()),
            Some("2026-11-25T00:00:00+00:00".to_owned())
        );
        assert_eq!(
            time("2026-11-25T10:30:00+02:00").map(|t| t.to_rfc3339()),
            Some("2026-11-25T08:30:00+00:00".to_owned())
        );
        assert_eq!(time("25/11/2026"), None);
        assert_eq!(time("2026-13-01"), None);
    }
}
