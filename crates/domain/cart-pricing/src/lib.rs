//! Prices and carts: exact money, the payment fee formulas, promo discounts and the stock check
//! that runs before a shopper may pay.

mod cart;
mod hosted;
mod money;
mod priced;

pub use cart::{check_stock, CartLine, Quantity, StockProblem, MAX_QUANTITY};
pub use hosted::{HostedLine, HostedLines};
pub use money::{DiscountPercent, Money, MoneyError};
pub use priced::{PaymentMethod, PricedCart};
pub use rust_decimal::Decimal;
