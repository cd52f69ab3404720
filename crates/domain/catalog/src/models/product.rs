use std::fmt;

use cart_pricing::Money;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProductId(i64);

impl ProductId {
    pub fn new(value: i64) -> Self {
        ProductId(value)
    }

    pub fn get(&self) -> i64 {
        self.0
    }
}

impl fmt::Display for ProductId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// How many units the shop can still sell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stock {
    /// Not tracked: the shop can always deliver (Sheckles, for instance).
    Unlimited,
    Finite(u32),
}

impl Stock {
    pub fn from_count(count: Option<i64>) -> Self {
        match count {
            None => Stock::Unlimited,
            Some(n) => Stock::Finite(u32::try_from(n.max(0)).unwrap_or(u32::MAX)),
        }
    }

    pub fn count(&self) -> Option<i64> {
        match self {
            Stock::Unlimited => None,
            Stock::Finite(n) => Some(i64::from(*n)),
        }
    }

    pub fn is_out(&self) -> bool {
        matches!(self, Stock::Finite(0))
    }

    /// Whether `quantity` units can be sold now.
    pub fn covers(&self, quantity: u32) -> bool {
        match self {
            Stock::Unlimited => true,
            Stock::Finite(n) => quantity <= *n,
        }
    }
}

/// A product as the shop stores and shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Product {
    pub id: ProductId,
    pub name: String,
    pub description: String,
    pub price: Money,
    /// Free text; several categories are separated by commas.
    pub category: String,
    /// A path on the shop's own host, such as `/media/products/ab12.png`.
    pub image: Option<String>,
    pub stock: Stock,
    /// In kilograms.
    pub weight: Option<f64>,
    pub mutation: Option<String>,
    /// The original price; the saving shown is `savings - price`.
    pub savings: Option<Money>,
    pub sort_order: Option<i32>,
    pub delete_after_out_of_stock: bool,
    /// For a bundle: the products it contains.
    pub related_ids: Vec<ProductId>,
    /// The count on the admin inventory page.
    pub inventory: i64,
    /// Shoppers confirm before buying it: the game may flag it as a dupe after delivery.
    pub dupe_warning: bool,
    /// Hidden from the storefront, kept for orders and statistics.
    pub archived: bool,
}

impl Product {
    pub fn is_bundle(&self) -> bool {
        !self.related_ids.is_empty()
    }
}

/// Everything needed to create a product; the store assigns the id.
#[derive(Debug, Clone, PartialEq)]
pub struct ProductDraft {
    pub name: String,
    pub description: String,
    pub price: Money,
    pub category: String,
    pub image: Option<String>,
    pub stock: Stock,
    pub weight: Option<f64>,
    pub mutation: Option<String>,
    pub savings: Option<Money>,
    pub sort_order: Option<i32>,
    pub delete_after_out_of_stock: bool,
    pub related_ids: Vec<ProductId>,
    pub inventory: i64,
    pub dupe_warning: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stock_null_is_unlimited_and_zero_is_out() {
        assert_eq!(Stock::from_count(None), Stock::Unlimited);
        assert!(Stock::from_count(Some(0)).is_out());
        assert!(Stock::from_count(Some(-3)).is_out());
        assert!(!Stock::Unlimited.is_out());
        assert_eq!(Stock::Finite(4).count(), Some(4));
    }

    #[test]
    fn stock_covers_a_quantity_only_when_there_is_enough() {
        assert!(Stock::Unlimited.covers(1000));
        assert!(Stock::Finite(2).covers(2));
        assert!(!Stock::Finite(2).covers(3));
    }
}
