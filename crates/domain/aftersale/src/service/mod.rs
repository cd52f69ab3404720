//! The services of after the sale: refunds and the provider's refunds and disputes
//! (`AfterSale`), and the policy of the providers' events (`apply_payment_event`).

mod after_sale;
mod provider_events;

pub use after_sale::AfterSale;
pub use provider_events::apply_payment_event;
