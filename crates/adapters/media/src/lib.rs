//! Media handling for Garden Shop.
//!
//! * [`MediaStore`] keeps content-addressed PNG files on disk and maps public
//!   `/media/...` paths back to files without allowing path traversal.
//! * [`normalize_product_image`] / [`normalize_upload`] validate untrusted
//!   uploads by content, shrink them and re-encode them as RGBA8 PNG.
//! * [`MediaStore::webp_file`] keeps WebP copies of product pictures in the widths of
//!   [`WEBP_WIDTHS`] next to their PNG, made on upload or on first request.
//! * [`MediaImages`] is the shared image-storage port ([`shared::ImageStore`]), built per use:
//!   [`MediaImages::products`] (fit 300x300) for the catalog, [`MediaImages::proofs`] (1600 px,
//!   a grace period before unused files go) for proofs of delivery.

// Tests may unwrap freely; production code may not (workspace lints).
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

mod error;
mod images;
mod normalize;
mod store;
mod variant_names;
mod variants;

pub use error::MediaError;
pub use images::{MediaImages, PRODUCT_KIND, PROOF_KIND, UNUSED_GRACE};
pub use normalize::{
    encode_png, normalize_product_image, normalize_upload, MAX_INPUT_BYTES, PRODUCT_IMAGE_MAX_SIDE,
    UPLOAD_MAX_SIDE,
};
pub use store::MediaStore;
pub use variant_names::WEBP_WIDTHS;
pub use variants::webp_variant;
