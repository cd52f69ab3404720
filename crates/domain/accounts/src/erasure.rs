//! A shopper's right to leave: their account is erased, and the orders kept for the books no
//! longer name them.

use std::future::Future;

use chrono::{DateTime, TimeDelta, Utc};

use crate::bucket;
use crate::{Email, RepoError, UserId};

/// What an erased account leaves on the orders that are kept, and what else names it.
///
/// The eraser removes, in one transaction: the account, its sessions, reset tokens and pending
/// sign-up, its help chats with their messages and push events, the rate limit counts keyed by
/// the account ([`Erasure::limit_buckets`]) or by its chats' sessions, the queued mail and
/// outbox jobs of its orders, and the pending joins to the shop's Discord server of the Discord
/// accounts it ordered with. Each order's Discord ticket is queued for deletion (an outbox job
/// carrying the thread's id), but a disputed order's, which the dispute needs. The orders stay
/// for the books: the Discord id, avatar, client address, buyer token, ticket thread (but a
/// disputed order's) and problem are cleared, the e-mail address and the
/// Discord and Roblox names replaced by [`Erasure::email`] and [`Erasure::name`]; their
/// reviews stay under an anonymous name; their promo redemptions stay (the code's count)
/// without the Discord id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Erasure {
    pub user: UserId,
    /// e.g. `deleted-42@deleted.invalid` (`.invalid` is reserved: no mail can reach it).
    pub email: String,
    /// Replaces the Discord and Roblox names on the orders.
    pub name: String,
    /// The rate limit counts keyed by the account (`bucket:key` as stored): its e-mail
    /// address's login and sign-up counts, its reset mail count. Counts keyed by a client
    /// address are not the account's (an address is shared) and end with their window.
    pub limit_buckets: Vec<String>,
    pub at: DateTime<Utc>,
    /// Orders paid since then (and any under an open dispute) keep what a dispute's evidence
    /// needs of the buyer, apart, for that legitimate interest, until the eraser's purge.
    pub evidence_paid_since: DateTime<Utc>,
}

impl Erasure {
    /// The erasure of `user` at `at`, keeping the evidence of orders paid within `retention`.
    pub fn of(user: UserId, email: &Email, at: DateTime<Utc>, retention: TimeDelta) -> Self {
        Erasure {
            user,
            email: format!("deleted-{user}@deleted.invalid"),
            name: "deleted".to_owned(),
            limit_buckets: vec![
                format!("{}:{}", bucket::LOGIN_ADDRESS, email.as_str()),
                format!("{}:{}", bucket::CODE_ADDRESS, email.as_str()),
                format!("{}:{user}", bucket::RESET_ADDRESS),
            ],
            at,
            evidence_paid_since: at - retention,
        }
    }
}

/// What the eraser did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Erased {
    /// The account and what names it are gone; its orders are anonymised.
    Done,
    /// Nothing changed: this many of the account's orders still wait for payment or delivery
    /// (the staff need the buyer's names to deliver them).
    OpenOrders(u64),
    /// There is no such account (any more).
    NotFound,
}

/// Erases an account in one transaction, checking for open orders inside it so a checkout
/// running at the same time cannot slip between the check and the erasure.
#[cfg_attr(test, mockall::automock)]
pub trait AccountEraser: Send + Sync + 'static {
    fn erase(&self, erasure: Erasure) -> impl Future<Output = Result<Erased, RepoError>> + Send;
}

#[derive(Debug, thiserror::Error)]
pub enum DeleteAccountError {
    #[error("The password is not right.")]
    WrongPassword,
    /// Staff accounts are removed with the CLI by whoever runs the shop.
    #[error("Staff accounts cannot be deleted here.")]
    Staff,
    #[error("orders still open")]
    OpenOrders(u64),
    #[error("Please log in.")]
    NotFound,
    /// The login's limits are used up (the account's e-mail address or the client address).
    #[error("too many wrong passwords")]
    TooManyAttempts { retry_after: std::time::Duration },
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

impl From<RepoError> for DeleteAccountError {
    fn from(error: RepoError) -> Self {
        match error {
            RepoError::Duplicate => {
                DeleteAccountError::Unknown(anyhow::anyhow!("unexpected duplicate record"))
            }
            RepoError::Unknown(cause) => DeleteAccountError::Unknown(cause),
        }
    }
}
