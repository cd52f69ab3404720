//! Where proofs are kept.

use std::future::Future;

use shared::Actor;

use crate::{NewProof, Proof, ProofError, ProofId};

/// The proofs' table.
#[cfg_attr(test, mockall::automock)]
pub trait ProofRepository: Send + Sync + 'static {
    /// Every proof, newest first. Fails only with `ProofError::Unknown`.
    fn list(&self) -> impl Future<Output = Result<Vec<Proof>, ProofError>> + Send;

    /// Stores the proof and its image paths in order, all or nothing, with the audit log's
    /// entry by `actor`.
    fn insert(
        &self,
        proof: NewProof,
        actor: &Actor,
    ) -> impl Future<Output = Result<Proof, ProofError>> + Send;

    /// Deletes the proof, with the audit log's entry by `actor`. `ProofError::NotFound` when
    /// there is none (and nothing is written).
    fn delete(
        &self,
        id: ProofId,
        actor: &Actor,
    ) -> impl Future<Output = Result<(), ProofError>> + Send;

    /// Every image path any proof still uses.
    fn image_paths_in_use(&self) -> impl Future<Output = Result<Vec<String>, ProofError>> + Send;
}
