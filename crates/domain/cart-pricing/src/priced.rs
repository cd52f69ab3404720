use rust_decimal::Decimal;

use crate::{CartLine, Charge, Conversion, DiscountPercent, HostedLines, Money, PaymentMethod};

/// A cart priced by the server: every amount the checkout shows and the provider charges.
#[derive(Debug, Clone, PartialEq)]
pub struct PricedCart {
    pub lines: Vec<CartLine>,
    /// The sum of the lines.
    pub subtotal: Money,
    pub discount_percent: Option<DiscountPercent>,
    /// What the promo takes off the subtotal.
    pub discount: Money,
    /// The items' total after the discount, before the processing fee: the client's `total`.
    pub total: Money,
    pub method: PaymentMethod,
    /// The processing fee line: `grand_total - total`.
    pub fee: Money,
    /// What the shopper pays.
    pub grand_total: Money,
    /// The amounts in the currency the shopper pays in (the base currency's own, or converted).
    pub charge: Charge,
}

impl PricedCart {
    pub fn new(
        lines: Vec<CartLine>,
        discount_percent: Option<DiscountPercent>,
        method: PaymentMethod,
        conversion: &Conversion,
    ) -> Self {
        let charge = conversion.charge(
            lines
                .iter()
                .map(|line| (line.unit_price, line.quantity.get())),
            discount_percent,
            method,
        );
        Self::charged(lines, discount_percent, method, charge)
    }

    /// The cart priced in the base currency, paid as `charge` (computed for these lines).
    pub fn charged(
        lines: Vec<CartLine>,
        discount_percent: Option<DiscountPercent>,
        method: PaymentMethod,
        charge: Charge,
    ) -> Self {
        let subtotal: Money = lines.iter().map(CartLine::total).sum();
        let total = match discount_percent {
            Some(percent) => subtotal.discounted(percent),
            None => subtotal,
        };
        let discount = subtotal.checked_sub(total).unwrap_or(Money::ZERO);
        let grand_total = method.grand_total(total);
        let fee = grand_total.checked_sub(total).unwrap_or(Money::ZERO);
        PricedCart {
            lines,
            subtotal,
            discount_percent,
            discount,
            total,
            method,
            fee,
            grand_total,
            charge,
        }
    }

    /// The hosted page's lines for this cart in the currency it is paid in, exact to the minor
    /// unit: every unit within one minor unit of its discounted price, the lines summing to the
    /// charge's total and the fee line being its fee.
    pub fn hosted_lines(&self) -> HostedLines {
        HostedLines::for_charge(&self.lines, &self.charge, self.discount_percent)
    }

    /// Whether the total the client showed (in the charge's currency) differs from the
    /// server's by more than one minor unit.
    pub fn differs_from_client_total(&self, client_total: Decimal) -> bool {
        self.charge.differs_from_client_total(client_total)
    }
}

#[cfg(test)]
mod tests {
    use rust_decimal_macros::dec;

    use super::*;
    use crate::Quantity;

    fn usd() -> Conversion {
        Conversion::base(crate::CurrencyCode::USD)
    }

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

    #[test]
    fn without_a_promo_the_total_is_the_subtotal_and_the_card_fee_is_its_own_line() {
        let cart = PricedCart::new(
            vec![line(1, "4.99", 2), line(2, "0.02", 1)],
            None,
            PaymentMethod::Card,
            &usd(),
        );
        assert_eq!(cart.subtotal, money("10.00"));
        assert_eq!(cart.discount, Money::ZERO);
        assert_eq!(cart.total, money("10.00"));
        // (10.00 + 0.30) / 0.956 = 10.774058... -> 10.77
        assert_eq!(cart.grand_total, money("10.77"));
        assert_eq!(cart.fee, money("0.77"));
    }

    #[test]
    fn a_promo_discount_is_taken_before_the_fee() {
        let ten = DiscountPercent::new(10);
        let cart = PricedCart::new(vec![line(1, "24.99", 1)], ten, PaymentMethod::Card, &usd());
        // 24.99 x 0.9 = 22.491 -> 22.49
        assert_eq!(cart.total, money("22.49"));
        assert_eq!(cart.discount, money("2.50"));
        // (22.49 + 0.30) / 0.956 = 23.838912... -> 23.84
        assert_eq!(cart.grand_total, money("23.84"));
        assert_eq!(cart.fee, money("1.35"));
    }

    #[test]
    fn discounts_round_half_up_at_the_midpoint() {
        let half = DiscountPercent::new(50);
        // 0.05 x 0.5 = 0.025 -> 0.03 (half-up), not 0.02 (banker's)
        let cart = PricedCart::new(vec![line(1, "0.05", 1)], half, PaymentMethod::Card, &usd());
        assert_eq!(cart.total, money("0.03"));
        assert_eq!(cart.discount, money("0.02"));
    }

    #[test]
    fn the_card_fee_rounds_half_up_at_the_midpoint() {
        // No amount in cents lands exactly on a half cent ((956m + 478) is never a multiple of
        // 1000), so check the amounts either side of one: 0.66 -> 1.004184 -> 1.00 and
        // 0.67 -> 1.014644 -> 1.01
        let card = PaymentMethod::Card;
        assert_eq!(card.grand_total(money("0.66")), money("1.00"));
        assert_eq!(card.grand_total(money("0.67")), money("1.01"));
        // 4.4 x 0.956 - 0.30 = 3.9064: 3.91 -> 4.403765 -> 4.40
        assert_eq!(card.grand_total(money("3.91")), money("4.40"));
    }

    #[test]
    fn paypal_has_its_own_fee() {
        let cart = PricedCart::new(
            vec![line(1, "10.00", 1)],
            None,
            PaymentMethod::Paypal,
            &usd(),
        );
        // (10.00 + 0.49) / 0.9501 = 11.040943... -> 11.04
        assert_eq!(cart.grand_total, money("11.04"));
        assert_eq!(cart.fee, money("1.04"));
        // (0.01 + 0.49) / 0.9501 = 0.526260... -> 0.53
        assert_eq!(
            PaymentMethod::Paypal.grand_total(money("0.01")),
            money("0.53")
        );
    }

    #[test]
    fn a_full_discount_leaves_only_the_fee() {
        let all = DiscountPercent::new(100);
        let cart = PricedCart::new(vec![line(1, "7.77", 3)], all, PaymentMethod::Card, &usd());
        assert_eq!(cart.total, Money::ZERO);
        assert_eq!(cart.discount, money("23.31"));
        assert_eq!(cart.grand_total, money("0.31"));
        assert_eq!(cart.fee, money("0.31"));
    }

    #[test]
    fn a_client_total_within_one_cent_is_accepted() {
        let cart = PricedCart::new(vec![line(1, "22.49", 1)], None, PaymentMethod::Card, &usd());
        assert!(!cart.differs_from_client_total(dec!(22.49)));
        assert!(!cart.differs_from_client_total(dec!(22.50)));
        assert!(!cart.differs_from_client_total(dec!(22.48)));
        // a float the browser computed, such as 24.99 * 0.9
        assert!(!cart.differs_from_client_total(dec!(22.491)));
        assert!(cart.differs_from_client_total(dec!(22.5001)));
        assert!(cart.differs_from_client_total(dec!(22.47)));
        assert!(cart.differs_from_client_total(dec!(0)));
    }

    #[test]
    fn methods_read_and_print_as_the_client_names_them() {
        assert_eq!(PaymentMethod::parse("card"), Some(PaymentMethod::Card));
        assert_eq!(PaymentMethod::parse("paypal"), Some(PaymentMethod::Paypal));
        assert_eq!(PaymentMethod::parse("cash"), None);
        assert_eq!(PaymentMethod::Paypal.to_string(), "paypal");
    }
}
