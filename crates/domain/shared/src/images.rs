//! Uploaded pictures: the port that checks, stores and removes them. The catalog (product
//! pictures) and proofs (delivery screenshots) use it alike; the adapter is built once per use
//! with that use's size (product pictures fit 300x300, proof pictures 1600 px).

use std::fmt;
use std::future::Future;

use chrono::{DateTime, Utc};

/// A picture checked and re-encoded as PNG, ready to be saved.
#[derive(Clone, PartialEq, Eq)]
pub struct PreparedImage(Vec<u8>);

impl PreparedImage {
    pub fn new(png: Vec<u8>) -> Self {
        PreparedImage(png)
    }

    pub fn bytes(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Debug for PreparedImage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PreparedImage({} bytes)", self.0.len())
    }
}

/// Why an uploaded file is not accepted as a picture. The messages are the product form's;
/// a domain that words them differently (proofs) says so itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ImageRejected {
    #[error("The image may be at most 5 MB and 40 megapixels.")]
    TooLarge,
    #[error("The image must be a PNG, JPEG, WebP or GIF file.")]
    UnsupportedFormat,
    #[error("The image could not be read; the file may be damaged.")]
    Undecodable,
}

/// Where uploaded pictures are checked and kept.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait ImageStore: Send + Sync + 'static {
    /// Checks an upload by its content (format, bytes, pixels) and re-encodes it as a PNG that
    /// fits the store's size. CPU work: implementations run it off the async workers.
    fn prepare(
        &self,
        upload: Vec<u8>,
    ) -> impl Future<Output = Result<PreparedImage, ImageRejected>> + Send;

    /// Saves a prepared picture and returns its public path; the same picture saved twice has
    /// one path.
    fn save(
        &self,
        image: PreparedImage,
    ) -> impl Future<Output = Result<String, anyhow::Error>> + Send;

    /// Removes this store's saved pictures that are not in `in_use`; returns how many went.
    /// `now` (the caller's clock) tells how old a picture is.
    fn remove_unused(
        &self,
        in_use: Vec<String>,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<usize, anyhow::Error>> + Send;
}
