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

/// Every route of the shop: the API under /api, images under /media, and the single-page app
/// for everything else.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/api")
            .route("/health", web::get().to(health::health))
            .route("/health/ready", web::get().to(health::ready))
            .route("/site", web::get().to(site::site))
            .route("/refund-policy", web::get().to(site::refund_policy))
            .route("/openapi.json", web::get().to(meta::serve))
            .route("/products", web::get().to(products::list))
            .route("/products/{id}", web::get().to(products::show))
            .route(
                "/products/{id}/related-ids",
                web::get().to(products::related_ids),
            )
            .route("/auth/check", web::get().to(auth::check))
            .route("/login", web::post().to(auth::login))
            .route("/logout", web::post().to(auth::logout))
            .route(
                "/send-verification-code",
                web::post().to(auth::send_verification_code),
            )
            .route("/verify-code", web::post().to(auth::verify_code))
            .route("/forgot-password", web::post().to(auth::forgot_password))
            .route("/reset-password", web::post().to(auth::reset_password))
            .route("/me", web::get().to(auth::me))
            .route("/profile", web::get().to(profile::profile))
            .route("/events", web::get().to(events::stream))
            .route("/profile", web::delete().to(profile::delete))
            .route("/profile/export", web::get().to(profile::export))
            .configure(admin_routes)
            .configure(checkout_routes)
            .configure(chat_routes)
            .default_service(web::to(api_not_found)),
    )
    .route("/media/{tail:.*}", web::get().to(images::serve))
    .route("/robots.txt", web::get().to(site::robots))
    .route("/sitemap.xml", web::get().to(site::sitemap))
    .route("/metrics", web::get().to(crate::metrics::scrape))
    .configure(dev_page_routes)
    .default_service(web::to(spa::serve));
}

/// The help chat (shoppers and staff) and proofs of delivery (under /api).
fn chat_routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/chat/start-ai", web::post().to(chat::start_ai))
        .route("/chat/start-live", web::post().to(chat::start_live))
        .route("/chat/send", web::post().to(chat::send))
        .route("/chat/history", web::get().to(chat::history))
        .route("/chat/status", web::get().to(chat::status))
        .route("/chat/admin-reply", web::post().to(admin_chats::reply))
        .route("/chat/{chat_id}", web::delete().to(chat::end))
        .route("/admin/chats", web::get().to(admin_chats::list))
        .route("/admin/chats/{id}", web::get().to(admin_chats::show))
        .route("/admin/chats/{id}", web::delete().to(admin_chats::delete))
        .route(
            "/admin/chats/{id}/messages",
            web::get().to(admin_chats::messages),
        )
        .route(
            "/admin/chats/{id}/mark-read",
            web::post().to(admin_chats::mark_read),
        )
        .route(
            "/admin/chats/{id}/accept",
            web::post().to(admin_chats::accept),
        )
        .route("/proofs", web::get().to(proofs::list))
        .route("/proofs", web::post().to(proofs::create))
        .route("/proofs/{id}", web::delete().to(proofs::delete));
}

/// The admin's pages under /api: the catalog and statistics (super_admin), the delivery queue
/// (staff), the disputes and the blocklist.
fn admin_routes(cfg: &mut web::ServiceConfig) {
    admin_catalog_routes(cfg);
    admin_queue_routes(cfg);
    admin_dispute_routes(cfg);
}

/// The admin's catalog and the sales statistics (super_admin). The fixed paths come before
/// `{id}` so that `reorder` is never taken for an id.
fn admin_catalog_routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/admin/products", web::get().to(admin_products::list))
        .route("/admin/products", web::post().to(admin_products::create))
        .route(
            "/admin/products/standalone",
            web::get().to(admin_products::standalone),
        )
        .route(
            "/admin/products/reorder",
            web::post().to(admin_products::reorder),
        )
        .route(
            "/admin/products/{id}",
            web::post().to(admin_products::update),
        )
        .route(
            "/admin/products/{id}",
            web::put().to(admin_products::update),
        )
        .route(
            "/admin/products/{id}",
            web::delete().to(admin_products::delete),
        )
        .route(
            "/admin/products/{id}/inventory",
            web::post().to(admin_products::set_inventory),
        )
        .route(
            "/admin/products/{id}/change",
            web::post().to(admin_products::change_inventory),
        )
        .route("/admin/sales-stats", web::get().to(sales::sales_stats));
}

/// The delivery queue (staff): the orders, the private server, the order's messages, the audit.
fn admin_queue_routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/admin/orders", web::get().to(admin_orders::list))
        .route("/admin/private-server", web::get().to(private_server::show))
        .route("/admin/private-server", web::put().to(private_server::set))
        .route(
            "/admin/private-server",
            web::delete().to(private_server::remove),
        )
        .route(
            "/admin/orders/{id}/claim",
            web::post().to(admin_orders::claim),
        )
        .route(
            "/admin/orders/{id}/release",
            web::post().to(admin_orders::release),
        )
        .route(
            "/admin/orders/{id}/deliver",
            web::post().to(admin_orders::deliver),
        )
        .route(
            "/admin/orders/{id}/refund",
            web::post().to(admin_orders::refund),
        )
        .route(
            "/admin/orders/{id}/hold/release",
            web::post().to(admin_orders::release_hold),
        )
        .route(
            "/admin/orders/{id}/messages",
            web::get().to(order_messages::staff_list),
        )
        .route(
            "/admin/orders/{id}/messages",
            web::post().to(order_messages::staff_post),
        )
        .route("/admin/audit", web::get().to(audit::list));
}

/// Disputes, fraud warnings and the blocklist.
fn admin_dispute_routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/admin/disputes", web::get().to(disputes::list))
        .route("/admin/fraud-warnings", web::get().to(disputes::warnings))
        .route(
            "/admin/fraud-warnings/{order_id}/evidence/{file}",
            web::get().to(disputes::warning_evidence_file),
        )
        .route(
            "/admin/disputes/{dispute_id}/evidence/{file}",
            web::get().to(disputes::evidence_file),
        )
        .route(
            "/admin/disputes/{dispute_id}/submit",
            web::post().to(disputes::submit),
        )
        .route(
            "/admin/disputes/{dispute_id}/accept",
            web::post().to(disputes::accept),
        )
        .route("/admin/blocklist", web::get().to(blocklist::list))
        .route("/admin/blocklist", web::post().to(blocklist::add))
        .route("/admin/blocklist/{id}", web::delete().to(blocklist::remove))
        .route(
            "/admin/blocklist/{id}/confirm",
            web::post().to(blocklist::confirm),
        );
}

/// No route took the request: 405 with `Allow` when the path exists with other methods, else
/// 404.
async fn api_not_found(
    request: actix_web::HttpRequest,
) -> Result<actix_web::HttpResponse, ApiError> {
    let Some(pattern) = request.resource_map().match_pattern(request.path()) else {
        return Err(ApiError::NotFound("Not found.".to_owned()));
    };
    let mut response = actix_web::ResponseError::error_response(&ApiError::MethodNotAllowed(
        "This method is not allowed here.".to_owned(),
    ));
    let document = request.app_data::<web::Data<meta::ApiDocument>>();
    if let Some(allow) = document.and_then(|document| document.allowed_methods(&pattern)) {
        response
            .headers_mut()
            .insert(actix_web::http::header::ALLOW, allow.clone());
    }
    Ok(response)
}

/// Checkout, payment, Discord, Roblox, promo codes and the buyer's orders (under /api).
fn checkout_routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/stripe/checkout", web::post().to(checkout::card))
        .route("/checkout/paypal", web::post().to(checkout::paypal))
        .route("/checkout/holdings", web::get().to(checkout::holdings))
        .route("/paypal/return", web::get().to(checkout::paypal_return))
        .route("/stripe/webhook", web::post().to(stripe_webhook::webhook))
        .route("/orders/{id}", web::get().to(orders::show))
        .route("/orders/{id}/cancel", web::post().to(orders::cancel))
        .route("/orders/{id}/ready", web::post().to(orders::ready))
        .route("/orders/{id}/received", web::post().to(orders::received))
        .route("/orders/{id}/messages", web::get().to(order_messages::list))
        .route(
            "/orders/{id}/messages",
            web::post().to(order_messages::post),
        )
        .route(
            "/orders/{id}/ticket/join",
            web::post().to(orders::join_ticket),
        )
        .route("/orders/{id}/review", web::post().to(reviews::leave))
        .route("/reviews", web::get().to(reviews::list))
        .route("/admin/reviews/{id}/hide", web::post().to(reviews::hide))
        .route("/discord/authorize", web::get().to(discord_link::authorize))
        .route("/discord-auth", web::post().to(discord_link::exchange))
        .route("/discord/identity", web::get().to(discord_link::identity))
        .route("/discord/identity", web::delete().to(discord_link::unlink))
        .route("/roblox/avatar", web::post().to(roblox_names::avatar))
        .route(
            "/roblox/dev-avatar/{name}",
            web::get().to(roblox_names::dev_avatar),
        )
        .route("/validate-promo", web::post().to(promo::validate))
        .route("/admin/promo-codes", web::get().to(promo::list))
        .route("/admin/promo-codes", web::post().to(promo::create))
        .route("/admin/promo-codes/{id}", web::patch().to(promo::update))
        .route("/admin/promo-codes/{id}", web::delete().to(promo::delete));
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
