use std::fmt;

use crate::Money;

/// How many of one product a cart line holds: at least one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Quantity(u32);

/// The most of one product a single order may hold.
pub const MAX_QUANTITY: u32 = 1000;

impl Quantity {
    pub fn new(value: i64) -> Option<Self> {
        u32::try_from(value)
            .ok()
            .filter(|v| (1..=MAX_QUANTITY).contains(v))
            .map(Quantity)
    }

    pub fn get(&self) -> u32 {
        self.0
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// One product in a cart, as priced by the server.
#[derive(Debug, Clone, PartialEq)]
pub struct CartLine {
    pub product_id: i64,
    pub name: String,
    pub unit_price: Money,
    pub quantity: Quantity,
    /// `None` when the product's stock is not tracked.
    pub stock: Option<i64>,
}

impl CartLine {
    pub fn total(&self) -> Money {
        self.unit_price.times(self.quantity.get())
    }
}

/// Why a cart line cannot be bought as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StockProblem {
    OutOfStock {
        name: String,
    },
    NotEnough {
        name: String,
        available: i64,
        requested: u32,
    },
}

impl fmt::Display for StockProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StockProblem::OutOfStock { name } => write!(f, "- {name} is out of stock."),
            StockProblem::NotEnough {
                name,
                available,
                requested,
            } => write!(
                f,
                "- {name} has only {available} in stock, but you selected {requested}."
            ),
        }
    }
}

/// Every line whose finite stock cannot cover the quantity asked for, in cart order.
pub fn check_stock(lines: &[CartLine]) -> Vec<StockProblem> {
    lines
        .iter()
        .filter_map(|line| match line.stock {
            Some(stock) if stock <= 0 => Some(StockProblem::OutOfStock {
                name: line.name.clone(),
            }),
            Some(stock) if i64::from(line.quantity.get()) > stock => {
                Some(StockProblem::NotEnough {
                    name: line.name.clone(),
                    available: stock,
                    requested: line.quantity.get(),
                })
            }
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DiscountPercent;

    fn line(name: &str, qty: i64, stock: Option<i64>) -> CartLine {
        CartLine {
            product_id: 1,
            name: name.into(),
            unit_price: Money::parse("2.50").unwrap(),
            quantity: Quantity::new(qty).unwrap(),
            stock,
        }
    }

    #[test]
    fn quantity_is_between_one_and_the_limit() {
        assert!(Quantity::new(0).is_none());
        assert!(Quantity::new(-1).is_none());
        assert!(Quantity::new(1001).is_none());
        assert_eq!(Quantity::new(3).map(|q| q.get()), Some(3));
    }

    #[test]
    fn discount_is_a_whole_percentage_from_1_to_100() {
        assert!(DiscountPercent::new(0).is_none());
        assert!(DiscountPercent::new(101).is_none());
        assert_eq!(DiscountPercent::new(100).map(|d| d.get()), Some(100));
    }

    #[test]
    fn line_total_is_unit_price_times_quantity() {
        assert_eq!(line("Owl", 3, None).total(), Money::parse("7.50").unwrap());
    }

    #[test]
    fn stock_check_reports_each_problem_with_the_spec_wording() {
        let problems = check_stock(&[
            line("Raccoon", 1, Some(0)),
            line("Owl", 5, Some(2)),
            line("Sheckles", 99, None),
            line("Bee", 2, Some(2)),
        ]);
        let messages: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            vec![
                "- Raccoon is out of stock.",
                "- Owl has only 2 in stock, but you selected 5."
            ]
        );
    }
}
