//! The fee formulas and the stock-check messages, pinned by the test vectors the frontend's
//! Vitest tests read too (`tests/vectors/*.json`, read by `frontend/src/lib/shared-vectors.test.ts`):
//! the same inputs must give the same exact outputs on both sides.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use garden_cart_pricing::{
    check_stock, CartLine, Conversion, DiscountPercent, Money, PaymentMethod, PricedCart, Quantity,
    Rounding,
};
use serde::Deserialize;

fn vectors<T: for<'de> Deserialize<'de>>(file: &str) -> T {
    let path = format!("{}/tests/vectors/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[derive(Deserialize)]
struct FeeVectors {
    grand_totals: Vec<GrandTotal>,
    discounts: Vec<Discount>,
    carts: Vec<Cart>,
}

#[derive(Deserialize)]
struct GrandTotal {
    total_cents: i64,
    method: String,
    grand_total_cents: i64,
    fee_cents: i64,
}

#[derive(Deserialize)]
struct Discount {
    subtotal_cents: i64,
    percent: i64,
    total_cents: i64,
}

#[derive(Deserialize)]
struct Cart {
    lines: Vec<CartVectorLine>,
    discount_percent: Option<i64>,
    method: String,
    subtotal_cents: i64,
    discount_cents: i64,
    total_cents: i64,
    fee_cents: i64,
    grand_total_cents: i64,
}

#[derive(Deserialize)]
struct CartVectorLine {
    price_cents: i64,
    qty: i64,
}

#[derive(Deserialize)]
struct StockVectors {
    cases: Vec<StockCase>,
}

#[derive(Deserialize)]
struct StockCase {
    name: String,
    lines: Vec<StockLine>,
    messages: Vec<String>,
}

#[derive(Deserialize)]
struct StockLine {
    name: String,
    qty: i64,
    stock: Option<i64>,
}

fn cents(amount: i64) -> Money {
    Money::from_cents(amount).expect("a valid amount in the vectors")
}

fn method(name: &str) -> PaymentMethod {
    PaymentMethod::parse(name).expect("card or paypal in the vectors")
}

#[test]
fn the_fee_formulas_give_the_shared_grand_totals() {
    let fees: FeeVectors = vectors("fees.json");
    for case in &fees.grand_totals {
        let grand = method(&case.method).grand_total(cents(case.total_cents));
        let context = format!("{} on {} cents", case.method, case.total_cents);
        assert_eq!(grand.cents(), case.grand_total_cents, "{context}");
        assert_eq!(
            grand.cents() - case.total_cents,
            case.fee_cents,
            "{context}"
        );
    }
}

#[test]
fn a_percent_discount_gives_the_shared_totals() {
    let fees: FeeVectors = vectors("fees.json");
    for case in &fees.discounts {
        let percent = DiscountPercent::new(case.percent).expect("1 to 100 in the vectors");
        assert_eq!(
            cents(case.subtotal_cents).discounted(percent).cents(),
            case.total_cents,
            "{} % off {} cents",
            case.percent,
            case.subtotal_cents
        );
    }
}

#[test]
fn a_priced_cart_gives_the_shared_amounts() {
    let fees: FeeVectors = vectors("fees.json");
    for (index, case) in fees.carts.iter().enumerate() {
        let lines = case
            .lines
            .iter()
            .enumerate()
            .map(|(id, line)| CartLine {
                product_id: i64::try_from(id).unwrap_or(i64::MAX),
                name: format!("Pet {id}"),
                unit_price: cents(line.price_cents),
                quantity: Quantity::new(line.qty).expect("1 to the limit in the vectors"),
                stock: None,
            })
            .collect();
        let percent = case.discount_percent.and_then(DiscountPercent::new);
        let usd = Conversion::base(garden_cart_pricing::CurrencyCode::USD);
        let cart = PricedCart::new(lines, percent, method(&case.method), &usd);
        let amounts = [
            cart.subtotal.cents(),
            cart.discount.cents(),
            cart.total.cents(),
            cart.fee.cents(),
            cart.grand_total.cents(),
        ];
        let expected = [
            case.subtotal_cents,
            case.discount_cents,
            case.total_cents,
            case.fee_cents,
            case.grand_total_cents,
        ];
        assert_eq!(amounts, expected, "cart {index}");
    }
}

#[test]
fn the_stock_check_says_the_shared_messages() {
    let stock: StockVectors = vectors("stock-messages.json");
    for case in &stock.cases {
        let lines: Vec<CartLine> = case
            .lines
            .iter()
            .map(|line| CartLine {
                product_id: 1,
                name: line.name.clone(),
                unit_price: cents(250),
                quantity: Quantity::new(line.qty).expect("1 to the limit in the vectors"),
                stock: line.stock,
            })
            .collect();
        let messages: Vec<String> = check_stock(&lines)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(messages, case.messages, "{}", case.name);
    }
}

#[derive(Deserialize)]
struct CurrencyVectors {
    carts: Vec<CurrencyCart>,
}

#[derive(Deserialize)]
struct CurrencyCart {
    currency: String,
    rate: String,
    minor_units: u32,
    rounding: String,
    lines: Vec<PricedLine>,
    discount_percent: Option<i64>,
    method: String,
    expected: ChargeVector,
}

#[derive(Deserialize)]
struct PricedLine {
    price: String,
    qty: u32,
}

#[derive(Deserialize, Debug, PartialEq)]
struct ChargeVector {
    unit_prices: Vec<i64>,
    subtotal: i64,
    discount: i64,
    total: i64,
    fee: i64,
    grand_total: i64,
}

#[test]
fn a_cart_in_another_currency_gives_the_shared_amounts() {
    let currency: CurrencyVectors = vectors("currency.json");
    for case in &currency.carts {
        let conversion = Conversion {
            code: case.currency.parse().unwrap(),
            rate: case.rate.parse().unwrap(),
            minor_units: case.minor_units,
            rounding: Rounding::parse(&case.rounding, case.minor_units).unwrap(),
        };
        let charge = conversion.charge(
            case.lines
                .iter()
                .map(|line| (Money::parse(&line.price).unwrap(), line.qty)),
            case.discount_percent.and_then(DiscountPercent::new),
            method(&case.method),
        );
        let got = ChargeVector {
            unit_prices: charge.unit_prices,
            subtotal: charge.subtotal,
            discount: charge.discount,
            total: charge.total,
            fee: charge.fee,
            grand_total: charge.grand_total,
        };
        assert_eq!(
            got, case.expected,
            "{} {} {:?}",
            case.currency, case.rounding, case.discount_percent
        );
    }
}
