use std::time::Duration;

/// What a store port fails with.
#[derive(Debug, thiserror::Error)]
pub enum RepoError {
    /// A unique key (the e-mail address) is taken.
    #[error("the record already exists")]
    Duplicate,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// A message could not be handed to the mail server.
#[derive(Debug, thiserror::Error)]
#[error("the e-mail could not be sent")]
pub struct MailError(#[source] pub anyhow::Error);

#[derive(Debug, thiserror::Error)]
pub enum LoginError {
    /// Unknown address or wrong password: the caller must not be told which.
    #[error("Invalid email or password.")]
    InvalidCredentials,
    #[error("too many failed logins")]
    TooManyAttempts { retry_after: Duration },
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

#[derive(Debug, thiserror::Error)]
pub enum SendCodeError {
    /// A code was sent less than a minute ago.
    #[error("a code was sent moments ago")]
    TooSoon { retry_after: Duration },
    /// Too many codes were asked for from this address or IP.
    #[error("too many codes were sent")]
    TooManySends { retry_after: Duration },
    /// The sign-up is kept; asking again may work.
    #[error("the code could not be sent")]
    Mail(#[source] MailError),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

#[derive(Debug, thiserror::Error)]
pub enum VerifyCodeError {
    #[error("Invalid code. Please try again.")]
    InvalidCode,
    /// Expired, or no sign-up is waiting for this address.
    #[error("This code has expired. Ask for a new one.")]
    Expired,
    /// Five wrong codes: even the right one is refused until a new code is sent.
    #[error("too many wrong codes")]
    TooManyAttempts { retry_after: Option<Duration> },
    #[error("This e-mail is already registered.")]
    EmailTaken,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

#[derive(Debug, thiserror::Error)]
pub enum ForgotPasswordError {
    /// The token is stored but its mail was not accepted.
    #[error("the reset link could not be sent")]
    Mail(#[source] MailError),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

#[derive(Debug, thiserror::Error)]
pub enum ResetPasswordError {
    /// Unknown, used, expired, or another address's token.
    #[error("This reset link is invalid or has expired.")]
    InvalidToken,
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

#[derive(Debug, thiserror::Error)]
pub enum UpsertUserError {
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

macro_rules! repo_error_is_unknown {
    ($($error:ident),*) => {$(
        impl From<RepoError> for $error {
            fn from(error: RepoError) -> Self {
                match error {
                    RepoError::Duplicate => $error::Unknown(anyhow::anyhow!("unexpected duplicate record")),
                    RepoError::Unknown(cause) => $error::Unknown(cause),
                }
            }
        }
    )*};
}

repo_error_is_unknown!(
    SendCodeError,
    LoginError,
    ForgotPasswordError,
    ResetPasswordError,
    UpsertUserError
);

impl From<RepoError> for VerifyCodeError {
    fn from(error: RepoError) -> Self {
        match error {
            RepoError::Duplicate => VerifyCodeError::EmailTaken,
            RepoError::Unknown(cause) => VerifyCodeError::Unknown(cause),
        }
    }
}

macro_rules! limit_error_is_unknown {
    ($($error:ident),*) => {$(
        impl From<shared::LimitError> for $error {
            fn from(error: shared::LimitError) -> Self {
                match error {
                    shared::LimitError::Unknown(cause) => $error::Unknown(cause),
                }
            }
        }
    )*};
}

limit_error_is_unknown!(
    SendCodeError,
    LoginError,
    VerifyCodeError,
    ForgotPasswordError
);
