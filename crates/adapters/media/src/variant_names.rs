//! The names of the WebP copies of product pictures (`{hash}-{width}.webp` next to
//! `{hash}.png`): which widths are offered, and which stored picture a copy was made from. The
//! store's clean-up and the copies' maker both read them.

/// The widths WebP copies of product pictures are offered in.
pub const WEBP_WIDTHS: [u32; 3] = [150, 300, 600];

/// `{hash}-{width}.webp` → (`{hash}.png`, width), for an offered width.
pub(crate) fn parse_variant_name(name: &str) -> Option<(String, u32)> {
    let stem = name.strip_suffix(".webp")?;
    let (hash, width) = stem.rsplit_once('-')?;
    let width: u32 = width.parse().ok()?;
    (WEBP_WIDTHS.contains(&width) && !hash.is_empty()).then(|| (format!("{hash}.png"), width))
}

/// The stored PNG's file name a variant file was made from, if `name` is a variant's.
pub(crate) fn variant_source(name: &str) -> Option<String> {
    parse_variant_name(name).map(|(png, _)| png)
}
