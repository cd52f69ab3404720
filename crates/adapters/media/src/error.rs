use thiserror::Error;

/// Everything that can go wrong in this crate.
#[derive(Debug, Error)]
pub enum MediaError {
    /// The input is bigger than [`crate::MAX_INPUT_BYTES`] or its pixel
    /// dimensions are beyond what we are willing to decode.
    #[error("image is too large")]
    TooLarge,
    /// The bytes are not a PNG, JPEG, WebP or GIF image.
    #[error("unsupported image format (allowed: PNG, JPEG, WebP, GIF)")]
    UnsupportedFormat,
    /// The bytes look like a supported format but could not be decoded.
    #[error("image could not be decoded")]
    Undecodable,
    /// A media kind (directory name) that is not lowercase letters and `-`.
    #[error("invalid media kind {0:?} (allowed: lowercase letters and '-')")]
    InvalidKind(String),
    /// `save_png` was given bytes that do not start with the PNG signature.
    #[error("data is not a PNG file")]
    NotPng,
    /// Encoding our own output failed (should not happen).
    #[error("image encoding failed: {0}")]
    Encode(String),
    /// Filesystem error while storing media.
    #[error("media storage I/O error: {0}")]
    Io(#[from] std::io::Error),
}

impl MediaError {
    /// `true` when the error is caused by the caller's input (an HTTP layer
    /// should answer 4xx), `false` for server-side failures (5xx).
    pub fn is_client_error(&self) -> bool {
        matches!(
            self,
            MediaError::TooLarge
                | MediaError::UnsupportedFormat
                | MediaError::Undecodable
                | MediaError::InvalidKind(_)
                | MediaError::NotPng
        )
    }
}
