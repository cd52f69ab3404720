//! Stripe for Garden Shop: opens Stripe Checkout sessions for our orders (the
//! [`orders::gateways::PaymentGateway`] port) and turns Stripe's signed webhook deliveries into
//! the few events checkout cares about, in the orders domain's words
//! ([`aftersale::PaymentEvent`]).
//!
//! The adapter converts; it decides nothing about orders. Amounts go to Stripe as integer
//! cents in USD, the processing fee as a line of its own.

mod checkout;
mod events;
mod settings;
mod webhook;

pub use checkout::{StripeCheckout, StripeSetupError};
pub use settings::StripeSettings;
pub use webhook::{
    signature_header, CheckoutPaymentStatus, DisputeStatus, StripeEvent, WebhookError,
    WebhookVerifier, HANDLED_EVENTS, SIGNATURE_TOLERANCE,
};
