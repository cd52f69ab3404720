//! The lines a provider's hosted payment page shows for a priced cart.
//!
//! Providers (Stripe Checkout, PayPal) take line items as `unit amount × quantity` with no
//! negative lines, so the promo discount has to live in the unit prices. Discounting each unit
//! and rounding it to the minor unit does not add up to the cart's discounted total in general
//! (three units of $0.99 at 50 % are 3 × $0.50 = $1.50, the cart says $1.49). The page's lines
//! are therefore made exact: each unit is discounted and rounded, and the minor units the
//! rounding gained or lost are given back one per unit, by splitting a line into the units at
//! the rounded price and the units one minor unit away from it. The fee is a line of its own,
//! exactly the cart's fee, so the page charges exactly the cart's grand total. Every amount is
//! in the currency the cart is paid in ([`crate::Charge`]), in whole minor units.

use crate::{CartLine, Charge, CurrencyCode, DiscountPercent, Quantity};

/// One line of the hosted page: a name, the price of one unit as the shopper pays it (minor
/// units of the page's currency), and how many.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostedLine {
    pub name: String,
    pub unit_amount: i64,
    pub quantity: Quantity,
}

impl HostedLine {
    pub fn total(&self) -> i64 {
        self.unit_amount * i64::from(self.quantity.get())
    }
}

/// What a hosted page shows for a cart: the item lines, which add up to the charge's `total`,
/// and the processing fee line, so that the page's total is the charge's `grand_total`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostedLines {
    pub currency: CurrencyCode,
    /// The currency's decimals (2, or 0 for a zero-decimal currency).
    pub minor_units: u32,
    pub lines: Vec<HostedLine>,
    pub processing_fee: i64,
}

impl HostedLines {
    /// What the page charges in all.
    pub fn total(&self) -> i64 {
        self.lines.iter().map(HostedLine::total).sum::<i64>() + self.processing_fee
    }

    /// The hosted page's lines for a cart's `lines` charged as `charge` (whose unit prices are
    /// the lines' in order) at `discount_percent`, exact to the minor unit: every unit within
    /// one minor unit of its discounted price, the lines summing to the charge's `total` and
    /// the fee line being its `fee`.
    pub fn for_charge(
        cart_lines: &[CartLine],
        charge: &Charge,
        discount_percent: Option<DiscountPercent>,
    ) -> HostedLines {
        let discounted: Vec<(i64, u32)> = cart_lines
            .iter()
            .zip(&charge.unit_prices)
            .map(|(line, unit)| {
                let unit = match discount_percent {
                    Some(percent) => discounted(*unit, percent),
                    None => *unit,
                };
                (unit, line.quantity.get())
            })
            .collect();
        let rounded: i64 = discounted
            .iter()
            .map(|(unit, quantity)| unit * i64::from(*quantity))
            .sum();
        // Positive: the rounded units fall short of the total; negative: they exceed it.
        let mut gap = charge.total - rounded;

        let mut lines = Vec::with_capacity(cart_lines.len() + 2);
        for (line, (unit, quantity)) in cart_lines.iter().zip(discounted) {
            let step = gap.signum();
            // A unit can give up a minor unit only when it has one.
            let movable = if step < 0 && unit == 0 {
                0
            } else {
                gap.unsigned_abs().min(u64::from(quantity))
            };
            let moved = u32::try_from(movable).unwrap_or(quantity);
            gap -= step * i64::from(moved);
            if moved > 0 {
                push(&mut lines, &line.name, unit + step, moved);
            }
            push(&mut lines, &line.name, unit, quantity - moved);
        }
        debug_assert_eq!(gap, 0, "each unit is within half a minor unit of its share");
        HostedLines {
            currency: charge.currency,
            minor_units: charge.minor_units,
            lines,
            processing_fee: charge.fee,
        }
    }
}

/// `unit` (minor units) after a percent discount, half-up.
fn discounted(unit: i64, percent: DiscountPercent) -> i64 {
    let kept = 100 - i64::from(percent.get());
    (unit * kept * 2 + 100) / 200
}

fn push(lines: &mut Vec<HostedLine>, name: &str, unit_amount: i64, quantity: u32) {
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
    use crate::{Conversion, Money, PaymentMethod, PricedCart};

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
            &Conversion::base(CurrencyCode::USD),
        )
    }

    #[test]
    fn without_a_discount_the_page_shows_the_cart_lines_and_the_fee() {
        let cart = cart(vec![line(1, "4.99", 2), line(2, "10.00", 1)], None);
        let page = cart.hosted_lines();
        assert_eq!(page.lines.len(), 2);
        assert_eq!(page.lines[0].unit_amount, 499);
        assert_eq!(page.processing_fee, cart.fee.cents());
        assert_eq!(page.total(), cart.grand_total.cents());
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
            vec![(49, 1), (50, 2)]
        );
        assert_eq!(page.total(), cart.grand_total.cents());
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
                cart.grand_total.cents(),
                "{price} × {qty} at {percent} %"
            );
        }
    }

    #[test]
    fn every_cart_of_small_prices_is_charged_exactly_with_units_within_a_cent() {
        for conversion in [
            Conversion::base(CurrencyCode::USD),
            Conversion {
                code: "BRL".parse().unwrap(),
                rate: rust_decimal_macros::dec!(5.3412),
                minor_units: 2,
                rounding: crate::Rounding::parse("0.99", 2).unwrap(),
            },
            Conversion {
                code: "JPY".parse().unwrap(),
                rate: rust_decimal_macros::dec!(150.37),
                minor_units: 0,
                rounding: crate::Rounding::Minor,
            },
        ] {
            every_small_cart_is_exact(&conversion);
        }
    }

    fn every_small_cart_is_exact(conversion: &Conversion) {
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
                    let cart = PricedCart::new(
                        vec![line(1, a, qa), line(2, b, qb)],
                        percent.map(|p| DiscountPercent::new(p).unwrap()),
                        PaymentMethod::Card,
                        conversion,
                    );
                    let page = cart.hosted_lines();
                    let charge = &cart.charge;
                    assert_eq!(
                        page.total(),
                        charge.grand_total,
                        "{a}×{qa} {b}×{qb} {percent:?}"
                    );
                    assert_eq!(
                        page.lines.iter().map(HostedLine::total).sum::<i64>(),
                        charge.total
                    );
                    for hosted in &page.lines {
                        let index = cart.lines.iter().position(|l| l.name == hosted.name);
                        let unit = charge.unit_prices[index.unwrap()];
                        let exact = match cart.discount_percent {
                            Some(p) => discounted(unit, p),
                            None => unit,
                        };
                        assert!((hosted.unit_amount - exact).abs() <= 1);
                    }
                    let units: u32 = page.lines.iter().map(|l| l.quantity.get()).sum();
                    assert_eq!(units, (qa + qb) as u32);
                }
            }
        }
    }
}
