//! Accounts' errors (login, sign-up codes, password reset, deletion) as HTTP answers.

use accounts::{LoginError, ResetPasswordError, SendCodeError, VerifyCodeError};

use super::api::ApiError;

pub(super) const MAIL_UNAVAILABLE: &str =
    "We could not send the e-mail right now. Please try again in a moment.";
pub(super) const TOO_MANY_CODES: &str = "Too many wrong codes. Ask for a new code.";

impl From<LoginError> for ApiError {
    fn from(error: LoginError) -> Self {
        match error {
            LoginError::InvalidCredentials => ApiError::Unauthorized(error.to_string()),
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
                    message: format!("Please wait {secs} seconds before asking for a new code."),
                    retry_after_secs: secs,
                }
            }
            SendCodeError::TooManySends { retry_after } => ApiError::too_many(retry_after),
            SendCodeError::Mail(cause) => ApiError::Unavailable {
                message: MAIL_UNAVAILABLE.to_owned(),
                cause: anyhow::Error::new(cause),
            },
            SendCodeError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<VerifyCodeError> for ApiError {
    fn from(error: VerifyCodeError) -> Self {
        match error {
            VerifyCodeError::InvalidCode | VerifyCodeError::Expired => {
                ApiError::field("code", error.to_string())
            }
            VerifyCodeError::EmailTaken => ApiError::field("email", error.to_string()),
            VerifyCodeError::TooManyAttempts { retry_after } => ApiError::TooManyRequests {
                message: TOO_MANY_CODES.to_owned(),
                retry_after_secs: retry_after.map_or(60, |after| after.as_secs()).max(1),
            },
            VerifyCodeError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<ResetPasswordError> for ApiError {
    fn from(error: ResetPasswordError) -> Self {
        match error {
            ResetPasswordError::InvalidToken => ApiError::field("token", error.to_string()),
            ResetPasswordError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<accounts::DeleteAccountError> for ApiError {
    fn from(error: accounts::DeleteAccountError) -> Self {
        use accounts::DeleteAccountError as E;
        match error {
            E::WrongPassword => ApiError::field("password", error.to_string()),
            E::Staff => ApiError::Forbidden(
                "Staff accounts cannot be deleted here. Ask whoever runs the shop.".to_owned(),
            ),
            E::OpenOrders(n) => {
                let orders = if n == 1 { "order" } else { "orders" };
                ApiError::Conflict(format!(
                    "You have {n} {orders} waiting for payment or delivery. You can delete your \
                     account once they are delivered or closed."
                ))
            }
            E::NotFound => ApiError::Unauthorized("Please log in.".to_owned()),
            E::TooManyAttempts { retry_after } => ApiError::too_many(retry_after),
            E::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}
