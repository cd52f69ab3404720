//! Proofs of delivery.
