//! Product pictures: the media store as the catalog's [`catalog::ProductImages`] port.

use std::collections::HashSet;
use std::time::Duration;

use anyhow::Context;
use catalog::{ImageRejected, PreparedImage, ProductImages};

use crate::{normalize_product_image, MediaError, MediaStore};

/// The directory (media kind) product pictures are kept in.
pub const PRODUCT_KIND: &str = "products";

/// Checks, shrinks to fit 300x300 and stores product pictures as PNG under content-hash names;
/// decoding and encoding run on tokio's blocking pool, never on an async worker.
///
/// The catalog service removes unused pictures only while no picture write of its own is in
/// flight, so no grace period is needed within one instance.
#[derive(Debug, Clone)]
pub struct ProductImageStore {
    store: MediaStore,
}

impl ProductImageStore {
    pub fn new(store: MediaStore) -> Self {
        ProductImageStore { store }
    }
}

fn rejection(error: MediaError) -> ImageRejected {
    match error {
        MediaError::TooLarge => ImageRejected::TooLarge,
        MediaError::UnsupportedFormat => ImageRejected::UnsupportedFormat,
        other => {
            tracing::debug!(error = %other, "product image refused");
            ImageRejected::Undecodable
        }
    }
}

impl ProductImages for ProductImageStore {
    async fn prepare(&self, upload: Vec<u8>) -> Result<PreparedImage, ImageRejected> {
        match tokio::task::spawn_blocking(move || normalize_product_image(&upload)).await {
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
        tokio::task::spawn_blocking(move || store.save_png(PRODUCT_KIND, image.bytes()))
            .await
            .context("the image worker failed")?
            .context("failed to save a product image")
    }

    async fn remove_unused(&self, in_use: Vec<String>) -> Result<usize, anyhow::Error> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || {
            let keep: HashSet<String> = in_use.into_iter().collect();
            store.remove_unreferenced(PRODUCT_KIND, &keep, Duration::ZERO)
        })
        .await
        .context("the image worker failed")?
        .context("failed to remove unused product images")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(w: u32, h: u32) -> Vec<u8> {
        let img = image::RgbaImage::from_pixel(w, h, image::Rgba([10, 200, 30, 255]));
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[tokio::test]
    async fn prepares_saves_and_removes_unused_product_pictures() {
        let dir = tempfile::tempdir().unwrap();
        let images = ProductImageStore::new(MediaStore::new(dir.path()));
        let prepared = images.prepare(png(600, 300)).await.unwrap();
        let shrunk = image::load_from_memory(prepared.bytes()).unwrap();
        assert_eq!((shrunk.width(), shrunk.height()), (300, 150));
        let kept = images.save(prepared).await.unwrap();
        let dropped = images
            .save(images.prepare(png(10, 10)).await.unwrap())
            .await
            .unwrap();
        assert!(kept.starts_with("/media/products/") && kept.ends_with(".png"));

        let removed = images.remove_unused(vec![kept.clone()]).await.unwrap();
        assert_eq!(removed, 1);
        let store = MediaStore::new(dir.path());
        assert!(store.resolve(kept.trim_start_matches("/media/")).is_some());
        assert!(store
            .resolve(dropped.trim_start_matches("/media/"))
            .is_none());
    }

    #[tokio::test]
    async fn refusals_name_the_reason() {
        let dir = tempfile::tempdir().unwrap();
        let images = ProductImageStore::new(MediaStore::new(dir.path()));
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
}
