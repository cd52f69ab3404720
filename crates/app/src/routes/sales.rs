//! GET /api/admin/sales-stats: the Sales Dashboard's numbers (super_admin).

use std::collections::BTreeMap;

use actix_web::{web, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::RequireSuperAdmin;
use crate::dto::staff::SuperAdminOnly;
use crate::error::ApiError;
use crate::services::SalesService;

/// The Sales Dashboard's numbers: units sold per item, by period. Every period of each chart is
/// present for every item, 0 when nothing sold; paid and delivered orders only. (The fields are
/// in alphabetical order, as the answer has always written them.)
#[derive(Serialize, ToSchema)]
pub struct SalesStats {
    /// Item name -> day (`2026-11-21`) -> units.
    #[schema(example = json!({"Golden Raccoon": {"2026-11-20": 0, "2026-11-21": 3}}))]
    daily: BTreeMap<String, BTreeMap<String, u64>>,
    /// Item name -> month (`2026-11`) -> units.
    #[schema(example = json!({"Golden Raccoon": {"2026-10": 0, "2026-11": 4}}))]
    monthly: BTreeMap<String, BTreeMap<String, u64>>,
    /// Item name -> units ever sold.
    #[schema(example = json!({"Golden Raccoon": 4}))]
    overall: BTreeMap<String, u64>,
    /// Item name -> ISO week (`2026-W47`) -> units.
    #[schema(example = json!({"Golden Raccoon": {"2026-W46": 1, "2026-W47": 3}}))]
    weekly: BTreeMap<String, BTreeMap<String, u64>>,
}

/// `{"daily": {item: {"2026-11-21": n}}, "weekly": {item: {"2026-W47": n}}, "monthly": {item:
/// {"2026-11": n}}, "overall": {item: n}}`; every period of each chart present, 0 when nothing
/// sold; paid and delivered orders only.
#[utoipa::path(
    get,
    path = "/api/admin/sales-stats",
    operation_id = "admin_sales_stats",
    tag = "staff: sales",
    summary = "Sales statistics",
    description = "Units sold per item by day, ISO week and month, and overall; paid and \
                   delivered orders only (super_admin).",
    responses(
        (status = 200, description = "The dashboard's numbers.", body = SalesStats,
            headers(("Cache-Control" = String, description = "`no-store`"))),
        SuperAdminOnly,
    ),
    security(("session_cookie" = [])),
)]
pub async fn sales_stats(
    _admin: RequireSuperAdmin,
    sales: web::Data<SalesService>,
) -> Result<HttpResponse, ApiError> {
    let report = sales.report().await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(SalesStats {
            daily: report.daily,
            monthly: report.monthly,
            overall: report.overall,
            weekly: report.weekly,
        }))
}
