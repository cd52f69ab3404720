/// Dollars for JSON: cents are exact in an f64, and JSON has no decimal type.
pub fn dollars(money: cart_pricing::Money) -> f64 {
    cents_in_dollars(money.cents())
}

/// Minor units (cents) as the decimal the API sends.
pub fn cents_in_dollars(cents: i64) -> f64 {
    #[allow(clippy::cast_precision_loss)]
    let cents = cents as f64;
    cents / 100.0
}
