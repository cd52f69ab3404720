//! Roblox usernames: `POST /api/roblox/avatar` (canonical name and headshot) and the offline
//! stand-in's drawn avatars.

use actix_web::{http::header, web, HttpResponse};
use orders::gateways::{RobloxDirectory, RobloxUsername};
use shared::Rule;

use crate::checkout::Roblox;
use crate::settings::CheckoutSettings;
use crate::{client_ip::ClientIp, error::ApiError, limits::RateLimits};
use dto::responses::JsonBodyRefused;
use dto::roblox::{AvatarRequest, AvatarResponse};

/// `POST /api/roblox/avatar {username}` -> `{username, avatar_url}`; 404 unknown, 422 malformed.
#[utoipa::path(
    post,
    path = "/api/roblox/avatar",
    tag = "checkout",
    summary = "Check a Roblox username",
    description = "Looks the name up at Roblox (or the offline stand-in): its canonical \
                   spelling and headshot. Limited per client address and minute \
                   (`checkout.roblox_lookups_per_minute`).",
    request_body = AvatarRequest,
    responses(
        (status = 200, description = "The account exists.", body = AvatarResponse),
        JsonBodyRefused,
        (status = 404, description = "No Roblox user has this name.", body = crate::error::ErrorBody),
        (status = 422, description = "No username, or not a possible Roblox username (`username`).", body = crate::error::ErrorBody),
        (status = 429, description = "Too many lookups from this address; `Retry-After` says when to try again.", body = crate::error::ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait."))),
        (status = 502, description = "Roblox could not be reached or answered something unreadable.", body = crate::error::ErrorBody),
    ),
    security(()),
)]
pub async fn avatar(
    roblox: web::Data<Roblox>,
    settings: web::Data<CheckoutSettings>,
    limits: web::Data<RateLimits>,
    client: ClientIp,
    body: web::Json<AvatarRequest>,
) -> Result<HttpResponse, ApiError> {
    // each lookup may cost two calls to Roblox
    let per_minute = settings.roblox_lookups_per_minute;
    limits
        .check(
            "roblox-lookup:ip",
            &client.network_key(),
            Rule::per_minute(per_minute),
        )
        .await?;
    let typed = body.username.as_deref().unwrap_or_default();
    if typed.trim().is_empty() {
        return Err(ApiError::field(
            "username",
            l10n::Text::new("error-roblox-enter"),
        ));
    }
    let username = RobloxUsername::parse(typed).map_err(|e| ApiError::field("username", e))?;
    let profile = roblox
        .lookup(username)
        .await
        .inspect_err(|error| tracing::warn!(error = ?error, "roblox lookup failed"))?
        .ok_or_else(|| ApiError::NotFound(l10n::Text::new("error-roblox-not-found").into()))?;
    Ok(HttpResponse::Ok().json(AvatarResponse {
        username: profile.username.to_string(),
        avatar_url: profile.avatar_url,
    }))
}

/// `GET /api/roblox/dev-avatar/{username}.svg`: the offline stand-in's picture for a name.
#[utoipa::path(
    get,
    path = "/api/roblox/dev-avatar/{name}",
    tag = "checkout",
    summary = "The offline Roblox stand-in's avatar",
    description = "Only when the shop runs without Roblox (the offline stand-in): a drawn SVG \
                   headshot for a name, the `avatar_url` that `POST /api/roblox/avatar` answers \
                   there. 404 when Roblox is real.",
    params(("name" = String, Path, description = "`{username}.svg`.", example = "Builderman.svg")),
    responses(
        (status = 200, description = "The picture.", content_type = "image/svg+xml", body = String),
        (status = 404, description = "Roblox is real here, or the name is not `{username}.svg` with a possible username.", body = crate::error::ErrorBody),
    ),
    security(()),
)]
pub async fn dev_avatar(
    roblox: web::Data<Roblox>,
    name: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let not_found = || ApiError::NotFound(l10n::Text::new("error-not-found").into());
    if !roblox.is_local() {
        return Err(not_found());
    }
    let username = name
        .strip_suffix(".svg")
        .and_then(|name| RobloxUsername::parse(name).ok())
        .ok_or_else(not_found)?;
    Ok(HttpResponse::Ok()
        .content_type("image/svg+xml")
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .body(roblox::dev_avatar_svg(&username)))
}
