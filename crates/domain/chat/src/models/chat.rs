use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, Utc};
use shared::{Language, UserId};

use crate::{ChatId, ChatMessage, MessageId, NewMessage, SenderType, SessionId, Side};

/// Where a chat is in its life. The only way from one status to another is
/// [`ChatStatus::apply`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChatStatus {
    /// The shopper talks to the assistant.
    Ai,
    /// The shopper asked for a live agent; no one has joined yet.
    Pending,
    /// A member of staff has joined.
    Connected,
    /// Over: nothing more can be written.
    Closed,
}

/// What someone does to a chat. Some actions move the status on, others only need the status
/// to allow them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChatAction {
    /// The shopper asks for a person: AI -> pending.
    RequestAgent,
    /// A member of staff joins: pending -> connected.
    Accept,
    /// Either side ends the chat: AI, pending or connected -> closed.
    Close,
    /// The shopper writes (any status but closed; no change).
    Send,
    /// A member of staff writes (connected only; no change).
    Reply,
}

impl ChatStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ChatStatus::Ai => "ai",
            ChatStatus::Pending => "pending",
            ChatStatus::Connected => "connected",
            ChatStatus::Closed => "closed",
        }
    }

    /// The status after `action`, or why the action is refused. This is the whole state
    /// machine: AI -> pending -> connected -> closed, and closed from any open status.
    pub fn apply(self, action: ChatAction) -> Result<ChatStatus, Refused> {
        use ChatAction as A;
        use ChatStatus as S;
        let next = match (action, self) {
            (A::RequestAgent, S::Ai) => S::Pending,
            (A::Accept, S::Pending) => S::Connected,
            (A::Close, S::Ai | S::Pending | S::Connected) => S::Closed,
            (A::Send, S::Ai | S::Pending | S::Connected) => self,
            (A::Reply, S::Connected) => self,
            (action, status) => return Err(Refused { action, status }),
        };
        Ok(next)
    }

    pub fn is_open(self) -> bool {
        self != ChatStatus::Closed
    }
}

impl fmt::Display for ChatStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for ChatAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ChatAction::RequestAgent => "request an agent for",
            ChatAction::Accept => "accept",
            ChatAction::Close => "close",
            ChatAction::Send => "send to",
            ChatAction::Reply => "reply to",
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown chat status {0:?}")]
pub struct UnknownStatus(pub String);

impl FromStr for ChatStatus {
    type Err = UnknownStatus;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "ai" => ChatStatus::Ai,
            "pending" => ChatStatus::Pending,
            "connected" => ChatStatus::Connected,
            "closed" => ChatStatus::Closed,
            other => return Err(UnknownStatus(other.to_owned())),
        })
    }
}

/// The signed-in shopper a chat belongs to; guests have none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatUser {
    pub id: UserId,
    pub name: String,
}

/// Which kind of staff account writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StaffRole {
    Admin,
    SuperAdmin,
}

/// The member of staff acting; the HTTP layer builds it from the signed-in account after its
/// role check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffMember {
    pub id: UserId,
    pub name: String,
    pub role: StaffRole,
}

impl StaffMember {
    pub fn sender(&self) -> SenderType {
        match self.role {
            StaffRole::Admin => SenderType::Admin,
            StaffRole::SuperAdmin => SenderType::SuperAdmin,
        }
    }
}

/// A chat as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chat {
    pub id: ChatId,
    pub session: SessionId,
    pub user: Option<ChatUser>,
    /// The user id of the member of staff who accepted the chat.
    pub accepted_by: Option<UserId>,
    pub status: ChatStatus,
    /// The last message staff have read.
    pub staff_read_through: Option<MessageId>,
    /// The last message the shopper has read.
    pub user_read_through: Option<MessageId>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Grows with every change to the chat or its messages: a poll that sees the same version
    /// has nothing new to fetch.
    pub version: u64,
    /// The language the chat was started in: its notices are written in it.
    pub language: Language,
}

impl Chat {
    /// Whether `session` is the one that started the chat.
    pub fn belongs_to(&self, session: &SessionId) -> bool {
        self.session == *session
    }

    /// The sender type of the shopper's messages.
    pub fn customer_sender(&self) -> SenderType {
        if self.user.is_some() {
            SenderType::User
        } else {
            SenderType::Guest
        }
    }

    /// A new live-chat request: pending and no one has joined.
    pub fn is_new(&self) -> bool {
        self.status == ChatStatus::Pending && self.accepted_by.is_none()
    }

    pub fn read_through(&self, side: Side) -> Option<MessageId> {
        match side {
            Side::Staff => self.staff_read_through,
            Side::Customer => self.user_read_through,
        }
    }

    /// Whether `side` has messages it has not read among `messages`.
    pub fn has_unread(&self, side: Side, messages: &[ChatMessage]) -> bool {
        let last = messages
            .iter()
            .filter(|m| m.sender.is_unread_for(side))
            .map(|m| m.id)
            .max();
        self.is_unread(side, last)
    }

    /// Whether the newest message that counts for `side` is past what it has read.
    pub fn is_unread(&self, side: Side, newest_for_side: Option<MessageId>) -> bool {
        match (newest_for_side, self.read_through(side)) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(newest), Some(read)) => newest > read,
        }
    }
}

/// A chat about to be stored, always in [`ChatStatus::Ai`]: every other status is reached
/// through the state machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewChat {
    pub id: ChatId,
    pub session: SessionId,
    pub user: Option<ChatUser>,
    pub created_at: DateTime<Utc>,
    /// The language the chat widget was shown in when the chat started.
    pub language: Language,
}

/// A status change for the store to apply only if the chat is still in `from`: of two staff
/// accepting at once, one wins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusChange {
    pub chat: ChatId,
    pub from: ChatStatus,
    pub to: ChatStatus,
    /// Set when a member of staff accepts.
    pub accepted_by: Option<UserId>,
    /// A system message stored with the change.
    pub notice: Option<NewMessage>,
    pub at: DateTime<Utc>,
}

/// A chat's id, version and status, as the poll cache compares them with what it rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatChange {
    pub id: ChatId,
    pub version: u64,
    pub status: ChatStatus,
}

/// The few columns a poll needs, cheap to read: whose the chat is, its version, status and
/// who accepted it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatStamp {
    pub id: ChatId,
    pub session: SessionId,
    pub version: u64,
    pub status: ChatStatus,
    pub accepted_by: Option<UserId>,
}

impl From<&Chat> for ChatStamp {
    fn from(chat: &Chat) -> Self {
        let (id, session, version) = (chat.id, chat.session.clone(), chat.version);
        let (status, accepted_by) = (chat.status, chat.accepted_by);
        ChatStamp {
            id,
            session,
            version,
            status,
            accepted_by,
        }
    }
}

/// A chat with its messages, oldest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatWithMessages {
    pub chat: Chat,
    pub messages: Vec<ChatMessage>,
}

/// What the store knows about a chat for the staff list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffChatRow {
    pub chat: Chat,
    /// The newest message written by the shopper.
    pub last_customer_message: Option<MessageId>,
    pub last_message: Option<ChatMessage>,
}

/// Which chats the staff list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum StaffFilter {
    /// Waiting for or talking to an agent (the default).
    #[default]
    Open,
    /// Ended chats that had asked for an agent.
    Closed,
    /// Both.
    All,
}

/// Where a page of the staff list starts: after the chat with this activity time and id (the
/// list runs newest activity first, ties by id, descending).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StaffCursor {
    pub updated_at: DateTime<Utc>,
    pub id: ChatId,
}

impl StaffCursor {
    /// The cursor that continues after `chat`.
    pub fn after(chat: &Chat) -> Self {
        StaffCursor {
            updated_at: chat.updated_at,
            id: chat.id,
        }
    }
}

/// One page of the staff list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StaffChatsQuery {
    pub filter: StaffFilter,
    pub before: Option<StaffCursor>,
    /// At most this many chats (the store never reads more).
    pub limit: u32,
}

/// How long chats are kept: assistant-only chats nobody touched for `idle_ai`, closed chats
/// `closed` after they ended (their last write). Chats waiting for or with an agent stay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    pub idle_ai: chrono::Duration,
    pub closed: chrono::Duration,
}

impl Retention {
    /// (assistant-only chats last written before this, closed chats last written before this)
    pub fn cutoffs(&self, now: DateTime<Utc>) -> (DateTime<Utc>, DateTime<Utc>) {
        (now - self.idle_ai, now - self.closed)
    }
}

/// What `start-ai` and `start-live` found or made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opened {
    pub chat: Chat,
    /// Stored just now (false: the session's open chat was there already).
    pub created: bool,
}

/// A chat as the Live Chats panel lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatSummary {
    pub chat: Chat,
    /// The shopper wrote something staff have not read.
    pub has_unread_messages: bool,
    /// Waiting for someone to join (the 'New' badge).
    pub is_new: bool,
    pub last_message: Option<ChatMessage>,
}

impl ChatSummary {
    pub fn from_row(row: StaffChatRow) -> Self {
        ChatSummary {
            has_unread_messages: row.chat.is_unread(Side::Staff, row.last_customer_message),
            is_new: row.chat.is_new(),
            last_message: row.last_message,
            chat: row.chat,
        }
    }
}

/// An action the chat's current status does not allow, such as accepting a chat another
/// member of staff has already accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message())]
pub struct Refused {
    pub action: ChatAction,
    pub status: ChatStatus,
}

/// Why a chat refused an action, as the answer words it (the app words it in the request's
/// language, by this reason).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusalReason {
    Ended,
    AgentAlreadyJoined,
    NoAgentAsked,
    AgentAlreadyRequested,
    JoinFirst,
    NotNow,
}

impl Refused {
    pub fn reason(&self) -> RefusalReason {
        use ChatAction as A;
        use ChatStatus as S;
        use RefusalReason as R;
        match (self.action, self.status) {
            (_, S::Closed) => R::Ended,
            (A::Accept, S::Connected) => R::AgentAlreadyJoined,
            (A::Accept | A::Reply, S::Ai) => R::NoAgentAsked,
            (A::RequestAgent, _) => R::AgentAlreadyRequested,
            (A::Reply, S::Pending) => R::JoinFirst,
            _ => R::NotNow,
        }
    }

    /// A sentence a shopper or member of staff can read (English; logs and staff answers).
    pub fn message(&self) -> &'static str {
        match self.reason() {
            RefusalReason::Ended => "This conversation has ended.",
            RefusalReason::AgentAlreadyJoined => "Another agent has already joined this chat.",
            RefusalReason::NoAgentAsked => "This chat has not asked for a live agent.",
            RefusalReason::AgentAlreadyRequested => {
                "A live agent has already been requested for this chat."
            }
            RefusalReason::JoinFirst => "Join the chat before replying.",
            RefusalReason::NotNow => "This action is not possible in the chat's current state.",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL_STATUSES: [ChatStatus; 4] = [
        ChatStatus::Ai,
        ChatStatus::Pending,
        ChatStatus::Connected,
        ChatStatus::Closed,
    ];
    const ALL_ACTIONS: [ChatAction; 5] = [
        ChatAction::RequestAgent,
        ChatAction::Accept,
        ChatAction::Close,
        ChatAction::Send,
        ChatAction::Reply,
    ];

    #[test]
    fn the_state_machine_allows_exactly_these_moves() {
        use ChatAction as A;
        use ChatStatus as S;
        let allowed = [
            (S::Ai, A::RequestAgent, S::Pending),
            (S::Pending, A::Accept, S::Connected),
            (S::Ai, A::Close, S::Closed),
            (S::Pending, A::Close, S::Closed),
            (S::Connected, A::Close, S::Closed),
            (S::Ai, A::Send, S::Ai),
            (S::Pending, A::Send, S::Pending),
            (S::Connected, A::Send, S::Connected),
            (S::Connected, A::Reply, S::Connected),
        ];
        for status in ALL_STATUSES {
            for action in ALL_ACTIONS {
                let expected = allowed
                    .iter()
                    .find(|(from, a, _)| *from == status && *a == action)
                    .map(|(_, _, to)| *to);
                match (status.apply(action), expected) {
                    (Ok(next), Some(to)) => assert_eq!(next, to, "{status} + {action:?}"),
                    (Err(refused), None) => {
                        assert_eq!(refused, Refused { action, status });
                    }
                    (got, want) => panic!("{status} + {action:?}: got {got:?}, want {want:?}"),
                }
            }
        }
    }

    #[test]
    fn a_closed_chat_refuses_everything_with_one_message() {
        for action in ALL_ACTIONS {
            let refused = ChatStatus::Closed.apply(action).unwrap_err();
            assert_eq!(refused.message(), "This conversation has ended.");
        }
        assert_eq!(
            ChatStatus::Connected
                .apply(ChatAction::Accept)
                .unwrap_err()
                .message(),
            "Another agent has already joined this chat."
        );
    }

    #[test]
    fn statuses_round_trip_through_their_names() {
        for status in ALL_STATUSES {
            assert_eq!(status.as_str().parse::<ChatStatus>(), Ok(status));
        }
        assert!("open".parse::<ChatStatus>().is_err());
    }

    fn at(second: u32) -> DateTime<Utc> {
        use chrono::TimeZone;
        Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, second).unwrap()
    }

    fn chat() -> Chat {
        Chat {
            id: ChatId::random(),
            session: SessionId::parse("session-one").unwrap(),
            user: None,
            accepted_by: None,
            status: ChatStatus::Pending,
            staff_read_through: None,
            user_read_through: None,
            created_at: at(0),
            updated_at: at(0),
            version: 1,
            language: Language::English,
        }
    }

    fn message(id: i64, sender: SenderType) -> ChatMessage {
        ChatMessage {
            id: MessageId::new(id),
            sender,
            text: "hello".into(),
            created_at: at(1),
        }
    }

    #[test]
    fn each_side_has_its_own_unread_messages() {
        let messages = vec![
            message(1, SenderType::Bot),
            message(2, SenderType::Guest),
            message(3, SenderType::Admin),
        ];
        let mut chat = chat();
        assert!(chat.has_unread(Side::Staff, &messages));
        assert!(chat.has_unread(Side::Customer, &messages));

        chat.staff_read_through = Some(MessageId::new(2));
        assert!(
            !chat.has_unread(Side::Staff, &messages),
            "staff's own reply is not unread"
        );
        chat.user_read_through = Some(MessageId::new(2));
        assert!(
            chat.has_unread(Side::Customer, &messages),
            "the admin's reply is"
        );
        chat.user_read_through = Some(MessageId::new(3));
        assert!(!chat.has_unread(Side::Customer, &messages));
        assert!(!chat.has_unread(Side::Staff, &[]));
    }

    #[test]
    fn a_chat_is_new_while_pending_and_unaccepted() {
        let mut c = chat();
        assert!(c.is_new());
        c.accepted_by = Some(UserId::new(7));
        assert!(!c.is_new());
        let ai = Chat {
            status: ChatStatus::Ai,
            ..chat()
        };
        assert!(!ai.is_new());
    }

    #[test]
    fn the_customer_is_a_user_when_signed_in_and_a_guest_otherwise() {
        let mut c = chat();
        assert_eq!(c.customer_sender(), SenderType::Guest);
        c.user = Some(ChatUser {
            id: UserId::new(4),
            name: "Ana".into(),
        });
        assert_eq!(c.customer_sender(), SenderType::User);
    }
}
