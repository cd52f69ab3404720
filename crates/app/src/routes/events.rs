//! `GET /api/events`: the browser's one Server-Sent Events stream. It carries what its viewer
//! may see — their chat (by the chat session id the browser holds, as the chat calls take it),
//! the orders their cookie session placed or their account owns, the product list's changes,
//! and with `?staff=1` (a staff session: 401 without one, 403 for a customer) every live chat
//! and the delivery queue. `Last-Event-ID` (or `?last_event_id=` when the browser opens a new
//! stream itself) resumes where it stopped.

use super::path_id::PathId;
use orders::OrderId;
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use ::events::Viewer;
use actix_session::storage::SessionKey;
use actix_web::{
    http::header::{self, ContentEncoding},
    web, FromRequest, HttpRequest, HttpResponse,
};
use chat::SessionId;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::auth::session::LiveSessions;
use crate::auth::{AccountsService, RequireStaff};
use crate::client_ip::ClientIp;
use crate::error::{ApiError, FieldErrors};
use crate::events::streams::{self, StreamLimits};
use crate::events::ShopEvents;
use crate::routes::orders::{order_not_found, session_orders, Visitor};
use crate::settings::EventsSettings;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// "1" (or "true"): the staff stream (needs a staff session).
    #[param(example = "1")]
    staff: Option<String>,
    /// The browser's help chat session id (8 to 128 letters, digits, `-` and `_`): its chat's
    /// events.
    chat_session: Option<String>,
    /// Where a stream the browser opened itself resumes (a whole number, 0 or more); the
    /// `Last-Event-ID` header wins.
    #[param(value_type = Option<i64>, minimum = 0)]
    last_event_id: Option<String>,
    /// With `key`: an order's events for any browser holding its link (the receipt's), or
    /// for the session that placed it or its owner, whatever the key.
    #[param(value_type = Option<i64>, minimum = 1)]
    order: Option<String>,
    /// The key of the order's link.
    #[param(max_length = 128)]
    key: Option<String>,
}

fn event_number(text: &str) -> Option<i64> {
    text.trim().parse::<i64>().ok().filter(|id| *id >= 0)
}

/// `GET /api/events`.
#[utoipa::path(
    get,
    path = "/api/events",
    tag = "live updates",
    summary = "Server-Sent Events: what changed for this viewer",
    description = "One long-lived `text/event-stream` per browser tab. An event says what \
changed, never the data: the browser refetches the call it already uses, under the usual \
session and role rules. Each frame is `id: <n>`, `event: <kind>`, `data: <JSON>`. Kinds:\n\n\
- `ready` — first, `{\"resumed\": false}` on a fresh stream, `{\"resumed\": true}` when resuming \
from `Last-Event-ID` / `last_event_id` (missed events follow).\n\
- `products` — the storefront's product list changed: `{\"version\": etag}` (everyone).\n\
- `chat` — a help chat changed: `{\"chat_id\", \"status\", \"version\"}` (`status` \"deleted\" when \
gone); the chat of `chat_session`, and every chat on the staff stream.\n\
- `chat_list` — staff's chat list changed as a whole (chats purged): `{}` (staff stream).\n\
- `order` — an order's status or place in the delivery queue changed: \
`{\"order_id\", \"status\", \"step\"}` (`step`: placed, awaiting_payment, paid, paid_after_expiry, held, \
claimed, released, ready, delivered, refunded, partly_refunded, disputed, dispute_won, \
dispute_lost, risk_held, hold_released, cancelled, expired); the orders this \
cookie session placed or the account owns, the order of `order` (with its link's `key`, or \
for its own session or owner whatever the key, as `GET /api/orders/{id}` shows it), and \
every order on the staff stream.\n\
- `order_message` — a message on an order's page, from its buyer or staff: `{\"order_id\", \
\"message\": {\"id\", \"from\", \"author\", \"text\", \"created_at\"}}` (the message itself, as \
`GET /api/orders/{id}/messages` lists it); the same viewers as `order`.\n\
- `resync` — too much was missed to replay: `{}`; refetch everything.\n\
- `ended` — the session the stream was opened with is gone (logged out, a password reset, \
expired), or the staff stream's account is no longer staff: `{}`; the stream closes. Checked \
at every heartbeat; a stream opened with an order's key alone has no session to end.\n\n\
Heartbeats are comment lines (`: ping`) with the current `id`. Streams are limited per client \
network, per account and in total.",
    params(
        EventsQuery,
        ("Last-Event-ID" = Option<String>, Header, description = "Sent by the browser when it reconnects: the last `id` it saw (a value that is not a whole number is ignored)."),
    ),
    responses(
        (status = 200, description = "The stream (`Cache-Control: no-cache, no-transform`, never compressed).",
            content_type = "text/event-stream", body = String,
            example = json!("retry: 3000\nid: 41\nevent: ready\ndata: {\"resumed\":false}\n\nid: 42\nevent: order\ndata: {\"order_id\":7,\"status\":\"paid\"}\n\n")),
        (status = 401, description = "`staff=1` without a session.", body = crate::error::ErrorBody),
        (status = 403, description = "`staff=1` with an account that is not staff.", body = crate::error::ErrorBody),
        (status = 404, description = "`order` given, but this browser may not see it: the key does not open it and it is neither this session's nor this account's (or it does not exist). The same as `GET /api/orders/{id}` answers.", body = crate::error::ErrorBody),
        (status = 422, description = "A malformed `chat_session` or `last_event_id`, or a parameter given twice.", body = crate::error::ErrorBody),
        (status = 429, description = "Too many open streams from this network or account; `Retry-After` says when to try again.", body = crate::error::ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait."))),
        (status = 503, description = "The server has as many streams open as it takes; the page keeps polling.", body = crate::error::ErrorBody),
    ),
    security((), ("session_cookie" = [])),
)]
#[allow(clippy::too_many_arguments)]
pub async fn stream(
    req: HttpRequest,
    events: web::Data<ShopEvents>,
    limits: web::Data<StreamLimits>,
    settings: web::Data<EventsSettings>,
    accounts: web::Data<AccountsService>,
    live_sessions: web::Data<LiveSessions>,
    visitor: Visitor,
    client: ClientIp,
    query: web::Query<EventsQuery>,
) -> Result<HttpResponse, ApiError> {
    let (chat_session, from_query) = parse_query(&query)?;
    let keyed_order = linked_order(&visitor, &query).await?;
    // the browser's own reconnection sends what it last saw; a value we never sent is ignored
    let last_event_id = req
        .headers()
        .get("last-event-id")
        .and_then(|value| value.to_str().ok())
        .and_then(event_number)
        .or(from_query);

    let staff = match query.staff.as_deref() {
        Some("1") | Some("true") => Some(RequireStaff::extract(&req).await?.0),
        _ => None,
    };
    let user_id = visitor.user.0.as_ref().map(|u| u.id);
    let guard = limits.admit(&client.network_key(), user_id)?;
    let from_session = session_orders(&visitor.session);
    // what the cookie session opened (an account, staff, the orders it placed) lives with it;
    // an order opened by its key alone has no session to end
    let session_key = (user_id.is_some() || !from_session.is_empty())
        .then(|| live_sessions.key_of(&req))
        .flatten();
    let viewer = Viewer {
        chat_session: chat_session.map(|s| s.as_ref().to_owned()),
        orders: from_session
            .into_iter()
            .chain(keyed_order)
            .collect::<HashSet<_>>(),
        user_id: user_id.map(accounts::UserId::new),
        staff: staff.is_some(),
    };
    let staff_id = staff.map(|staff| accounts::UserId::new(staff.id));
    let still_valid = still_valid(&accounts, &live_sessions, session_key, staff_id);
    let options = streams::StreamOptions {
        heartbeat: Duration::from_secs(settings.heartbeat_seconds.max(1)),
        retry: Duration::from_millis(settings.retry_ms),
        replay_max: settings.replay_max,
    };
    let body = streams::open(&events, viewer, last_event_id, options, guard, still_valid)
        .await
        .map_err(ApiError::Internal)?;
    Ok(event_stream(body))
}

/// The query's chat session id and resume point, or 422 naming each malformed one.
fn parse_query(query: &EventsQuery) -> Result<(Option<SessionId>, Option<i64>), ApiError> {
    let mut errors = FieldErrors::new();
    let chat_session = match query.chat_session.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(text) => errors.check("chat_session", SessionId::parse(text)),
    };
    let from_query = match query.last_event_id.as_deref() {
        None | Some("") => None,
        Some(text) => {
            let id = event_number(text);
            if id.is_none() {
                errors.add("last_event_id", "The last event id must be a whole number.");
            }
            id
        }
    };
    errors.finish()?;
    Ok((chat_session, from_query))
}

/// The order of `?order=&key=`, when its page may show it: the same rule as
/// `GET /api/orders/{id}` (the session that placed it, its owner, or the right key), so a page
/// that shows an order always gets its events. A link with a wrong key in the browser that placed
/// the order keeps its live updates; anyone else gets 404, as the page did.
async fn linked_order(visitor: &Visitor, query: &EventsQuery) -> Result<Option<i64>, ApiError> {
    let (order, key) = match (query.order.as_deref(), query.key.as_deref()) {
        (None, None) => return Ok(None),
        (None, Some(_)) => return Err(ApiError::NotFound(order_not_found())),
        (Some(order), key) => (order.trim(), key),
    };
    let order =
        OrderId::from_segment(order).ok_or_else(|| ApiError::NotFound(order_not_found()))?;
    let order = visitor.order(order, key).await?;
    Ok(Some(order.id.get()))
}

/// The heartbeat's check for a stream opened with a cookie session or as staff: the session
/// still exists and the staff account is still staff. `None` when there is nothing to check.
fn still_valid(
    accounts: &web::Data<AccountsService>,
    live_sessions: &web::Data<LiveSessions>,
    session_key: Option<SessionKey>,
    staff_id: Option<accounts::UserId>,
) -> Option<streams::StillValid> {
    if session_key.is_none() && staff_id.is_none() {
        return None;
    }
    let accounts = accounts.clone().into_inner();
    let live = live_sessions.clone().into_inner();
    let session_key = session_key.map(Arc::new);
    let check: streams::StillValid = Arc::new(move || {
        let (accounts, live) = (Arc::clone(&accounts), Arc::clone(&live));
        let session_key = session_key.clone();
        Box::pin(async move {
            if let Some(key) = &session_key {
                if !live.exists(key).await {
                    return false;
                }
            }
            // a failed read keeps the stream: the next heartbeat asks again
            match staff_id {
                None => true,
                Some(id) => match accounts.user(id).await {
                    Ok(Some(user)) => user.role.is_staff(),
                    Ok(None) => false,
                    Err(_) => true,
                },
            }
        })
    });
    Some(check)
}

/// The 200 answer carrying the stream.
fn event_stream<S>(body: S) -> HttpResponse
where
    S: futures::Stream<Item = Result<web::Bytes, actix_web::Error>> + 'static,
{
    HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache, no-transform"))
        // compression would hold events back until a buffer fills
        .insert_header(ContentEncoding::Identity)
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body)
}
