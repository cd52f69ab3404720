//! After the sale: refunds through the payment provider, and the refunds and chargebacks the
//! provider reports, each recorded once as the order's step; a chargeback blocks the buyer.

mod aftersale;
mod payment_records;
mod provider_events;

pub use aftersale::{
    chargeback_blocks, AfterSale, AfterSaleRepository, Noticed, ProviderRefund, RefundError,
    CHARGEBACK_ADDRESS_DAYS,
};
pub use payment_records::PaymentRecords;
pub use provider_events::{apply_payment_event, EventError, Handled, PaymentEvent};
