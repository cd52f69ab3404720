use std::future::Future;

use chrono::{DateTime, Utc};
use shared::{Actor, Language};

use crate::{
    Email, MailError, NewUser, PasswordHash, PendingSignup, RepoError, ResetToken,
    ResetTokenRecord, TokenHash, User, UserId, UserName, VerificationCode,
};

/// Where accounts, pending sign-ups and reset tokens are kept.
#[cfg_attr(test, mockall::automock)]
pub trait UserStore: Send + Sync + 'static {
    /// Fails only with `RepoError::Unknown`.
    fn user_by_id(
        &self,
        id: UserId,
    ) -> impl Future<Output = Result<Option<User>, RepoError>> + Send;

    /// Looks the address up as given (addresses are stored lowercase). Fails only with `Unknown`.
    fn user_by_email(
        &self,
        email: &Email,
    ) -> impl Future<Output = Result<Option<User>, RepoError>> + Send;

    /// Creates the account, or, when the address exists, sets its name, role and password.
    /// With an `actor` (the command line), the audit log records what changed in the same
    /// transaction: `user.create`, or `user.role` / `user.name` when they changed and
    /// `user.password` (only that it was set, never the hash). `None` only for the demo seed.
    /// Fails only with `Unknown`.
    fn upsert_user(
        &self,
        user: NewUser,
        actor: Option<Actor>,
    ) -> impl Future<Output = Result<User, RepoError>> + Send;

    fn set_password(
        &self,
        id: UserId,
        hash: PasswordHash,
    ) -> impl Future<Output = Result<(), RepoError>> + Send;

    /// The language the account's mail is written in (the profile's setting).
    fn set_language(
        &self,
        id: UserId,
        language: Language,
    ) -> impl Future<Output = Result<(), RepoError>> + Send;

    /// The sign-up waiting for this address, if any. Fails only with `Unknown`.
    fn pending_signup(
        &self,
        email: &Email,
    ) -> impl Future<Output = Result<Option<PendingSignup>, RepoError>> + Send;

    /// Stores the sign-up, replacing any other for the same address, only if no code was sent
    /// to the address recently (the stored `resend_at` is at or before `now`), in one statement:
    /// of N parallel calls for one address, one stores. Returns whether it did.
    /// Fails only with `Unknown`.
    fn claim_signup(
        &self,
        signup: PendingSignup,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<bool, RepoError>> + Send;

    /// Stores the sign-up, replacing any other for the same address. Fails only with `Unknown`.
    fn save_pending_signup(
        &self,
        signup: PendingSignup,
    ) -> impl Future<Output = Result<(), RepoError>> + Send;

    /// Counts one more wrong code for this address, atomically; returns the new count.
    fn add_code_attempt(
        &self,
        email: &Email,
    ) -> impl Future<Output = Result<u32, RepoError>> + Send;

    /// Creates the account and removes its pending sign-up, all or nothing.
    /// `RepoError::Duplicate` when the address was registered meanwhile.
    fn complete_signup(
        &self,
        user: NewUser,
    ) -> impl Future<Output = Result<User, RepoError>> + Send;

    /// Marks that a reset link is being mailed to the user at `now`, only if the last one went
    /// before `last_before`, in one statement: of N parallel calls, one succeeds. Returns
    /// whether it did. Fails only with `Unknown`.
    fn claim_reset_mail(
        &self,
        user: UserId,
        now: DateTime<Utc>,
        last_before: DateTime<Utc>,
    ) -> impl Future<Output = Result<bool, RepoError>> + Send;

    /// Keeps a reset token's hash for the user and voids the user's older unused tokens, all
    /// or nothing. Fails only with `Unknown`.
    fn save_reset_token(
        &self,
        user: UserId,
        hash: TokenHash,
        expires_at: DateTime<Utc>,
    ) -> impl Future<Output = Result<(), RepoError>> + Send;

    /// The token with this hash, used or not. Fails only with `Unknown`.
    fn reset_token(
        &self,
        hash: &TokenHash,
    ) -> impl Future<Output = Result<Option<ResetTokenRecord>, RepoError>> + Send;

    /// Marks the token used and sets the user's password, all or nothing, only if the token is
    /// still unused (two requests with one token: one wins). Returns whether it did.
    fn redeem_reset_token(
        &self,
        hash: &TokenHash,
        user: UserId,
        password: PasswordHash,
        at: DateTime<Utc>,
    ) -> impl Future<Output = Result<bool, RepoError>> + Send;
}

/// Where logged-in sessions are kept.
#[cfg_attr(test, mockall::automock)]
pub trait UserSessions: Send + Sync + 'static {
    /// Ends every session that holds this user; returns how many. Fails only with `Unknown`.
    fn end_all(&self, user: UserId) -> impl Future<Output = Result<u64, RepoError>> + Send;
}

/// A message of the accounts feature. The mail adapter words and formats it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccountMail {
    SignupCode {
        to: Email,
        name: UserName,
        code: VerificationCode,
        language: Language,
    },
    PasswordReset {
        to: Email,
        name: UserName,
        token: ResetToken,
        language: Language,
    },
    /// Someone asked for a sign-up code for an address that already has an account: its owner
    /// hears of it (with a way to reset the password), the asker learns nothing.
    SignupAttempt {
        to: Email,
        name: UserName,
        language: Language,
    },
}

impl AccountMail {
    pub fn recipient(&self) -> &Email {
        match self {
            AccountMail::SignupCode { to, .. }
            | AccountMail::PasswordReset { to, .. }
            | AccountMail::SignupAttempt { to, .. } => to,
        }
    }

    /// The language the mail is written in: the account's, else the asking request's.
    pub fn language(&self) -> Language {
        match self {
            AccountMail::SignupCode { language, .. }
            | AccountMail::PasswordReset { language, .. }
            | AccountMail::SignupAttempt { language, .. } => *language,
        }
    }
}

/// Sends mail. Fails with `MailError` when the message was not accepted for delivery.
#[cfg_attr(test, mockall::automock)]
pub trait Mailer: Send + Sync + 'static {
    fn send(&self, mail: AccountMail) -> impl Future<Output = Result<(), MailError>> + Send;
}

pub use shared::Clock;
#[cfg(test)]
pub use shared::MockClock;

/// Secure randomness.
#[cfg_attr(test, mockall::automock)]
pub trait Randomness: Send + Sync + 'static {
    /// A uniformly random number below 1 000 000.
    fn six_digits(&self) -> u32;
    fn bytes32(&self) -> [u8; 32];
}

/// Slow password hashing (argon2id). Implementations run the work off the async workers.
#[cfg_attr(test, mockall::automock)]
pub trait PasswordHasher: Send + Sync + 'static {
    fn hash(
        &self,
        password: String,
    ) -> impl Future<Output = Result<PasswordHash, anyhow::Error>> + Send;

    /// Whether the password matches. A malformed hash is `false`, not an error.
    fn verify(
        &self,
        password: String,
        hash: PasswordHash,
    ) -> impl Future<Output = Result<bool, anyhow::Error>> + Send;

    /// A valid hash of no one's password, to spend the same time on unknown addresses.
    fn decoy_hash(&self) -> PasswordHash;
}
