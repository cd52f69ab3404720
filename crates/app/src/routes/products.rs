use actix_web::{
    http::header::{self, ContentEncoding},
    web, HttpRequest, HttpResponse,
};
use catalog::{CatalogService, ProductId};

use crate::{
    dto::ProductResponse, error::ApiError, services::ShopCatalog, snapshot::ProductSnapshot,
};

/// The storefront's products from the in-memory snapshot, with a strong ETag. The body is sent
/// uncompressed so the validator names exactly one representation.
pub async fn list(request: HttpRequest, products: web::Data<ProductSnapshot>) -> HttpResponse {
    let list = products.current();
    let revalidating = request
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            value
                .split(',')
                .map(str::trim)
                .any(|tag| tag == "*" || tag == list.etag)
        });
    let mut response = if revalidating {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((header::ETAG, list.etag.clone()))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header(ContentEncoding::Identity);
    if revalidating {
        return response.finish();
    }
    response
        .content_type("application/json")
        .body(list.body.clone())
}

/// A product id from the path; anything else is a product that is not there.
pub(crate) fn product_id(raw: &str) -> Result<ProductId, ApiError> {
    raw.parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .map(ProductId::new)
        .ok_or_else(|| ApiError::NotFound("Product not found.".to_owned()))
}

pub async fn show(
    path: web::Path<String>,
    catalog: web::Data<ShopCatalog>,
) -> Result<HttpResponse, ApiError> {
    let product = catalog.visible_product(product_id(&path)?).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(ProductResponse::from(&product)))
}

pub async fn related_ids(
    path: web::Path<String>,
    catalog: web::Data<ShopCatalog>,
) -> Result<HttpResponse, ApiError> {
    let product = catalog.visible_product(product_id(&path)?).await?;
    let ids: Vec<i64> = product.related_ids.iter().map(ProductId::get).collect();
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(ids))
}
