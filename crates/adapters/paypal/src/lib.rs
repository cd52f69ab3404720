//! PayPal for Garden Shop: PayPal Orders v2 over plain HTTPS.
//!
//! [`PayPalCheckout`] creates a PayPal order for one of our orders and hands back the page
//! where the buyer approves it ([`orders::gateways::PaymentGateway`]); after the buyer returns,
//! the shop captures the payment ([`orders::gateways::PaymentCapture`]). An OAuth2
//! client-credentials token is fetched once and reused until shortly before it expires.
//!
//! PayPal orders have no expiry time of their own: the shop's sweeper releases the stock of
//! pending orders after 30 minutes, and a capture after that is refused by the domain.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context};
use cart_pricing::CurrencyCode;
use orders::gateways::{
    CaptureOutcome, CapturedAmount, HostedCheckout, HostedCheckoutRequest, PaymentCapture,
    PaymentError, PaymentGateway, RefundReceipt, RefundRequest, SessionClosing,
};
use reqwest::{Method, RequestBuilder, Response, StatusCode, Url};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::Mutex;

/// How long one call to PayPal may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);
/// A token is renewed this long before PayPal says it expires.
const TOKEN_MARGIN: Duration = Duration::from_secs(60);
/// PayPal's limit on an item name.
const MAX_ITEM_NAME: usize = 127;

/// The `paypal` section of the configuration.
#[derive(Debug, Clone, Deserialize)]
pub struct PayPalSettings {
    pub client_id: String,
    pub client_secret: SecretString,
    /// `https://api-m.paypal.com` (live) or `https://api-m.sandbox.paypal.com`; tests point it
    /// at a local fake.
    pub api_base: String,
    /// PayPal is offered only when this is true and the credentials are set.
    pub enabled: bool,
    /// The currencies PayPal takes payments in (ISO 4217); checkout offers PayPal only in
    /// these. Default: those PayPal's REST API accepts ([`PAYPAL_CURRENCIES`]).
    #[serde(default = "paypal_currencies")]
    pub currencies: Vec<String>,
}

/// The currencies PayPal's REST API accepts (developer.paypal.com, "Currency codes").
pub const PAYPAL_CURRENCIES: [&str; 24] = [
    "AUD", "BRL", "CAD", "CNY", "CZK", "DKK", "EUR", "HKD", "HUF", "ILS", "JPY", "MYR", "MXN",
    "TWD", "NZD", "NOK", "PHP", "PLN", "GBP", "SGD", "SEK", "CHF", "THB", "USD",
];

fn paypal_currencies() -> Vec<String> {
    PAYPAL_CURRENCIES.map(str::to_owned).to_vec()
}

impl PayPalSettings {
    /// Whether the shop should offer PayPal at all.
    pub fn is_usable(&self) -> bool {
        self.enabled
            && !self.client_id.trim().is_empty()
            && !self.client_secret.expose_secret().trim().is_empty()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PayPalSetupError {
    #[error("paypal.api_base is not a URL: {0}")]
    BadApiBase(String),
    #[error("the HTTP client could not be built: {0}")]
    Client(#[from] reqwest::Error),
}

struct CachedToken {
    value: SecretString,
    renew_at: Instant,
}

/// PayPal Orders v2.
#[derive(Clone)]
pub struct PayPalCheckout {
    http: reqwest::Client,
    api_base: Url,
    client_id: String,
    client_secret: SecretString,
    token: Arc<Mutex<Option<CachedToken>>>,
    /// `paypal.currencies`, uppercase.
    currencies: Vec<String>,
}

impl std::fmt::Debug for PayPalCheckout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PayPalCheckout")
            .field("api_base", &self.api_base.as_str())
            .finish_non_exhaustive()
    }
}

#[derive(Deserialize)]
struct TokenResponse {
    access_token: String,
    expires_in: u64,
}

#[derive(Deserialize)]
struct Link {
    href: String,
    rel: String,
}

#[derive(Deserialize)]
struct OrderResponse {
    id: String,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    links: Vec<Link>,
}

#[derive(Deserialize)]
struct CaptureResponse {
    status: String,
    #[serde(default)]
    purchase_units: Vec<CapturedUnit>,
}

#[derive(Deserialize)]
struct CapturedUnit {
    #[serde(default)]
    payments: Option<CapturedPayments>,
}

#[derive(Deserialize)]
struct CapturedPayments {
    #[serde(default)]
    captures: Vec<Capture>,
}

#[derive(Deserialize)]
struct Capture {
    #[serde(default)]
    id: Option<String>,
    status: String,
    #[serde(default)]
    amount: Option<CaptureAmount>,
}

#[derive(Deserialize)]
struct CaptureAmount {
    currency_code: String,
    value: String,
}

#[derive(Deserialize, Default)]
struct ErrorBody {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    error_description: Option<String>,
    #[serde(default)]
    details: Vec<ErrorDetail>,
}

#[derive(Deserialize)]
struct ErrorDetail {
    #[serde(default)]
    issue: Option<String>,
    #[serde(default)]
    description: Option<String>,
}

impl ErrorBody {
    fn has_issue(&self, issue: &str) -> bool {
        self.details
            .iter()
            .any(|d| d.issue.as_deref() == Some(issue))
    }

    /// What PayPal said, as a bounded single-line excerpt (`shared::upstream::excerpt`): its
    /// messages are free text of any length.
    fn describe(&self) -> String {
        shared::upstream::excerpt(&self.said())
    }

    fn said(&self) -> String {
        let head = self
            .message
            .clone()
            .or_else(|| self.error_description.clone())
            .or_else(|| self.name.clone())
            .unwrap_or_else(|| "no details".to_owned());
        let details: Vec<String> = self
            .details
            .iter()
            .map(|d| {
                format!(
                    "{}: {}",
                    d.issue.as_deref().unwrap_or("?"),
                    d.description.as_deref().unwrap_or("")
                )
            })
            .collect();
        if details.is_empty() {
            head
        } else {
            format!("{head} ({})", details.join("; "))
        }
    }
}

/// An amount of the page's currency (minor units) as PayPal takes it: the code and the value
/// with the currency's decimals.
fn amount(request: &HostedCheckoutRequest, minor: i64) -> serde_json::Value {
    json!({
        "currency_code": request.currency.as_str(),
        "value": request.major(minor).to_string(),
    })
}

fn item_name(name: &str) -> String {
    name.chars().take(MAX_ITEM_NAME).collect()
}

/// The body of `POST /v2/checkout/orders` for one of our orders.
fn order_body(request: &HostedCheckoutRequest) -> serde_json::Value {
    let item_total: i64 = request.lines.iter().map(|line| line.total()).sum();
    let items: Vec<serde_json::Value> = request
        .lines
        .iter()
        .map(|line| {
            json!({
                "name": item_name(&line.name),
                "unit_amount": amount(request, line.unit_amount),
                "quantity": line.quantity.get().to_string(),
                "category": "DIGITAL_GOODS",
            })
        })
        .collect();
    json!({
        "intent": "CAPTURE",
        "purchase_units": [{
            "reference_id": request.order_id,
            "custom_id": request.order_id,
            "amount": {
                "currency_code": request.currency.as_str(),
                "value": request.major(request.total()).to_string(),
                "breakdown": {
                    "item_total": amount(request, item_total),
                    "handling": amount(request, request.processing_fee),
                },
            },
            "items": items,
        }],
        "payment_source": {
            "paypal": {
                "email_address": request.customer_email,
                "experience_context": {
                    "return_url": request.success_url,
                    "cancel_url": request.cancel_url,
                    "user_action": "PAY_NOW",
                    "shipping_preference": "NO_SHIPPING",
                },
            },
        },
    })
}

fn unavailable(err: reqwest::Error) -> PaymentError {
    if err.is_timeout() {
        PaymentError::Unavailable("PayPal did not answer in time".into())
    } else {
        PaymentError::Unavailable(format!("PayPal could not be reached: {err}"))
    }
}

/// A failed answer as the caller can act on it.
fn error_for(status: StatusCode, body: &ErrorBody) -> PaymentError {
    if status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS {
        PaymentError::Unavailable(format!("PayPal answered {status}: {}", body.describe()))
    } else {
        PaymentError::Rejected {
            status: status.as_u16(),
            message: body.describe(),
        }
    }
}

async fn error_body(response: Response) -> ErrorBody {
    response.json::<ErrorBody>().await.unwrap_or_default()
}

impl PayPalCheckout {
    pub fn new(settings: &PayPalSettings) -> Result<Self, PayPalSetupError> {
        let mut base = settings.api_base.trim().to_owned();
        if !base.ends_with('/') {
            base.push('/');
        }
        let api_base =
            Url::parse(&base).map_err(|e| PayPalSetupError::BadApiBase(e.to_string()))?;
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .build()?;
        Ok(Self {
            http,
            api_base,
            client_id: settings.client_id.clone(),
            client_secret: settings.client_secret.clone(),
            token: Arc::new(Mutex::new(None)),
            currencies: settings
                .currencies
                .iter()
                .map(|code| code.trim().to_ascii_uppercase())
                .collect(),
        })
    }

    fn url(&self, segments: &[&str]) -> Result<Url, PaymentError> {
        let mut url = self.api_base.clone();
        url.path_segments_mut()
            .map_err(|()| PaymentError::Unknown(anyhow!("paypal.api_base cannot be a base URL")))?
            .pop_if_empty()
            .extend(segments);
        Ok(url)
    }

    /// A valid access token, from the cache while it lasts.
    async fn access_token(&self) -> Result<SecretString, PaymentError> {
        let mut cached = self.token.lock().await;
        if let Some(token) = cached.as_ref() {
            if Instant::now() < token.renew_at {
                return Ok(token.value.clone());
            }
        }
        let response = self
            .http
            .post(self.url(&["v1", "oauth2", "token"])?)
            .basic_auth(&self.client_id, Some(self.client_secret.expose_secret()))
            .form(&[("grant_type", "client_credentials")])
            .send()
            .await
            .map_err(unavailable)?;
        let status = response.status();
        if !status.is_success() {
            let body = error_body(response).await;
            tracing::error!(%status, error = %body.describe(), "paypal refused our credentials");
            return Err(error_for(status, &body));
        }
        let token: TokenResponse = response
            .json()
            .await
            .context("unreadable PayPal token answer")?;
        let lifetime = Duration::from_secs(token.expires_in).saturating_sub(TOKEN_MARGIN);
        let value = SecretString::from(token.access_token);
        *cached = Some(CachedToken {
            value: value.clone(),
            renew_at: Instant::now() + lifetime,
        });
        Ok(value)
    }

    async fn forget_token(&self) {
        *self.token.lock().await = None;
    }

    /// Sends an authorized JSON call; on a 401 (token revoked early) fetches a new token and
    /// tries once more.
    async fn call(
        &self,
        method: Method,
        url: Url,
        request_id: &str,
        body: &serde_json::Value,
    ) -> Result<Response, PaymentError> {
        let build = |token: &SecretString| -> RequestBuilder {
            let request = self
                .http
                .request(method.clone(), url.clone())
                .bearer_auth(token.expose_secret())
                .header("PayPal-Request-Id", request_id)
                .header("Prefer", "return=representation");
            if method == Method::GET {
                request
            } else {
                request.json(body)
            }
        };
        let token = self.access_token().await?;
        let response = build(&token).send().await.map_err(unavailable)?;
        if response.status() != StatusCode::UNAUTHORIZED {
            return Ok(response);
        }
        self.forget_token().await;
        let token = self.access_token().await?;
        build(&token).send().await.map_err(unavailable)
    }
}

#[derive(Deserialize)]
struct RefundResponse {
    id: String,
    status: String,
}

impl PayPalCheckout {
    /// The capture of a captured PayPal order (`GET /v2/checkout/orders/{id}`).
    async fn capture_of(&self, paypal_order: &str) -> Result<String, PaymentError> {
        let url = self.url(&["v2", "checkout", "orders", paypal_order])?;
        let response = self
            .call(
                Method::GET,
                url,
                &format!("garden-read-{paypal_order}"),
                &json!({}),
            )
            .await?;
        let status = response.status();
        if !status.is_success() {
            let body = error_body(response).await;
            return Err(error_for(status, &body));
        }
        let order: CaptureResponse = response
            .json()
            .await
            .context("unreadable PayPal order answer")?;
        order
            .purchase_units
            .iter()
            .filter_map(|unit| unit.payments.as_ref())
            .flat_map(|payments| payments.captures.iter())
            .find_map(|capture| capture.id.clone())
            .ok_or_else(|| PaymentError::Rejected {
                status: 422,
                message: format!("PayPal order {paypal_order} has no capture to refund"),
            })
    }
}

impl PaymentGateway for PayPalCheckout {
    fn pays_in(&self, currency: &CurrencyCode) -> bool {
        self.currencies
            .iter()
            .any(|accepted| accepted == currency.as_str())
    }

    #[tracing::instrument(name = "paypal.create_order", skip_all, fields(order_id = %request.order_id))]
    async fn create_checkout(
        &self,
        request: HostedCheckoutRequest,
    ) -> Result<HostedCheckout, PaymentError> {
        let url = self.url(&["v2", "checkout", "orders"])?;
        let request_id = format!("garden-order-{}", request.order_id);
        let response = self
            .call(Method::POST, url, &request_id, &order_body(&request))
            .await?;
        let status = response.status();
        if !status.is_success() {
            let body = error_body(response).await;
            return Err(error_for(status, &body));
        }
        let order: OrderResponse = response
            .json()
            .await
            .context("unreadable PayPal order answer")?;
        let approve = order
            .links
            .iter()
            .find(|link| link.rel == "payer-action" || link.rel == "approve")
            .ok_or_else(|| {
                PaymentError::Unknown(anyhow!(
                    "PayPal order {} (status {:?}) has no approval link",
                    order.id,
                    order.status
                ))
            })?;
        tracing::info!(paypal_order = %order.id, "paypal order created");
        Ok(HostedCheckout {
            redirect_url: approve.href.clone(),
            provider_reference: order.id,
        })
    }

    /// An approved PayPal order takes no money until the shop captures it, and the shop
    /// captures only pending orders: closing the shop's order closes the payment.
    async fn close_checkout(&self, _reference: String) -> Result<SessionClosing, PaymentError> {
        Ok(SessionClosing::Closed)
    }

    /// `POST /v2/payments/captures/{id}/refund` with no amount (the whole capture), with the
    /// request's idempotency key as `PayPal-Request-Id`. The capture is looked up from the
    /// PayPal order when it was not recorded. `COMPLETED` and `PENDING` count as refunded.
    #[tracing::instrument(name = "paypal.refund", skip_all, fields(order_id = %request.order_id))]
    async fn refund(&self, request: RefundRequest) -> Result<RefundReceipt, PaymentError> {
        let capture = match (&request.payment_id, &request.provider_reference) {
            (Some(capture), _) => capture.clone(),
            (None, Some(paypal_order)) => self.capture_of(paypal_order).await?,
            (None, None) => {
                return Err(PaymentError::Rejected {
                    status: 422,
                    message: "the order has no PayPal payment".to_owned(),
                })
            }
        };
        let url = self.url(&["v2", "payments", "captures", &capture, "refund"])?;
        let response = self
            .call(Method::POST, url, &request.idempotency_key, &json!({}))
            .await?;
        let status = response.status();
        if !status.is_success() {
            let body = error_body(response).await;
            return Err(error_for(status, &body));
        }
        let refund: RefundResponse = response
            .json()
            .await
            .context("unreadable PayPal refund answer")?;
        if !matches!(refund.status.as_str(), "COMPLETED" | "PENDING") {
            return Err(PaymentError::Rejected {
                status: 422,
                message: format!("PayPal's refund {} is {}", refund.id, refund.status),
            });
        }
        tracing::info!(refund = %refund.id, status = %refund.status, "paypal refund made");
        Ok(RefundReceipt {
            refund_id: refund.id,
            payment_id: Some(capture),
        })
    }
}

impl PaymentCapture for PayPalCheckout {
    #[tracing::instrument(name = "paypal.capture", skip(self))]
    async fn capture(&self, provider_reference: String) -> Result<CaptureOutcome, PaymentError> {
        let url = self.url(&["v2", "checkout", "orders", &provider_reference, "capture"])?;
        let request_id = format!("garden-capture-{provider_reference}");
        let response = self
            .call(Method::POST, url, &request_id, &json!({}))
            .await?;
        let status = response.status();
        if !status.is_success() {
            let body = error_body(response).await;
            if status == StatusCode::UNPROCESSABLE_ENTITY
                && body.has_issue("ORDER_ALREADY_CAPTURED")
            {
                return Ok(CaptureOutcome::AlreadyCaptured);
            }
            if status == StatusCode::UNPROCESSABLE_ENTITY
                && (body.has_issue("ORDER_NOT_APPROVED") || body.has_issue("INSTRUMENT_DECLINED"))
            {
                return Ok(CaptureOutcome::NotCompleted {
                    status: body
                        .details
                        .first()
                        .and_then(|d| d.issue.clone())
                        .unwrap_or_default(),
                });
            }
            return Err(error_for(status, &body));
        }
        let captured: CaptureResponse = response
            .json()
            .await
            .context("unreadable PayPal capture answer")?;
        let capture = captured
            .purchase_units
            .iter()
            .filter_map(|unit| unit.payments.as_ref())
            .flat_map(|payments| payments.captures.iter())
            .next();
        let amount = capture
            .and_then(|capture| capture.amount.as_ref())
            .map(|amount| CapturedAmount {
                value: amount.value.clone(),
                currency: amount.currency_code.clone(),
            });
        let outcome = match (
            captured.status.as_str(),
            capture.map(|capture| capture.status.as_str()),
        ) {
            ("COMPLETED", Some("COMPLETED") | None) => CaptureOutcome::Completed { amount },
            (_, Some("PENDING")) => CaptureOutcome::Pending {
                reason: "PENDING".to_owned(),
            },
            (_, Some(other)) => CaptureOutcome::NotCompleted {
                status: other.to_owned(),
            },
            (order_status, None) => CaptureOutcome::NotCompleted {
                status: order_status.to_owned(),
            },
        };
        tracing::info!(?outcome, "paypal capture answered");
        Ok(outcome)
    }
}
