//! GET /api/admin/sales-stats: the Sales Dashboard's numbers (super_admin).

use std::collections::BTreeMap;

use actix_web::{web, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::RequireSuperAdmin;
use crate::dto::staff::SuperAdminOnly;
use crate::error::ApiError;
use delivery::{DeliveryReport, Spread};
use store::Store;

use crate::services::{DeliveryQueueService, SalesService};
use crate::settings::SiteSettings;

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
    /// Delivery times of the last 30 days and the shop's promise.
    delivery: DeliveryStats,
}

/// The median and 90th percentile of one step, in seconds (null without deliveries).
#[derive(Serialize, ToSchema)]
pub struct SpreadJson {
    #[schema(required = true, example = 240)]
    median_seconds: Option<i64>,
    #[schema(required = true, example = 600)]
    p90_seconds: Option<i64>,
}

impl From<Spread> for SpreadJson {
    fn from(spread: Spread) -> Self {
        SpreadJson {
            median_seconds: spread.median_seconds,
            p90_seconds: spread.p90_seconds,
        }
    }
}

/// One day's deliveries.
#[derive(Serialize, ToSchema)]
pub struct DeliveryDay {
    /// The day of delivery (UTC).
    #[schema(example = "2026-11-26")]
    date: String,
    delivered: usize,
    paid_to_claimed: SpreadJson,
    claimed_to_delivered: SpreadJson,
    paid_to_delivered: SpreadJson,
}

/// One member of staff's deliveries.
#[derive(Serialize, ToSchema)]
pub struct DeliveryStaff {
    #[schema(example = "Ann")]
    staff_name: String,
    delivered: usize,
    paid_to_claimed: SpreadJson,
    claimed_to_delivered: SpreadJson,
    paid_to_delivered: SpreadJson,
}

/// Delivery times of the last 30 days: per day (oldest first) and per member of staff.
#[derive(Serialize, ToSchema)]
pub struct DeliveryStats {
    /// The promise: "usually under N minutes".
    #[schema(example = 10)]
    estimate_minutes: u32,
    by_day: Vec<DeliveryDay>,
    by_staff: Vec<DeliveryStaff>,
}

impl From<DeliveryReport> for DeliveryStats {
    fn from(report: DeliveryReport) -> Self {
        DeliveryStats {
            estimate_minutes: report.estimate_minutes,
            by_day: report
                .by_day
                .into_iter()
                .map(|(day, f)| DeliveryDay {
                    date: day.to_string(),
                    delivered: f.delivered,
                    paid_to_claimed: f.paid_to_claimed.into(),
                    claimed_to_delivered: f.claimed_to_delivered.into(),
                    paid_to_delivered: f.paid_to_delivered.into(),
                })
                .collect(),
            by_staff: report
                .by_staff
                .into_iter()
                .map(|(name, f)| DeliveryStaff {
                    staff_name: name,
                    delivered: f.delivered,
                    paid_to_claimed: f.paid_to_claimed.into(),
                    claimed_to_delivered: f.claimed_to_delivered.into(),
                    paid_to_delivered: f.paid_to_delivered.into(),
                })
                .collect(),
        }
    }
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
    database: web::Data<Store>,
    delivery: web::Data<DeliveryQueueService>,
    site: web::Data<SiteSettings>,
) -> Result<HttpResponse, ApiError> {
    let report = sales.report().await?;
    let delivery =
        delivery::last_month(database.get_ref(), delivery.now(), site.delivery_minutes).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(SalesStats {
            daily: report.daily,
            monthly: report.monthly,
            overall: report.overall,
            weekly: report.weekly,
            delivery: delivery.into(),
        }))
}
