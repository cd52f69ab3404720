//! Stripe for Garden Shop: opens Stripe Checkout sessions for our orders (the
//! [`orders::gateways::PaymentGateway`] port), turns Stripe's signed webhook deliveries into
//! the few events the shop cares about, in the orders domain's words
//! ([`aftersale::PaymentEvent`]), and answers disputes with evidence (the
//! [`::disputes::DisputeGateway`] port).
//!
//! The adapter converts; it decides nothing about orders. Amounts go to Stripe as integer
//! cents in USD, the processing fee as a line of its own.

mod checkout;
mod disputes;
mod error;
mod events;
mod settings;
mod webhook;

pub use checkout::{StripeCheckout, StripeSetupError};
pub use disputes::{StripeDisputes, DISPUTE_REQUEST_TIMEOUT};
pub use settings::StripeSettings;
pub use webhook::{
    signature_header, CheckoutPaymentStatus, DisputeStatus, StripeEvent, WebhookError,
    WebhookVerifier, HANDLED_EVENTS, SIGNATURE_TOLERANCE,
};
