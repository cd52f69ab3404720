use std::collections::HashMap;
use std::str::FromStr;
use std::time::Duration;

use anyhow::anyhow;
use orders::gateways::{
    HostedCheckout, HostedCheckoutRequest, PaymentError, PaymentGateway, RefundReceipt,
    RefundRequest, SessionClosing,
};
use secrecy::ExposeSecret;
use stripe::{Client, ClientBuilder, IdempotencyKey, RequestStrategy, StripeError, StripeRequest};
use stripe_checkout::checkout_session::{
    CreateCheckoutSession, CreateCheckoutSessionAllowedPaymentMethodTypes,
    CreateCheckoutSessionLineItems, CreateCheckoutSessionLineItemsPriceData, ExpireCheckoutSession,
    ProductData, RetrieveCheckoutSession,
};
use stripe_checkout::{
    CheckoutSession, CheckoutSessionMode, CheckoutSessionPaymentStatus, CheckoutSessionStatus,
};
use stripe_core::refund::CreateRefund;
use stripe_types::Currency;

use crate::error::payment_error;
use crate::StripeSettings;

/// How long one call to Stripe may take before the shopper is told payment failed.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);

/// The name of the line that carries the card processing fee.
pub const PROCESSING_FEE_LINE: &str = "Processing fee";

#[derive(Debug, thiserror::Error)]
pub enum StripeSetupError {
    #[error("stripe.secret_key is empty")]
    MissingSecretKey,
    #[error("stripe client configuration is invalid: {0}")]
    InvalidConfig(String),
}

/// Stripe Checkout: one hosted checkout session per order.
#[derive(Clone)]
pub struct StripeCheckout {
    client: Client,
    /// `stripe.instant_payment_method_configuration`: what a drop's session names.
    instant_configuration: String,
}

impl std::fmt::Debug for StripeCheckout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StripeCheckout").finish_non_exhaustive()
    }
}

impl StripeCheckout {
    pub fn new(settings: &StripeSettings) -> Result<Self, StripeSetupError> {
        Ok(Self {
            client: api_client(settings, REQUEST_TIMEOUT)?,
            instant_configuration: settings
                .instant_payment_method_configuration
                .trim()
                .to_owned(),
        })
    }
}

/// An async-stripe client for `settings.api_base` with the secret key, whose calls give up
/// after `timeout`.
pub(crate) fn api_client(
    settings: &StripeSettings,
    timeout: Duration,
) -> Result<Client, StripeSetupError> {
    let key = settings.secret_key.expose_secret();
    if key.trim().is_empty() {
        return Err(StripeSetupError::MissingSecretKey);
    }
    // async-stripe appends `v1/...` to the base as it is, so the base must end with '/'.
    let mut base = settings.api_base.trim().to_owned();
    if !base.ends_with('/') {
        base.push('/');
    }
    ClientBuilder::new(key)
        .url(base)
        .timeout(timeout)
        .build()
        .map_err(|err| StripeSetupError::InvalidConfig(err.to_string()))
}

fn line_item(
    currency: &Currency,
    name: String,
    minor: i64,
    quantity: u64,
) -> CreateCheckoutSessionLineItems {
    let mut price = CreateCheckoutSessionLineItemsPriceData::new(currency.clone());
    price.unit_amount = Some(minor);
    price.product_data = Some(ProductData::new(name));
    let mut item = CreateCheckoutSessionLineItems::new();
    item.price_data = Some(price);
    item.quantity = Some(quantity);
    item
}

/// The session's line items in the order's currency, at the amounts the shopper saw. The
/// session names no payment method types: Stripe offers every method the shop enabled for
/// that currency. A page that must be paid at once (a drop's) names `instant_configuration`,
/// a payment method configuration without methods that confirm later; without one, it allows
/// cards only (`allowed_payment_method_types`: the SDK's create request has no
/// `payment_method_types`; the allowed list filters the methods Stripe would offer).
fn session_request(
    request: &HostedCheckoutRequest,
    instant_configuration: &str,
) -> CreateCheckoutSession {
    let currency = Currency::from_str(&request.currency.lowercase())
        .unwrap_or_else(|_| Currency::Unknown(request.currency.lowercase()));
    let mut items: Vec<CreateCheckoutSessionLineItems> = request
        .lines
        .iter()
        .map(|line| {
            line_item(
                &currency,
                line.name.clone(),
                line.unit_amount,
                u64::from(line.quantity.get()),
            )
        })
        .collect();
    if request.processing_fee > 0 {
        items.push(line_item(
            &currency,
            PROCESSING_FEE_LINE.to_owned(),
            request.processing_fee,
            1,
        ));
    }
    let metadata = HashMap::from([("order_id".to_owned(), request.order_id.clone())]);
    let session = CreateCheckoutSession::new()
        .mode(CheckoutSessionMode::Payment)
        .line_items(items)
        .client_reference_id(request.order_id.clone())
        .metadata(metadata)
        .customer_email(request.customer_email.clone())
        .success_url(request.success_url.clone())
        .cancel_url(request.cancel_url.clone())
        .expires_at(request.expires_at.timestamp());
    match (request.instant_only, instant_configuration.is_empty()) {
        (false, _) => session,
        (true, false) => session.payment_method_configuration(instant_configuration),
        (true, true) => session.allowed_payment_method_types(vec![
            CreateCheckoutSessionAllowedPaymentMethodTypes::Card,
        ]),
    }
}

impl PaymentGateway for StripeCheckout {
    #[tracing::instrument(name = "stripe.create_checkout", skip_all, fields(order_id = %request.order_id))]
    async fn create_checkout(
        &self,
        request: HostedCheckoutRequest,
    ) -> Result<HostedCheckout, PaymentError> {
        let session = session_request(&request, &self.instant_configuration)
            .send(&self.client)
            .await
            .map_err(payment_error)?;
        let redirect_url = session.url.ok_or_else(|| {
            PaymentError::Unknown(anyhow!(
                "Stripe created checkout session {} for order {} without a URL",
                session.id.as_str(),
                request.order_id
            ))
        })?;
        tracing::info!(
            session_id = session.id.as_str(),
            "stripe checkout session created"
        );
        Ok(HostedCheckout {
            provider_reference: session.id.as_str().to_owned(),
            redirect_url,
        })
    }

    /// `POST /v1/checkout/sessions/{id}/expire`. Stripe refuses (400) to expire a session that
    /// is no longer open; then the session is read to learn whether it was paid or had expired.
    #[tracing::instrument(name = "stripe.close_checkout", skip_all, fields(session_id = %provider_reference))]
    async fn close_checkout(
        &self,
        provider_reference: String,
    ) -> Result<SessionClosing, PaymentError> {
        let expired = ExpireCheckoutSession::new(provider_reference.as_str())
            .send(&self.client)
            .await;
        let session = match expired {
            Ok(session) => session,
            Err(StripeError::Stripe(_, 400)) => {
                RetrieveCheckoutSession::new(provider_reference.as_str())
                    .send(&self.client)
                    .await
                    .map_err(payment_error)?
            }
            Err(error) => return Err(payment_error(error)),
        };
        let closing = closing_of(&session)?;
        tracing::info!(?closing, "stripe checkout session closed");
        Ok(closing)
    }

    async fn refund(&self, request: RefundRequest) -> Result<RefundReceipt, PaymentError> {
        self.refund_payment(request).await
    }
}

impl StripeCheckout {
    /// The payment intent of a completed checkout session.
    async fn payment_intent_of(&self, session_id: &str) -> Result<String, PaymentError> {
        let session = RetrieveCheckoutSession::new(session_id)
            .send(&self.client)
            .await
            .map_err(payment_error)?;
        session
            .payment_intent
            .as_ref()
            .map(|intent| intent.id().as_str().to_owned())
            .ok_or_else(|| PaymentError::Rejected {
                status: 400,
                message: format!("checkout session {session_id} has no payment to refund"),
            })
    }

    /// `POST /v1/refunds` for the whole payment intent, with the request's idempotency key.
    /// Stripe answers the refund it made (or, for a repeated key, the one it made before);
    /// only a refund that `succeeded` or is `pending` (accepted, money on its way) counts.
    #[tracing::instrument(name = "stripe.refund", skip_all, fields(order_id = %request.order_id))]
    pub async fn refund_payment(
        &self,
        request: RefundRequest,
    ) -> Result<RefundReceipt, PaymentError> {
        let payment_intent = match (&request.payment_id, &request.provider_reference) {
            (Some(intent), _) => intent.clone(),
            (None, Some(session)) => self.payment_intent_of(session).await?,
            (None, None) => {
                return Err(PaymentError::Rejected {
                    status: 400,
                    message: "the order has no Stripe payment".to_owned(),
                })
            }
        };
        let key = IdempotencyKey::new(&request.idempotency_key)
            .map_err(|e| PaymentError::Unknown(anyhow!("bad idempotency key: {e}")))?;
        let metadata = HashMap::from([("order_id".to_owned(), request.order_id.clone())]);
        let refund = CreateRefund::new()
            .payment_intent(payment_intent.clone())
            .metadata(metadata)
            .customize()
            .request_strategy(RequestStrategy::Idempotent(key))
            .send(&self.client)
            .await
            .map_err(payment_error)?;
        let status = refund.status.as_deref().unwrap_or("");
        if !matches!(status, "succeeded" | "pending") {
            return Err(PaymentError::Rejected {
                status: 402,
                message: format!("Stripe's refund {} is {status:?}", refund.id.as_str()),
            });
        }
        tracing::info!(refund = refund.id.as_str(), status, "stripe refund made");
        Ok(RefundReceipt {
            refund_id: refund.id.as_str().to_owned(),
            payment_id: Some(payment_intent),
        })
    }
}

/// What a session that is no longer open means for its order: a complete session is paid
/// unless its money has yet to arrive (a method that confirms later).
fn closing_of(session: &CheckoutSession) -> Result<SessionClosing, PaymentError> {
    match &session.status {
        Some(CheckoutSessionStatus::Expired) => Ok(SessionClosing::Closed),
        Some(CheckoutSessionStatus::Complete)
            if session.payment_status == CheckoutSessionPaymentStatus::Unpaid =>
        {
            Ok(SessionClosing::AwaitingPayment)
        }
        Some(CheckoutSessionStatus::Complete) => Ok(SessionClosing::Completed),
        other => Err(PaymentError::Unknown(anyhow!(
            "Stripe left checkout session {} {other:?} after expiring it",
            session.id.as_str()
        ))),
    }
}
