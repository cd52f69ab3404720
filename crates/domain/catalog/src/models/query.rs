use std::cmp::Ordering;

use crate::Product;

/// The storefront order: products with a sort order first, ascending; then by price, then by
/// weight (unknown weight last); the id breaks remaining ties so the order never flickers.
pub fn sort_for_storefront(products: &mut [Product]) {
    products.sort_by(storefront_order);
}

fn storefront_order(a: &Product, b: &Product) -> Ordering {
    let by_sort_order = match (a.sort_order, b.sort_order) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    };
    let by_weight = match (a.weight, b.weight) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    };
    by_sort_order
        .then_with(|| a.price.cmp(&b.price))
        .then(by_weight)
        .then_with(|| a.id.cmp(&b.id))
}

/// Whether any of the product's comma-separated categories is `category`, ignoring case.
/// "All" and an empty category match everything.
pub fn in_category(product: &Product, category: &str) -> bool {
    let wanted = category.trim();
    wanted.is_empty()
        || wanted.eq_ignore_ascii_case("all")
        || product
            .category
            .split(',')
            .any(|own| own.trim().to_lowercase() == wanted.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::product;

    fn ids(products: &[Product]) -> Vec<i64> {
        products.iter().map(|p| p.id.get()).collect()
    }

    #[test]
    fn products_with_a_sort_order_come_first_in_that_order() {
        let mut list = vec![
            product(1, "1.00"),
            Product {
                sort_order: Some(2),
                ..product(2, "9.00")
            },
            Product {
                sort_order: Some(1),
                ..product(3, "50.00")
            },
        ];
        sort_for_storefront(&mut list);
        assert_eq!(ids(&list), vec![3, 2, 1]);
    }

    #[test]
    fn then_price_ascending_then_weight_ascending_with_unknown_weight_last() {
        let mut list = vec![
            product(1, "5.00"),
            Product {
                weight: Some(3.5),
                ..product(2, "5.00")
            },
            Product {
                weight: Some(1.25),
                ..product(3, "5.00")
            },
            product(4, "2.00"),
        ];
        sort_for_storefront(&mut list);
        assert_eq!(ids(&list), vec![4, 3, 2, 1]);
    }

    #[test]
    fn equal_products_keep_a_stable_order_by_id() {
        let mut list = vec![product(9, "1.00"), product(4, "1.00")];
        sort_for_storefront(&mut list);
        assert_eq!(ids(&list), vec![4, 9]);
    }

    #[test]
    fn category_filter_matches_any_comma_separated_category() {
        let raccoon = Product {
            category: "Pets, Exclusives".into(),
            ..product(1, "1")
        };
        assert!(in_category(&raccoon, "exclusives"));
        assert!(in_category(&raccoon, "Pets"));
        assert!(in_category(&raccoon, "All"));
        assert!(!in_category(&raccoon, "Bundles"));
        // a category is matched whole, not as a substring
        assert!(!in_category(&raccoon, "Pet"));
    }
}
