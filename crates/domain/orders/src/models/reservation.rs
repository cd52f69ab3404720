//! Which stock an order takes: every finite-stock product it sells, a bundle's components
//! included (one of each per bundle, as well as the bundle itself).

use std::collections::{BTreeMap, HashMap};

use cart_pricing::{check_stock, CartLine, Quantity, StockProblem};
use catalog::{Product, ProductId, Stock};

use super::limits::AccountCap;

/// One product the shopper asked for, as the database knows it, and how many.
#[derive(Debug, Clone, PartialEq)]
pub struct CartItem {
    pub product: Product,
    pub quantity: Quantity,
}

impl CartItem {
    /// The stock that limits this line: the catalog's rule ([`Product::available_stock`]),
    /// the smallest of the product's own and, for a bundle, its components' stock (`None` when
    /// all of them are unlimited). `known` holds the components; one it does not hold is not
    /// counted.
    pub fn limiting_stock(&self, known: &HashMap<ProductId, Product>) -> Option<i64> {
        self.product.available_stock(|id| known.get(&id)).count()
    }

    /// The bundle's components as the database has them now (those it knows), stored with the
    /// order line; empty for a product.
    pub fn components(&self, known: &HashMap<ProductId, Product>) -> Vec<ProductId> {
        self.product
            .related_ids
            .iter()
            .filter(|id| known.contains_key(id))
            .copied()
            .collect()
    }

    /// The line priced from the database, with its limiting stock.
    pub fn cart_line(&self, known: &HashMap<ProductId, Product>) -> CartLine {
        CartLine {
            product_id: self.product.id.get(),
            name: self.product.name.clone(),
            unit_price: self.product.price,
            quantity: self.quantity,
            stock: self.limiting_stock(known),
        }
    }
}

/// The finite stock an order takes, one entry per product, in product id order (so that
/// concurrent reservations lock rows in the same order).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reservation(Vec<(ProductId, u32)>);

impl Reservation {
    /// What `items` take: each product's quantity, plus, for a bundle, the same quantity of each
    /// component. Products with unlimited stock take nothing. `known` holds the components.
    pub fn for_items(items: &[CartItem], known: &HashMap<ProductId, Product>) -> Self {
        Reservation(
            demand(items, known)
                .into_iter()
                .filter(|(_, (product, _))| matches!(product.stock, Stock::Finite(_)))
                .map(|(id, (_, quantity))| (id, quantity))
                .collect(),
        )
    }

    /// `(product, quantity)` pairs in product id order.
    pub fn entries(&self) -> &[(ProductId, u32)] {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn quantity_of(&self, id: ProductId) -> u32 {
        self.0
            .iter()
            .find(|(product, _)| *product == id)
            .map_or(0, |(_, quantity)| *quantity)
    }
}

/// Every product the items take, with how many, in id order.
fn demand<'a>(
    items: &'a [CartItem],
    known: &'a HashMap<ProductId, Product>,
) -> BTreeMap<ProductId, (&'a Product, u32)> {
    let mut taken: BTreeMap<ProductId, (&Product, u32)> = BTreeMap::new();
    let mut take = |product: &'a Product, quantity: u32| {
        let entry = taken.entry(product.id).or_insert((product, 0));
        entry.1 = entry.1.saturating_add(quantity);
    };
    for item in items {
        take(&item.product, item.quantity.get());
        for component in item
            .product
            .related_ids
            .iter()
            .filter_map(|id| known.get(id))
        {
            take(component, item.quantity.get());
        }
    }
    taken
}

/// The caps of the drops the items take, however they are bought: alone or inside bundles, in
/// product id order, each with the units it takes (`wanted`) and the product (for its name).
pub fn drop_caps<'a>(
    items: &'a [CartItem],
    known: &'a HashMap<ProductId, Product>,
) -> Vec<(AccountCap, &'a Product)> {
    demand(items, known)
        .into_values()
        .filter_map(|(product, wanted)| {
            product.max_per_account.map(|max| {
                let cap = AccountCap {
                    product: product.id,
                    max,
                    wanted,
                };
                (cap, product)
            })
        })
        .collect()
}

/// Whether the items take a drop's units, alone or inside a bundle: the order is then paid
/// within the drop's shorter window.
pub fn takes_a_drop(items: &[CartItem], known: &HashMap<ProductId, Product>) -> bool {
    demand(items, known)
        .values()
        .any(|(product, _)| product.release_at.is_some())
}

/// Why the items cannot be bought as they are, in the spec's wording. Each line is checked
/// against its limiting stock first; when every line passes on its own, products that several
/// lines share (a bundle and one of its components, say) are checked against their total.
pub fn stock_problems(
    items: &[CartItem],
    known: &HashMap<ProductId, Product>,
) -> Vec<StockProblem> {
    let lines: Vec<CartLine> = items.iter().map(|item| item.cart_line(known)).collect();
    let per_line = check_stock(&lines);
    if !per_line.is_empty() {
        return per_line;
    }
    demand(items, known)
        .into_values()
        .filter_map(|(product, wanted)| match product.stock {
            Stock::Finite(0) => Some(StockProblem::OutOfStock {
                name: product.name.clone(),
            }),
            Stock::Finite(available) if wanted > available => Some(StockProblem::NotEnough {
                name: product.name.clone(),
                available: i64::from(available),
                requested: wanted,
            }),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use cart_pricing::Money;

    use super::*;

    fn product(id: i64, stock: Stock, related: &[i64]) -> Product {
        Product {
            max_per_account: None,
            release_at: None,
            id: ProductId::new(id),
            name: format!("Pet {id}"),
            description: String::new(),
            price: Money::parse("1.00").unwrap(),
            category: "Pets".into(),
            image: None,
            stock,
            weight: None,
            mutation: None,
            savings: None,
            sort_order: None,
            delete_after_out_of_stock: false,
            related_ids: related.iter().copied().map(ProductId::new).collect(),
            dupe_warning: false,
            archived: false,
        }
    }

    fn item(product: &Product, qty: i64) -> CartItem {
        CartItem {
            product: product.clone(),
            quantity: Quantity::new(qty).unwrap(),
        }
    }

    fn known(products: &[&Product]) -> HashMap<ProductId, Product> {
        products.iter().map(|p| (p.id, (*p).clone())).collect()
    }

    fn entries(reservation: &Reservation) -> Vec<(i64, u32)> {
        reservation
            .entries()
            .iter()
            .map(|(id, q)| (id.get(), *q))
            .collect()
    }

    fn messages(problems: &[StockProblem]) -> Vec<String> {
        problems.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn only_finite_stock_is_reserved_in_product_id_order() {
        let owl = product(9, Stock::Finite(5), &[]);
        let sheckles = product(2, Stock::Unlimited, &[]);
        let bee = product(4, Stock::Finite(1), &[]);
        let reservation = Reservation::for_items(
            &[item(&owl, 2), item(&sheckles, 100), item(&bee, 1)],
            &known(&[]),
        );
        assert_eq!(entries(&reservation), [(4, 1), (9, 2)]);
        assert_eq!(reservation.quantity_of(ProductId::new(2)), 0);
    }

    #[test]
    fn a_bundle_takes_itself_and_one_of_each_component_per_bundle() {
        let bunny = product(1, Stock::Finite(10), &[]);
        let owl = product(2, Stock::Finite(10), &[]);
        let snail = product(3, Stock::Unlimited, &[]);
        let bundle = product(10, Stock::Finite(4), &[1, 2, 3]);
        let reservation =
            Reservation::for_items(&[item(&bundle, 3)], &known(&[&bunny, &owl, &snail]));
        assert_eq!(entries(&reservation), [(1, 3), (2, 3), (10, 3)]);
    }

    #[test]
    fn a_bundle_with_unlimited_stock_still_takes_its_finite_components() {
        let owl = product(2, Stock::Finite(10), &[]);
        let bundle = product(10, Stock::Unlimited, &[2]);
        let reservation = Reservation::for_items(&[item(&bundle, 2)], &known(&[&owl]));
        assert_eq!(entries(&reservation), [(2, 2)]);
    }

    #[test]
    fn a_product_bought_alone_and_inside_a_bundle_is_reserved_once_with_the_sum() {
        let owl = product(2, Stock::Finite(10), &[]);
        let bundle = product(10, Stock::Finite(4), &[2]);
        let reservation =
            Reservation::for_items(&[item(&owl, 1), item(&bundle, 2)], &known(&[&owl]));
        assert_eq!(entries(&reservation), [(2, 3), (10, 2)]);
    }

    #[test]
    fn a_cart_of_unlimited_products_reserves_nothing() {
        let sheckles = product(2, Stock::Unlimited, &[]);
        assert!(Reservation::for_items(&[item(&sheckles, 5)], &known(&[])).is_empty());
    }

    #[test]
    fn a_bundle_is_limited_by_its_scarcest_component() {
        let owl = product(2, Stock::Finite(1), &[]);
        let bundle = product(10, Stock::Finite(4), &[2]);
        let known = known(&[&owl]);
        assert_eq!(item(&bundle, 2).limiting_stock(&known), Some(1));
        assert_eq!(
            messages(&stock_problems(&[item(&bundle, 2)], &known)),
            ["- Pet 10 has only 1 in stock, but you selected 2."]
        );
        let sold_out = product(2, Stock::Finite(0), &[]);
        assert_eq!(
            messages(&stock_problems(
                &[item(&bundle, 1)],
                &self::known(&[&sold_out])
            )),
            ["- Pet 10 is out of stock."]
        );
    }

    #[test]
    fn lines_that_pass_alone_are_checked_together() {
        let owl = product(2, Stock::Finite(3), &[]);
        let bundle = product(10, Stock::Finite(4), &[2]);
        let known = known(&[&owl]);
        // 2 owls alone and 2 inside bundles: 4 owls from a stock of 3
        assert_eq!(
            messages(&stock_problems(&[item(&owl, 2), item(&bundle, 2)], &known)),
            ["- Pet 2 has only 3 in stock, but you selected 4."]
        );
        assert!(stock_problems(&[item(&owl, 1), item(&bundle, 2)], &known).is_empty());
    }

    #[test]
    fn each_short_line_is_reported_with_the_spec_wording() {
        let gone = product(1, Stock::Finite(0), &[]);
        let few = product(2, Stock::Finite(2), &[]);
        let plenty = product(3, Stock::Unlimited, &[]);
        assert_eq!(
            messages(&stock_problems(
                &[item(&gone, 1), item(&few, 5), item(&plenty, 1000)],
                &known(&[])
            )),
            [
                "- Pet 1 is out of stock.",
                "- Pet 2 has only 2 in stock, but you selected 5."
            ]
        );
    }
}
