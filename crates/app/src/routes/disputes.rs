//! `/api/admin/disputes` (super_admin): buyers' disputes of payments, the evidence the shop
//! builds from the delivery record, and staff's submit or accept.

use actix_web::{web, HttpResponse};

use crate::auth::RequireSuperAdmin;
use crate::client_ip::ClientIp;
use crate::disputes::DisputeService;
use crate::error::ApiError;
use dto::disputes::{to_json, warned_json, DisputeJson, Submission, WarnedOrderJson};
use dto::staff::{SuperAdminJson, SuperAdminOnly};

/// A dispute id as Stripe writes them; anything else names no dispute.
fn dispute_id(path: &str) -> Result<String, ApiError> {
    let fits = !path.is_empty()
        && path.len() <= 255
        && path.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    fits.then(|| path.to_owned())
        .ok_or_else(|| ApiError::NotFound("Dispute not found.".into()))
}

/// `GET /api/admin/disputes`: every dispute, newest first.
#[utoipa::path(
    get,
    path = "/api/admin/disputes",
    operation_id = "admin_list_disputes",
    tag = "staff: disputes",
    summary = "Disputes",
    description = "Every dispute of a payment, newest first: the order, amount, reason, Stripe's \
                   status, the evidence deadline, where the evidence is and the outcome \
                   (super_admin).",
    responses(
        (status = 200, description = "The disputes.", body = [DisputeJson],
            headers(("Cache-Control" = String, description = "`no-store`"))),
        SuperAdminOnly,
    ),
    security(("session_cookie" = [])),
)]
pub async fn list(
    _admin: RequireSuperAdmin,
    disputes: web::Data<DisputeService>,
) -> Result<HttpResponse, ApiError> {
    let all = disputes.disputes().await.map_err(ApiError::Internal)?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(all.into_iter().map(to_json).collect::<Vec<_>>()))
}

/// `GET /api/admin/disputes/{dispute_id}/evidence/{file}`: one evidence PDF.
#[utoipa::path(
    get,
    path = "/api/admin/disputes/{dispute_id}/evidence/{file}",
    operation_id = "admin_dispute_evidence_file",
    tag = "staff: disputes",
    summary = "An evidence file",
    description = "One of the dispute's three evidence PDFs as Stripe gets them, built from the \
                   order's delivery record (super_admin).",
    params(
        ("dispute_id" = String, Path, description = "Stripe's dispute id."),
        ("file" = String, Path, description = "`service_documentation`, `customer_communication` or `refund_policy`."),
    ),
    responses(
        (status = 200, description = "The PDF.", content_type = "application/pdf", body = Vec<u8>),
        SuperAdminOnly,
        (status = 404, description = "No such dispute or file.", body = crate::error::ErrorBody),
        (status = 409, description = "The dispute is about no order of ours.", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn evidence_file(
    _admin: RequireSuperAdmin,
    disputes: web::Data<DisputeService>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (id, file) = path.into_inner();
    let id = dispute_id(&id)?;
    let file = ::disputes::EvidenceFile::parse(&file)
        .ok_or_else(|| ApiError::NotFound("No such evidence file.".into()))?;
    let pdf = disputes.evidence_file(id.clone(), file).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .insert_header((
            "Content-Disposition",
            format!("inline; filename=\"{}-{id}.pdf\"", file.field()),
        ))
        .content_type("application/pdf")
        .body(pdf))
}

/// `POST /api/admin/disputes/{dispute_id}/submit {note?}`: the evidence to the bank.
#[utoipa::path(
    post,
    path = "/api/admin/disputes/{dispute_id}/submit",
    operation_id = "admin_submit_dispute",
    tag = "staff: disputes",
    summary = "Submit the evidence",
    description = "Sends the evidence to the bank through Stripe (`submit=true`), with the note \
                   added to its summary. Once: a second submit answers 409 (super_admin).",
    params(("dispute_id" = String, Path, description = "Stripe's dispute id.")),
    request_body(content = Submission, content_type = "application/json"),
    responses(
        (status = 200, description = "Submitted; the dispute as it is now.", body = DisputeJson),
        SuperAdminJson,
        (status = 404, description = "No such dispute.", body = crate::error::ErrorBody),
        (status = 409, description = "Submitted already, closed, or the order was never delivered (refund or accept).", body = crate::error::ErrorBody),
        (status = 422, description = "A note over 1,000 characters.", body = crate::error::ErrorBody),
        (status = 502, description = "Stripe refused or failed; nothing changed.", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn submit(
    RequireSuperAdmin(admin): RequireSuperAdmin,
    ip: ClientIp,
    disputes: web::Data<DisputeService>,
    path: web::Path<String>,
    body: Option<web::Json<Submission>>,
) -> Result<HttpResponse, ApiError> {
    let id = dispute_id(&path)?;
    let note = body
        .and_then(|body| body.into_inner().note)
        .filter(|note| !note.trim().is_empty());
    disputes.submit(id.clone(), note, admin.actor(ip)).await?;
    answer(&disputes, id).await
}

/// `POST /api/admin/disputes/{dispute_id}/accept`: the money stays with the buyer.
#[utoipa::path(
    post,
    path = "/api/admin/disputes/{dispute_id}/accept",
    operation_id = "admin_accept_dispute",
    tag = "staff: disputes",
    summary = "Accept the dispute",
    description = "Closes the dispute at Stripe: the money stays with the buyer (super_admin).",
    params(("dispute_id" = String, Path, description = "Stripe's dispute id.")),
    responses(
        (status = 200, description = "Accepted; the dispute as it is now.", body = DisputeJson),
        SuperAdminOnly,
        (status = 404, description = "No such dispute.", body = crate::error::ErrorBody),
        (status = 409, description = "Submitted already, or closed.", body = crate::error::ErrorBody),
        (status = 502, description = "Stripe refused or failed; nothing changed.", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn accept(
    RequireSuperAdmin(admin): RequireSuperAdmin,
    ip: ClientIp,
    disputes: web::Data<DisputeService>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = dispute_id(&path)?;
    disputes.accept(id.clone(), admin.actor(ip)).await?;
    answer(&disputes, id).await
}

async fn answer(disputes: &DisputeService, id: String) -> Result<HttpResponse, ApiError> {
    let dispute = disputes
        .dispute(id)
        .await
        .map_err(ApiError::Internal)?
        .ok_or_else(|| ApiError::NotFound("Dispute not found.".into()))?;
    Ok(HttpResponse::Ok().json(to_json(dispute)))
}

/// `GET /api/admin/fraud-warnings`: delivered orders that got an early fraud warning.
#[utoipa::path(
    get,
    path = "/api/admin/fraud-warnings",
    operation_id = "admin_list_fraud_warnings",
    tag = "staff: disputes",
    summary = "Fraud warnings on delivered orders",
    description = "Delivered orders whose payment got an early fraud warning from the card's \
                   issuer, newest first: a dispute may follow, so each order's evidence is built \
                   and uploaded to Stripe at once, and a dispute of it is staged with those files \
                   while its delivery record is the same (super_admin). An order not yet \
                   delivered is held instead (the queue's held list).",
    responses(
        (status = 200, description = "The warned orders.", body = [WarnedOrderJson],
            headers(("Cache-Control" = String, description = "`no-store`"))),
        SuperAdminOnly,
    ),
    security(("session_cookie" = [])),
)]
pub async fn warnings(
    _admin: RequireSuperAdmin,
    disputes: web::Data<DisputeService>,
) -> Result<HttpResponse, ApiError> {
    let warned = disputes.warned_orders().await.map_err(ApiError::Internal)?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(warned.into_iter().map(warned_json).collect::<Vec<_>>()))
}

/// `GET /api/admin/fraud-warnings/{order_id}/evidence/{file}`: one prepared evidence PDF.
#[utoipa::path(
    get,
    path = "/api/admin/fraud-warnings/{order_id}/evidence/{file}",
    operation_id = "admin_fraud_warning_evidence_file",
    tag = "staff: disputes",
    summary = "A warned order's evidence file",
    description = "One of the three evidence PDFs of a delivered order that got a fraud \
                   warning, as a dispute of it would send them, built from the order's delivery \
                   record (super_admin).",
    params(
        ("order_id" = i64, Path, description = "The order's id.", minimum = 1),
        ("file" = String, Path, description = "`service_documentation`, `customer_communication` or `refund_policy`."),
    ),
    responses(
        (status = 200, description = "The PDF.", content_type = "application/pdf", body = Vec<u8>),
        SuperAdminOnly,
        (status = 404, description = "No fraud warning on such an order, or no such file.", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn warning_evidence_file(
    _admin: RequireSuperAdmin,
    disputes: web::Data<DisputeService>,
    path: web::Path<(i64, String)>,
) -> Result<HttpResponse, ApiError> {
    let (order, file) = path.into_inner();
    let not_found = || ApiError::NotFound("No fraud warning on such an order.".into());
    let order = (order > 0)
        .then(|| orders::OrderId::new(order))
        .ok_or_else(not_found)?;
    let file = ::disputes::EvidenceFile::parse(&file)
        .ok_or_else(|| ApiError::NotFound("No such evidence file.".into()))?;
    let pdf = disputes
        .warned_evidence_file(order, file)
        .await
        .map_err(|error| match error {
            ::disputes::DisputeError::NotFound(_) => not_found(),
            error => error.into(),
        })?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .insert_header((
            "Content-Disposition",
            format!("inline; filename=\"{}-order-{order}.pdf\"", file.field()),
        ))
        .content_type("application/pdf")
        .body(pdf))
}
