//! After the sale: refunds through the payment provider, and the refunds and chargebacks the
//! provider reports, each recorded once as the order's step; a chargeback blocks the buyer. A
//! risky payment or the card issuer's fraud warning puts a paid order on a risk hold before it
//! is delivered (or refunds it at once, when the shop says so).

mod error;
mod models;
mod ports;
mod service;

pub use error::{EventError, RefundError};
pub use models::{
    chargeback_blocks, FraudWarning, Handled, Noticed, PaymentEvent, ProviderRefund, RiskPolicy,
    Warned, CHARGEBACK_ADDRESS_DAYS,
};
pub use ports::{AfterSaleRepository, PaymentRecords, PaymentRisk};
pub use service::{apply_payment_event, AfterSale};
