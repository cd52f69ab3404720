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

/// Minor units of a currency with `minor_units` decimals as the decimal the API sends
/// (`12990`, 2 → `129.9`; `750`, 0 → `750`).
pub fn in_major_units(minor: i64, minor_units: u32) -> f64 {
    #[allow(clippy::cast_precision_loss)]
    let minor = minor as f64;
    minor / 10f64.powi(i32::try_from(minor_units).unwrap_or(2))
}
