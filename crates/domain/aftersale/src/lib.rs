//! After the sale: refunds through the payment provider, and the refunds and chargebacks the
//! provider reports, each recorded once as the order's step; a chargeback blocks the buyer.

mod error;
mod models;
mod ports;
mod service;

pub use error::{EventError, RefundError};
pub use models::{
    chargeback_blocks, Handled, Noticed, PaymentEvent, ProviderRefund, CHARGEBACK_ADDRESS_DAYS,
};
pub use ports::{AfterSaleRepository, PaymentRecords};
pub use service::{apply_payment_event, AfterSale};
