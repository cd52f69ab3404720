//! Prices and carts: exact money, the payment fee formulas, promo discounts, the conversion
//! into the shopper's currency and the stock check that runs before a shopper may pay.

mod cart;
mod currency;
mod hosted;
mod method;
mod money;
mod priced;
mod rates;

pub use cart::{check_stock, CartLine, Quantity, StockProblem, MAX_QUANTITY};
pub use currency::{
    Charge, Conversion, CurrencyCode, InvalidCurrencyCode, InvalidRounding, PriceEnding, Rounding,
};
pub use hosted::{HostedLine, HostedLines};
pub use method::PaymentMethod;
pub use money::{DiscountPercent, Money, MoneyError};
pub use priced::PricedCart;
pub use rates::{CurrencyPolicy, OfferedCurrency, ReferenceRates, RATE_DECIMALS};
pub use rust_decimal::Decimal;
