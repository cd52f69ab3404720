//! /api/admin/private-server: each member of staff's private game server link. A claim shows
//! it to the buyer of the order (and only them) until the order is delivered, refunded or
//! released; claiming needs one.

use actix_web::{web, HttpResponse};
use shared::PrivateServerUrl;

use crate::auth::RequireStaff;
use crate::client_ip::ClientIp;
use crate::error::ApiError;
use crate::services::DeliveryQueueService;
use dto::private_server::{PrivateServer, PrivateServerRequest};
use dto::responses::{CrossSiteRefused, JsonBodyRefused};
use dto::staff::StaffOnly;

/// `GET /api/admin/private-server`.
#[utoipa::path(
    get,
    path = "/api/admin/private-server",
    operation_id = "admin_get_private_server",
    tag = "staff: orders",
    summary = "Your private server link",
    responses(
        (status = 200, description = "The caller's link, or null.", body = PrivateServer,
            headers(("Cache-Control" = String, description = "`no-store`"))),
        StaffOnly,
    ),
    security(("session_cookie" = [])),
)]
pub async fn show(
    RequireStaff(staff): RequireStaff,
    delivery: web::Data<DeliveryQueueService>,
) -> Result<HttpResponse, ApiError> {
    let url = delivery.private_server(staff.user_id()).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(PrivateServer { url }))
}

/// `PUT /api/admin/private-server {"url": …}`.
#[utoipa::path(
    put,
    path = "/api/admin/private-server",
    operation_id = "admin_set_private_server",
    tag = "staff: orders",
    summary = "Set your private server link",
    description = "Buyers of the orders you claim see it until the order is delivered, \
                   refunded or released; claiming needs one. The change is audited (that it \
                   changed, not the link).",
    request_body = PrivateServerRequest,
    responses(
        (status = 200, description = "The link as kept: the url crate's serialisation of what was typed.", body = PrivateServer),
        CrossSiteRefused,
        JsonBodyRefused,
        StaffOnly,
        (status = 422, description = "Not a private server's share link (`https://www.roblox.com/share?code=…`) or private server link (`…/games/{place}/{name}?privateServerLinkCode=…`) on www.roblox.com or roblox.com, of at most 300 characters, in printable ASCII without spaces, backslashes or credentials (`errors.url`).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn set(
    RequireStaff(staff): RequireStaff,
    ip: ClientIp,
    body: web::Json<PrivateServerRequest>,
    delivery: web::Data<DeliveryQueueService>,
) -> Result<HttpResponse, ApiError> {
    let url =
        PrivateServerUrl::parse(&body.url).map_err(|e| ApiError::field("url", e.to_string()))?;
    let kept = url.as_str().to_owned();
    delivery
        .set_private_server(staff.user_id(), Some(url), &staff.actor(ip))
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(PrivateServer { url: Some(kept) }))
}

/// `DELETE /api/admin/private-server`.
#[utoipa::path(
    delete,
    path = "/api/admin/private-server",
    operation_id = "admin_delete_private_server",
    tag = "staff: orders",
    summary = "Remove your private server link",
    responses(
        (status = 204, description = "Removed (or there was none)."),
        CrossSiteRefused,
        StaffOnly,
    ),
    security(("session_cookie" = [])),
)]
pub async fn remove(
    RequireStaff(staff): RequireStaff,
    ip: ClientIp,
    delivery: web::Data<DeliveryQueueService>,
) -> Result<HttpResponse, ApiError> {
    delivery
        .set_private_server(staff.user_id(), None, &staff.actor(ip))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
