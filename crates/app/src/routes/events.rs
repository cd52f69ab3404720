//! `GET /api/events`: the browser's one Server-Sent Events stream. It carries what its viewer
//! may see — their chat (by the chat session id the browser holds, as the chat calls take it),
//! the orders their cookie session placed or their account owns, the product list's changes,
//! and with `?staff=1` (a staff session: 401 without one, 403 for a customer) every live chat
//! and the delivery queue. `Last-Event-ID` (or `?last_event_id=` when the browser opens a new
//! stream itself) resumes where it stopped.

use std::collections::HashSet;
use std::time::Duration;

use actix_session::Session;
use actix_web::{
    http::header::{self, ContentEncoding},
    web, FromRequest, HttpRequest, HttpResponse,
};
use chat::SessionId;
use serde::Deserialize;

use crate::auth::{AccountsService, MaybeUser, RequireStaff};
use crate::client_ip::ClientIp;
use crate::error::{ApiError, FieldErrors};
use crate::events::{streams, ShopEvents, StreamLimits, Viewer};
use crate::routes::orders::session_orders;
use crate::settings::EventsSettings;

#[derive(Debug, Deserialize)]
pub struct EventsQuery {
    /// "1": the staff stream.
    staff: Option<String>,
    /// The browser's help chat session id.
    chat_session: Option<String>,
    /// Where a stream the browser opened itself resumes.
    last_event_id: Option<String>,
}

fn event_number(text: &str) -> Option<i64> {
    text.trim().parse::<i64>().ok().filter(|id| *id >= 0)
}

/// `GET /api/events`.
#[allow(clippy::too_many_arguments)]
pub async fn stream(
    req: HttpRequest,
    events: web::Data<ShopEvents>,
    limits: web::Data<StreamLimits>,
    settings: web::Data<EventsSettings>,
    accounts: web::Data<AccountsService>,
    session: Session,
    user: MaybeUser,
    client: ClientIp,
    query: web::Query<EventsQuery>,
) -> Result<HttpResponse, ApiError> {
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
    let user_id = user.0.as_ref().map(|u| u.id);
    let guard = limits.admit(&client.network_key(), user_id)?;
    let viewer = Viewer {
        chat_session: chat_session.map(|s| s.as_ref().to_owned()),
        orders: session_orders(&session).into_iter().collect::<HashSet<_>>(),
        user_id,
        staff: staff.is_some(),
    };
    let still_staff: Option<streams::StillStaff> = staff.map(|staff| {
        let accounts = accounts.clone().into_inner();
        let id = accounts::UserId::new(staff.id);
        let check: streams::StillStaff = std::sync::Arc::new(move || {
            let accounts = std::sync::Arc::clone(&accounts);
            Box::pin(async move {
                // a failed read keeps the stream: the next heartbeat asks again
                match accounts.user(id).await {
                    Ok(Some(user)) => user.role.is_staff(),
                    Ok(None) => false,
                    Err(_) => true,
                }
            })
        });
        check
    });
    let options = streams::StreamOptions {
        heartbeat: Duration::from_secs(settings.heartbeat_seconds.max(1)),
        retry: Duration::from_millis(settings.retry_ms),
        replay_max: settings.replay_max,
    };
    let body = streams::open(&events, viewer, last_event_id, options, guard, still_staff)
        .await
        .map_err(ApiError::Internal)?;
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache, no-transform"))
        // compression would hold events back until a buffer fills
        .insert_header(ContentEncoding::Identity)
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body))
}
