use actix_web::{http::header, web, HttpResponse};
use serde_json::json;

use crate::state::AppState;

/// What the browser needs to know about this shop's configuration.
pub async fn site(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "public, max-age=300"))
        .json(json!({
            "name": state.site.name,
            "reviews_url": state.site.reviews_url,
            "paypal_enabled": state.checkout.paypal.is_some(),
        }))
}
