use catalog::{Product, ProductId};
use serde::Serialize;

use super::money::dollars;

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
            // One count per product (DESIGN): the inventory is the stock, 0 when unlimited.
            inventory: p.stock.count().unwrap_or(0),
            dupe_warning: p.dupe_warning,
        }
    }
}
