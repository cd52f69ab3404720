//! The help chat's request and answer bodies: the shopper's calls (`routes/chat.rs`), the Live
//! Chats panel's (`routes/admin_chats.rs`), and the rendered bodies the poll cache keeps.

use bytes::Bytes;
use chat::ChatMessage;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};

use crate::lenient::Lenient;

/// A rendered JSON body with its validator, as the poll cache (`chat::ChatVersions`) keeps it.
#[derive(Debug, Clone)]
pub struct Cached {
    pub body: Bytes,
    /// A strong validator: the quoted hash of the body.
    pub etag: String,
}

impl Cached {
    pub fn new(body: Vec<u8>) -> Self {
        let digest = Sha256::digest(&body);
        Cached {
            etag: format!("\"{}\"", hex::encode(&digest[..16])),
            body: Bytes::from(body),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UserJson {
    pub id: i64,
    pub name: String,
}

/// Who joined the chat: staff see the user id; a shopper sees the agent's display name (set
/// when an agent joined, as the spec's client expects, but never a staff user id).
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum AcceptedBy {
    Staff(i64),
    Shopper(String),
}

/// A chat as every chat call answers it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChatJson {
    #[schema(format = Uuid)]
    pub id: String,
    /// `ai`, `pending` (waiting for an agent), `connected` or `closed`.
    #[schema(example = "ai")]
    pub status: &'static str,
    /// The logged-in shopper; `null` for a guest.
    pub user: Option<UserJson>,
    #[schema(format = DateTime)]
    pub created_at: String,
    pub accepted_by: Option<AcceptedBy>,
    /// The display name of the member of staff who joined.
    pub accepted_by_name: Option<String>,
    /// Whether the other side wrote something this side has not read.
    pub has_unread_messages: bool,
    /// Oldest first; left out where a call answers the chat without its messages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub messages: Option<Vec<MessageJson>>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MessageJson {
    pub id: i64,
    pub message: String,
    /// `user`, `guest`, `bot`, `system`, `admin` or `super_admin`.
    #[schema(example = "guest")]
    pub sender_type: &'static str,
    #[schema(format = DateTime)]
    pub created_at: String,
}

impl From<&ChatMessage> for MessageJson {
    fn from(message: &ChatMessage) -> Self {
        MessageJson {
            id: message.id.get(),
            message: message.text.clone(),
            sender_type: message.sender.as_str(),
            created_at: message.created_at.to_rfc3339(),
        }
    }
}

/// The browser's chat session id: it generates one once and sends it with every chat call; it
/// is what makes a chat its own.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = StartChatRequest)]
pub struct StartAi {
    /// 8 to 128 letters, digits, `-` and `_`.
    #[schema(
        required = true,
        nullable = false,
        min_length = 8,
        max_length = 128,
        pattern = "^[A-Za-z0-9_-]{8,128}$"
    )]
    pub session_id: Option<String>,
}

/// A chat opened (or found open) for the session.
#[derive(Debug, Serialize, ToSchema)]
pub struct StartedChat {
    /// The chat with its messages.
    pub chat: ChatJson,
    /// The chat's id (also `chat.id`).
    #[schema(format = Uuid)]
    pub chat_id: String,
}

/// A request for a live agent.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = StartLiveChatRequest)]
pub struct StartLive {
    /// 8 to 128 letters, digits, `-` and `_`.
    #[schema(
        required = true,
        nullable = false,
        min_length = 8,
        max_length = 128,
        pattern = "^[A-Za-z0-9_-]{8,128}$"
    )]
    pub session_id: Option<String>,
    /// Ignored: the session's open chat is the one moved to an agent.
    #[allow(dead_code)]
    #[schema(nullable = false, deprecated)]
    pub chat_id: Option<String>,
}

/// A shopper's message.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = SendChatMessageRequest)]
pub struct Send {
    /// The chat (an unknown id, or one of another session, answers 404).
    #[schema(required = true, nullable = false, format = Uuid)]
    pub chat_id: Option<String>,
    /// 8 to 128 letters, digits, `-` and `_`.
    #[schema(
        required = true,
        nullable = false,
        min_length = 8,
        max_length = 128,
        pattern = "^[A-Za-z0-9_-]{8,128}$"
    )]
    pub session_id: Option<String>,
    /// Trimmed; 1 to 2000 characters.
    #[schema(required = true, nullable = false, min_length = 1, max_length = 2000)]
    pub message: Option<String>,
}

/// The message stored, and the assistant's answer while the chat is with the assistant.
#[derive(Debug, Serialize, ToSchema)]
pub struct SentMessage {
    pub message: MessageJson,
    /// The assistant was not sure: offer a live agent.
    pub offer_live_agent: bool,
    /// The assistant's answer; `null` while waiting for or talking to an agent.
    pub reply: Option<MessageJson>,
}

/// Which chat, for which browser.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ChatQuery {
    /// The chat.
    #[param(required = true, format = Uuid)]
    pub chat_id: Option<String>,
    /// The browser's chat session id.
    #[param(required = true)]
    pub session_id: Option<String>,
}

/// The chat with its messages.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChatHistory {
    pub chat: ChatJson,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SessionQuery {
    /// The browser's chat session id.
    #[param(required = true)]
    pub session_id: Option<String>,
}

/// A short confirmation.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChatEnded {
    #[schema(example = "Chat ended.")]
    pub message: String,
}

/// A chat in the staff list: the chat (without its messages), its last message and its cursor.
#[derive(Serialize, ToSchema)]
#[schema(as = ListedChat)]
pub struct ListedChat {
    #[serde(flatten)]
    pub chat: ChatJson,
    /// The newest message; null when there is none.
    #[schema(required = true)]
    pub last_message: Option<MessageJson>,
    /// Pass the last listed chat's cursor as `?before=` for the next page.
    #[schema(example = "2026-11-21T10:00:00Z_0b8f7d0c-3f7e-4a8e-9d7c-2f1d5c4b3a21")]
    pub cursor: String,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// `open` (waiting or connected; the default), `closed` or `all`.
    #[serde(default, deserialize_with = "crate::lenient::word")]
    #[param(value_type = Option<StaffChatFilter>)]
    pub status: Lenient<StaffChatFilter>,
    /// A listed chat's `cursor`: the page continues after it.
    pub before: Option<String>,
}

/// Which chats the staff list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum StaffChatFilter {
    Open,
    Closed,
    All,
}

impl From<StaffChatFilter> for chat::StaffFilter {
    fn from(filter: StaffChatFilter) -> Self {
        match filter {
            StaffChatFilter::Open => chat::StaffFilter::Open,
            StaffChatFilter::Closed => chat::StaffFilter::Closed,
            StaffChatFilter::All => chat::StaffFilter::All,
        }
    }
}

/// A message from staff.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = StaffReplyRequest)]
pub struct Reply {
    /// The chat's id.
    #[schema(required = true, nullable = false, format = Uuid)]
    pub chat_id: Option<String>,
    /// 1 to 2000 characters (after trimming).
    #[schema(
        required = true,
        nullable = false,
        min_length = 1,
        max_length = 2000,
        example = "Hi! I can help with that."
    )]
    pub message: Option<String>,
}

/// The message as stored.
#[derive(Serialize, ToSchema)]
#[schema(as = StaffReplySent)]
pub struct ReplySent {
    pub message: MessageJson,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_staff_filter_of_the_domain_is_read_from_its_word() {
        for (word, filter) in [
            ("open", chat::StaffFilter::Open),
            ("closed", chat::StaffFilter::Closed),
            ("all", chat::StaffFilter::All),
        ] {
            // a new filter of the domain fails here until it has a word
            match filter {
                chat::StaffFilter::Open | chat::StaffFilter::Closed | chat::StaffFilter::All => {}
            }
            let read: StaffChatFilter = serde_json::from_value(word.into()).unwrap();
            assert_eq!(chat::StaffFilter::from(read), filter);
        }
    }
}
