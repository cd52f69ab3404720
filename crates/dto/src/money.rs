/// Dollars for JSON: cents are exact in an f64, and JSON has no decimal type.
pub fn dollars(money: cart_pricing::Money) -> f64 {
    #[allow(clippy::cast_precision_loss)]
    let cents = money.cents() as f64;
    cents / 100.0
}
