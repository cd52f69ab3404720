//! The help chat's and server push's errors as HTTP answers.

use chat::ChatError;

use super::api::ApiError;

impl From<ChatError> for ApiError {
    fn from(error: ChatError) -> Self {
        match error {
            ChatError::NotFound(_) => {
                ApiError::NotFound(l10n::Text::new("error-chat-not-found").into())
            }
            ChatError::Refused(refused) => {
                use chat::RefusalReason as R;
                ApiError::Conflict(
                    l10n::Text::new(match refused.reason() {
                        R::Ended => "error-chat-ended",
                        R::AgentAlreadyJoined => "error-chat-agent-joined",
                        R::NoAgentAsked => "error-chat-no-agent-asked",
                        R::AgentAlreadyRequested => "error-chat-agent-requested",
                        R::JoinFirst => "error-chat-join-first",
                        R::NotNow => "error-chat-not-now",
                    })
                    .into(),
                )
            }
            ChatError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<crate::events::streams::StreamRefused> for ApiError {
    fn from(refused: crate::events::streams::StreamRefused) -> Self {
        use crate::events::streams::StreamRefused;
        match refused {
            StreamRefused::PerAddress | StreamRefused::PerAccount => ApiError::TooManyRequests {
                message: l10n::Text::new("error-too-many-streams").into(),
                retry_after_secs: 30,
            },
            StreamRefused::Total => ApiError::Unavailable {
                message: l10n::Text::new("error-streams-busy").into(),
                cause: anyhow::Error::new(refused),
            },
        }
    }
}

// ---- end of server push ------------------------------------------------------------------------
