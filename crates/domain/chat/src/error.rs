use crate::{ChatAction, ChatId, ChatStatus};

/// What a chat call can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ChatError {
    /// No chat with this id, or not one the caller's session may see (the two are never told
    /// apart, so ids cannot be probed). HTTP 404.
    #[error("Chat not found.")]
    NotFound(ChatId),
    /// The chat exists but its status does not allow the action. HTTP 409.
    #[error(transparent)]
    Refused(#[from] Refused),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// An action the chat's current status does not allow, such as accepting a chat another
/// member of staff has already accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message())]
pub struct Refused {
    pub action: ChatAction,
    pub status: ChatStatus,
}

impl Refused {
    /// A sentence a shopper or member of staff can read.
    pub fn message(&self) -> &'static str {
        use ChatAction as A;
        use ChatStatus as S;
        match (self.action, self.status) {
            (_, S::Closed) => "This conversation has ended.",
            (A::Accept, S::Connected) => "Another agent has already joined this chat.",
            (A::Accept, S::Ai) => "This chat has not asked for a live agent.",
            (A::RequestAgent, _) => "A live agent has already been requested for this chat.",
            (A::Reply, S::Pending) => "Join the chat before replying.",
            (A::Reply, S::Ai) => "This chat has not asked for a live agent.",
            _ => "This action is not possible in the chat's current state.",
        }
    }
}
