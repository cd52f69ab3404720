//! After the sale: refunds through the payment provider, and the refunds and chargebacks the
//! provider reports, each recorded once as the order's step; a chargeback blocks the buyer.

mod aftersale;

pub use aftersale::{
    chargeback_blocks, AfterSale, AfterSaleRepository, Noticed, ProviderRefund, RefundError,
    CHARGEBACK_ADDRESS_DAYS,
};
