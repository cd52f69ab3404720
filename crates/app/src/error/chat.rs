//! The help chat's and server push's errors as HTTP answers.

use chat::ChatError;

use super::api::ApiError;

impl From<ChatError> for ApiError {
    fn from(error: ChatError) -> Self {
        match error {
            ChatError::NotFound(_) => ApiError::NotFound(error.to_string()),
            ChatError::Refused(refused) => ApiError::Conflict(refused.message().to_owned()),
            ChatError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<crate::events::streams::StreamRefused> for ApiError {
    fn from(refused: crate::events::streams::StreamRefused) -> Self {
        use crate::events::streams::StreamRefused;
        match refused {
            StreamRefused::PerAddress | StreamRefused::PerAccount => ApiError::TooManyRequests {
                message: "Too many open live-update connections. Close some tabs and try again."
                    .to_owned(),
                retry_after_secs: 30,
            },
            StreamRefused::Total => ApiError::Unavailable {
                message: "Live updates are busy right now; the page refreshes on its own."
                    .to_owned(),
                cause: anyhow::Error::new(refused),
            },
        }
    }
}

// ---- end of server push ------------------------------------------------------------------------
