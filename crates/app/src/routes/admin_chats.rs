//! The Live Chats panel's calls: admin and super_admin only (401 without a session, 403 for a
//! customer). The polled reads (the list, one chat, its messages) are answered from the poll
//! cache while nothing changed.

use super::path_id::Id;
use std::collections::HashMap;

use accounts::Role;
use actix_web::{web, HttpRequest, HttpResponse};
use chat::{
    ChatId, Lookup, Side, StaffChatsQuery, StaffCursor, StaffFilter, StaffMember, StaffRole, View,
};
use chrono::{DateTime, SecondsFormat, Utc};

use crate::auth::{CurrentUser, RequireStaff};
use crate::client_ip::ClientIp;
use crate::error::{ApiError, FieldErrors};
use crate::help_chat::HelpChat;
use crate::routes::chat::{cached_json, chat_id, message_text};
use dto::chat::{Cached, ChatJson, ListQuery, ListedChat, MessageJson, Reply, ReplySent};
use dto::lenient::Lenient;
use dto::staff::{Confirmation, StaffJson, StaffOnly};

fn staff_member(user: &CurrentUser) -> StaffMember {
    StaffMember {
        id: user.user_id(),
        name: user.name.clone(),
        role: if user.role == Role::SuperAdmin {
            StaffRole::SuperAdmin
        } else {
            StaffRole::Admin
        },
    }
}

/// How many chats one page of the staff list holds.
pub const STAFF_PAGE: u32 = 50;

/// The cursor of a listed chat: its last activity and id.
fn cursor_text(cursor: &StaffCursor) -> String {
    format!(
        "{}_{}",
        cursor
            .updated_at
            .to_rfc3339_opts(SecondsFormat::AutoSi, true),
        cursor.id
    )
}

fn parse_cursor(text: &str) -> Option<StaffCursor> {
    let (at, id) = text.split_once('_')?;
    Some(StaffCursor {
        updated_at: DateTime::parse_from_rfc3339(at).ok()?.with_timezone(&Utc),
        id: id.parse().ok()?,
    })
}

/// The page a list query asks for.
fn parse_query(query: &ListQuery) -> Result<StaffChatsQuery, ApiError> {
    let mut errors = FieldErrors::new();
    let filter = match query.status {
        Lenient::Absent => Some(StaffFilter::Open),
        Lenient::Given(filter) => Some(filter.into()),
        Lenient::Invalid => {
            errors.add("status", "The status must be open, closed or all.");
            None
        }
    };
    let before = match query.before.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(text) => {
            let cursor = parse_cursor(text);
            if cursor.is_none() {
                errors.add("before", "This is not a cursor from the chat list.");
            }
            cursor
        }
    };
    errors.finish()?;
    Ok(StaffChatsQuery {
        filter: filter.unwrap_or_default(),
        before,
        limit: STAFF_PAGE,
    })
}

/// The poll cache's key for a page.
fn page_key(query: &StaffChatsQuery) -> String {
    format!(
        "{:?}:{}",
        query.filter,
        query.before.as_ref().map(cursor_text).unwrap_or_default()
    )
}

/// GET /api/admin/chats[?status=open|closed|all][&before=cursor]: one page (50) of the chats
/// that asked for a live agent, newest activity first; closed ones only on request.
#[utoipa::path(
    get,
    path = "/api/admin/chats",
    operation_id = "admin_list_chats",
    tag = "staff: chats",
    summary = "The chats waiting for or with a live agent",
    description = "One page (50) of the chats that asked for a live agent, newest activity \
                   first; closed ones only on request. Poll it with `If-None-Match` (staff).",
    params(
        ListQuery,
        ("If-None-Match" = Option<String>, Header, description = "An `ETag` this call sent: 304 while the page is the same."),
    ),
    responses(
        (status = 200, description = "The page of chats.", body = Vec<ListedChat>,
            headers(
                ("ETag" = String, description = "The page's version."),
                ("Cache-Control" = String, description = "`private, no-cache`"),
            )),
        (status = 304, description = "Not modified: the page is the one `If-None-Match` names; no body.",
            headers(
                ("ETag" = String, description = "The version that matched."),
                ("Cache-Control" = String, description = "`private, no-cache`"),
            )),
        StaffOnly,
        (status = 422, description = "`status` is not `open`, `closed` or `all`, or `before` is not a cursor from the list.",
            body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn list(
    req: HttpRequest,
    chats: web::Data<HelpChat>,
    _staff: RequireStaff,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = parse_query(&query)?;
    let key = page_key(&query);
    if let Some(cached) = chats.versions.staff_list(&key) {
        return Ok(cached_json(&req, &cached));
    }
    let ticket = chats.versions.ticket();
    let summaries = chats.service.staff_chats(query).await?;
    let mut versions = HashMap::with_capacity(summaries.len());
    let mut listed = Vec::with_capacity(summaries.len());
    for summary in summaries {
        versions.insert(summary.chat.id, summary.chat.version);
        let mut chat = chats
            .render_chat(&summary.chat, &[], Side::Staff, false)
            .await
            .map_err(ApiError::Internal)?;
        chat.has_unread_messages = summary.has_unread_messages;
        listed.push(ListedChat {
            chat,
            last_message: summary.last_message.as_ref().map(MessageJson::from),
            cursor: cursor_text(&StaffCursor::after(&summary.chat)),
        });
    }
    let body = serde_json::to_vec(&listed).map_err(ApiError::internal)?;
    let cached = chats
        .versions
        .install_staff_list(ticket, &key, versions, Cached::new(body));
    Ok(cached_json(&req, &cached))
}

/// Renders one staff view of a chat, from the cache when nothing changed.
async fn staff_view(
    req: &HttpRequest,
    chats: &HelpChat,
    id: ChatId,
    view: View,
) -> Result<HttpResponse, ApiError> {
    if let Lookup::Hit(cached) = chats.versions.lookup(id, None, view) {
        return Ok(cached_json(req, &cached));
    }
    let ticket = chats.versions.ticket();
    let loaded = chats.service.staff_chat(id).await?;
    let body = match view {
        View::StaffMessages => {
            let messages: Vec<MessageJson> =
                loaded.messages.iter().map(MessageJson::from).collect();
            serde_json::to_vec(&messages)
        }
        _ => {
            let chat = chats
                .render_chat(&loaded.chat, &loaded.messages, Side::Staff, true)
                .await
                .map_err(ApiError::Internal)?;
            serde_json::to_vec(&chat)
        }
    }
    .map_err(ApiError::internal)?;
    let cached = chats.versions.install(
        id,
        &loaded.chat.session,
        loaded.chat.version,
        ticket,
        view,
        Cached::new(body),
    );
    Ok(cached_json(req, &cached))
}

/// GET /api/admin/chats/{id}: the chat with its messages.
#[utoipa::path(
    get,
    path = "/api/admin/chats/{id}",
    operation_id = "admin_show_chat",
    tag = "staff: chats",
    summary = "One chat with its messages",
    description = "Any chat, with its messages oldest first. Poll it with `If-None-Match` \
                   (staff).",
    params(
        ("id" = uuid::Uuid, Path, description = "The chat's id."),
        ("If-None-Match" = Option<String>, Header, description = "An `ETag` this call sent: 304 while the chat is the same."),
    ),
    responses(
        (status = 200, description = "The chat with `messages`.", body = ChatJson,
            headers(
                ("ETag" = String, description = "The answer's version."),
                ("Cache-Control" = String, description = "`private, no-cache`"),
            )),
        (status = 304, description = "Not modified: the answer is the one `If-None-Match` names; no body.",
            headers(
                ("ETag" = String, description = "The version that matched."),
                ("Cache-Control" = String, description = "`private, no-cache`"),
            )),
        StaffOnly,
        (status = 404, description = "No chat has this id (or the id is not a UUID).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn show(
    req: HttpRequest,
    chats: web::Data<HelpChat>,
    _staff: RequireStaff,
    Id(id): Id<ChatId>,
) -> Result<HttpResponse, ApiError> {
    staff_view(&req, &chats, id, View::StaffChat).await
}

/// GET /api/admin/chats/{id}/messages: the conversation, oldest first.
#[utoipa::path(
    get,
    path = "/api/admin/chats/{id}/messages",
    operation_id = "admin_chat_messages",
    tag = "staff: chats",
    summary = "One chat's messages",
    description = "The conversation, oldest first. Poll it with `If-None-Match` (staff).",
    params(
        ("id" = uuid::Uuid, Path, description = "The chat's id."),
        ("If-None-Match" = Option<String>, Header, description = "An `ETag` this call sent: 304 while the chat is the same."),
    ),
    responses(
        (status = 200, description = "The messages.", body = Vec<MessageJson>,
            headers(
                ("ETag" = String, description = "The answer's version."),
                ("Cache-Control" = String, description = "`private, no-cache`"),
            )),
        (status = 304, description = "Not modified: the answer is the one `If-None-Match` names; no body.",
            headers(
                ("ETag" = String, description = "The version that matched."),
                ("Cache-Control" = String, description = "`private, no-cache`"),
            )),
        StaffOnly,
        (status = 404, description = "No chat has this id (or the id is not a UUID).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn messages(
    req: HttpRequest,
    chats: web::Data<HelpChat>,
    _staff: RequireStaff,
    Id(id): Id<ChatId>,
) -> Result<HttpResponse, ApiError> {
    staff_view(&req, &chats, id, View::StaffMessages).await
}

/// POST /api/admin/chats/{id}/mark-read: staff have read the conversation so far.
#[utoipa::path(
    post,
    path = "/api/admin/chats/{id}/mark-read",
    operation_id = "admin_mark_chat_read",
    tag = "staff: chats",
    summary = "Mark a chat read",
    description = "Staff have read the conversation so far: its unread flag clears (staff).",
    params(("id" = uuid::Uuid, Path, description = "The chat's id.")),
    responses(
        (status = 200, description = "Done: `{\"message\": \"ok\"}`.", body = Confirmation),
        StaffOnly,
        (status = 404, description = "No chat has this id (or the id is not a UUID).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn mark_read(
    chats: web::Data<HelpChat>,
    _staff: RequireStaff,
    Id(id): Id<ChatId>,
) -> Result<HttpResponse, ApiError> {
    chats
        .changing(id, chats.service.staff_mark_read(id))
        .await?;
    Ok(HttpResponse::Ok().json(Confirmation::new("ok")))
}

/// POST /api/admin/chats/{id}/accept: joins a waiting chat; of two staff accepting at once,
/// one wins and the other gets 409.
#[utoipa::path(
    post,
    path = "/api/admin/chats/{id}/accept",
    operation_id = "admin_accept_chat",
    tag = "staff: chats",
    summary = "Join a waiting chat",
    description = "The caller joins a chat waiting for an agent (pending -> connected); of two \
                   staff accepting at once, one wins and the other gets 409 (staff).",
    params(("id" = uuid::Uuid, Path, description = "The chat's id.")),
    responses(
        (status = 200, description = "The chat, connected (without its messages).", body = ChatJson),
        StaffOnly,
        (status = 404, description = "No chat has this id (or the id is not a UUID).", body = crate::error::ErrorBody),
        (status = 409, description = "The chat is not waiting for an agent (another agent joined, it is with the \
            assistant, or it ended).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn accept(
    chats: web::Data<HelpChat>,
    staff: RequireStaff,
    Id(id): Id<ChatId>,
) -> Result<HttpResponse, ApiError> {
    let member = staff_member(&staff.0);
    chats.remember_staff_name(member.id, &member.name);
    let chat = chats
        .changing(id, chats.service.accept(id, &member))
        .await?;
    let rendered = chats
        .render_chat(&chat, &[], Side::Staff, false)
        .await
        .map_err(ApiError::Internal)?;
    Ok(HttpResponse::Ok().json(rendered))
}

/// POST /api/chat/admin-reply: a message from staff in a connected chat.
#[utoipa::path(
    post,
    path = "/api/chat/admin-reply",
    operation_id = "admin_reply_in_chat",
    tag = "staff: chats",
    summary = "Write in a chat",
    description = "A message from the caller in a chat they or another agent joined (staff).",
    request_body = Reply,
    responses(
        (status = 200, description = "The message as stored.", body = ReplySent),
        StaffJson,
        (status = 404, description = "No chat has this `chat_id` (or it is missing or not a UUID).", body = crate::error::ErrorBody),
        (status = 409, description = "The chat is not connected to an agent (waiting, with the assistant, or ended).",
            body = crate::error::ErrorBody),
        (status = 422, description = "`message` missing, blank or longer than 2000 characters (or a field of the \
            wrong JSON type).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn reply(
    chats: web::Data<HelpChat>,
    staff: RequireStaff,
    body: web::Json<Reply>,
) -> Result<HttpResponse, ApiError> {
    let id = chat_id(body.chat_id.as_deref().unwrap_or_default())?;
    let mut errors = FieldErrors::new();
    let text = message_text(&mut errors, body.message.as_deref());
    let text = errors.finish_with(|| text)?;
    let member = staff_member(&staff.0);
    let message = chats
        .changing(id, chats.service.reply(id, &member, text))
        .await?;
    Ok(HttpResponse::Ok().json(ReplySent {
        message: MessageJson::from(&message),
    }))
}

/// DELETE /api/admin/chats/{id}: removes the chat (by the CHAT's id) and its messages.
#[utoipa::path(
    delete,
    path = "/api/admin/chats/{id}",
    operation_id = "admin_delete_chat",
    tag = "staff: chats",
    summary = "Delete a chat",
    description = "Removes any chat and its messages (staff).",
    params(("id" = uuid::Uuid, Path, description = "The chat's id.")),
    responses(
        (status = 200, description = "Deleted: `Conversation deleted.`", body = Confirmation),
        StaffOnly,
        (status = 404, description = "No chat has this id (or the id is not a UUID).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn delete(
    chats: web::Data<HelpChat>,
    RequireStaff(staff): RequireStaff,
    ip: ClientIp,
    Id(id): Id<ChatId>,
) -> Result<HttpResponse, ApiError> {
    let actor = staff.actor(ip);
    chats
        .changing(id, chats.service.staff_delete(id, &actor))
        .await?;
    Ok(HttpResponse::Ok().json(Confirmation::new("Conversation deleted.")))
}
