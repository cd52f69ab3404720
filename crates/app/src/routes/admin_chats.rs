//! The Live Chats panel's calls: admin and super_admin only (401 without a session, 403 for a
//! customer). The polled reads (the list, one chat, its messages) are answered from the poll
//! cache while nothing changed.

use std::collections::HashMap;

use accounts::Role;
use actix_web::{web, HttpRequest, HttpResponse};
use chat::{ChatId, Side, StaffChatsQuery, StaffCursor, StaffFilter, StaffMember, StaffRole};
use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::auth::{CurrentUser, RequireStaff};
use crate::chat_versions::{Lookup, View};
use crate::client_ip::ClientIp;
use crate::error::{ApiError, FieldErrors};
use crate::help_chat::HelpChat;
use crate::help_chat::{ChatJson, MessageJson};
use crate::routes::chat::{cached_json, chat_id, message_text};

fn staff_member(user: &CurrentUser) -> StaffMember {
    StaffMember {
        id: user.id,
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

#[derive(Serialize)]
struct ListedChat {
    #[serde(flatten)]
    chat: ChatJson,
    last_message: Option<MessageJson>,
    /// Pass the last listed chat's cursor as `?before=` for the next page.
    cursor: String,
}

#[derive(Debug, Deserialize)]
pub struct ListQuery {
    /// `open` (waiting or connected; the default), `closed` or `all`.
    status: Option<String>,
    /// A listed chat's `cursor`: the page continues after it.
    before: Option<String>,
}

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

impl ListQuery {
    fn parse(&self) -> Result<StaffChatsQuery, ApiError> {
        let mut errors = FieldErrors::new();
        let filter = match self.status.as_deref().map(str::trim) {
            None | Some("") | Some("open") => Some(StaffFilter::Open),
            Some("closed") => Some(StaffFilter::Closed),
            Some("all") => Some(StaffFilter::All),
            Some(_) => {
                errors.add("status", "The status must be open, closed or all.");
                None
            }
        };
        let before = match self.before.as_deref().map(str::trim) {
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
pub async fn list(
    req: HttpRequest,
    chats: web::Data<HelpChat>,
    _staff: RequireStaff,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = query.parse()?;
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
        .install_staff_list(ticket, &key, versions, body);
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
        body,
    );
    Ok(cached_json(req, &cached))
}

/// GET /api/admin/chats/{id}: the chat with its messages.
pub async fn show(
    req: HttpRequest,
    chats: web::Data<HelpChat>,
    _staff: RequireStaff,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    staff_view(&req, &chats, chat_id(&path)?, View::StaffChat).await
}

/// GET /api/admin/chats/{id}/messages: the conversation, oldest first.
pub async fn messages(
    req: HttpRequest,
    chats: web::Data<HelpChat>,
    _staff: RequireStaff,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    staff_view(&req, &chats, chat_id(&path)?, View::StaffMessages).await
}

/// POST /api/admin/chats/{id}/mark-read: staff have read the conversation so far.
pub async fn mark_read(
    chats: web::Data<HelpChat>,
    _staff: RequireStaff,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = chat_id(&path)?;
    let done = chats.service.staff_mark_read(id).await;
    chats.versions.changed(id);
    done?;
    Ok(HttpResponse::Ok().json(json!({ "message": "ok" })))
}

/// POST /api/admin/chats/{id}/accept: joins a waiting chat; of two staff accepting at once,
/// one wins and the other gets 409.
pub async fn accept(
    chats: web::Data<HelpChat>,
    staff: RequireStaff,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = chat_id(&path)?;
    let member = staff_member(&staff.0);
    chats.remember_staff_name(member.id, &member.name);
    let accepted = chats.service.accept(id, &member).await;
    chats.versions.changed(id);
    let chat = accepted?;
    let rendered = chats
        .render_chat(&chat, &[], Side::Staff, false)
        .await
        .map_err(ApiError::Internal)?;
    Ok(HttpResponse::Ok().json(rendered))
}

#[derive(Debug, Deserialize)]
pub struct Reply {
    chat_id: Option<String>,
    message: Option<String>,
}

/// POST /api/chat/admin-reply: a message from staff in a connected chat.
pub async fn reply(
    chats: web::Data<HelpChat>,
    staff: RequireStaff,
    body: web::Json<Reply>,
) -> Result<HttpResponse, ApiError> {
    let id = chat_id(body.chat_id.as_deref().unwrap_or_default())?;
    let mut errors = FieldErrors::new();
    let text = message_text(&mut errors, body.message.as_deref());
    errors.finish()?;
    let Some(text) = text else {
        return Err(ApiError::internal(anyhow::anyhow!("no text")));
    };
    let sent = chats.service.reply(id, &staff_member(&staff.0), text).await;
    chats.versions.changed(id);
    let message = sent?;
    Ok(HttpResponse::Ok().json(json!({ "message": MessageJson::from(&message) })))
}

/// DELETE /api/admin/chats/{id}: removes the chat (by the CHAT's id) and its messages.
pub async fn delete(
    chats: web::Data<HelpChat>,
    RequireStaff(staff): RequireStaff,
    ip: ClientIp,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = chat_id(&path)?;
    let deleted = chats.service.staff_delete(id, &staff.actor(ip)).await;
    chats.versions.changed(id);
    deleted?;
    Ok(HttpResponse::Ok().json(json!({ "message": "Conversation deleted." })))
}
