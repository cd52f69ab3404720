//! Uploaded pictures: the media store as the shared [`shared::ImageStore`] port, built once per
//! use with that use's rules. Product pictures fit 300x300 (the catalog); proof pictures keep up
//! to 1600 px and spare fresh files for a grace period (proofs).

use std::collections::HashSet;
use std::time::Duration;

use anyhow::Context;
use chrono::{DateTime, Utc};
use shared::{ImageRejected, ImageStore, PreparedImage};

use crate::normalize::{normalize, PngCompression};
use crate::{MediaError, MediaStore, PRODUCT_IMAGE_MAX_SIDE, UPLOAD_MAX_SIDE};

/// The directory (media kind) product pictures are kept in.
pub const PRODUCT_KIND: &str = "products";
/// The directory (media kind) proof pictures are kept in.
pub const PROOF_KIND: &str = "proofs";
/// Proof pictures younger than this are never removed as unused: an upload may have saved them
/// and not yet recorded its proof.
pub const UNUSED_GRACE: Duration = Duration::from_secs(5 * 60);

/// Checks, shrinks and stores pictures of one kind as PNG under content-hash names; decoding
/// and encoding run on tokio's blocking pool, never on an async worker.
#[derive(Debug, Clone)]
pub struct MediaImages {
    store: MediaStore,
    kind: &'static str,
    max_side: u32,
    compression: PngCompression,
    grace: Duration,
}

impl MediaImages {
    /// Product pictures: fit within 300x300. The catalog removes unused pictures only while no
    /// picture write of its own is in flight, so no grace period is needed within one instance.
    pub fn products(store: MediaStore) -> Self {
        MediaImages {
            store,
            kind: PRODUCT_KIND,
            max_side: PRODUCT_IMAGE_MAX_SIDE,
            compression: PngCompression::Default,
            grace: Duration::ZERO,
        }
    }

    /// Proof pictures: larger side at most 1600 px (mostly screenshots, where deflate gains
    /// little, so encoding favours speed); unused ones are spared for [`UNUSED_GRACE`].
    pub fn proofs(store: MediaStore) -> Self {
        MediaImages {
            store,
            kind: PROOF_KIND,
            max_side: UPLOAD_MAX_SIDE,
            compression: PngCompression::Fast,
            grace: UNUSED_GRACE,
        }
    }
}

fn rejection(kind: &str, error: MediaError) -> ImageRejected {
    match error {
        MediaError::TooLarge => ImageRejected::TooLarge,
        MediaError::UnsupportedFormat => ImageRejected::UnsupportedFormat,
        other => {
            tracing::debug!(error = %other, kind, "image refused");
            ImageRejected::Undecodable
        }
    }
}

impl ImageStore for MediaImages {
    async fn prepare(&self, upload: Vec<u8>) -> Result<PreparedImage, ImageRejected> {
        let (max_side, compression) = (self.max_side, self.compression);
        match tokio::task::spawn_blocking(move || normalize(&upload, max_side, compression)).await {
            Ok(Ok(png)) => Ok(PreparedImage::new(png)),
            Ok(Err(error)) => Err(rejection(self.kind, error)),
            Err(join) => {
                tracing::error!(error = %join, "the image worker failed");
                Err(ImageRejected::Undecodable)
            }
        }
    }

    async fn save(&self, image: PreparedImage) -> Result<String, anyhow::Error> {
        let store = self.store.clone();
        let kind = self.kind;
        tokio::task::spawn_blocking(move || {
            let public = store.save_png(kind, image.bytes())?;
            if kind == PRODUCT_KIND {
                // Browsers get WebP copies; a failure here only delays them to the first request.
                if let Err(error) = store.make_webp_variants(&public) {
                    tracing::warn!(error = %error, "could not make the webp copies of a picture");
                }
            }
            Ok::<_, MediaError>(public)
        })
        .await
        .context("the image worker failed")?
        .with_context(|| format!("failed to save an image in {kind}"))
    }

    async fn remove_unused(
        &self,
        in_use: Vec<String>,
        now: DateTime<Utc>,
    ) -> Result<usize, anyhow::Error> {
        let store = self.store.clone();
        let (kind, grace) = (self.kind, self.grace);
        tokio::task::spawn_blocking(move || {
            let keep: HashSet<String> = in_use.into_iter().collect();
            store.remove_unreferenced(kind, &keep, grace, now.into())
        })
        .await
        .context("the image worker failed")?
        .with_context(|| format!("failed to remove unused images in {kind}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{ImageFormat, Rgba, RgbaImage};

    fn png(w: u32, h: u32) -> Vec<u8> {
        let img = RgbaImage::from_pixel(w, h, Rgba([10, 200, 30, 255]));
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    }

    fn busy_png(w: u32, h: u32) -> Vec<u8> {
        let img = RgbaImage::from_fn(w, h, |x, y| {
            Rgba([(x % 256) as u8, (y % 256) as u8, 9, 255])
        });
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[tokio::test]
    async fn prepares_saves_and_removes_unused_product_pictures() {
        let dir = tempfile::tempdir().unwrap();
        let images = MediaImages::products(MediaStore::new(dir.path()));
        let prepared = images.prepare(png(600, 300)).await.unwrap();
        let shrunk = image::load_from_memory(prepared.bytes()).unwrap();
        assert_eq!((shrunk.width(), shrunk.height()), (300, 150));
        let kept = images.save(prepared).await.unwrap();
        let dropped = images
            .save(images.prepare(png(10, 10)).await.unwrap())
            .await
            .unwrap();
        assert!(kept.starts_with("/media/products/") && kept.ends_with(".png"));

        let store = MediaStore::new(dir.path());
        let copies = |public: &str| -> Vec<bool> {
            let stem = public
                .trim_start_matches("/media/")
                .trim_end_matches(".png");
            crate::variant_names::WEBP_WIDTHS
                .iter()
                .map(|width| store.resolve(&format!("{stem}-{width}.webp")).is_some())
                .collect()
        };
        assert_eq!(copies(&kept), [true; 3], "an upload makes its webp copies");

        let removed = images
            .remove_unused(vec![kept.clone()], chrono::Utc::now())
            .await
            .unwrap();
        assert_eq!(removed, 4, "the unused picture and its three copies");
        assert!(store.resolve(kept.trim_start_matches("/media/")).is_some());
        assert_eq!(copies(&kept), [true; 3]);
        assert!(store
            .resolve(dropped.trim_start_matches("/media/"))
            .is_none());
        assert_eq!(copies(&dropped), [false; 3]);
    }

    #[tokio::test]
    async fn refusals_name_the_reason() {
        let dir = tempfile::tempdir().unwrap();
        let images = MediaImages::products(MediaStore::new(dir.path()));
        assert_eq!(
            images.prepare(b"not a picture".to_vec()).await,
            Err(ImageRejected::UnsupportedFormat)
        );
        let mut truncated = png(50, 50);
        truncated.truncate(truncated.len() / 2);
        assert_eq!(
            images.prepare(truncated).await,
            Err(ImageRejected::Undecodable)
        );
        assert_eq!(
            images.prepare(vec![0; 6 * 1024 * 1024]).await,
            Err(ImageRejected::TooLarge)
        );
    }

    #[tokio::test]
    async fn a_proof_picture_is_shrunk_to_1600_and_stored_by_content() {
        let dir = tempfile::tempdir().unwrap();
        let images = MediaImages::proofs(MediaStore::new(dir.path()));
        let prepared = images.prepare(busy_png(3200, 800)).await.unwrap();
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
            .save(images.prepare(busy_png(10, 10)).await.unwrap())
            .await
            .unwrap();
        // past the grace period
        let later = chrono::Utc::now() + UNUSED_GRACE + Duration::from_secs(1);
        assert_eq!(
            images
                .remove_unused(vec![path.clone()], later)
                .await
                .unwrap(),
            1
        );
        let store = MediaStore::new(dir.path());
        assert!(store.resolve(path.trim_start_matches("/media/")).is_some());
        assert!(store.resolve(other.trim_start_matches("/media/")).is_none());
    }

    #[tokio::test]
    async fn text_and_oversized_uploads_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let images = MediaImages::proofs(MediaStore::new(dir.path()));
        assert_eq!(
            images.prepare(b"just some text".to_vec()).await,
            Err(ImageRejected::UnsupportedFormat)
        );
        let mut big = busy_png(4, 4);
        big.resize(crate::MAX_INPUT_BYTES + 1, 0);
        assert_eq!(images.prepare(big).await, Err(ImageRejected::TooLarge));
        let mut broken = b"\x89PNG\r\n\x1a\n".to_vec();
        broken.extend_from_slice(&[7; 64]);
        assert_eq!(
            images.prepare(broken).await,
            Err(ImageRejected::Undecodable)
        );
    }

    #[tokio::test]
    async fn each_use_removes_only_its_own_pictures() {
        let dir = tempfile::tempdir().unwrap();
        let products = MediaImages::products(MediaStore::new(dir.path()));
        let proofs = MediaImages::proofs(MediaStore::new(dir.path()));
        let picture = products
            .save(products.prepare(png(20, 20)).await.unwrap())
            .await
            .unwrap();
        let proof = proofs
            .save(proofs.prepare(busy_png(20, 20)).await.unwrap())
            .await
            .unwrap();
        let later = chrono::Utc::now() + UNUSED_GRACE + Duration::from_secs(1);
        assert_eq!(proofs.remove_unused(vec![], later).await.unwrap(), 1);
        let store = MediaStore::new(dir.path());
        assert!(store
            .resolve(picture.trim_start_matches("/media/"))
            .is_some());
        assert!(store.resolve(proof.trim_start_matches("/media/")).is_none());
    }
}
