use std::io::Cursor;

use image::codecs::png::PngEncoder;
pub(crate) use image::codecs::png::{CompressionType as PngCompression, FilterType as PngFilter};
use image::imageops::{self, FilterType};
use image::metadata::Orientation;
use image::{DynamicImage, ExtendedColorType, ImageDecoder, ImageEncoder, ImageError, ImageFormat};
use image::{ImageReader, Limits, RgbaImage};

use crate::error::MediaError;

/// Largest accepted input file: 5 MiB.
pub const MAX_INPUT_BYTES: usize = 5 * 1024 * 1024;
/// Product images are scaled down to fit within this square.
pub const PRODUCT_IMAGE_MAX_SIDE: u32 = 300;
/// Proof uploads are scaled down to fit within this square.
pub const UPLOAD_MAX_SIDE: u32 = 1600;

/// Longest side we are willing to decode at all (decompression-bomb guard).
const MAX_DECODE_SIDE: u32 = 12_000;
/// Most pixels we are willing to decode (40 MP, i.e. 160 MB as RGBA8).
const MAX_DECODE_PIXELS: u64 = 40_000_000;
/// Upper bound for decoder allocations.
const MAX_DECODE_ALLOC: u64 = 384 * 1024 * 1024;

/// Validates an uploaded product picture and turns it into a PNG (RGBA8)
/// that fits within 300x300, keeping the aspect ratio and never upscaling.
pub fn normalize_product_image(bytes: &[u8]) -> Result<Vec<u8>, MediaError> {
    normalize(bytes, PRODUCT_IMAGE_MAX_SIDE, PngCompression::Default)
}

/// Validates an uploaded proof screenshot and turns it into a PNG (RGBA8)
/// that fits within 1600x1600, keeping the aspect ratio and never upscaling.
pub fn normalize_upload(bytes: &[u8]) -> Result<Vec<u8>, MediaError> {
    // Uploads are mostly photos/screenshots of up to 1600 px: deflate gains
    // little on them, so favour speed.
    normalize(bytes, UPLOAD_MAX_SIDE, PngCompression::Fast)
}

pub(crate) fn normalize(
    bytes: &[u8],
    max_side: u32,
    compression: PngCompression,
) -> Result<Vec<u8>, MediaError> {
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(MediaError::TooLarge);
    }
    let format = detect_format(bytes)?;
    let (rgba, may_have_alpha) = decode(bytes, format)?;
    let (w, h) = rgba.dimensions();
    let (nw, nh) = fit_within(w, h, max_side);
    let out = if (nw, nh) == (w, h) {
        rgba
    } else {
        shrink(rgba, nw, nh, may_have_alpha)
    };
    encode_png(&out, compression, PngFilter::Adaptive)
}

/// Only PNG, JPEG, WebP and GIF are accepted, judged by content alone.
fn detect_format(bytes: &[u8]) -> Result<ImageFormat, MediaError> {
    match image::guess_format(bytes) {
        Ok(f @ (ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::WebP | ImageFormat::Gif)) => {
            Ok(f)
        }
        _ => Err(MediaError::UnsupportedFormat),
    }
}

/// Decodes to RGBA8 (first frame for animations, EXIF rotation applied).
/// Also tells whether the source had an alpha channel at all.
fn decode(bytes: &[u8], format: ImageFormat) -> Result<(RgbaImage, bool), MediaError> {
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_DECODE_SIDE);
    limits.max_image_height = Some(MAX_DECODE_SIDE);
    limits.max_alloc = Some(MAX_DECODE_ALLOC);

    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(decode_error)?;

    let (w, h) = decoder.dimensions();
    if w == 0 || h == 0 {
        return Err(MediaError::Undecodable);
    }
    if u64::from(w) * u64::from(h) > MAX_DECODE_PIXELS {
        return Err(MediaError::TooLarge);
    }
    // Phone photos are often stored sideways with an EXIF rotation tag.
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let mut img = DynamicImage::from_decoder(decoder).map_err(decode_error)?;
    img.apply_orientation(orientation);
    let has_alpha = img.color().has_alpha();
    Ok((img.into_rgba8(), has_alpha))
}

fn decode_error(err: ImageError) -> MediaError {
    match err {
        ImageError::Limits(e) => {
            tracing::debug!(error = %e, "image refused by decode limits");
            MediaError::TooLarge
        }
        ImageError::Unsupported(e) => {
            tracing::debug!(error = %e, "unsupported image variant");
            MediaError::UnsupportedFormat
        }
        other => {
            tracing::debug!(error = %other, "image could not be decoded");
            MediaError::Undecodable
        }
    }
}

/// Size that fits `w`x`h` within `max`x`max`, keeping the aspect ratio and
/// never enlarging.
fn fit_within(w: u32, h: u32, max: u32) -> (u32, u32) {
    if w <= max && h <= max {
        return (w, h);
    }
    let scale = (f64::from(max) / f64::from(w)).min(f64::from(max) / f64::from(h));
    let side = |v: u32| -> u32 {
        let scaled = (f64::from(v) * scale).round();
        // `scaled` is within 0..=max here, so the conversion is exact.
        (scaled as u32).clamp(1, max)
    };
    (side(w), side(h))
}

/// High quality downscale. Works on premultiplied alpha so fully transparent
/// pixels (whose colour is often garbage) do not bleed dark fringes.
fn shrink(mut img: RgbaImage, nw: u32, nh: u32, may_have_alpha: bool) -> RgbaImage {
    let has_alpha = may_have_alpha && img.as_raw().chunks_exact(4).any(|p| p[3] != 255);
    if has_alpha {
        premultiply(&mut img);
    }
    // For big reductions, first average boxes quickly down to about twice
    // the target, then finish with a proper filter.
    let (w, h) = img.dimensions();
    if w >= nw.saturating_mul(4) && h >= nh.saturating_mul(4) {
        img = imageops::thumbnail(&img, nw.saturating_mul(2), nh.saturating_mul(2));
    }
    let mut out = imageops::resize(&img, nw, nh, FilterType::CatmullRom);
    if has_alpha {
        unpremultiply(&mut out);
    }
    out
}

fn premultiply(img: &mut RgbaImage) {
    for p in img.pixels_mut() {
        let a = u32::from(p.0[3]);
        for c in &mut p.0[..3] {
            *c = ((u32::from(*c) * a + 127) / 255) as u8;
        }
    }
}

fn unpremultiply(img: &mut RgbaImage) {
    for p in img.pixels_mut() {
        let a = u32::from(p.0[3]);
        if a == 0 {
            p.0 = [0, 0, 0, 0];
            continue;
        }
        for c in &mut p.0[..3] {
            *c = ((u32::from(*c) * 255 + a / 2) / a).min(255) as u8;
        }
    }
}

/// Encodes an RGBA8 image as PNG.
pub fn encode_png(
    img: &RgbaImage,
    compression: PngCompression,
    filter: PngFilter,
) -> Result<Vec<u8>, MediaError> {
    let mut out = Vec::new();
    PngEncoder::new_with_quality(&mut out, compression, filter)
        .write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            ExtendedColorType::Rgba8,
        )
        .map_err(|e| MediaError::Encode(e.to_string()))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{GenericImageView, Rgba};

    fn encode(img: &RgbaImage, format: ImageFormat) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        match format {
            ImageFormat::Jpeg => DynamicImage::ImageRgba8(img.clone())
                .into_rgb8()
                .write_to(&mut out, format)
                .unwrap(),
            _ => img.write_to(&mut out, format).unwrap(),
        }
        out.into_inner()
    }

    fn gradient(w: u32, h: u32) -> RgbaImage {
        RgbaImage::from_fn(w, h, |x, y| {
            Rgba([(x % 256) as u8, (y % 256) as u8, 128, 255])
        })
    }

    fn decode_png(bytes: &[u8]) -> DynamicImage {
        assert_eq!(image::guess_format(bytes).unwrap(), ImageFormat::Png);
        image::load_from_memory_with_format(bytes, ImageFormat::Png).unwrap()
    }

    /// Minimal CRC-32 (IEEE) for building crafted PNG chunks.
    fn crc32(data: &[u8]) -> u32 {
        let mut crc = 0xFFFF_FFFFu32;
        for &b in data {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 != 0 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    #[test]
    fn refuses_text_files() {
        let text = b"just some text, definitely not an image\n".repeat(10);
        assert!(matches!(
            normalize_product_image(&text),
            Err(MediaError::UnsupportedFormat)
        ));
        assert!(matches!(
            normalize_upload(&text),
            Err(MediaError::UnsupportedFormat)
        ));
        assert!(matches!(
            normalize_upload(b""),
            Err(MediaError::UnsupportedFormat)
        ));
        // An SVG is text too, and so is HTML pretending to be a picture.
        let svg = br#"<svg xmlns="http://www.w3.org/2000/svg"></svg>"#;
        assert!(matches!(
            normalize_product_image(svg),
            Err(MediaError::UnsupportedFormat)
        ));
    }

    #[test]
    fn refuses_other_image_formats() {
        // BMP header ("BM") is recognised by guess_format but not allowed.
        let mut bmp = b"BM".to_vec();
        bmp.extend_from_slice(&[0u8; 64]);
        assert!(matches!(
            normalize_product_image(&bmp),
            Err(MediaError::UnsupportedFormat)
        ));
    }

    #[test]
    fn refuses_over_large_input() {
        let mut big = encode(&gradient(10, 10), ImageFormat::Png);
        big.resize(MAX_INPUT_BYTES + 1, 0);
        assert!(matches!(
            normalize_product_image(&big),
            Err(MediaError::TooLarge)
        ));
        assert!(matches!(normalize_upload(&big), Err(MediaError::TooLarge)));
    }

    #[test]
    fn refuses_decompression_bombs() {
        // A valid 1x1 PNG whose header is patched to claim 100000x100000.
        let mut png = encode(&gradient(1, 1), ImageFormat::Png);
        // Signature (8) + length (4) + "IHDR" (4), then width and height.
        png[16..20].copy_from_slice(&100_000u32.to_be_bytes());
        png[20..24].copy_from_slice(&100_000u32.to_be_bytes());
        let crc = crc32(&png[12..29]);
        png[29..33].copy_from_slice(&crc.to_be_bytes());
        assert!(matches!(normalize_upload(&png), Err(MediaError::TooLarge)));
    }

    #[test]
    fn refuses_garbage_behind_a_valid_signature() {
        let mut fake = b"\x89PNG\r\n\x1a\n".to_vec();
        fake.extend_from_slice(&[0x42; 100]);
        assert!(matches!(
            normalize_product_image(&fake),
            Err(MediaError::Undecodable)
        ));
        let mut fake_jpeg = vec![0xFF, 0xD8, 0xFF];
        fake_jpeg.extend_from_slice(&[0x00; 100]);
        assert!(matches!(
            normalize_product_image(&fake_jpeg),
            Err(MediaError::Undecodable)
        ));
    }

    #[test]
    fn shrinks_wide_png_to_fit() {
        let png = encode(&gradient(1000, 500), ImageFormat::Png);
        let out = decode_png(&normalize_product_image(&png).unwrap());
        assert_eq!(out.dimensions(), (300, 150));
        assert_eq!(out.color(), image::ColorType::Rgba8);
    }

    #[test]
    fn shrinks_tall_image_and_uploads_use_1600() {
        let png = encode(&gradient(400, 2000), ImageFormat::Png);
        assert_eq!(
            decode_png(&normalize_product_image(&png).unwrap()).dimensions(),
            (60, 300)
        );
        assert_eq!(
            decode_png(&normalize_upload(&png).unwrap()).dimensions(),
            (320, 1600)
        );
    }

    #[test]
    fn keeps_small_images_unscaled() {
        let img = gradient(50, 50);
        let png = encode(&img, ImageFormat::Png);
        let out = decode_png(&normalize_product_image(&png).unwrap());
        assert_eq!(out.dimensions(), (50, 50));
        assert_eq!(out.to_rgba8(), img, "pixels must be preserved exactly");
        let out = decode_png(&normalize_upload(&png).unwrap());
        assert_eq!(out.dimensions(), (50, 50));
    }

    #[test]
    fn accepts_jpeg_gif_and_webp() {
        let img = gradient(640, 480);
        for format in [ImageFormat::Jpeg, ImageFormat::Gif, ImageFormat::WebP] {
            let bytes = encode(&img, format);
            let out = decode_png(&normalize_product_image(&bytes).unwrap());
            assert_eq!(out.dimensions(), (300, 225), "{format:?}");
            assert_eq!(out.color(), image::ColorType::Rgba8, "{format:?}");
        }
    }

    #[test]
    fn transparent_pixels_do_not_darken_edges() {
        // Left half fully transparent *black*, right half opaque white.
        let img = RgbaImage::from_fn(1000, 1000, |x, _| {
            if x < 500 {
                Rgba([0, 0, 0, 0])
            } else {
                Rgba([255, 255, 255, 255])
            }
        });
        let out = decode_png(&normalize_product_image(&encode(&img, ImageFormat::Png)).unwrap());
        let out = out.to_rgba8();
        for p in out.pixels().filter(|p| p.0[3] > 0) {
            assert!(
                p.0[..3].iter().all(|&c| c >= 250),
                "dark fringe pixel {p:?}"
            );
        }
    }

    #[test]
    fn fit_within_never_upscales() {
        assert_eq!(fit_within(10, 10, 300), (10, 10));
        assert_eq!(fit_within(300, 300, 300), (300, 300));
        assert_eq!(fit_within(301, 300, 300), (300, 299));
        assert_eq!(fit_within(10_000, 1, 300), (300, 1));
        assert_eq!(fit_within(1000, 500, 300), (300, 150));
    }
}
