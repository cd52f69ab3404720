//! Proofs of delivery: what was delivered and the pictures that show it. Staff publish them;
//! everyone can read them, newest first.

mod error;
mod models;
mod ports;
mod service;

pub use error::{rejection_message, ProofError, PublishError};
pub use models::{
    NewProof, Proof, ProofId, ProofItems, ProofItemsError, MAX_IMAGES, MAX_ITEMS_CHARS,
};
#[cfg(test)]
pub use ports::MockProofRepository;
pub use ports::ProofRepository;
pub use service::ProofService;
pub use shared::{Clock, ImageRejected, ImageStore, PreparedImage};
