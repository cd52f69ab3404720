//! A shopper's right to leave: their account is erased, and the orders kept for the books no
//! longer name them.

use std::future::Future;

use chrono::{DateTime, Utc};

use crate::{RepoError, UserId};

/// What an erased account leaves on the orders that are kept: the address and names are
/// replaced by these.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Erasure {
    pub user: UserId,
    /// e.g. `deleted-42@deleted.invalid` (`.invalid` is reserved: no mail can reach it).
    pub email: String,
    /// Replaces the Discord and Roblox names on the orders.
    pub name: String,
    pub at: DateTime<Utc>,
}

impl Erasure {
    pub fn of(user: UserId, at: DateTime<Utc>) -> Self {
        Erasure {
            user,
            email: format!("deleted-{user}@deleted.invalid"),
            name: "deleted".to_owned(),
            at,
        }
    }
}

/// What the eraser did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Erased {
    /// The account, its chats and its reset tokens are gone; its orders are anonymised.
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
