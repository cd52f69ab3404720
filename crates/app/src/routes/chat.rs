//! The shopper's help chat calls under /api/chat. Every call carries the browser's chat session
//! id; a chat of another session answers 404 exactly like an id that does not exist. The two
//! polled reads (status, history) are answered from the poll cache when nothing changed.

use actix_session::Session;
use actix_web::{http::header, web, HttpRequest, HttpResponse};
use chat::{
    Asker, AskerOrder, ChatError, ChatId, ChatUser, Lookup, MessageText, SessionId, Side, View,
};
use orders::{CheckoutService, OrderId};
use shared::Rule;

use crate::auth::MaybeUser;
use crate::checkout::{PublicUrl, ShopCheckout};
use crate::client_ip::ClientIp;
use crate::error::{ApiError, FieldErrors};
use crate::help_chat::HelpChat;
use crate::language::RequestLanguage;
use crate::limits::RateLimits;
use dto::chat::{
    Cached, ChatEnded, ChatHistory, ChatJson, ChatQuery, MessageJson, Send, SentMessage,
    SessionQuery, StartAi, StartLive, StartedChat,
};
use dto::order::status_label;
use dto::responses::{CrossSiteRefused, JsonBodyRefused};

/// The rate limit buckets of the help chat.
const LIVE_PER_IP: &str = "chat_live_ip";
const SENDS_PER_SESSION: &str = chat::SENDS_PER_SESSION_BUCKET;

pub(crate) use super::path_id::chat_not_found;

pub(crate) fn not_found() -> ApiError {
    ApiError::NotFound(chat_not_found())
}

/// A chat id from the client: anything that is not one names no chat (404).
pub(crate) fn chat_id(text: &str) -> Result<ChatId, ApiError> {
    text.parse().map_err(|_| not_found())
}

fn session_id(errors: &mut FieldErrors, text: Option<&str>) -> Option<SessionId> {
    errors.check("session_id", SessionId::parse(text.unwrap_or_default()))
}

pub(crate) fn message_text(errors: &mut FieldErrors, text: Option<&str>) -> Option<MessageText> {
    errors.check_value("message", MessageText::parse(text.unwrap_or_default()))
}

/// A cached JSON body, or 304 when the client already has it.
pub(crate) fn cached_json(req: &HttpRequest, cached: &Cached) -> HttpResponse {
    let fresh = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| {
            tags.split(',')
                .any(|tag| tag.trim() == cached.etag || tag.trim() == "*")
        });
    let mut response = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((header::ETAG, cached.etag.clone()))
        .insert_header((header::CACHE_CONTROL, "private, no-cache"));
    if fresh {
        response.finish()
    } else {
        response
            .content_type("application/json")
            .body(cached.body.clone())
    }
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<Vec<u8>, ApiError> {
    serde_json::to_vec(value).map_err(ApiError::internal)
}

fn chat_user(user: MaybeUser) -> Option<ChatUser> {
    user.0.map(|u| ChatUser {
        id: u.user_id(),
        name: u.name,
    })
}

/// POST /api/chat/start-ai: a new chat with the assistant, which greets.
#[utoipa::path(
    post,
    path = "/api/chat/start-ai",
    tag = "chat",
    summary = "Open the help chat with the assistant",
    description = "The session's open chat when it has one (whatever its status, with what was \
                   said so far), otherwise a new chat with the assistant, which greets.",
    request_body = StartAi,
    responses(
        (status = 200, description = "The chat.", body = StartedChat),
        JsonBodyRefused,
        (status = 422, description = "No usable session id (`session_id`).", body = crate::error::ErrorBody),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn start_ai(
    chats: web::Data<HelpChat>,
    (user, language): (MaybeUser, RequestLanguage),
    body: web::Json<StartAi>,
) -> Result<HttpResponse, ApiError> {
    let mut errors = FieldErrors::new();
    let session = session_id(&mut errors, body.session_id.as_deref());
    let session = errors.finish_with(|| session)?;
    let started = chats
        .service
        .start_ai(session.clone(), chat_user(user), language.0)
        .await?;
    chats.versions.changed(started.chat.id);
    chats.versions.remember_owner(started.chat.id, &session);
    let chat = chats
        .render_chat(&started.chat, &started.messages, Side::Customer, true)
        .await
        .map_err(ApiError::Internal)?;
    Ok(HttpResponse::Ok().json(StartedChat {
        chat_id: chat.id.clone(),
        chat,
    }))
}

/// POST /api/chat/start-live: asks for a live agent. The session's open chat with the
/// assistant moves to pending (staff see what was said); without one a new pending chat is
/// made; a chat already waiting or connected is returned as it is (not counted again). New
/// requests count against `chat.max_live_per_ip_per_hour` per client address (429 beyond),
/// and staff are notified once per chat when a webhook is configured.
#[utoipa::path(
    post,
    path = "/api/chat/start-live",
    tag = "chat",
    summary = "Ask for a live agent",
    description = "The session's open chat with the assistant moves to `pending` (staff see \
                   what was said); without one a new pending chat is made; a chat already \
                   waiting or connected is answered as it is. New requests are limited per \
                   client network and hour (`chat.max_live_per_ip_per_hour`).",
    request_body = StartLive,
    responses(
        (status = 200, description = "The chat, waiting for (or talking to) an agent.", body = StartedChat),
        JsonBodyRefused,
        (status = 409, description = "The chat was closed while the request was made.", body = crate::error::ErrorBody),
        (status = 422, description = "No usable session id (`session_id`).", body = crate::error::ErrorBody),
        (status = 429, description = "Too many live-agent requests from this network; `Retry-After` says when to try again.", body = crate::error::ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait."))),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn start_live(
    chats: web::Data<HelpChat>,
    limits: web::Data<RateLimits>,
    client: ClientIp,
    (user, language): (MaybeUser, RequestLanguage),
    body: web::Json<StartLive>,
) -> Result<HttpResponse, ApiError> {
    let mut errors = FieldErrors::new();
    let session = session_id(&mut errors, body.session_id.as_deref());
    let session = errors.finish_with(|| session)?;
    let already_live = chats.service.waiting_for_agent(&session).await?;
    if !already_live {
        limits
            .check(
                LIVE_PER_IP,
                &client.network_key(),
                Rule::per_hour(chats.settings.max_live_per_ip_per_hour),
            )
            .await?;
    }
    let request = chats
        .service
        .start_live(session.clone(), chat_user(user), language.0)
        .await;
    if let Ok(request) = &request {
        chats.versions.changed(request.chat.id);
        chats.versions.remember_owner(request.chat.id, &session);
    }
    let request = request?;
    let chat = &request.chat;
    let messages = chats.service.messages_of(chat).await?;
    if request.notify_staff {
        let last_question = messages
            .iter()
            .rev()
            .find(|m| m.sender.is_customer())
            .map(|m| m.text.as_str());
        chats.notify_live_request(chat, last_question);
    }
    let rendered = chats
        .render_chat(chat, &messages, Side::Customer, true)
        .await
        .map_err(ApiError::Internal)?;
    Ok(HttpResponse::Ok().json(StartedChat {
        chat_id: rendered.id.clone(),
        chat: rendered,
    }))
}

/// Answers 404 from memory when the chat is known to belong to another session.
fn check_owner(chats: &HelpChat, id: ChatId, session: &SessionId) -> Result<(), ApiError> {
    match chats.versions.lookup(id, Some(session), View::Status) {
        Lookup::NotOwner => Err(not_found()),
        _ => Ok(()),
    }
}

/// Who writes in the help chat, for the assistant: their open orders
/// ([`CheckoutService::open_orders`]), as this visitor may see them on their order pages
/// ([`Viewer::owns`](orders::Viewer::owns)): placed in this browser's session or on their
/// logged-in account. The links carry no key (the key is not stored, and the chat is: this
/// browser opens its own orders without one). When the orders cannot be read the assistant
/// answers without them. The asker's language is the one the chat widget is shown in (the
/// `lang` cookie the widget's page sends, else the browser's).
async fn asker(
    checkout: &ShopCheckout,
    public_url: &PublicUrl,
    (browser, user): (&Session, &MaybeUser),
    language: RequestLanguage,
) -> Asker {
    let placed_here: Vec<OrderId> = super::orders::session_orders(browser)
        .into_iter()
        .map(OrderId::new)
        .collect();
    let user = user.0.as_ref().map(|user| user.user_id());
    match checkout.open_orders(&placed_here, user).await {
        Ok(orders) => Asker {
            orders: orders
                .iter()
                .map(|order| AskerOrder {
                    number: order.id.get(),
                    status: status_label(order).to_owned(),
                    link: format!("{}/orders/{}", public_url.as_str(), order.id),
                })
                .collect(),
            language: language.0,
        },
        Err(error) => {
            tracing::warn!(error = ?error, "could not read the chat visitor's orders");
            Asker {
                orders: vec![],
                language: language.0,
            }
        }
    }
}

/// POST /api/chat/send: stores the shopper's message; while the chat is with the assistant,
/// its answer too. At most `chat.max_messages_per_minute` per chat session (429 beyond,
/// nothing stored).
#[utoipa::path(
    post,
    path = "/api/chat/send",
    tag = "chat",
    summary = "Write in the help chat",
    description = "Stores the shopper's message; while the chat is with the assistant, its \
                   answer too. Asked where an order is, the assistant links the writer's own \
                   open orders (pending or paid, at most 3: placed in this browser's session or \
                   on the logged-in account) as `/orders/{id}` pages without a key. Limited per \
                   chat session and minute (`chat.max_messages_per_minute`; nothing is stored \
                   beyond).",
    request_body = Send,
    responses(
        (status = 200, description = "Stored.", body = SentMessage),
        JsonBodyRefused,
        (status = 404, description = "No such chat for this session (also for a malformed chat id).", body = crate::error::ErrorBody),
        (status = 409, description = "The chat has ended.", body = crate::error::ErrorBody),
        (status = 422, description = "No usable session id (`session_id`), or an empty or too long message (`message`).", body = crate::error::ErrorBody),
        (status = 429, description = "Too many messages this minute; `Retry-After` says when to try again.", body = crate::error::ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait."))),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn send(
    chats: web::Data<HelpChat>,
    limits: web::Data<RateLimits>,
    (checkout, public_url): (web::Data<ShopCheckout>, web::Data<PublicUrl>),
    (browser, user, language): (Session, MaybeUser, RequestLanguage),
    body: web::Json<Send>,
) -> Result<HttpResponse, ApiError> {
    let id = chat_id(body.chat_id.as_deref().unwrap_or_default())?;
    let mut errors = FieldErrors::new();
    let session = session_id(&mut errors, body.session_id.as_deref());
    let text = message_text(&mut errors, body.message.as_deref());
    let (session, text) = errors.finish_with(|| session.zip(text))?;
    check_owner(&chats, id, &session)?;
    limits
        .check(
            SENDS_PER_SESSION,
            session.as_ref(),
            Rule::per_minute(chats.settings.max_messages_per_minute),
        )
        .await?;
    let asker = asker(&checkout, &public_url, (&browser, &user), language).await;
    let send = chats.service.send(id, &session, text, &asker);
    let outcome = chats.changing(id, send).await?;
    let (reply, offer) = match &outcome.reply {
        Some(reply) => (
            Some(MessageJson::from(&reply.message)),
            reply.offer_live_agent,
        ),
        None => (None, false),
    };
    Ok(HttpResponse::Ok().json(SentMessage {
        message: MessageJson::from(&outcome.message),
        reply,
        offer_live_agent: offer,
    }))
}

/// The chat and session a poll names.
fn parse_query(query: &ChatQuery) -> Result<(ChatId, SessionId), ApiError> {
    let id = chat_id(query.chat_id.as_deref().unwrap_or_default())?;
    // a poll without a usable session id can be no one's chat
    let session = SessionId::parse(query.session_id.as_deref().unwrap_or_default())
        .map_err(|_| not_found())?;
    Ok((id, session))
}

/// GET /api/chat/history: the chat with its messages; marks what the shop said read for the
/// shopper. Answered from memory while nothing changed (nothing new to mark read either).
#[utoipa::path(
    get,
    path = "/api/chat/history",
    tag = "chat",
    summary = "The chat and its messages",
    description = "Polled by the chat window; marks what the shop said read. Answers carry an \
                   `ETag`: with `If-None-Match` the answer is 304 while nothing changed.",
    params(
        ChatQuery,
        ("If-None-Match" = Option<String>, Header, description = "The `ETag` of the last answer."),
    ),
    responses(
        (status = 200, description = "The chat with its messages.", body = ChatHistory,
            headers(("ETag" = String, description = "This version of the chat."))),
        (status = 304, description = "Nothing changed since the `If-None-Match` version.",
            headers(("ETag" = String, description = "This version of the chat."))),
        (status = 404, description = "No such chat for this session (also for a malformed chat or session id).", body = crate::error::ErrorBody),
        (status = 422, description = "The query string cannot be read (a parameter given twice).", body = crate::error::ErrorBody),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn history(
    req: HttpRequest,
    chats: web::Data<HelpChat>,
    query: web::Query<ChatQuery>,
) -> Result<HttpResponse, ApiError> {
    shopper_view(&req, &chats, &query, View::History).await
}

/// The shopper's poll of the chat, from memory while nothing changed: its `History` (with
/// the messages; what the shop said is marked read) or its `Status` (without).
async fn shopper_view(
    req: &HttpRequest,
    chats: &HelpChat,
    query: &ChatQuery,
    view: View,
) -> Result<HttpResponse, ApiError> {
    let (id, session) = parse_query(query)?;
    match chats.versions.lookup(id, Some(&session), view) {
        Lookup::Hit(cached) => return Ok(cached_json(req, &cached)),
        Lookup::NotOwner => return Err(not_found()),
        Lookup::Miss => {}
    }
    let history = view == View::History;
    if history {
        chats.service.mark_read(id, &session).await?;
        chats.versions.changed(id);
    }
    let ticket = chats.versions.ticket();
    let loaded = chats.service.history(id, &session).await?;
    let chat = chats
        .render_chat(&loaded.chat, &loaded.messages, Side::Customer, history)
        .await
        .map_err(ApiError::Internal)?;
    let body = match history {
        true => to_json(&ChatHistory { chat })?,
        false => to_json(&chat)?,
    };
    let cached = chats.versions.install(
        id,
        &session,
        loaded.chat.version,
        ticket,
        view,
        Cached::new(body),
    );
    Ok(cached_json(req, &cached))
}

/// GET /api/chat/status: the chat without messages; 404 once it is gone. Answered from memory
/// while nothing changed.
#[utoipa::path(
    get,
    path = "/api/chat/status",
    tag = "chat",
    summary = "The chat without its messages",
    description = "Polled to see whether an agent joined or the chat ended; 404 once it is gone. \
                   Answers carry an `ETag`: with `If-None-Match` the answer is 304 while \
                   nothing changed.",
    params(
        ChatQuery,
        ("If-None-Match" = Option<String>, Header, description = "The `ETag` of the last answer."),
    ),
    responses(
        (status = 200, description = "The chat (no `messages`).", body = ChatJson,
            headers(("ETag" = String, description = "This version of the chat."))),
        (status = 304, description = "Nothing changed since the `If-None-Match` version.",
            headers(("ETag" = String, description = "This version of the chat."))),
        (status = 404, description = "No such chat for this session (also for a malformed chat or session id).", body = crate::error::ErrorBody),
        (status = 422, description = "The query string cannot be read (a parameter given twice).", body = crate::error::ErrorBody),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn status(
    req: HttpRequest,
    chats: web::Data<HelpChat>,
    query: web::Query<ChatQuery>,
) -> Result<HttpResponse, ApiError> {
    shopper_view(&req, &chats, &query, View::Status).await
}

/// DELETE /api/chat/{chat_id}?session_id=: the shopper ends the chat. It is closed, not
/// erased: staff still see how a conversation with them ended.
#[utoipa::path(
    delete,
    path = "/api/chat/{chat_id}",
    tag = "chat",
    summary = "End the help chat",
    description = "Closes the chat (ending one that has already ended changes nothing). It is \
                   kept for staff.",
    params(
        ("chat_id" = String, Path, format = Uuid, description = "The chat (anything else answers 404)."),
        SessionQuery,
    ),
    responses(
        (status = 200, description = "Ended.", body = ChatEnded),
        CrossSiteRefused,
        (status = 404, description = "No such chat for this session (also for a malformed chat or session id).", body = crate::error::ErrorBody),
        (status = 422, description = "The query string cannot be read (a parameter given twice).", body = crate::error::ErrorBody),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn end(
    chats: web::Data<HelpChat>,
    path: web::Path<String>,
    (query, language): (web::Query<SessionQuery>, RequestLanguage),
) -> Result<HttpResponse, ApiError> {
    let id = chat_id(&path)?;
    let session = SessionId::parse(query.session_id.as_deref().unwrap_or_default())
        .map_err(|_| not_found())?;
    check_owner(&chats, id, &session)?;
    match chats
        .changing(id, chats.service.close(id, &session, language.0))
        .await
    {
        // ending a chat that has already ended changes nothing
        Ok(_) | Err(ChatError::Refused(_)) => {}
        Err(error) => return Err(error.into()),
    }
    Ok(HttpResponse::Ok().json(ChatEnded {
        message: l10n::text(language.0, "site-chat-ended"),
    }))
}
