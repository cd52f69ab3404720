//! The proof pictures made small enough for the evidence, and the choice of which fit.
//!
//! Each picture is decoded (JPEG, PNG or WebP, turned upright by its EXIF orientation),
//! scaled down to at most `MAX_SIDE` pixels on its longest side, laid on white where it is
//! transparent, and measured as JPEG at the quality printpdf will use. Pictures are taken in
//! the order they were posted until the next one would pass the room left; it and the ones
//! after it are left out (and not decoded at all).

use std::io::Cursor;

use chrono::{DateTime, Utc};
use disputes::ProofImage;
use image::codecs::jpeg::JpegEncoder;
use image::{
    DynamicImage, ExtendedColorType, ImageDecoder, ImageEncoder, ImageFormat, ImageReader, RgbImage,
};
use printpdf::RawImage;

use crate::page::JPEG_QUALITY;

/// The longest side of a picture in the evidence, in pixels: enough to read a username in a
/// screenshot, small enough for about twenty photos in the size limit.
pub(crate) const MAX_SIDE: u32 = 1200;

/// What a picture adds to the file beyond its JPEG bytes: its image dictionary, its caption
/// and the page operations that place it.
const OVERHEAD: usize = 1_000;

/// A picture ready to go in the file.
pub(crate) struct Picture {
    pub image: RawImage,
    pub width: usize,
    pub height: usize,
    /// Its size as JPEG at `JPEG_QUALITY`, the bytes it adds to the file.
    pub jpeg_len: usize,
}

/// One proof picture as the delivery record shows it.
pub(crate) enum Entry {
    Shown {
        number: usize,
        posted_at: DateTime<Utc>,
        picture: Picture,
    },
    Unreadable {
        number: usize,
        posted_at: DateTime<Utc>,
    },
}

/// The pictures past the size budget, counted and dated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LeftOut {
    pub count: usize,
    pub first_posted: DateTime<Utc>,
    pub last_posted: DateTime<Utc>,
}

/// The proof pictures of the delivery record: what is shown, what could not be read, and how
/// many were left out for size.
#[derive(Default)]
pub(crate) struct Selection {
    pub total: usize,
    pub entries: Vec<Entry>,
    pub left_out: Option<LeftOut>,
}

impl Selection {
    /// The pictures, oldest first, that fit in `room` bytes.
    pub fn fitting(proofs: &[ProofImage], room: usize) -> Self {
        let mut sorted: Vec<&ProofImage> = proofs.iter().collect();
        sorted.sort_by_key(|proof| proof.posted_at);
        let mut selection = Selection {
            total: sorted.len(),
            ..Selection::default()
        };
        let mut room = room;
        for (index, proof) in sorted.iter().enumerate() {
            let (number, posted_at) = (index + 1, proof.posted_at);
            match prepare(proof) {
                Err(reason) => {
                    tracing::warn!(number, %reason, "a proof picture could not be read; left out of the evidence");
                    selection
                        .entries
                        .push(Entry::Unreadable { number, posted_at });
                }
                Ok(picture) if picture.jpeg_len + OVERHEAD <= room => {
                    room -= picture.jpeg_len + OVERHEAD;
                    selection.entries.push(Entry::Shown {
                        number,
                        posted_at,
                        picture,
                    });
                }
                Ok(_) => {
                    selection.left_out = left_out(&sorted[index..]);
                    break;
                }
            }
        }
        selection
    }

    /// Moves the last shown picture to the left-out ones; false when none is shown.
    pub fn leave_out_last(&mut self) -> bool {
        let Some(position) = self
            .entries
            .iter()
            .rposition(|entry| matches!(entry, Entry::Shown { .. }))
        else {
            return false;
        };
        let Entry::Shown { posted_at, .. } = self.entries.remove(position) else {
            return false;
        };
        self.left_out = Some(match self.left_out {
            Some(left_out) => LeftOut {
                count: left_out.count + 1,
                first_posted: posted_at.min(left_out.first_posted),
                last_posted: posted_at.max(left_out.last_posted),
            },
            None => LeftOut {
                count: 1,
                first_posted: posted_at,
                last_posted: posted_at,
            },
        });
        true
    }
}

fn left_out(sorted: &[&ProofImage]) -> Option<LeftOut> {
    Some(LeftOut {
        count: sorted.len(),
        first_posted: sorted.first()?.posted_at,
        last_posted: sorted.last()?.posted_at,
    })
}

/// The picture decoded, upright, downscaled, on white, and measured; the reason when it cannot
/// be read.
fn prepare(proof: &ProofImage) -> Result<Picture, String> {
    let image = decode(proof).map_err(|error| error.to_string())?;
    let image = if image.width().max(image.height()) > MAX_SIDE {
        image.thumbnail(MAX_SIDE, MAX_SIDE)
    } else {
        image
    };
    let rgb = on_white(image);
    let mut jpeg = Vec::new();
    // `write_image` over the raw bytes rather than the generic `encode_image`: the pixel loop
    // then runs in the `image` crate's own (optimised) code.
    JpegEncoder::new_with_quality(&mut jpeg, JPEG_QUALITY)
        .write_image(
            rgb.as_raw(),
            rgb.width(),
            rgb.height(),
            ExtendedColorType::Rgb8,
        )
        .map_err(|error| error.to_string())?;
    let (width, height) = (rgb.width() as usize, rgb.height() as usize);
    let image = RawImage::from_dynamic_image(DynamicImage::ImageRgb8(rgb))?;
    Ok(Picture {
        image,
        width,
        height,
        jpeg_len: jpeg.len(),
    })
}

/// Decodes by the bytes' signature (the stored content type when the bytes do not say), within
/// the `image` crate's default memory limit, and applies the EXIF orientation.
fn decode(proof: &ProofImage) -> image::ImageResult<DynamicImage> {
    let mut reader = ImageReader::new(Cursor::new(proof.bytes.as_slice())).with_guessed_format()?;
    if reader.format().is_none() {
        if let Some(format) = ImageFormat::from_mime_type(&proof.content_type) {
            reader.set_format(format);
        }
    }
    let mut decoder = reader.into_decoder()?;
    let orientation = decoder.orientation()?;
    let mut image = DynamicImage::from_decoder(decoder)?;
    image.apply_orientation(orientation);
    Ok(image)
}

/// The picture as 8-bit RGB, transparent parts laid on white (JPEG has no transparency).
fn on_white(image: DynamicImage) -> RgbImage {
    if !image.color().has_alpha() {
        return image.into_rgb8();
    }
    let rgba = image.into_rgba8();
    RgbImage::from_fn(rgba.width(), rgba.height(), |x, y| {
        let [r, g, b, alpha] = rgba.get_pixel(x, y).0;
        let blend = |channel: u8| {
            let alpha = u16::from(alpha);
            ((u16::from(channel) * alpha + 255 * (255 - alpha)) / 255) as u8
        };
        image::Rgb([blend(r), blend(g), blend(b)])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn png(image: DynamicImage) -> ProofImage {
        let mut bytes = Vec::new();
        if let Err(error) = image.write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png) {
            panic!("{error}");
        }
        ProofImage {
            posted_at: Utc
                .with_ymd_and_hms(2026, 11, 28, 14, 0, 0)
                .single()
                .unwrap_or_default(),
            content_type: "image/png".to_owned(),
            path: "/media/proofs/test.png".to_owned(),
            bytes,
        }
    }

    #[test]
    fn a_large_picture_is_scaled_down_to_the_longest_side_keeping_its_shape() {
        let proof = png(DynamicImage::new_rgb8(3000, 1500));
        let picture = match prepare(&proof) {
            Ok(picture) => picture,
            Err(reason) => panic!("{reason}"),
        };
        assert_eq!((picture.width, picture.height), (1200, 600));
    }

    #[test]
    fn a_transparent_picture_is_laid_on_white() {
        let rgb = on_white(DynamicImage::new_rgba8(2, 2));
        assert_eq!(rgb.get_pixel(0, 0).0, [255, 255, 255]);
    }

    #[test]
    fn leaving_out_the_last_shown_picture_counts_it_with_the_left_out_ones() {
        let proof = png(DynamicImage::new_rgb8(50, 50));
        let mut selection = Selection::fitting(&[proof.clone(), proof], usize::MAX);
        assert!(selection.leave_out_last());
        assert_eq!(selection.entries.len(), 1);
        assert_eq!(selection.left_out.map(|left_out| left_out.count), Some(1));
        assert!(selection.leave_out_last());
        assert!(!selection.leave_out_last());
        assert_eq!(selection.left_out.map(|left_out| left_out.count), Some(2));
    }

    #[test]
    fn pictures_past_the_room_are_left_out_with_the_ones_after_them() {
        let proof = png(DynamicImage::new_rgb8(200, 200));
        let selection =
            Selection::fitting(&[proof.clone(), proof.clone(), proof], 2 * OVERHEAD + 2_000);
        let shown = selection
            .entries
            .iter()
            .filter(|entry| matches!(entry, Entry::Shown { .. }))
            .count();
        assert_eq!(selection.total, 3);
        assert!(shown >= 1);
        assert_eq!(
            selection.left_out.map(|left_out| left_out.count),
            Some(3 - shown)
        );
    }
}
