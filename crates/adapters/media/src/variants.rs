//! WebP copies of the stored product pictures for browsers, in a few widths: the stored PNG
//! (`/media/products/{hash}.png`) stays what the API names and the admin edits; next to it live
//! `/media/products/{hash}-{width}.webp` for width 150, 300 and 600, made on upload and, for
//! pictures stored before, on their first request, then kept on disk.
//!
//! The encoder is libwebp's lossy one at quality 80 (alpha kept lossless): image's pure-Rust
//! WebP encoder only writes lossless files, which for the shop's drawn art (soft gradients,
//! bokeh) came to 93 % of the PNG's size; lossy 80 is a fraction of it with no visible loss. A
//! variant is never wider than its source (a 300 px picture's "600" copy is 300 px wide, so
//! a high-density screen gets the sharpest picture there is without inventing pixels).

use std::fs;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

use image::imageops::{self, FilterType};
use image::ImageFormat;

use crate::error::MediaError;
use crate::images::PRODUCT_KIND;
use crate::store::{create_temp_file, MediaStore};
use crate::variant_names::{parse_variant_name, WEBP_WIDTHS};

/// libwebp's lossy quality (0-100) for the colours; the alpha channel stays lossless.
pub const WEBP_QUALITY: f32 = 80.0;

/// Made one at a time: a burst of requests for a picture nobody asked for yet encodes it once.
static MAKING: Mutex<()> = Mutex::new(());

/// A WebP copy of `png` that is `width` pixels wide (or the source's width when it is
/// narrower), keeping the aspect ratio.
pub fn webp_variant(png: &[u8], width: u32) -> Result<Vec<u8>, MediaError> {
    let source = image::load_from_memory_with_format(png, ImageFormat::Png)
        .map_err(|_| MediaError::Undecodable)?
        .into_rgba8();
    let (w, h) = source.dimensions();
    let picture = if width < w {
        let height = ((u64::from(h) * u64::from(width) + u64::from(w) / 2) / u64::from(w)).max(1);
        let height = u32::try_from(height).map_err(|_| MediaError::TooLarge)?;
        imageops::resize(&source, width, height, FilterType::CatmullRom)
    } else {
        source
    };
    let encoded = webp::Encoder::from_rgba(picture.as_raw(), picture.width(), picture.height())
        .encode_simple(false, WEBP_QUALITY)
        .map_err(|e| MediaError::Encode(format!("webp: {e:?}")))?;
    Ok(encoded.to_vec())
}

impl MediaStore {
    /// The file of a product picture's WebP copy named by the tail of its public path
    /// (`products/{hash}-{width}.webp`), made from the stored PNG when it is not on disk yet.
    /// `Ok(None)` when the name is no variant of a stored product picture. Blocking: call it
    /// from a blocking thread.
    pub fn webp_file(&self, public_path_tail: &str) -> Result<Option<PathBuf>, MediaError> {
        let Some((kind, name)) = public_path_tail.split_once('/') else {
            return Ok(None);
        };
        let Some((png_name, width)) = (kind == PRODUCT_KIND)
            .then(|| parse_variant_name(name))
            .flatten()
        else {
            return Ok(None);
        };
        if let Some(existing) = self.resolve(public_path_tail) {
            return Ok(Some(existing));
        }
        let Some(png_path) = self.resolve(&format!("{kind}/{png_name}")) else {
            return Ok(None);
        };
        let _one_at_a_time = match MAKING.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(existing) = self.resolve(public_path_tail) {
            return Ok(Some(existing));
        }
        let png = fs::read(&png_path)?;
        let webp = webp_variant(&png, width)?;
        let dir = self.root().join(kind);
        let target = dir.join(name);
        let (tmp_path, mut tmp_file) = create_temp_file(&dir, name)?;
        let written = tmp_file.write_all(&webp).and_then(|()| {
            drop(tmp_file);
            fs::rename(&tmp_path, &target)
        });
        if let Err(err) = written {
            let _ = fs::remove_file(&tmp_path);
            return Err(err.into());
        }
        tracing::debug!(file = %name, bytes = webp.len(), "made a webp copy");
        Ok(Some(target))
    }

    /// Makes every WebP copy of a stored product picture (`/media/products/{hash}.png`) now;
    /// uploads call it so no shopper waits for the encoding.
    pub fn make_webp_variants(&self, public_png: &str) -> Result<(), MediaError> {
        let Some(stem) = public_png
            .strip_prefix("/media/")
            .and_then(|tail| tail.strip_suffix(".png"))
        else {
            return Ok(());
        };
        for width in WEBP_WIDTHS {
            self.webp_file(&format!("{stem}-{width}.webp"))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Rgba, RgbaImage};

    fn art(w: u32, h: u32) -> Vec<u8> {
        use std::io::Cursor;
        let img = RgbaImage::from_fn(w, h, |x, y| {
            let inside = (x as i64 - w as i64 / 2).pow(2) + (y as i64 - h as i64 / 2).pow(2)
                < (w as i64 / 3).pow(2);
            if inside {
                Rgba([200, (y % 256) as u8, 40, 255])
            } else {
                Rgba([0, 0, 0, 0])
            }
        });
        let mut out = Cursor::new(Vec::new());
        img.write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    }

    fn size_of(webp: &[u8]) -> (u32, u32) {
        let decoded = image::load_from_memory_with_format(webp, ImageFormat::WebP).unwrap();
        (decoded.width(), decoded.height())
    }

    #[test]
    fn variants_shrink_but_never_grow() {
        let png = art(300, 200);
        assert_eq!(size_of(&webp_variant(&png, 150).unwrap()), (150, 100));
        assert_eq!(size_of(&webp_variant(&png, 300).unwrap()), (300, 200));
        assert_eq!(size_of(&webp_variant(&png, 600).unwrap()), (300, 200));
    }

    #[test]
    fn only_offered_widths_of_stored_product_pictures_are_made() {
        let dir = tempfile::tempdir().unwrap();
        let store = MediaStore::new(dir.path());
        let public = store.save_png("products", &art(300, 300)).unwrap();
        let stem = public
            .trim_start_matches("/media/")
            .trim_end_matches(".png");

        let file = store
            .webp_file(&format!("{stem}-150.webp"))
            .unwrap()
            .unwrap();
        assert_eq!(size_of(&fs::read(&file).unwrap()), (150, 150));
        // kept on disk: the second request finds the same file
        assert_eq!(
            store.webp_file(&format!("{stem}-150.webp")).unwrap(),
            Some(file)
        );
        for absent in [
            format!("{stem}-151.webp"),
            format!("{stem}-0.webp"),
            format!("{stem}.webp"),
            "products/0123456789abcdef-300.webp".to_owned(),
            format!("proofs/{}-300.webp", &stem["products/".len()..]),
            "products/../x-300.webp".to_owned(),
        ] {
            assert_eq!(store.webp_file(&absent).unwrap(), None, "{absent}");
        }

        store.make_webp_variants(&public).unwrap();
        for width in WEBP_WIDTHS {
            assert!(store.resolve(&format!("{stem}-{width}.webp")).is_some());
        }
    }
}
