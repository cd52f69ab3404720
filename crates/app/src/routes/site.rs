use actix_web::{http::header, web, HttpResponse};
use serde_json::json;

use crate::{checkout::CheckoutKit, settings::SiteSettings};

/// What the browser needs to know about this shop's configuration.
pub async fn site(site: web::Data<SiteSettings>, checkout: web::Data<CheckoutKit>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "public, max-age=300"))
        .json(json!({
            "name": site.name,
            "reviews_url": site.reviews_url,
            "paypal_enabled": checkout.paypal.is_some(),
        }))
}
