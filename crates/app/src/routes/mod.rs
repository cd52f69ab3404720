pub mod auth;
pub mod health;
pub mod media;
pub mod products;
pub mod profile;
pub mod site;
pub mod spa;

use actix_web::web;

use crate::error::ApiError;

/// Every route of the shop: the API under /api, images under /media, and the single-page app
/// for everything else.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/api")
            .route("/health", web::get().to(health::health))
            .route("/site", web::get().to(site::site))
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
            .default_service(web::to(api_not_found)),
    )
    .route("/media/{tail:.*}", web::get().to(media::serve))
    .default_service(web::to(spa::serve));
}

async fn api_not_found() -> Result<actix_web::HttpResponse, ApiError> {
    Err(ApiError::NotFound("Not found.".to_owned()))
}
