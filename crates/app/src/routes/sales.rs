//! GET /api/admin/sales-stats: the Sales Dashboard's numbers (super_admin).

use actix_web::{web, HttpResponse};
use serde_json::json;

use crate::auth::RequireSuperAdmin;
use crate::error::ApiError;
use crate::services::SalesService;

/// `{"daily": {item: {"2026-11-21": n}}, "weekly": {item: {"2026-W47": n}}, "monthly": {item:
/// {"2026-11": n}}, "overall": {item: n}}`; every period of each chart present, 0 when nothing
/// sold; paid and delivered orders only.
pub async fn sales_stats(
    _admin: RequireSuperAdmin,
    sales: web::Data<SalesService>,
) -> Result<HttpResponse, ApiError> {
    let report = sales.report().await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(json!({
            "daily": report.daily,
            "weekly": report.weekly,
            "monthly": report.monthly,
            "overall": report.overall,
        })))
}
