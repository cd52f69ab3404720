//! Products for this crate's unit tests.

use cart_pricing::Money;

use crate::{Product, ProductId, Stock};

/// A plain, visible pet with unlimited stock and nothing optional set.
pub fn product(id: i64, price: &str) -> Product {
    Product {
        id: ProductId::new(id),
        name: format!("Product {id}"),
        description: String::new(),
        price: Money::parse(price).unwrap(),
        category: "Pets".into(),
        image: None,
        stock: Stock::Unlimited,
        weight: None,
        mutation: None,
        savings: None,
        sort_order: None,
        delete_after_out_of_stock: false,
        related_ids: vec![],
        dupe_warning: false,
        archived: false,
        release_at: None,
        max_per_account: None,
    }
}
