//! Roblox usernames: `POST /api/roblox/avatar` (canonical name and headshot) and the offline
//! stand-in's drawn avatars.

use actix_web::{http::header, web, HttpResponse};
use orders::gateways::{RobloxDirectory, RobloxUsername};
use serde::Deserialize;
use serde_json::json;
use shared::Rule;

use crate::{checkout::CheckoutKit, client_ip::ClientIp, error::ApiError, limits::RateLimits};

#[derive(Debug, Deserialize)]
pub struct AvatarRequest {
    #[serde(default)]
    pub username: Option<String>,
}

/// `POST /api/roblox/avatar {username}` -> `{username, avatar_url}`; 404 unknown, 422 malformed.
pub async fn avatar(
    kit: web::Data<CheckoutKit>,
    limits: web::Data<RateLimits>,
    client: ClientIp,
    body: web::Json<AvatarRequest>,
) -> Result<HttpResponse, ApiError> {
    // each lookup may cost two calls to Roblox
    let per_minute = kit.settings.roblox_lookups_per_minute;
    limits
        .check(
            "roblox-lookup:ip",
            &client.to_string(),
            Rule::per_minute(per_minute),
        )
        .await?;
    let typed = body.username.as_deref().unwrap_or_default();
    if typed.trim().is_empty() {
        return Err(ApiError::field("username", "Enter your Roblox username."));
    }
    let username = RobloxUsername::parse(typed)
        .map_err(|e| ApiError::field("username", format!("A Roblox username {e}.")))?;
    let profile = kit
        .roblox
        .lookup(username)
        .await
        .inspect_err(|error| tracing::warn!(error = ?error, "roblox lookup failed"))?
        .ok_or_else(|| ApiError::NotFound("Roblox user not found.".to_owned()))?;
    Ok(HttpResponse::Ok().json(json!({
        "username": profile.username.to_string(),
        "avatar_url": profile.avatar_url,
    })))
}

/// `GET /api/roblox/dev-avatar/{username}.svg`: the offline stand-in's picture for a name.
pub async fn dev_avatar(
    kit: web::Data<CheckoutKit>,
    name: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let not_found = || ApiError::NotFound("Not found.".to_owned());
    if !kit.roblox.is_local() {
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
