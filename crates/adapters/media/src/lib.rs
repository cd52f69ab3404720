//! Media handling for Garden Shop.
//!
//! * [`MediaStore`] keeps content-addressed PNG files on disk and maps public
//!   `/media/...` paths back to files without allowing path traversal.
//! * [`normalize_product_image`] / [`normalize_upload`] validate untrusted
//!   uploads by content, shrink them and re-encode them as RGBA8 PNG.
//! * [`generate_product_art`] paints deterministic placeholder product art
//!   with plain maths (no fonts, no bundled artwork).
//! * [`ProofImageStore`] is the proofs domain's picture port: checks, 1600 px re-encoding and
//!   storage off the async workers, and removal of pictures no proof uses.

// Tests may unwrap freely; production code may not (workspace lints).
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

mod art;
mod error;
mod normalize;
mod product_images;
mod proof_images;
mod store;

pub use art::{generate_product_art, ArtKind, ArtSpec, ART_SIZE};
pub use error::MediaError;
pub use normalize::{
    normalize_product_image, normalize_upload, MAX_INPUT_BYTES, PRODUCT_IMAGE_MAX_SIDE,
    UPLOAD_MAX_SIDE,
};
pub use product_images::{ProductImageStore, PRODUCT_KIND};
pub use proof_images::{ProofImageStore, PROOF_KIND, UNUSED_GRACE};
pub use store::MediaStore;
