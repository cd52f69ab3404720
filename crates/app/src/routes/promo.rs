//! Promo codes: created by a super_admin, validated for the session's Discord account.

use super::path_id::Id;
use actix_session::Session;
use actix_web::{web, HttpResponse};
use chrono::{DateTime, NaiveDate, Utc};
use promo::{
    DiscountPercent, MaxUses, NewPromo, PromoChange, PromoCode, PromoId, PromoService,
    PromoValidation,
};
use shared::Rule;

use super::discord_link::session_identity;
use crate::client_ip::ClientIp;
use crate::limits::RateLimits;
use crate::{
    auth::RequireSuperAdmin,
    checkout::ShopPromos,
    error::{ApiError, FieldErrors},
    settings::CheckoutSettings,
};
use dto::lenient::{Object, Patch, WholeNumber};
use dto::promo::{
    ChangePromo, CreatePromo, CreatedPromo, PromoCodeJson, PromoValid, ValidatePromo,
};
use dto::responses::JsonBodyRefused;
use dto::staff::{SuperAdminJson, SuperAdminOnly};

/// `POST /api/validate-promo {promo_code, discord_id}`: the payload's discord_id is ignored.
#[utoipa::path(
    post,
    path = "/api/validate-promo",
    tag = "checkout",
    summary = "Check a promo code",
    description = "Whether the code applies for the Discord account linked in this session \
                   (`POST /api/discord-auth`): it exists, has not expired, has uses left and \
                   was not used by this account. Limited per client address and minute \
                   (`checkout.promo_checks_per_minute`), counted before anything else.",
    request_body = ValidatePromo,
    responses(
        (status = 200, description = "The code applies.", body = PromoValid),
        JsonBodyRefused,
        (status = 422, description = "The code does not apply, or no code or no linked Discord: `reason` says why and names what is missing (also under `errors.promo_code`).", body = crate::error::ErrorBody),
        (status = 429, description = "Too many checks from this address; `Retry-After` says when to try again.", body = crate::error::ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait."))),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn validate(
    promos: web::Data<ShopPromos>,
    settings: web::Data<CheckoutSettings>,
    limits: web::Data<RateLimits>,
    client: ClientIp,
    session: Session,
    body: web::Json<ValidatePromo>,
) -> Result<HttpResponse, ApiError> {
    // counted before anything else, so guessing codes costs a request each
    let per_minute = settings.promo_checks_per_minute;
    limits
        .check(
            "promo-check:ip",
            &client.network_key(),
            Rule::per_minute(per_minute),
        )
        .await?;
    let code = body.promo_code.as_deref().unwrap_or_default().trim();
    // what is missing, by name: a typed code is never answered with "enter one"
    let identity = match (code.is_empty(), session_identity(&session)) {
        (false, Some(identity)) => identity,
        (true, Some(_)) => return Err(rejected("error-promo-need-code")),
        (false, None) => return Err(rejected("error-promo-need-discord")),
        (true, None) => return Err(rejected("error-promo-need-both")),
    };
    match promos.validate(code, &identity.discord_id).await? {
        PromoValidation::Valid(applied) => Ok(HttpResponse::Ok().json(PromoValid {
            discount: applied.discount.get(),
        })),
        PromoValidation::Rejected(reason) => Err(ApiError::PromoRejected(
            crate::error::promo_rejection(reason),
        )),
    }
}

/// A refused check, in the shopper's words.
fn rejected(id: &'static str) -> ApiError {
    ApiError::PromoRejected(l10n::Text::new(id).into())
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

const DISCOUNT_RULE: &str = "The discount is a whole percent from 1 to 100.";
const EXPIRY_RULE: &str = "Enter the expiry as a date and time, or none.";
const MAX_USES_RULE: &str = "The usage limit is a whole number of at least 1.";

/// `discount_percent`: a whole percent from 1 to 100 (digits in a string too); `None` with the
/// field's error otherwise.
fn discount_field(value: Patch<WholeNumber>, errors: &mut FieldErrors) -> Option<DiscountPercent> {
    let discount = match value {
        Patch::Set(WholeNumber(percent)) => DiscountPercent::new(percent),
        _ => None,
    };
    if discount.is_none() {
        errors.add("discount_percent", DISCOUNT_RULE);
    }
    discount
}

/// `expires_at`: left out, null or empty is never (`Some(None)`); text is a time or a date;
/// anything else is `None` with the field's error.
fn expiry_field(value: Patch<String>, errors: &mut FieldErrors) -> Option<Option<DateTime<Utc>>> {
    match value {
        Patch::Missing | Patch::Cleared => Some(None),
        Patch::Set(text) if expiry(&text).is_some() => Some(expiry(&text)),
        _ => {
            errors.add("expires_at", EXPIRY_RULE);
            None
        }
    }
}

/// `max_uses`: left out, null or empty is no limit (`Some(None)`); else a whole number of at
/// least 1; anything else is `None` with the field's error.
fn max_uses_field(value: Patch<WholeNumber>, errors: &mut FieldErrors) -> Option<Option<MaxUses>> {
    match value {
        Patch::Missing | Patch::Cleared => Some(None),
        Patch::Set(WholeNumber(max)) if MaxUses::new(max).is_some() => Some(MaxUses::new(max)),
        _ => {
            errors.add("max_uses", MAX_USES_RULE);
            None
        }
    }
}

/// `POST /api/admin/promo-codes` (super_admin) -> 201 `{code, discount_percent, expires_at, max_uses}`.
#[utoipa::path(
    post,
    path = "/api/admin/promo-codes",
    operation_id = "admin_create_promo_code",
    tag = "staff: promo codes",
    summary = "Create a promo code",
    description = "A percentage discount that each Discord account may use once, until it \
                   expires or its uses run out (super_admin).",
    request_body = CreatePromo,
    responses(
        (status = 201, description = "The new code.", body = CreatedPromo),
        SuperAdminJson,
        (status = 422, description = "Every problem at once: a missing or malformed `code` (or one that \
            exists already), a `discount_percent` that is not a whole number from 1 to 100, an \
            unreadable `expires_at`, a `max_uses` below 1 (or a field of the wrong JSON type).",
            body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn create(
    RequireSuperAdmin(admin): RequireSuperAdmin,
    ip: ClientIp,
    promos: web::Data<ShopPromos>,
    body: web::Json<CreatePromo>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let mut errors = FieldErrors::new();
    let code = errors.check(
        "code",
        PromoCode::parse(body.code.as_deref().unwrap_or_default()),
    );
    let discount = discount_field(body.discount_percent, &mut errors);
    // a string, as the type asks; blank is never, like null
    let expires_at = expiry_field(
        body.expires_at
            .filter(|text| !text.trim().is_empty())
            .map_or(Patch::Cleared, Patch::Set),
        &mut errors,
    );
    let max_uses = max_uses_field(body.max_uses, &mut errors);
    errors.finish()?;
    let (Some(code), Some(discount), Some(expires_at), Some(max_uses)) =
        (code, discount, expires_at, max_uses)
    else {
        return Err(ApiError::internal(anyhow::anyhow!(
            "validated promo fields missing"
        )));
    };
    let promo = promos
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
    Ok(HttpResponse::Created().json(CreatedPromo {
        code: promo.code.to_string(),
        discount_percent: promo.discount.get(),
        expires_at: promo.expires_at.map(|at| at.to_rfc3339()),
        max_uses: promo.max_uses.map(|max| max.get()),
    }))
}

/// `GET /api/admin/promo-codes` (super_admin): every code, newest first.
#[utoipa::path(
    get,
    path = "/api/admin/promo-codes",
    operation_id = "admin_list_promo_codes",
    tag = "staff: promo codes",
    summary = "List the promo codes",
    description = "Every code, newest first, with its uses so far (pending and paid orders) \
                   and whether it is active (super_admin).",
    responses(
        (status = 200, description = "The codes.", body = Vec<PromoCodeJson>),
        SuperAdminOnly,
    ),
    security(("session_cookie" = [])),
)]
pub async fn list(
    RequireSuperAdmin(_admin): RequireSuperAdmin,
    promos: web::Data<ShopPromos>,
) -> Result<HttpResponse, ApiError> {
    let codes: Vec<PromoCodeJson> = promos
        .list()
        .await?
        .into_iter()
        .map(PromoCodeJson::from)
        .collect();
    Ok(HttpResponse::Ok().json(codes))
}

/// `PATCH /api/admin/promo-codes/{id}` (super_admin): changes any of `discount_percent`,
/// `expires_at`, `max_uses`, `active`; later orders only.
#[utoipa::path(
    patch,
    path = "/api/admin/promo-codes/{id}",
    operation_id = "admin_update_promo_code",
    tag = "staff: promo codes",
    summary = "Change or switch off a promo code",
    description = "Changes the fields given; the code itself cannot change. A change applies \
                   to orders placed afterwards: an order keeps the discount it was placed with. \
                   `active: false` switches the code off: checkout and `POST /api/validate-promo` \
                   refuse it (`This promo code is no longer active.`), and it stays for the \
                   orders that used it. Audited (`promo.update`) when something changed \
                   (super_admin).",
    params(("id" = i64, Path, description = "The code's id.", minimum = 1)),
    request_body = ChangePromo,
    responses(
        (status = 200, description = "The code as it is now.", body = PromoCodeJson),
        SuperAdminJson,
        (status = 404, description = "No code has this id (or the id is not a positive whole number).", body = crate::error::ErrorBody),
        (status = 422, description = "Every problem at once, per field, as at creation: a \
            `discount_percent` that is not a whole number from 1 to 100, an unreadable \
            `expires_at`, a `max_uses` below 1 or below the uses so far, an `active` that is \
            not true or false, a `code` (it cannot change), or a body that is not an object. \
            Nothing changed.", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn update(
    RequireSuperAdmin(admin): RequireSuperAdmin,
    ip: ClientIp,
    promos: web::Data<ShopPromos>,
    body: web::Json<Object<ChangePromo>>,
    Id(id): Id<PromoId>,
) -> Result<HttpResponse, ApiError> {
    let Object(Some(fields)) = body.into_inner() else {
        return Err(ApiError::field(
            "promo",
            "Send the fields to change as a JSON object.",
        ));
    };
    let mut errors = FieldErrors::new();
    if fields.code.given().is_some() {
        errors.add(
            "code",
            "A code cannot be renamed: create a new one and switch this one off.",
        );
    }
    let change = PromoChange {
        discount: (fields.discount_percent.given()).and_then(|v| discount_field(v, &mut errors)),
        expires_at: (fields.expires_at.given()).and_then(|v| expiry_field(v, &mut errors)),
        max_uses: (fields.max_uses.given()).and_then(|v| max_uses_field(v, &mut errors)),
        active: match fields.active {
            Patch::Missing => None,
            Patch::Set(active) => Some(active),
            _ => {
                errors.add("active", "Active is true or false.");
                None
            }
        },
    };
    errors.finish()?;
    let updated = promos.update(id, change, &admin.actor(ip)).await?;
    tracing::info!(code = %updated.promo.code, by = admin.id, "promo code changed");
    Ok(HttpResponse::Ok().json(PromoCodeJson::from(updated)))
}

/// `DELETE /api/admin/promo-codes/{id}` (super_admin): 204 for a code no order used; 409
/// otherwise.
#[utoipa::path(
    delete,
    path = "/api/admin/promo-codes/{id}",
    operation_id = "admin_delete_promo_code",
    tag = "staff: promo codes",
    summary = "Delete a never-used promo code",
    description = "Deletes a code that no order (of any status) ever used. A used code stays \
                   for the order history: switch it off instead (`PATCH` with `active: false`). \
                   Audited (`promo.delete`) (super_admin).",
    params(("id" = i64, Path, description = "The code's id.", minimum = 1)),
    responses(
        (status = 204, description = "Deleted; no body."),
        SuperAdminOnly,
        (status = 404, description = "No code has this id (or the id is not a positive whole number).", body = crate::error::ErrorBody),
        (status = 409, description = "An order used it: it stays (nothing changed).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn delete(
    RequireSuperAdmin(admin): RequireSuperAdmin,
    ip: ClientIp,
    promos: web::Data<ShopPromos>,
    Id(id): Id<PromoId>,
) -> Result<HttpResponse, ApiError> {
    promos.delete(id, &admin.actor(ip)).await?;
    tracing::info!(promo = %id, by = admin.id, "promo code deleted");
    Ok(HttpResponse::NoContent().finish())
}
