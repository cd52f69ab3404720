//! Accounts: users and their roles, registration as a pending sign-up confirmed with a 6-digit
//! e-mail code, login with rate limits, password reset with single-use tokens, and the
//! sessions' absolute lifetime.
//!
//! Everything outside (the database, mail, the clock, randomness, password hashing) is a port,
//! so every rule here is tested with mocks and a fixed clock.

mod bucket;
mod erasure;
mod error;
pub mod models;
pub mod ports;
mod privacy;
mod service;

pub use erasure::{AccountEraser, DeleteAccountError, Erased, Erasure};
pub use error::{
    ForgotPasswordError, LoginError, MailError, RepoError, ResetPasswordError, SendCodeError,
    UpsertUserError, VerifyCodeError,
};
pub use models::*;
pub use ports::{AccountMail, Clock, Mailer, PasswordHasher, Randomness, UserSessions, UserStore};
pub use privacy::{
    ChatRecord, DataExport, DisputeRecord, LineRecord, MessageRecord, OrderMessageRecord,
    OrderRecord, PersonalData, PersonalDataSource, Privacy, ReviewRecord,
};
pub use service::{AccountPorts, Accounts, Limits};
