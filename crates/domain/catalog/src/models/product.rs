use std::fmt;

use cart_pricing::Money;
use chrono::{DateTime, Utc};

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

    /// The smaller of two stocks; unlimited is more than any count.
    pub fn lesser(self, other: Stock) -> Stock {
        match (self, other) {
            (Stock::Unlimited, other) => other,
            (finite, Stock::Unlimited) => finite,
            (Stock::Finite(a), Stock::Finite(b)) => Stock::Finite(a.min(b)),
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
    /// Shoppers confirm before buying it: the game may flag it as a dupe after delivery.
    pub dupe_warning: bool,
    /// Hidden from the storefront, kept for orders and statistics.
    pub archived: bool,
    /// A drop: listed before, sold only from this moment on.
    pub release_at: Option<DateTime<Utc>>,
    /// How many units one buyer (Discord account, shop account, browser) may hold across its
    /// pending, paid, delivered and disputed orders, alone or inside bundles (1 to [`MAX_PER_ACCOUNT`]); `None`: no cap.
    pub max_per_account: Option<u32>,
}

/// The largest per-account cap the form accepts.
pub const MAX_PER_ACCOUNT: u32 = 20;

impl Product {
    pub fn is_bundle(&self) -> bool {
        !self.related_ids.is_empty()
    }

    /// Whether it may be sold at `now`: an ordinary product always, a drop from its
    /// `release_at` on. The server's clock decides, never the browser's.
    pub fn is_released(&self, now: DateTime<Utc>) -> bool {
        self.release_at.is_none_or(|at| at <= now)
    }

    /// What the shop can sell of this product now (DESIGN §3): its own stock and, for a bundle,
    /// no more than any of its components has, since a sale takes one of each. So a bundle
    /// shows the smallest of its own and its components' stock, and cannot be sold while a
    /// finite component is out. `component` finds a component by id, archived ones included
    /// (a sold-out one-off is archived); one it does not find is not counted.
    ///
    /// The storefront, the reservation and the assistant all use this one rule.
    pub fn available_stock<'a>(
        &self,
        component: impl Fn(ProductId) -> Option<&'a Product>,
    ) -> Stock {
        self.related_ids
            .iter()
            .filter_map(|id| component(*id))
            .fold(self.stock, |least, part| least.lesser(part.stock))
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
    pub dupe_warning: bool,
    pub release_at: Option<DateTime<Utc>>,
    pub max_per_account: Option<u32>,
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

    fn pet(id: i64, stock: Stock, related: &[i64]) -> Product {
        Product {
            stock,
            related_ids: related.iter().copied().map(ProductId::new).collect(),
            ..crate::fixtures::product(id, "1.00")
        }
    }

    fn lookup<'a>(known: &'a [Product]) -> impl Fn(ProductId) -> Option<&'a Product> {
        move |id| known.iter().find(|p| p.id == id)
    }

    #[test]
    fn a_bundle_shows_the_smallest_of_its_own_and_its_components_stock() {
        let known = [
            pet(1, Stock::Finite(3), &[]),
            pet(2, Stock::Unlimited, &[]),
            pet(3, Stock::Finite(7), &[]),
        ];
        let bundle = pet(10, Stock::Finite(5), &[1, 2, 3]);
        assert_eq!(bundle.available_stock(lookup(&known)), Stock::Finite(3));
        let unlimited = pet(11, Stock::Unlimited, &[2, 3]);
        assert_eq!(unlimited.available_stock(lookup(&known)), Stock::Finite(7));
        let all_unlimited = pet(12, Stock::Unlimited, &[2]);
        assert_eq!(
            all_unlimited.available_stock(lookup(&known)),
            Stock::Unlimited
        );
        // a product that is no bundle shows its own stock
        assert_eq!(known[0].available_stock(lookup(&known)), Stock::Finite(3));
    }

    #[test]
    fn a_bundle_whose_component_sold_out_is_out_of_stock() {
        let known = [pet(1, Stock::Finite(0), &[]), pet(2, Stock::Finite(4), &[])];
        let bundle = pet(10, Stock::Finite(5), &[1, 2]);
        assert!(bundle.available_stock(lookup(&known)).is_out());
        // a component the lookup does not know is not counted
        let partial = pet(11, Stock::Finite(5), &[2, 99]);
        assert_eq!(partial.available_stock(lookup(&known)), Stock::Finite(4));
    }

    #[test]
    fn unlimited_is_more_than_any_count() {
        assert_eq!(Stock::Unlimited.lesser(Stock::Finite(2)), Stock::Finite(2));
        assert_eq!(Stock::Finite(2).lesser(Stock::Unlimited), Stock::Finite(2));
        assert_eq!(Stock::Finite(2).lesser(Stock::Finite(1)), Stock::Finite(1));
        assert_eq!(Stock::Unlimited.lesser(Stock::Unlimited), Stock::Unlimited);
    }

    #[test]
    fn a_drop_is_released_from_its_release_time_on() {
        let at = DateTime::parse_from_rfc3339("2026-11-27T03:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let ordinary = crate::fixtures::product(1, "1.00");
        assert!(ordinary.is_released(at));
        let drop = Product {
            release_at: Some(at),
            ..ordinary
        };
        assert!(!drop.is_released(at - chrono::Duration::milliseconds(1)));
        assert!(drop.is_released(at));
        assert!(drop.is_released(at + chrono::Duration::seconds(1)));
    }

    #[test]
    fn stock_covers_a_quantity_only_when_there_is_enough() {
        assert!(Stock::Unlimited.covers(1000));
        assert!(Stock::Finite(2).covers(2));
        assert!(!Stock::Finite(2).covers(3));
    }
}
