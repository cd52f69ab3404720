use catalog::{Product, ProductId};
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::money::dollars;

/// A product as the browser sees it: the spec's field names, money as numbers of dollars.
/// The storefront's list (`GET /api/products`, from the snapshot) and one product
/// (`GET /api/products/{id}`) both send exactly this.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Product)]
pub struct ProductResponse {
    #[schema(example = 12)]
    id: i64,
    #[schema(example = "Golden Raccoon")]
    name: String,
    description: String,
    /// The price in dollars (two decimals).
    #[schema(example = 4.99)]
    price: f64,
    /// Free text, possibly a comma-separated list: "Pets, Exclusives".
    category: String,
    /// A path on the shop's own host, e.g. "/media/products/9f2c.png"; null without a picture.
    #[schema(required = true)]
    image: Option<String>,
    /// null = unlimited, 0 = out of stock.
    #[schema(required = true)]
    stock: Option<i64>,
    #[schema(required = true)]
    weight: Option<f64>,
    #[schema(required = true)]
    mutation: Option<String>,
    /// The original price in dollars; the shopper saves `savings - price`.
    #[schema(required = true)]
    savings: Option<f64>,
    #[schema(required = true)]
    sort_order: Option<i32>,
    delete_after_out_of_stock: bool,
    /// The ids of the products shown with this one.
    related_ids: Vec<i64>,
    /// The stock again (one count per product), 0 when unlimited.
    inventory: i64,
    dupe_warning: bool,
    /// Whether it is on sale: false for a drop before its `release_at` (by the server's
    /// clock), true otherwise. At the release the server pushes `products` to every stream.
    released: bool,
    /// A drop's release, RFC 3339 in UTC; null for an ordinary product.
    #[schema(required = true, value_type = Option<String>, format = DateTime, example = "2026-12-01T18:00:00Z")]
    release_at: Option<DateTime<Utc>>,
    /// Units one buyer (Discord account, shop account, browser) may hold across its pending,
    /// paid, delivered and disputed orders, alone or inside bundles; null: no limit.
    #[schema(required = true, minimum = 1, maximum = 20)]
    max_per_account: Option<u32>,
}

impl ProductResponse {
    /// The product as the storefront shows it at `now` (whether a drop is released yet).
    pub fn at(p: &Product, now: DateTime<Utc>) -> Self {
        ProductResponse {
            released: p.is_released(now),
            release_at: p.release_at,
            max_per_account: p.max_per_account,
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
            // One count per product (DESIGN): the inventory is the stock, 0 when unlimited.
            inventory: p.stock.count().unwrap_or(0),
            dupe_warning: p.dupe_warning,
        }
    }
}
