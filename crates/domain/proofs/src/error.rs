//! What publishing or removing a proof can fail with.

use shared::ImageRejected;

use crate::ProofId;

/// How the proof form words a refused picture (the product form words it as
/// [`ImageRejected`]'s own message).
pub fn rejection_message(reason: ImageRejected) -> &'static str {
    match reason {
        ImageRejected::TooLarge => "Each image may be at most 5 MB and 40 megapixels.",
        ImageRejected::UnsupportedFormat => "Only PNG, JPEG, WebP and GIF images are accepted.",
        ImageRejected::Undecodable => "The image could not be read.",
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    #[error("Please provide items and at least one image.")]
    NoImages,
    #[error("A proof may have at most 10 images.")]
    TooManyImages,
    /// The picture at `index` (0-based, in upload order) was refused; nothing was stored.
    #[error("Image {}: {}", index + 1, rejection_message(*reason))]
    Image { index: usize, reason: ImageRejected },
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

#[derive(Debug, thiserror::Error)]
pub enum ProofError {
    #[error("Proof not found.")]
    NotFound(ProofId),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}
