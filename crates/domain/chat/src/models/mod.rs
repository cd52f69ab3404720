mod chat;
mod message;
mod values;

pub use chat::{
    Chat, ChatAction, ChatChange, ChatStamp, ChatStatus, ChatSummary, ChatUser, ChatWithMessages,
    NewChat, Opened, RefusalReason, Refused, Retention, StaffChatRow, StaffChatsQuery, StaffCursor,
    StaffFilter, StaffMember, StaffRole, StatusChange,
};
pub use message::{
    Answer, Asker, AskerOrder, ChatMessage, ChatSentences, MessageId, NewMessage, SenderType, Side,
    BOT_GREETING, CHAT_CLOSED_NOTICE, LIVE_AGENT_JOINED_NOTICE, LIVE_AGENT_OFFER,
    LIVE_AGENT_REQUESTED_NOTICE,
};
pub use values::{
    ChatId, ChatIdError, MessageText, MessageTextError, SessionId, SessionIdError,
    MAX_MESSAGE_CHARS,
};
