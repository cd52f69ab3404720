//! Proof pictures: the media store as the proofs domain's [`proofs::ProofImages`] port.

use std::collections::HashSet;
use std::time::Duration;

use anyhow::Context;
use proofs::{ImageRejected, PreparedImage, ProofImages};

use crate::{normalize_upload, MediaError, MediaStore};

/// The directory (media kind) proof pictures are kept in.
pub const PROOF_KIND: &str = "proofs";
/// Pictures younger than this are never removed as unused: an upload may have saved them and
/// not yet recorded its proof.
pub const UNUSED_GRACE: Duration = Duration::from_secs(5 * 60);

/// Checks, re-encodes (larger side at most 1600 px) and stores proof pictures under
/// content-hash names; the pixel work runs on tokio's blocking pool.
#[derive(Debug, Clone)]
pub struct ProofImageStore {
    store: MediaStore,
    grace: Duration,
}

impl ProofImageStore {
    pub fn new(store: MediaStore) -> Self {
        ProofImageStore {
            store,
            grace: UNUSED_GRACE,
        }
    }

    /// The same store with another grace period for unused pictures (tests use zero).
    pub fn with_grace(store: MediaStore, grace: Duration) -> Self {
        ProofImageStore { store, grace }
    }
}

fn rejection(error: MediaError) -> ImageRejected {
    match error {
        MediaError::TooLarge => ImageRejected::TooLarge,
        MediaError::UnsupportedFormat => ImageRejected::UnsupportedFormat,
        other => {
            tracing::debug!(error = %other, "proof image refused");
            ImageRejected::Undecodable
        }
    }
}

impl ProofImages for ProofImageStore {
    async fn prepare(&self, upload: Vec<u8>) -> Result<PreparedImage, ImageRejected> {
        match tokio::task::spawn_blocking(move || normalize_upload(&upload)).await {
            Ok(Ok(png)) => Ok(PreparedImage::new(png)),
            Ok(Err(error)) => Err(rejection(error)),
            Err(join) => {
                tracing::error!(error = %join, "the image worker failed");
                Err(ImageRejected::Undecodable)
            }
        }
    }

    async fn save(&self, image: PreparedImage) -> Result<String, anyhow::Error> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || store.save_png(PROOF_KIND, image.bytes()))
            .await
            .context("the image worker failed")?
            .context("failed to save a proof image")
    }

    async fn remove_unused(&self, in_use: Vec<String>) -> Result<usize, anyhow::Error> {
        let store = self.store.clone();
        let grace = self.grace;
        tokio::task::spawn_blocking(move || {
            let keep: HashSet<String> = in_use.into_iter().collect();
            store.remove_unreferenced(PROOF_KIND, &keep, grace)
        })
        .await
        .context("the image worker failed")?
        .context("failed to remove unused proof images")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{ImageFormat, Rgba, RgbaImage};

    fn png(w: u32, h: u32) -> Vec<u8> {
        let img = RgbaImage::from_fn(w, h, |x, y| {
            Rgba([(x % 256) as u8, (y % 256) as u8, 9, 255])
        });
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[tokio::test]
    async fn a_proof_picture_is_shrunk_to_1600_and_stored_by_content() {
        let dir = tempfile::tempdir().unwrap();
        let images = ProofImageStore::with_grace(MediaStore::new(dir.path()), Duration::ZERO);
        let prepared = images.prepare(png(3200, 800)).await.unwrap();
        let decoded = image::load_from_memory(prepared.bytes()).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (1600, 400));
        let path = images.save(prepared.clone()).await.unwrap();
        assert!(path.starts_with("/media/proofs/") && path.ends_with(".png"));
        assert_eq!(
            images.save(prepared).await.unwrap(),
            path,
            "same picture, same path"
        );

        let other = images
            .save(images.prepare(png(10, 10)).await.unwrap())
            .await
            .unwrap();
        assert_eq!(images.remove_unused(vec![path.clone()]).await.unwrap(), 1);
        let store = MediaStore::new(dir.path());
        assert!(store.resolve(path.trim_start_matches("/media/")).is_some());
        assert!(store.resolve(other.trim_start_matches("/media/")).is_none());
    }

    #[tokio::test]
    async fn text_and_oversized_uploads_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let images = ProofImageStore::new(MediaStore::new(dir.path()));
        assert_eq!(
            images.prepare(b"just some text".to_vec()).await,
            Err(ImageRejected::UnsupportedFormat)
        );
        let mut big = png(4, 4);
        big.resize(crate::MAX_INPUT_BYTES + 1, 0);
        assert_eq!(images.prepare(big).await, Err(ImageRejected::TooLarge));
        let mut broken = b"\x89PNG\r\n\x1a\n".to_vec();
        broken.extend_from_slice(&[7; 64]);
        assert_eq!(
            images.prepare(broken).await,
            Err(ImageRejected::Undecodable)
        );
    }
}
