use std::future::Future;

use chrono::{DateTime, Utc};
use shared::{Published, Unheard};

use crate::{
    Answer, Asker, Chat, ChatChange, ChatError, ChatId, ChatMessage, ChatStamp, ChatStatus,
    MessageText, NewChat, NewMessage, Opened, SessionId, Side, StaffChatRow, StaffChatsQuery,
    StatusChange,
};

/// Who hears, after it committed, that a chat changed: its owner and, unless it is and was
/// with the assistant, staff (server push). Reading a chat is not a change: the reader knows,
/// and telling would make every open view refetch and read again.
pub trait ChatNotices: Send + Sync + 'static {
    /// The chat is now as `stamp` says; `was`: its status before, when a change of status
    /// made it.
    fn chat_changed<'a>(&'a self, stamp: &'a ChatStamp, was: Option<ChatStatus>) -> Published<'a>;
    /// The chat `stamp` was deleted.
    fn chat_deleted<'a>(&'a self, stamp: &'a ChatStamp) -> Published<'a>;
    /// Chats were purged: staff's list changed as a whole.
    fn chats_purged(&self) -> Published<'_>;
}

impl ChatNotices for Unheard {
    fn chat_changed(&self, _: &ChatStamp, _: Option<ChatStatus>) -> Published<'_> {
        Box::pin(async {})
    }

    fn chat_deleted(&self, _: &ChatStamp) -> Published<'_> {
        Box::pin(async {})
    }

    fn chats_purged(&self) -> Published<'_> {
        Box::pin(async {})
    }
}

/// Where chats and their messages are kept. Every write to a chat or its messages raises the
/// chat's version and `updated_at` in the same transaction.
#[cfg_attr(test, mockall::automock)]
pub trait ChatRepository: Send + Sync + 'static {
    /// Stores a new chat (in [`crate::ChatStatus::Ai`], version 1) with its first messages,
    /// unless the chat's session already has an open (not closed) chat: then nothing is stored
    /// and that chat comes back with `created: false`. A session never has two open chats, also
    /// when calls race (the store enforces it). Fails only with `ChatError::Unknown`.
    fn create_or_open(
        &self,
        chat: NewChat,
        messages: Vec<NewMessage>,
    ) -> impl Future<Output = Result<Opened, ChatError>> + Send;

    /// The chat with this id. `ChatError::NotFound` when there is none.
    fn chat(&self, id: ChatId) -> impl Future<Output = Result<Chat, ChatError>> + Send;

    /// The session's most recently created chat that is not closed, if any.
    fn latest_open_chat(
        &self,
        session: &SessionId,
    ) -> impl Future<Output = Result<Option<Chat>, ChatError>> + Send;

    /// The chat's messages, oldest first. `ChatError::NotFound` when the chat is gone.
    fn messages(
        &self,
        id: ChatId,
    ) -> impl Future<Output = Result<Vec<ChatMessage>, ChatError>> + Send;

    /// Adds messages to the chat, in order, and returns them as stored.
    /// `ChatError::NotFound` when the chat is gone (nothing is stored then).
    fn append(
        &self,
        id: ChatId,
        messages: Vec<NewMessage>,
    ) -> impl Future<Output = Result<Vec<ChatMessage>, ChatError>> + Send;

    /// Applies the change only if the chat's status is still `change.from`, storing the notice
    /// with it; `Ok(false)` when the status had already moved (someone else won).
    /// `ChatError::NotFound` when the chat is gone.
    fn change_status(
        &self,
        change: StatusChange,
    ) -> impl Future<Output = Result<bool, ChatError>> + Send;

    /// Records that `side` has read every message stored so far.
    /// `ChatError::NotFound` when the chat is gone.
    fn mark_read(
        &self,
        id: ChatId,
        side: Side,
        at: DateTime<Utc>,
    ) -> impl Future<Output = Result<(), ChatError>> + Send;

    /// Deletes the chat and its messages. `ChatError::NotFound` when there is none. A
    /// deletion by staff (`actor`) appends its audit entry in the same transaction; the
    /// shopper deleting their own chat is not a staff action and has none.
    fn delete(
        &self,
        id: ChatId,
        actor: Option<shared::Actor>,
    ) -> impl Future<Output = Result<(), ChatError>> + Send;

    /// One page of the chats staff see (not those still with the assistant), newest activity
    /// first (`updated_at`, then id, both descending), starting after `query.before`, at most
    /// `query.limit` of them, with what the staff list needs. Reads a bounded number of rows
    /// whatever the number of chats.
    fn staff_chats(
        &self,
        query: StaffChatsQuery,
    ) -> impl Future<Output = Result<Vec<StaffChatRow>, ChatError>> + Send;

    /// Records that staff were told about the chat's live-agent request, in one conditional
    /// write: `Ok(true)` for the one call that claims it, `Ok(false)` for every other, also
    /// when calls race. `ChatError::NotFound` when there is no chat.
    fn claim_staff_notification(
        &self,
        id: ChatId,
        at: DateTime<Utc>,
    ) -> impl Future<Output = Result<bool, ChatError>> + Send;

    /// Deletes (with their messages) at most `batch` chats that are still with the assistant
    /// and were last written before `idle_ai_before`, or closed and last written before
    /// `closed_before`; returns their ids. Fewer than `batch` means none is left.
    fn purge(
        &self,
        idle_ai_before: DateTime<Utc>,
        closed_before: DateTime<Utc>,
        batch: u32,
    ) -> impl Future<Output = Result<Vec<ChatId>, ChatError>> + Send;

    /// The chat's stamp, read cheaply (one row, a few columns); `None` when there is no chat.
    fn stamp(
        &self,
        id: ChatId,
    ) -> impl Future<Output = Result<Option<ChatStamp>, ChatError>> + Send;
}

/// What the poll cache ([`crate::ChatVersions`]) reads to notice writes made by other
/// instances: cheap reads of a few columns. Fail only with `ChatError::Unknown`.
#[cfg_attr(test, mockall::automock)]
pub trait ChatChanges: Send + Sync + 'static {
    /// Every chat whose `updated_at` is at or after `since` (every write raises it).
    fn chats_changed_since(
        &self,
        since: DateTime<Utc>,
    ) -> impl Future<Output = Result<Vec<ChatChange>, ChatError>> + Send;

    /// How many chats there are.
    fn chat_count(&self) -> impl Future<Output = Result<u64, ChatError>> + Send;

    /// Which of `ids` still exist.
    fn existing_chats(
        &self,
        ids: &[ChatId],
    ) -> impl Future<Output = Result<Vec<ChatId>, ChatError>> + Send;
}

/// Answers shoppers' questions. An implementation never fails: when it cannot answer (or an
/// outside service it uses is down) it returns an [`Answer`] that is not confident and offers
/// the live agent.
#[cfg_attr(test, mockall::automock)]
pub trait Assistant: Send + Sync + 'static {
    /// Answers `question`; `context` is the conversation so far, oldest first; `asker` is who
    /// asks (their open orders), for answers about their own orders.
    fn answer(
        &self,
        question: &MessageText,
        context: &[ChatMessage],
        asker: &Asker,
    ) -> impl Future<Output = Answer> + Send;
}

/// Tells staff that a shopper asked for a live agent (the service's [`crate::LiveRequest`]
/// says when: once per chat). Never fails and never waits: delivering it is the
/// implementation's.
pub trait StaffAlerts: Send + Sync + 'static {
    /// `last_question`: the shopper's last message in the chat, if any.
    fn live_request(&self, chat: &Chat, last_question: Option<&str>);
}

pub use shared::Clock;
#[cfg(test)]
pub use shared::MockClock;

/// New chat ids.
#[cfg_attr(test, mockall::automock)]
pub trait IdGenerator: Send + Sync + 'static {
    fn chat_id(&self) -> ChatId;
}

/// Random version-4 UUIDs.
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomIds;

impl IdGenerator for RandomIds {
    fn chat_id(&self) -> ChatId {
        ChatId::random()
    }
}
