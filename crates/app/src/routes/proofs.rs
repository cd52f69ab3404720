//! Proofs of delivery: the public list, and publishing and deleting for staff.

use actix_multipart::Multipart;
use actix_web::{web, HttpRequest, HttpResponse};
use futures::StreamExt;
use proofs::{ImageRejected, ProofId, ProofItems, PublishError, MAX_IMAGES};

use super::admin_products::read_field;
use crate::auth::RequireStaff;
use crate::client_ip::ClientIp;
use crate::error::{multipart_error, ApiError, FieldErrors};
use crate::services::ProofService;
use dto::proofs::{NewProofDoc, ProofJson};
use dto::staff::{Confirmation, StaffMultipart, StaffOnly};

/// Longest `items` field read, in bytes (the domain allows 500 characters).
const MAX_ITEMS_BYTES: usize = 8 * 1024;
const NEED_ITEMS_AND_IMAGE: &str = "Please provide items and at least one image.";

/// GET /api/proofs: every proof, newest first.
#[utoipa::path(
    get,
    path = "/api/proofs",
    operation_id = "list_proofs",
    tag = "proofs",
    summary = "Proofs of delivery",
    description = "Every published proof of delivery, newest first (public).",
    responses((status = 200, description = "The proofs.", body = Vec<ProofJson>)),
)]
pub async fn list(proofs: web::Data<ProofService>) -> Result<HttpResponse, ApiError> {
    let proofs = proofs.list().await?;
    let body: Vec<ProofJson<'_>> = proofs.iter().map(ProofJson::from).collect();
    Ok(HttpResponse::Ok().json(body))
}

fn too_large() -> ApiError {
    ApiError::field("images", proofs::rejection_message(ImageRejected::TooLarge))
}

/// The parts of a proof's form (`NewProof` documents them).
#[derive(Debug, PartialEq, Eq)]
enum Part {
    Items,
    Image,
    /// Read and ignored.
    Other,
}

impl Part {
    fn named(name: &str) -> Self {
        match name {
            "items" => Part::Items,
            "images[]" | "images" => Part::Image,
            _ => Part::Other,
        }
    }
}

/// POST /api/proofs (staff): multipart `items` and `images[]`, 1 to 10 pictures. Every
/// picture is checked and re-encoded before any is stored; a bad one answers 422 naming it and
/// nothing is stored.
#[utoipa::path(
    post,
    path = "/api/proofs",
    operation_id = "publish_proof",
    tag = "proofs",
    summary = "Publish a proof of delivery",
    description = "Every picture is checked and re-encoded before any is stored; a bad one \
                   answers 422 naming it and nothing is stored (staff).",
    request_body(content = NewProofDoc, content_type = "multipart/form-data"),
    responses(
        (status = 201, description = "The proof as published.", body = ProofJson),
        StaffMultipart,
        (status = 400, description = "The multipart body cannot be read, or a field other than `items` and \
            `images[]` is larger than 8 KiB.", body = crate::error::ErrorBody),
        (status = 422, description = "`items` missing, blank, too long or not text; no picture, more than 10, or \
            one that is not an image or too large (under `images`).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn create(
    req: HttpRequest,
    payload: web::Payload,
    proofs: web::Data<ProofService>,
    RequireStaff(staff): RequireStaff,
    ip: ClientIp,
) -> Result<HttpResponse, ApiError> {
    let mut form = Multipart::new(req.headers(), payload);
    let mut items: Option<String> = None;
    let mut uploads: Vec<Vec<u8>> = Vec::new();
    while let Some(field) = form.next().await {
        let mut field = field.map_err(multipart_error)?;
        match Part::named(field.name().unwrap_or_default()) {
            Part::Items => {
                let bytes = read_field(&mut field, MAX_ITEMS_BYTES, MAX_ITEMS_BYTES, || {
                    ApiError::field("items", "The items may be at most 500 characters long.")
                })
                .await?;
                let text = String::from_utf8(bytes)
                    .map_err(|_| ApiError::field("items", "The items must be text."))?;
                items = Some(text);
            }
            Part::Image => {
                if uploads.len() == MAX_IMAGES {
                    // stop before reading more: the whole request is refused anyway
                    return Err(PublishError::TooManyImages.into());
                }
                let limit = media::MAX_INPUT_BYTES;
                let bytes = read_field(&mut field, limit, limit, too_large).await?;
                // a file input left empty sends an empty part: not a picture at all
                if !bytes.is_empty() {
                    uploads.push(bytes);
                }
            }
            Part::Other => {
                // unknown fields are read and ignored (bounded like the items)
                read_field(&mut field, MAX_ITEMS_BYTES, MAX_ITEMS_BYTES, || {
                    ApiError::BadRequest("The upload has an unexpected large field.".into())
                })
                .await?;
            }
        }
    }
    let mut errors = FieldErrors::new();
    let items = errors.check(
        "items",
        ProofItems::parse(items.as_deref().unwrap_or_default()),
    );
    if uploads.is_empty() {
        errors.add("images", NEED_ITEMS_AND_IMAGE);
    }
    errors.finish()?;
    let Some(items) = items else {
        return Err(ApiError::internal(anyhow::anyhow!("no items")));
    };
    let proof = proofs.publish(items, uploads, &staff.actor(ip)).await?;
    Ok(HttpResponse::Created().json(ProofJson::from(&proof)))
}

/// DELETE /api/proofs/{id} (staff): removes the proof and the pictures no other proof uses
/// (the media store spares pictures saved in the last minutes: an upload in flight on any
/// instance may be about to use them; they go at a later clean-up).
#[utoipa::path(
    delete,
    path = "/api/proofs/{id}",
    operation_id = "delete_proof",
    tag = "proofs",
    summary = "Delete a proof of delivery",
    description = "Removes the proof and the pictures no other proof uses (staff).",
    params(("id" = i64, Path, description = "The proof's id.")),
    responses(
        (status = 200, description = "Deleted: `Proof deleted.`", body = Confirmation),
        StaffOnly,
        (status = 404, description = "No proof has this id (or the id is not a whole number).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn delete(
    proofs: web::Data<ProofService>,
    RequireStaff(staff): RequireStaff,
    ip: ClientIp,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    proofs
        .delete(ProofId::new(path.into_inner()), &staff.actor(ip))
        .await?;
    Ok(HttpResponse::Ok().json(Confirmation::new("Proof deleted.")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_parts_are_the_ones_read() {
        let doc = serde_json::to_value(<NewProofDoc as utoipa::PartialSchema>::schema()).unwrap();
        // the document's order is serde_json's map order, which features elsewhere can change
        let mut parts: Vec<String> = doc["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(|name| format!("{:?}", Part::named(name)))
            .collect();
        parts.sort();
        assert_eq!(parts, ["Image", "Items"]);
    }
}
