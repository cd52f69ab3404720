//! The blocklist's refusals, as HTTP answers.

use super::api::ApiError;

impl From<blocklist::BlocklistError> for ApiError {
    fn from(error: blocklist::BlocklistError) -> Self {
        use blocklist::BlocklistError;
        match error {
            BlocklistError::Invalid { field, message } => ApiError::field(field, message),
            BlocklistError::Duplicate(_) => ApiError::Conflict(error.to_string().into()),
            BlocklistError::NotFound(_) => ApiError::NotFound(error.to_string().into()),
            BlocklistError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}
