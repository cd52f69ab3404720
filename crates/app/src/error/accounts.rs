//! Accounts' errors (login, sign-up codes, password reset, deletion) as HTTP answers.

use accounts::{LoginError, ResetPasswordError, SendCodeError, VerifyCodeError};
use l10n::Text;

use super::api::ApiError;

impl From<LoginError> for ApiError {
    fn from(error: LoginError) -> Self {
        match error {
            LoginError::InvalidCredentials => {
                ApiError::Unauthorized(Text::new("error-invalid-credentials").into())
            }
            LoginError::TooManyAttempts { retry_after } => ApiError::too_many(retry_after),
            LoginError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<SendCodeError> for ApiError {
    fn from(error: SendCodeError) -> Self {
        match error {
            SendCodeError::TooSoon { retry_after } => {
                let secs = retry_after.as_secs().max(1);
                ApiError::TooManyRequests {
                    message: Text::new("error-code-wait").with("seconds", secs).into(),
                    retry_after_secs: secs,
                }
            }
            SendCodeError::TooManySends { retry_after } => ApiError::too_many(retry_after),
            SendCodeError::Mail(cause) => ApiError::Unavailable {
                message: Text::new("error-mail-unavailable").into(),
                cause: anyhow::Error::new(cause),
            },
            SendCodeError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<VerifyCodeError> for ApiError {
    fn from(error: VerifyCodeError) -> Self {
        match error {
            VerifyCodeError::InvalidCode => {
                ApiError::field("code", Text::new("error-code-invalid"))
            }
            VerifyCodeError::Expired => ApiError::field("code", Text::new("error-code-expired")),
            VerifyCodeError::EmailTaken => ApiError::field("email", Text::new("error-email-taken")),
            VerifyCodeError::TooManyAttempts { retry_after } => ApiError::TooManyRequests {
                message: Text::new("error-too-many-codes").into(),
                retry_after_secs: retry_after.map_or(60, |after| after.as_secs()).max(1),
            },
            VerifyCodeError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<ResetPasswordError> for ApiError {
    fn from(error: ResetPasswordError) -> Self {
        match error {
            ResetPasswordError::InvalidToken => {
                ApiError::field("token", Text::new("error-reset-invalid"))
            }
            ResetPasswordError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<accounts::DeleteAccountError> for ApiError {
    fn from(error: accounts::DeleteAccountError) -> Self {
        use accounts::DeleteAccountError as E;
        match error {
            E::WrongPassword => ApiError::field("password", Text::new("error-wrong-password")),
            E::Staff => ApiError::Forbidden(
                "Staff accounts cannot be deleted here. Ask whoever runs the shop.".into(),
            ),
            E::OpenOrders(n) => {
                ApiError::Conflict(Text::new("error-open-orders").with("count", n).into())
            }
            E::NotFound => ApiError::Unauthorized(Text::new("error-log-in").into()),
            E::TooManyAttempts { retry_after } => ApiError::too_many(retry_after),
            E::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}
