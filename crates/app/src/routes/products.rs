use actix_web::{
    http::header::{self, ContentEncoding},
    web, HttpRequest, HttpResponse,
};
use catalog::{CatalogService, Product, ProductId};
use serde::Serialize;

use crate::{error::ApiError, state::AppState};

/// A product as the browser sees it: the spec's field names, money as numbers of dollars.
#[derive(Debug, Serialize)]
pub struct ProductResponse {
    id: i64,
    name: String,
    description: String,
    price: f64,
    category: String,
    image: Option<String>,
    stock: Option<i64>,
    weight: Option<f64>,
    mutation: Option<String>,
    savings: Option<f64>,
    sort_order: Option<i32>,
    delete_after_out_of_stock: bool,
    related_ids: Vec<i64>,
    inventory: i64,
    dupe_warning: bool,
}

fn dollars(money: cart_pricing::Money) -> f64 {
    // Cents fit an f64 exactly, and JSON has no decimal type.
    money.cents() as f64 / 100.0
}

impl From<&Product> for ProductResponse {
    fn from(p: &Product) -> Self {
        ProductResponse {
            id: p.id.get(),
            name: p.name.clone(),
            description: p.description.clone(),
            price: dollars(p.price),
            category: p.category.clone(),
            image: p.image.clone(),
            stock: p.stock.count(),
            weight: p.weight,
            mutation: p.mutation.clone(),
            savings: p.savings.map(dollars),
            sort_order: p.sort_order,
            delete_after_out_of_stock: p.delete_after_out_of_stock,
            related_ids: p.related_ids.iter().map(ProductId::get).collect(),
            inventory: p.inventory,
            dupe_warning: p.dupe_warning,
        }
    }
}

/// The storefront's products from the in-memory snapshot, with a strong ETag. The body is sent
/// uncompressed so the validator names exactly one representation.
pub async fn list(request: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let list = state.products.current();
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

fn parse_id(raw: &str) -> Result<ProductId, ApiError> {
    raw.parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .map(ProductId::new)
        .ok_or_else(|| ApiError::NotFound("Product not found.".to_owned()))
}

pub async fn show(
    path: web::Path<String>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let product = state.catalog.visible_product(parse_id(&path)?).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(ProductResponse::from(&product)))
}

pub async fn related_ids(
    path: web::Path<String>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let product = state.catalog.visible_product(parse_id(&path)?).await?;
    let ids: Vec<i64> = product.related_ids.iter().map(ProductId::get).collect();
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(ids))
}
