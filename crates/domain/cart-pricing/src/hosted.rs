//! The lines a provider's hosted payment page shows for a priced cart.
//!
//! Providers (Stripe Checkout, PayPal) take line items as `unit amount × quantity` with no
//! negative lines, so the promo discount has to live in the unit prices. Discounting each unit
//! and rounding it to the cent does not add up to the cart's discounted total in general
//! (three units of $0.99 at 50 % are 3 × $0.50 = $1.50, the cart says $1.49). The page's lines
//! are therefore made exact: each unit is discounted and rounded, and the cents the rounding
//! gained or lost are given back one cent per unit, by splitting a line into the units at the
//! rounded price and the units one cent away from it. The fee is a line of its own, exactly the
//! cart's fee, so the page charges exactly the cart's grand total.

use crate::{CartLine, DiscountPercent, Money, Quantity};

/// One line of the hosted page: a name, the price of one unit as the shopper pays it, and how
/// many.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostedLine {
    pub name: String,
    pub unit_amount: Money,
    pub quantity: Quantity,
}

impl HostedLine {
    pub fn total(&self) -> Money {
        self.unit_amount.times(self.quantity.get())
    }
}

/// What a hosted page shows for a cart: the item lines, which add up to the cart's `total`,
/// and the processing fee line, so that the page's total is the cart's `grand_total`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostedLines {
    pub lines: Vec<HostedLine>,
    pub processing_fee: Money,
}

impl HostedLines {
    /// What the page charges in all.
    pub fn total(&self) -> Money {
        self.lines.iter().map(HostedLine::total).sum::<Money>() + self.processing_fee
    }
}

impl HostedLines {
    /// The hosted page's lines for a cart's `lines` at `discount_percent`, exact to the cent:
    /// every unit within one cent of its discounted price, the lines summing to `total` (the
    /// cart's discounted total) and the fee line being `fee`.
    pub fn for_cart(
        cart_lines: &[CartLine],
        discount_percent: Option<DiscountPercent>,
        total: Money,
        fee: Money,
    ) -> HostedLines {
        let discounted: Vec<(Money, u32)> = cart_lines
            .iter()
            .map(|line| {
                let unit = match discount_percent {
                    Some(percent) => line.unit_price.discounted(percent),
                    None => line.unit_price,
                };
                (unit, line.quantity.get())
            })
            .collect();
        let rounded: i64 = discounted
            .iter()
            .map(|(unit, quantity)| unit.cents() * i64::from(*quantity))
            .sum();
        // Positive: the rounded units fall short of the total; negative: they exceed it.
        let mut gap = total.cents() - rounded;

        let mut lines = Vec::with_capacity(cart_lines.len() + 2);
        for (line, (unit, quantity)) in cart_lines.iter().zip(discounted) {
            let step = gap.signum();
            // A unit can give up a cent only when it has one.
            let movable = if step < 0 && unit.cents() == 0 {
                0
            } else {
                gap.unsigned_abs().min(u64::from(quantity))
            };
            let moved = u32::try_from(movable).unwrap_or(quantity);
            gap -= step * i64::from(moved);
            if moved > 0 {
                let adjusted = Money::from_cents(unit.cents() + step).unwrap_or(unit);
                push(&mut lines, &line.name, adjusted, moved);
            }
            push(&mut lines, &line.name, unit, quantity - moved);
        }
        debug_assert_eq!(gap, 0, "each unit is within half a cent of its share");
        HostedLines {
            lines,
            processing_fee: fee,
        }
    }
}

fn push(lines: &mut Vec<HostedLine>, name: &str, unit_amount: Money, quantity: u32) {
    if let Some(quantity) = Quantity::new(i64::from(quantity)) {
        lines.push(HostedLine {
            name: name.to_owned(),
            unit_amount,
            quantity,
        });
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::{PaymentMethod, PricedCart};

    fn money(text: &str) -> Money {
        Money::parse(text).unwrap()
    }

    fn line(id: i64, price: &str, qty: i64) -> CartLine {
        CartLine {
            product_id: id,
            name: format!("Pet {id}"),
            unit_price: money(price),
            quantity: Quantity::new(qty).unwrap(),
            stock: None,
        }
    }

    fn cart(lines: Vec<CartLine>, percent: Option<i64>) -> PricedCart {
        PricedCart::new(
            lines,
            percent.map(|p| DiscountPercent::new(p).unwrap()),
            PaymentMethod::Card,
        )
    }

    #[test]
    fn without_a_discount_the_page_shows_the_cart_lines_and_the_fee() {
        let cart = cart(vec![line(1, "4.99", 2), line(2, "10.00", 1)], None);
        let page = cart.hosted_lines();
        assert_eq!(page.lines.len(), 2);
        assert_eq!(page.lines[0].unit_amount, money("4.99"));
        assert_eq!(page.processing_fee, cart.fee);
        assert_eq!(page.total(), cart.grand_total);
    }

    #[test]
    fn rounding_the_units_up_is_given_back_one_cent_per_unit() {
        // 3 × $0.99 at 50 %: the cart says $1.49, the rounded units $1.50.
        let cart = cart(vec![line(1, "0.99", 3)], Some(50));
        assert_eq!(cart.total, money("1.49"));
        let page = cart.hosted_lines();
        assert_eq!(
            page.lines
                .iter()
                .map(|l| (l.unit_amount, l.quantity.get()))
                .collect::<Vec<_>>(),
            vec![(money("0.49"), 1), (money("0.50"), 2)]
        );
        assert_eq!(page.total(), cart.grand_total);
    }

    #[test]
    fn rounding_the_units_down_is_given_back_too() {
        // 3 × $1.01 at 50 %: each unit $0.505 → $0.51 (half-up), 3 × 0.51 = 1.53; cart 1.52 (1.515 → 1.52).
        // 5 × $0.03 at 50 %: each $0.015 → $0.02, 5 × 0.02 = 0.10; cart $0.08 (0.075 → 0.08).
        // 3 × $0.01 at 40 %: each $0.006 → $0.01, cart 0.018 → 0.02: the units lose a cent.
        for (price, qty, percent) in [("1.01", 3, 50), ("0.03", 5, 50), ("0.01", 3, 40)] {
            let cart = cart(vec![line(1, price, qty)], Some(percent));
            let page = cart.hosted_lines();
            assert_eq!(
                page.total(),
                cart.grand_total,
                "{price} × {qty} at {percent} %"
            );
        }
    }

    #[test]
    fn every_cart_of_small_prices_is_charged_exactly_with_units_within_a_cent() {
        let prices = [
            "0.01", "0.03", "0.99", "1.01", "2.49", "4.99", "19.95", "33.33",
        ];
        for percent in [
            None,
            Some(1),
            Some(10),
            Some(15),
            Some(33),
            Some(50),
            Some(99),
            Some(100),
        ] {
            for (a, b) in prices.iter().zip(prices.iter().rev()) {
                for (qa, qb) in [(1, 1), (3, 7), (20, 1), (13, 20)] {
                    let cart = cart(vec![line(1, a, qa), line(2, b, qb)], percent);
                    let page = cart.hosted_lines();
                    assert_eq!(
                        page.total(),
                        cart.grand_total,
                        "{a}×{qa} {b}×{qb} {percent:?}"
                    );
                    assert_eq!(
                        page.lines.iter().map(HostedLine::total).sum::<Money>(),
                        cart.total
                    );
                    for hosted in &page.lines {
                        let original = cart.lines.iter().find(|l| l.name == hosted.name).unwrap();
                        let exact = match cart.discount_percent {
                            Some(p) => original.unit_price.discounted(p),
                            None => original.unit_price,
                        };
                        assert!((hosted.unit_amount.cents() - exact.cents()).abs() <= 1);
                    }
                    let units: u32 = page.lines.iter().map(|l| l.quantity.get()).sum();
                    assert_eq!(units, (qa + qb) as u32);
                }
            }
        }
    }
}
