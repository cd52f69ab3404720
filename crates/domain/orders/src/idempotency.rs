//! Checkout's `Idempotency-Key`: a retried checkout (the answer was lost: the network dropped
//! it, or the instance died after committing the order) answers the order the key placed
//! instead of placing a second one that would hold the same stock for 35 minutes.
//!
//! The storefront makes one key per press of Complete Payment and sends it with every retry of
//! that press. The key is scoped to the browser session that sent it ([`ScopedKey`]), stored
//! with the order in the transaction that places it (unique: one key places one order), and
//! answered for 24 hours ([`IDEMPOTENCY_WINDOW_HOURS`]); the request's [`fingerprint`] tells a
//! retry (the same request) from a reuse of the key for another order (refused).
//!
//! [`fingerprint`]: crate::CheckoutRequest::fingerprint

use std::fmt;

use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

/// How long a key answers the order it placed; afterwards it places a new one.
pub const IDEMPOTENCY_WINDOW_HOURS: i64 = 24;

/// How long after placing an order the request that placed it may still be opening its payment
/// page (every call to a provider gives up after 20 seconds). A retry in that time is told to
/// try again in a moment; a retry after it opens the page itself, as the first request would
/// have, had it lived.
pub const PAGE_GRACE_SECONDS: i64 = 60;

/// The longest key the header may carry.
pub const MAX_KEY_CHARS: usize = 255;

/// Why an `Idempotency-Key` header was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidIdempotencyKey {
    #[error("The Idempotency-Key header is empty.")]
    Empty,
    #[error("The Idempotency-Key header may hold at most 255 characters.")]
    TooLong,
    #[error("The Idempotency-Key header may hold only printable ASCII characters.")]
    NotPrintable,
}

/// An `Idempotency-Key` as the client sent it: 1 to 255 printable ASCII characters.
#[derive(Clone, PartialEq, Eq)]
pub struct IdempotencyKey(String);

impl IdempotencyKey {
    pub fn parse(text: &str) -> Result<Self, InvalidIdempotencyKey> {
        if text.is_empty() {
            return Err(InvalidIdempotencyKey::Empty);
        }
        if !text.bytes().all(|b| (0x20..=0x7e).contains(&b)) {
            return Err(InvalidIdempotencyKey::NotPrintable);
        }
        if text.len() > MAX_KEY_CHARS {
            return Err(InvalidIdempotencyKey::TooLong);
        }
        if text.trim().is_empty() {
            return Err(InvalidIdempotencyKey::Empty);
        }
        Ok(IdempotencyKey(text.to_owned()))
    }

    /// The key within `scope`, what identifies the browser session that sent it (the app gives
    /// its session id): the same key from another session is another key.
    pub fn scoped(&self, scope: &str) -> ScopedKey {
        let mut hash = Sha256::new();
        hash.update(b"garden-shop checkout idempotency v1\n");
        hash.update(scope.as_bytes());
        hash.update(b"\n");
        hash.update(self.0.as_bytes());
        ScopedKey(hex::encode(hash.finalize()))
    }
}

impl fmt::Debug for IdempotencyKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("IdempotencyKey").finish_non_exhaustive()
    }
}

/// A key within its session, as the store keeps it: a SHA-256 in hex, which says nothing of the
/// session or of the key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ScopedKey(String);

impl ScopedKey {
    /// A key as the store read it back.
    pub fn from_stored(hash: String) -> Self {
        ScopedKey(hash)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What the store records with an order placed under a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyedPlacement {
    pub key: ScopedKey,
    /// The request's [`CheckoutRequest::fingerprint`].
    pub fingerprint: String,
    /// An order placed with the same key at or after this time answers instead; an older one
    /// lets go of the key.
    pub since: DateTime<Utc>,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_key_is_one_to_255_printable_ascii_characters() {
        assert!(IdempotencyKey::parse("0b6f1c2e-5d7a-4f57-9a43-8f0d6c1e2b3a").is_ok());
        assert!(IdempotencyKey::parse(&"k".repeat(255)).is_ok());
        assert_eq!(
            IdempotencyKey::parse(&"k".repeat(256)),
            Err(InvalidIdempotencyKey::TooLong)
        );
        assert_eq!(IdempotencyKey::parse(""), Err(InvalidIdempotencyKey::Empty));
        assert_eq!(
            IdempotencyKey::parse("   "),
            Err(InvalidIdempotencyKey::Empty)
        );
        assert_eq!(
            IdempotencyKey::parse("tab\there"),
            Err(InvalidIdempotencyKey::NotPrintable)
        );
        assert_eq!(
            IdempotencyKey::parse("clé"),
            Err(InvalidIdempotencyKey::NotPrintable)
        );
    }

    #[test]
    fn the_same_key_in_another_session_is_another_key() {
        let key = IdempotencyKey::parse("press-1").unwrap();
        assert_eq!(key.scoped("session-a"), key.scoped("session-a"));
        assert_ne!(key.scoped("session-a"), key.scoped("session-b"));
        let other = IdempotencyKey::parse("press-2").unwrap();
        assert_ne!(key.scoped("session-a"), other.scoped("session-a"));
        // neither the session nor the key can be read from what is stored
        let stored = key.scoped("session-a");
        assert_eq!(stored.as_str().len(), 64);
        assert!(!stored.as_str().contains("press"));
    }
}
