//! Proofs of delivery as the API reads and sends them.

use proofs::Proof;
use serde::Serialize;
use utoipa::ToSchema;

/// A proof of delivery: what was delivered, and pictures of it.
#[derive(Serialize, ToSchema)]
#[schema(as = Proof)]
pub struct ProofJson<'a> {
    id: i64,
    /// What was delivered, as staff wrote it.
    #[schema(example = "2x Golden Raccoon")]
    items: &'a str,
    /// The pictures, paths on the shop's own host (`/media/proofs/….webp`).
    #[schema(value_type = Vec<String>, example = json!(["/media/proofs/9f2c.webp"]))]
    images: &'a [String],
    #[schema(format = DateTime)]
    created_at: String,
}

/// A proof to publish (`multipart/form-data`).
#[derive(ToSchema)]
#[schema(as = NewProof)]
#[allow(dead_code)] // the handler reads the parts one by one; its test holds it to this document
pub struct NewProofDoc {
    /// What was delivered, 1 to 500 characters (after trimming).
    #[schema(min_length = 1, max_length = 500, example = "2x Golden Raccoon")]
    items: String,
    /// 1 to 10 pictures (PNG, JPEG, GIF or WebP, each at most 5 MB and 40 megapixels), one
    /// part each (`images` is read the same way); empty parts are skipped.
    #[schema(rename = "images[]", value_type = Vec<String>, format = Binary, min_items = 1, max_items = 10)]
    images: Vec<Vec<u8>>,
}

impl<'a> From<&'a Proof> for ProofJson<'a> {
    fn from(proof: &'a Proof) -> Self {
        ProofJson {
            id: proof.id.get(),
            items: &proof.items,
            images: &proof.images,
            created_at: proof.created_at.to_rfc3339(),
        }
    }
}
