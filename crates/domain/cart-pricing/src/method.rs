use std::fmt;

use rust_decimal::Decimal;

use crate::Money;

/// How the shopper pays; each way has its own processing fee.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PaymentMethod {
    Card,
    Paypal,
}

impl PaymentMethod {
    pub fn as_str(&self) -> &'static str {
        match self {
            PaymentMethod::Card => "card",
            PaymentMethod::Paypal => "paypal",
        }
    }

    /// `"card"` or `"paypal"`, as stored and as sent by the client.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "card" => Some(PaymentMethod::Card),
            "paypal" => Some(PaymentMethod::Paypal),
            _ => None,
        }
    }

    /// What the shopper pays in all so that the shop receives `amount` after the processor's fee.
    pub fn grand_total(&self, amount: Money) -> Money {
        let (fixed, kept) = self.fee_parts();
        amount.with_fee(fixed, kept)
    }

    /// The processor's fee as the shop passes it on: its fixed part (in the base currency) and
    /// the share of a payment the shop keeps. Card: (amount + 0.30) / 0.956; PayPal:
    /// (amount + 0.49) / 0.9501.
    pub fn fee_parts(&self) -> (Money, Decimal) {
        match self {
            PaymentMethod::Card => (Money::cents_const(30), Decimal::new(956, 3)),
            PaymentMethod::Paypal => (Money::cents_const(49), Decimal::new(9501, 4)),
        }
    }
}

impl fmt::Display for PaymentMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
