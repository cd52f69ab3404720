//! Promo codes: created by a super_admin, validated for the session's Discord account.

use actix_session::Session;
use actix_web::{web, HttpResponse};
use chrono::{DateTime, NaiveDate, Utc};
use promo::{DiscountPercent, MaxUses, NewPromo, PromoCode, PromoService, PromoValidation};
use serde::Deserialize;
use serde_json::json;
use shared::Rule;

use super::discord::session_identity;
use crate::client_ip::ClientIp;
use crate::limits::RateLimits;
use crate::{
    auth::RequireSuperAdmin,
    checkout::CheckoutKit,
    error::{ApiError, FieldErrors},
};

const NEED_CODE_AND_DISCORD: &str = "Enter your promo code and make sure Discord is linked.";

#[derive(Debug, Deserialize)]
pub struct ValidatePromo {
    #[serde(default)]
    pub promo_code: Option<String>,
}

/// `POST /api/validate-promo {promo_code, discord_id}`: the payload's discord_id is ignored.
pub async fn validate(
    kit: web::Data<CheckoutKit>,
    limits: web::Data<RateLimits>,
    client: ClientIp,
    session: Session,
    body: web::Json<ValidatePromo>,
) -> Result<HttpResponse, ApiError> {
    // counted before anything else, so guessing codes costs a request each
    let per_minute = kit.settings.promo_checks_per_minute;
    limits
        .check(
            "promo-check:ip",
            &client.to_string(),
            Rule::per_minute(per_minute),
        )
        .await?;
    let code = body.promo_code.as_deref().unwrap_or_default().trim();
    let Some(identity) = session_identity(&session).filter(|_| !code.is_empty()) else {
        return Err(ApiError::PromoRejected(NEED_CODE_AND_DISCORD.to_owned()));
    };
    match kit.promos.validate(code, &identity.discord_id).await? {
        PromoValidation::Valid(applied) => {
            Ok(HttpResponse::Ok().json(json!({ "discount": applied.discount.get() })))
        }
        PromoValidation::Rejected(reason) => Err(ApiError::PromoRejected(reason.to_string())),
    }
}

#[derive(Debug, Deserialize)]
pub struct CreatePromo {
    #[serde(default)]
    pub code: Option<String>,
    #[serde(default)]
    pub discount_percent: Option<serde_json::Value>,
    #[serde(default)]
    pub expires_at: Option<String>,
    #[serde(default)]
    pub max_uses: Option<serde_json::Value>,
}

fn whole_number(value: &serde_json::Value) -> Option<i64> {
    value
        .as_i64()
        .or_else(|| {
            value
                .as_f64()
                .filter(|f| f.fract() == 0.0)
                .map(|f| f as i64)
        })
        .or_else(|| value.as_str().and_then(|s| s.trim().parse().ok()))
}

/// An ISO time (`2026-12-31T23:59:59Z`), or a date (the end of that day, UTC).
fn expiry(text: &str) -> Option<DateTime<Utc>> {
    let text = text.trim();
    DateTime::parse_from_rfc3339(text)
        .map(|at| at.with_timezone(&Utc))
        .ok()
        .or_else(|| {
            chrono::NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M")
                .or_else(|_| chrono::NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S"))
                .ok()
                .map(|at| at.and_utc())
        })
        .or_else(|| {
            NaiveDate::parse_from_str(text, "%Y-%m-%d")
                .ok()
                .and_then(|day| day.and_hms_opt(23, 59, 59))
                .map(|at| at.and_utc())
        })
}

/// `POST /api/admin/promo-codes` (super_admin) -> 201 `{code, discount_percent, expires_at, max_uses}`.
pub async fn create(
    RequireSuperAdmin(admin): RequireSuperAdmin,
    ip: ClientIp,
    kit: web::Data<CheckoutKit>,
    body: web::Json<CreatePromo>,
) -> Result<HttpResponse, ApiError> {
    let mut errors = FieldErrors::new();
    let code = errors.check(
        "code",
        PromoCode::parse(body.code.as_deref().unwrap_or_default()),
    );
    let discount = body
        .discount_percent
        .as_ref()
        .and_then(whole_number)
        .and_then(DiscountPercent::new);
    if discount.is_none() {
        errors.add(
            "discount_percent",
            "The discount is a whole percent from 1 to 100.",
        );
    }
    let expires_at = match body.expires_at.as_deref().map(str::trim) {
        None | Some("") => Some(None),
        Some(text) => match expiry(text) {
            Some(at) => Some(Some(at)),
            None => {
                errors.add(
                    "expires_at",
                    "Enter the expiry as a date and time, or none.",
                );
                None
            }
        },
    };
    let max_uses = match &body.max_uses {
        None | Some(serde_json::Value::Null) => Some(None),
        Some(serde_json::Value::String(s)) if s.trim().is_empty() => Some(None),
        Some(value) => match whole_number(value).and_then(MaxUses::new) {
            Some(max) => Some(Some(max)),
            None => {
                errors.add(
                    "max_uses",
                    "The usage limit is a whole number of at least 1.",
                );
                None
            }
        },
    };
    errors.finish()?;
    let (Some(code), Some(discount), Some(expires_at), Some(max_uses)) =
        (code, discount, expires_at, max_uses)
    else {
        return Err(ApiError::internal(anyhow::anyhow!(
            "validated promo fields missing"
        )));
    };
    let promo = kit
        .promos
        .create(
            NewPromo {
                code,
                discount,
                expires_at,
                max_uses,
            },
            &admin.actor(ip),
        )
        .await?;
    tracing::info!(code = %promo.code, by = admin.id, "promo code created");
    Ok(HttpResponse::Created().json(json!({
        "code": promo.code.to_string(),
        "discount_percent": promo.discount.get(),
        "expires_at": promo.expires_at.map(|at| at.to_rfc3339()),
        "max_uses": promo.max_uses.map(|max| max.get()),
    })))
}
