//! The orders domain's `PaymentProviders` port over the instance's payment adapters: its card
//! provider (Stripe, or the dev payment page) and PayPal when enabled. It passes each call on
//! to the provider the rules chose and decides nothing.

use anyhow::anyhow;
use orders::gateways::{
    CaptureOutcome, PaymentCapture, PaymentError, PaymentGateway, RefundReceipt, RefundRequest,
    SessionClosing,
};
use orders::{PaymentProvider, PaymentProviders};
use paypal::PayPalCheckout;

use super::CardPayments;

/// The payment providers this instance reaches.
#[derive(Debug, Clone)]
pub struct ShopProviders {
    card: CardPayments,
    /// `None` unless PayPal is configured and enabled.
    paypal: Option<PayPalCheckout>,
}

/// The gateway of one provider, as the port's calls need it.
enum Gateway<'a> {
    Card(&'a CardPayments),
    Paypal(&'a PayPalCheckout),
}

impl ShopProviders {
    pub fn new(card: CardPayments, paypal: Option<PayPalCheckout>) -> Self {
        ShopProviders { card, paypal }
    }

    fn gateway(&self, provider: PaymentProvider) -> Result<Gateway<'_>, PaymentError> {
        match (provider, &self.paypal) {
            _ if provider == self.card.provider() => Ok(Gateway::Card(&self.card)),
            (PaymentProvider::Paypal, Some(paypal)) => Ok(Gateway::Paypal(paypal)),
            _ => Err(anyhow!("this instance does not reach {}", provider.name()).into()),
        }
    }
}

impl PaymentProviders for ShopProviders {
    fn reaches(&self, provider: PaymentProvider) -> bool {
        self.gateway(provider).is_ok()
    }

    async fn close_page(
        &self,
        provider: PaymentProvider,
        reference: String,
    ) -> Result<SessionClosing, PaymentError> {
        match self.gateway(provider)? {
            Gateway::Card(card) => card.close_checkout(reference).await,
            Gateway::Paypal(paypal) => paypal.close_checkout(reference).await,
        }
    }

    async fn refund(
        &self,
        provider: PaymentProvider,
        request: RefundRequest,
    ) -> Result<RefundReceipt, PaymentError> {
        match self.gateway(provider)? {
            Gateway::Card(card) => card.refund(request).await,
            Gateway::Paypal(paypal) => paypal.refund(request).await,
        }
    }

    async fn capture(
        &self,
        provider: PaymentProvider,
        reference: String,
    ) -> Result<CaptureOutcome, PaymentError> {
        match self.gateway(provider)? {
            Gateway::Card(_) => Err(anyhow!("{} does not capture", provider.name()).into()),
            Gateway::Paypal(paypal) => paypal.capture(reference).await,
        }
    }
}
