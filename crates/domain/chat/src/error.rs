use crate::{ChatId, Refused};

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
