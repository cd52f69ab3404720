//! Who is calling: the session's user, role guards as actix extractors, the session store and
//! middleware, the Origin check, and the accounts service's app-side ports (clock, randomness,
//! argon2).
//!
//! Handlers ask for what they need in their signature:
//! `async fn add_proof(RequireStaff(user): RequireStaff, ...)`.

mod accounts_service;
mod clock;
mod guards;
mod keys;
pub mod origin;
mod random;
pub mod session;

pub use accounts_service::{
    build_accounts, build_mailer, AccountsService, CountingMailer, MailFailures,
};
pub use argon::Argon2Hasher;
pub use clock::AppClock;
pub(crate) use guards::page_user;
pub use guards::{CurrentUser, MaybeUser, RequireStaff, RequireSuperAdmin, RequireUser};
pub use keys::{LOGGED_IN_AT_KEY, USER_ID_KEY};
pub use random::OsRandom;
