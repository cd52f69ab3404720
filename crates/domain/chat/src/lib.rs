//! The help chat: a shopper talks to the shop's assistant, asks for a live agent, and a member
//! of staff joins, replies and closes.
//!
//! A chat's status only moves along AI -> pending -> connected -> closed ([`ChatStatus::apply`]
//! is the one place that decides), every chat is reachable only with its own session id (or by
//! staff), and each side's unread messages are tracked against a read watermark.

pub mod error;
pub mod models;
pub mod ports;
pub mod service;
pub mod versions;

pub use error::ChatError;
pub use models::{
    Answer, Asker, AskerOrder, Chat, ChatAction, ChatChange, ChatId, ChatIdError, ChatMessage,
    ChatSentences, ChatStamp, ChatStatus, ChatSummary, ChatUser, ChatWithMessages, MessageId,
    MessageText, MessageTextError, NewChat, NewMessage, Opened, RefusalReason, Refused, Retention,
    SenderType, SessionId, SessionIdError, Side, StaffChatRow, StaffChatsQuery, StaffCursor,
    StaffFilter, StaffMember, StaffRole, StatusChange, BOT_GREETING, CHAT_CLOSED_NOTICE,
    LIVE_AGENT_JOINED_NOTICE, LIVE_AGENT_OFFER, LIVE_AGENT_REQUESTED_NOTICE, MAX_MESSAGE_CHARS,
};
pub use ports::{
    Assistant, ChatChanges, ChatNotices, ChatRepository, Clock, IdGenerator, RandomIds, StaffAlerts,
};
pub use service::{BotReply, ChatService, LiveRequest, SendOutcome};
pub use versions::{ChatVersions, Lookup, Ticket, View};

/// The rate limit bucket of a chat session's messages (the stored key is
/// `chat_send_session:{session id}`); an account's deletion removes its chats' counts.
pub const SENDS_PER_SESSION_BUCKET: &str = "chat_send_session";
