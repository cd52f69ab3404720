//! A proof, its id and its items text.

use std::fmt;

use chrono::{DateTime, Utc};

/// Most pictures on one proof.
pub const MAX_IMAGES: usize = 10;
/// Longest items text, in characters.
pub const MAX_ITEMS_CHARS: usize = 500;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProofId(i64);

impl ProofId {
    pub fn new(id: i64) -> Self {
        ProofId(id)
    }

    pub fn get(self) -> i64 {
        self.0
    }
}

impl fmt::Display for ProofId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// What was delivered ("2x Raccoon, 1 Kitsune"): trimmed, 1 to 500 characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofItems(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ProofItemsError {
    #[error("Please provide items and at least one image.")]
    Empty,
    #[error("The items may be at most 500 characters long.")]
    TooLong,
}

impl ProofItems {
    pub fn parse(text: &str) -> Result<Self, ProofItemsError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(ProofItemsError::Empty);
        }
        if text.chars().count() > MAX_ITEMS_CHARS {
            return Err(ProofItemsError::TooLong);
        }
        Ok(ProofItems(text.to_owned()))
    }
}

impl AsRef<str> for ProofItems {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// A published proof.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proof {
    pub id: ProofId,
    pub items: String,
    /// Public paths of the pictures (`/media/proofs/….png`), in the order given.
    pub images: Vec<String>,
    pub created_at: DateTime<Utc>,
}

/// A proof about to be stored; the store assigns the id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewProof {
    pub items: ProofItems,
    pub images: Vec<String>,
    pub created_at: DateTime<Utc>,
}
