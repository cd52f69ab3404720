//! GET /api/admin/sales-stats: the Sales Dashboard's numbers (super_admin).

use actix_web::{web, HttpResponse};

use crate::auth::RequireSuperAdmin;
use crate::error::ApiError;
use dto::sales::{RevenueStats, SalesStats};
use dto::staff::SuperAdminOnly;

use crate::disputes::DisputeService;
use crate::services::{DeliveryTimesService, SalesService};
use crate::settings::SiteSettings;

/// `{"daily": {item: {"2026-11-21": n}}, "weekly": {item: {"2026-W47": n}}, "monthly": {item:
/// {"2026-11": n}}, "overall": {item: n}, "revenue": {"daily": {"2026-11-21": 12.5}, "overall":
/// 99.9, "currency": "USD"}}`; every period of each chart present, 0 when nothing sold; paid and
/// delivered orders only, revenue in the base currency at each order's own rate.
#[utoipa::path(
    get,
    path = "/api/admin/sales-stats",
    operation_id = "admin_sales_stats",
    tag = "staff: sales",
    summary = "Sales statistics",
    description = "Units sold per item by day, ISO week and month, and overall; paid and \
                   delivered orders only; revenue per day (the daily chart's 30 days) and \
                   overall in the base currency, each order's amount paid converted at its own \
                   rate and rounded half-up to the cent; delivery times of the last 30 days; disputes by \
                   outcome and the dispute rate of the last 30 days against \
                   `disputes.warn_rate_percent` (super_admin).",
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
    delivery: web::Data<DeliveryTimesService>,
    site: web::Data<SiteSettings>,
    disputes: web::Data<DisputeService>,
    currencies: web::Data<crate::currencies::Currencies>,
) -> Result<HttpResponse, ApiError> {
    let report = sales.report().await?;
    let delivery = delivery.last_month(site.delivery_minutes).await?;
    let disputes = disputes.figures().await.map_err(ApiError::Internal)?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(SalesStats {
            daily: report.daily,
            monthly: report.monthly,
            overall: report.overall,
            weekly: report.weekly,
            delivery: delivery.into(),
            disputes: disputes.into(),
            revenue: RevenueStats::new(
                report.revenue.daily,
                report.revenue.overall,
                currencies.base().to_string(),
            ),
        }))
}
