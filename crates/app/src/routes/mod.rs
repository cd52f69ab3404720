pub mod admin_chats;
pub mod admin_orders;
pub mod admin_products;
pub mod audit;
pub mod auth;
pub mod blocklist;
mod bundle;
pub mod chat;
pub mod checkout;
pub mod dev_pages;
pub mod discord_link;
pub mod disputes;
pub mod events;
pub mod health;
pub mod images;
pub mod meta;
pub mod order_messages;
pub mod orders;
mod path_id;
pub mod private_server;
pub mod products;
pub mod profile;
pub mod promo;
pub mod proofs;
pub mod reviews;
pub mod roblox_names;
pub mod sales;
pub mod site;
pub mod spa;
pub mod stripe_webhook;

use actix_web::web;

use crate::error::ApiError;

/// Every route of the shop: the API under /api (`api` registers its calls: each at the path and
/// methods its OpenAPI description names, so no call is routed without being documented), images
/// under /media, and the single-page app for everything else.
pub fn configure(cfg: &mut web::ServiceConfig, api: fn(&mut web::ServiceConfig)) {
    cfg.service(
        web::scope("/api")
            .configure(api)
            .default_service(web::to(api_not_found)),
    )
    .route("/media/{tail:.*}", web::get().to(images::serve))
    .route("/robots.txt", web::get().to(site::robots))
    .route("/sitemap.xml", web::get().to(site::sitemap))
    .route("/metrics", web::get().to(crate::metrics::scrape))
    .configure(dev_page_routes)
    .default_service(web::to(spa::serve));
}

/// No route took the request: 405 with `Allow` when the path exists with other methods, else
/// 404.
async fn api_not_found(
    request: actix_web::HttpRequest,
) -> Result<actix_web::HttpResponse, ApiError> {
    let Some(pattern) = request.resource_map().match_pattern(request.path()) else {
        return Err(ApiError::NotFound(
            l10n::Text::new("error-not-found").into(),
        ));
    };
    let mut response =
        ApiError::MethodNotAllowed(l10n::Text::new("error-method-not-allowed").into())
            .into_response();
    let document = request.app_data::<web::Data<meta::ApiDocument>>();
    if let Some(allow) = document.and_then(|document| document.allowed_methods(&pattern)) {
        response
            .headers_mut()
            .insert(actix_web::http::header::ALLOW, allow.clone());
    }
    Ok(response)
}

/// The local stand-ins' pages (they answer 404 when the real provider is configured).
fn dev_page_routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/dev/pay/{id}", web::get().to(dev_pages::pay_page))
        .route("/dev/pay/{id}/pay", web::post().to(dev_pages::pay))
        .route("/dev/pay/{id}/cancel", web::post().to(dev_pages::cancel))
        .route("/dev/pay/{id}/dispute", web::post().to(dev_pages::dispute))
        .route(
            "/dev/pay/{id}/fraud-warning",
            web::post().to(dev_pages::fraud_warning),
        )
        .route(
            "/dev/discord/authorize",
            web::get().to(dev_pages::discord_page),
        );
}
