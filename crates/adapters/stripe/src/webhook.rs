//! Stripe webhook deliveries: the `Stripe-Signature` check over the raw body, and the parse
//! into the few events the shop acts on (checkout, delayed payments, refunds, disputes, fraud
//! warnings).
//!
//! We check signatures ourselves instead of through `async-stripe-webhook`: Stripe may send
//! several `v1=` signatures (while a signing secret is being rolled) and that crate only looks
//! at the last one; it also parses every event into the SDK's full types, which fails on
//! objects from API versions newer than the SDK. Here only the fields the shop needs are read.
use std::collections::HashMap;
use std::time::Duration;

use chrono::{DateTime, Utc};
use disputes::DisputeFacts;
use hmac::{Hmac, Mac};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use sha2::Sha256;

/// How far a signature's timestamp may be from now before the delivery is refused as a replay.
pub const SIGNATURE_TOLERANCE: Duration = Duration::from_secs(300);

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WebhookError {
    /// The `Stripe-Signature` header is missing its `t=` or any `v1=` part, or is garbled.
    #[error("malformed Stripe-Signature header")]
    MalformedHeader,
    /// No `v1=` signature matches the body under our signing secret.
    #[error("no valid signature")]
    BadSignature,
    /// The signature is valid but its timestamp is outside the tolerance.
    #[error("signature timestamp {timestamp} is outside the tolerance")]
    StaleTimestamp { timestamp: i64 },
    /// Signed by Stripe, but not an event we can read.
    #[error("unreadable event: {0}")]
    BadPayload(String),
}

/// How the money side of a completed checkout session stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckoutPaymentStatus {
    Paid,
    Unpaid,
    NoPaymentRequired,
    Other(String),
}

impl From<&str> for CheckoutPaymentStatus {
    fn from(value: &str) -> Self {
        match value {
            "paid" => Self::Paid,
            "unpaid" => Self::Unpaid,
            "no_payment_required" => Self::NoPaymentRequired,
            other => Self::Other(other.to_owned()),
        }
    }
}

/// How a closed dispute ended, in Stripe's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DisputeStatus {
    /// `won`, or `warning_closed` (an inquiry that never became a chargeback).
    Won,
    /// `lost`: the money went back to the buyer.
    Lost,
    Other(String),
}

impl From<&str> for DisputeStatus {
    fn from(value: &str) -> Self {
        match value {
            "won" | "warning_closed" => Self::Won,
            "lost" => Self::Lost,
            other => Self::Other(other.to_owned()),
        }
    }
}

/// A verified Stripe event, reduced to what the shop needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StripeEvent {
    /// `checkout.session.completed`.
    CheckoutCompleted {
        event_id: String,
        session_id: String,
        /// `metadata.order_id` (falling back to `client_reference_id`); `None` for sessions
        /// the shop did not create.
        order_id: Option<String>,
        payment_status: CheckoutPaymentStatus,
        /// The payment intent that paid it (`pi_...`), recorded with the order so refunds and
        /// disputes can name it.
        payment_intent: Option<String>,
    },
    /// `checkout.session.async_payment_succeeded`: the money of a session completed with a
    /// method that confirms later (a voucher, a bank debit) arrived.
    AsyncPaymentSucceeded {
        event_id: String,
        session_id: String,
        order_id: Option<String>,
        payment_intent: Option<String>,
    },
    /// `checkout.session.async_payment_failed`: such a payment failed, or its voucher expired
    /// unpaid.
    AsyncPaymentFailed {
        event_id: String,
        session_id: String,
        order_id: Option<String>,
    },
    /// `checkout.session.expired`.
    CheckoutExpired {
        event_id: String,
        session_id: String,
        order_id: Option<String>,
    },
    /// `charge.refunded`: a charge was refunded, wholly or in part (from the dashboard, or by
    /// the shop's own refund).
    ChargeRefunded {
        event_id: String,
        charge_id: String,
        payment_intent: Option<String>,
        /// Whether the whole charge is refunded now.
        fully_refunded: bool,
    },
    /// `charge.dispute.created`: the buyer disputed a charge (a chargeback or an inquiry).
    DisputeCreated {
        event_id: String,
        payment_intent: Option<String>,
        dispute: DisputeFacts,
    },
    /// `charge.dispute.updated`: the dispute changed (its status, or evidence staged or
    /// submitted).
    DisputeUpdated {
        event_id: String,
        payment_intent: Option<String>,
        dispute: DisputeFacts,
    },
    /// `charge.dispute.closed`: the dispute ended; `status` is Stripe's word for how.
    DisputeClosed {
        event_id: String,
        payment_intent: Option<String>,
        status: DisputeStatus,
        dispute: DisputeFacts,
    },
    /// `radar.early_fraud_warning.created`: the card's issuer warned that a charge looks
    /// fraudulent, before any dispute.
    FraudWarning {
        event_id: String,
        /// The warning's id (`issfr_...`).
        warning_id: String,
        /// The charge it is about (`ch_...`).
        charge_id: Option<String>,
        /// The charge's payment intent: the warning's own, or the expanded charge's.
        payment_intent: Option<String>,
        /// The issuer's kind of fraud (`unauthorized_use_of_card`, `misc`, ...).
        fraud_type: Option<String>,
    },
    /// Any other event type, acknowledged and ignored.
    Other {
        event_id: String,
        event_type: String,
    },
}

impl StripeEvent {
    pub fn event_id(&self) -> &str {
        match self {
            StripeEvent::CheckoutCompleted { event_id, .. }
            | StripeEvent::AsyncPaymentSucceeded { event_id, .. }
            | StripeEvent::AsyncPaymentFailed { event_id, .. }
            | StripeEvent::CheckoutExpired { event_id, .. }
            | StripeEvent::ChargeRefunded { event_id, .. }
            | StripeEvent::DisputeCreated { event_id, .. }
            | StripeEvent::DisputeUpdated { event_id, .. }
            | StripeEvent::DisputeClosed { event_id, .. }
            | StripeEvent::FraudWarning { event_id, .. }
            | StripeEvent::Other { event_id, .. } => event_id,
        }
    }
}

/// Checks and reads webhook deliveries signed with the endpoint's secret.
#[derive(Debug, Clone)]
pub struct WebhookVerifier {
    secret: SecretString,
    tolerance: Duration,
}

impl WebhookVerifier {
    pub fn new(secret: SecretString) -> Self {
        Self {
            secret,
            tolerance: SIGNATURE_TOLERANCE,
        }
    }

    /// Verifies `signature` (the `Stripe-Signature` header) over the raw request `payload`
    /// as of `now`, then parses the event. Nothing is parsed before the signature holds.
    pub fn verify(
        &self,
        payload: &[u8],
        signature: &str,
        now: DateTime<Utc>,
    ) -> Result<StripeEvent, WebhookError> {
        let header = SignatureHeader::parse(signature)?;
        let mac = self.mac_for(header.timestamp, payload)?;
        let matches = header
            .v1
            .iter()
            .filter_map(|candidate| hex::decode(candidate).ok())
            // `verify_slice` compares in constant time.
            .any(|candidate| mac.clone().verify_slice(&candidate).is_ok());
        if !matches {
            return Err(WebhookError::BadSignature);
        }
        let age = now.timestamp().abs_diff(header.timestamp);
        if age > self.tolerance.as_secs() {
            return Err(WebhookError::StaleTimestamp {
                timestamp: header.timestamp,
            });
        }
        parse_event(payload)
    }

    fn mac_for(&self, timestamp: i64, payload: &[u8]) -> Result<Hmac<Sha256>, WebhookError> {
        let mut mac = Hmac::<Sha256>::new_from_slice(self.secret.expose_secret().as_bytes())
            .map_err(|_| WebhookError::BadSignature)?;
        mac.update(timestamp.to_string().as_bytes());
        mac.update(b".");
        mac.update(payload);
        Ok(mac)
    }
}

/// A `Stripe-Signature` header value for `payload` signed with `secret` at `timestamp`, as
/// Stripe sends it. For tests and local tools that play Stripe.
pub fn signature_header(secret: &str, timestamp: i64, payload: &[u8]) -> String {
    let verifier = WebhookVerifier::new(SecretString::from(secret));
    let signature = verifier
        .mac_for(timestamp, payload)
        .map(|mac| hex::encode(mac.finalize().into_bytes()))
        .unwrap_or_default();
    format!("t={timestamp},v1={signature}")
}

struct SignatureHeader<'a> {
    timestamp: i64,
    v1: Vec<&'a str>,
}

impl<'a> SignatureHeader<'a> {
    fn parse(raw: &'a str) -> Result<Self, WebhookError> {
        let mut timestamp = None;
        let mut v1 = Vec::new();
        for part in raw.split(',') {
            let (key, value) = part
                .trim()
                .split_once('=')
                .ok_or(WebhookError::MalformedHeader)?;
            match key {
                "t" => {
                    timestamp = Some(
                        value
                            .parse::<i64>()
                            .map_err(|_| WebhookError::MalformedHeader)?,
                    )
                }
                "v1" => v1.push(value),
                _ => {}
            }
        }
        match timestamp {
            Some(timestamp) if !v1.is_empty() => Ok(Self { timestamp, v1 }),
            _ => Err(WebhookError::MalformedHeader),
        }
    }
}

#[derive(Deserialize)]
struct RawEvent {
    id: String,
    #[serde(rename = "type")]
    event_type: String,
    data: RawData,
}

#[derive(Deserialize)]
struct RawData {
    object: serde_json::Value,
}

#[derive(Deserialize)]
struct RawSession {
    id: String,
    #[serde(default)]
    client_reference_id: Option<String>,
    #[serde(default)]
    metadata: Option<HashMap<String, String>>,
    #[serde(default)]
    payment_status: Option<String>,
    #[serde(default)]
    payment_intent: Option<serde_json::Value>,
}

/// A charge (`charge.refunded`).
#[derive(Deserialize)]
struct RawCharge {
    id: String,
    #[serde(default)]
    payment_intent: Option<serde_json::Value>,
    #[serde(default)]
    refunded: bool,
}

/// A dispute (`charge.dispute.*`).
#[derive(Deserialize)]
struct RawDispute {
    id: String,
    amount: i64,
    currency: String,
    status: String,
    #[serde(default)]
    payment_intent: Option<serde_json::Value>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    evidence_details: Option<RawEvidenceDetails>,
}

/// A dispute's `evidence_details`.
#[derive(Deserialize)]
struct RawEvidenceDetails {
    /// Unix seconds; `null` when no evidence can be sent (an inquiry closed already, ...).
    #[serde(default)]
    due_by: Option<i64>,
    #[serde(default)]
    submission_count: i64,
}

/// An early fraud warning (`radar.early_fraud_warning.created`).
#[derive(Deserialize)]
struct RawFraudWarning {
    id: String,
    /// The charge's id, or the expanded charge.
    #[serde(default)]
    charge: Option<serde_json::Value>,
    #[serde(default)]
    payment_intent: Option<serde_json::Value>,
    #[serde(default)]
    fraud_type: Option<String>,
}

impl RawDispute {
    /// The dispute's payment intent, and its facts.
    fn read(self) -> Result<(Option<String>, DisputeFacts), WebhookError> {
        let details = self.evidence_details;
        let due_by = match details.as_ref().and_then(|details| details.due_by) {
            Some(seconds) => {
                Some(DateTime::<Utc>::from_timestamp(seconds, 0).ok_or_else(|| {
                    WebhookError::BadPayload(format!("dispute: due_by {seconds} is not a time"))
                })?)
            }
            None => None,
        };
        let facts = DisputeFacts {
            id: self.id,
            amount_minor: self.amount,
            currency: self.currency,
            reason: self.reason,
            status: self.status,
            due_by,
            submitted: details.is_some_and(|details| details.submission_count > 0),
        };
        Ok((id_of(self.payment_intent.as_ref()), facts))
    }
}

impl RawFraudWarning {
    /// The warning's payment intent: its own, or else the one of its charge when the charge
    /// came expanded.
    fn payment_intent(&self) -> Option<String> {
        id_of(self.payment_intent.as_ref()).or_else(|| {
            let charge = self.charge.as_ref()?.as_object()?;
            id_of(charge.get("payment_intent"))
        })
    }
}

/// An id field that may come as the id or as the expanded object.
fn id_of(value: Option<&serde_json::Value>) -> Option<String> {
    match value? {
        serde_json::Value::String(id) => Some(id.clone()),
        serde_json::Value::Object(object) => object.get("id")?.as_str().map(str::to_owned),
        _ => None,
    }
    .filter(|id| !id.trim().is_empty())
}

impl RawSession {
    fn order_id(&self) -> Option<String> {
        self.metadata
            .as_ref()
            .and_then(|m| m.get("order_id").cloned())
            .or_else(|| self.client_reference_id.clone())
    }
}

/// Every event type [`parse_event`] turns into a [`StripeEvent`] the shop acts on; the webhook
/// endpoint must be subscribed to all of them (`config/production.example.toml` lists them).
pub const HANDLED_EVENTS: [&str; 9] = [
    "checkout.session.completed",
    "checkout.session.async_payment_succeeded",
    "checkout.session.async_payment_failed",
    "checkout.session.expired",
    "charge.refunded",
    "charge.dispute.created",
    "charge.dispute.updated",
    "charge.dispute.closed",
    "radar.early_fraud_warning.created",
];

/// A checkout session's event of type `kind` (one of the `checkout.session.*` the shop handles).
fn session_event(kind: &str, event_id: String, session: RawSession) -> StripeEvent {
    let order_id = session.order_id();
    let payment_intent = id_of(session.payment_intent.as_ref());
    let session_id = session.id;
    match kind {
        "checkout.session.completed" => StripeEvent::CheckoutCompleted {
            event_id,
            session_id,
            order_id,
            payment_status: session.payment_status.as_deref().unwrap_or("").into(),
            payment_intent,
        },
        "checkout.session.async_payment_succeeded" => StripeEvent::AsyncPaymentSucceeded {
            event_id,
            session_id,
            order_id,
            payment_intent,
        },
        "checkout.session.async_payment_failed" => StripeEvent::AsyncPaymentFailed {
            event_id,
            session_id,
            order_id,
        },
        _ => StripeEvent::CheckoutExpired {
            event_id,
            session_id,
            order_id,
        },
    }
}

fn parse_event(payload: &[u8]) -> Result<StripeEvent, WebhookError> {
    let event: RawEvent =
        serde_json::from_slice(payload).map_err(|e| WebhookError::BadPayload(e.to_string()))?;
    let session = || {
        serde_json::from_value::<RawSession>(event.data.object.clone())
            .map_err(|e| WebhookError::BadPayload(format!("checkout session: {e}")))
    };
    Ok(match event.event_type.as_str() {
        "checkout.session.completed"
        | "checkout.session.async_payment_succeeded"
        | "checkout.session.async_payment_failed"
        | "checkout.session.expired" => session_event(&event.event_type, event.id, session()?),
        "charge.refunded" => {
            let charge: RawCharge = serde_json::from_value(event.data.object.clone())
                .map_err(|e| WebhookError::BadPayload(format!("charge: {e}")))?;
            StripeEvent::ChargeRefunded {
                payment_intent: id_of(charge.payment_intent.as_ref()),
                fully_refunded: charge.refunded,
                charge_id: charge.id,
                event_id: event.id,
            }
        }
        "charge.dispute.created" | "charge.dispute.updated" | "charge.dispute.closed" => {
            let (payment_intent, dispute) = serde_json::from_value::<RawDispute>(event.data.object)
                .map_err(|e| WebhookError::BadPayload(format!("dispute: {e}")))?
                .read()?;
            let event_id = event.id;
            match event.event_type.as_str() {
                "charge.dispute.created" => StripeEvent::DisputeCreated {
                    event_id,
                    payment_intent,
                    dispute,
                },
                "charge.dispute.updated" => StripeEvent::DisputeUpdated {
                    event_id,
                    payment_intent,
                    dispute,
                },
                _ => StripeEvent::DisputeClosed {
                    event_id,
                    payment_intent,
                    status: dispute.status.as_str().into(),
                    dispute,
                },
            }
        }
        "radar.early_fraud_warning.created" => {
            let warning: RawFraudWarning = serde_json::from_value(event.data.object)
                .map_err(|e| WebhookError::BadPayload(format!("early fraud warning: {e}")))?;
            StripeEvent::FraudWarning {
                event_id: event.id,
                payment_intent: warning.payment_intent(),
                charge_id: id_of(warning.charge.as_ref()),
                warning_id: warning.id,
                fraud_type: warning.fraud_type,
            }
        }
        _ => StripeEvent::Other {
            event_id: event.id,
            event_type: event.event_type,
        },
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn header_parsing_needs_a_timestamp_and_a_v1() {
        assert!(SignatureHeader::parse("t=1,v1=ab").is_ok());
        assert_eq!(
            SignatureHeader::parse("t=1,v1=ab,v1=cd,v0=ef").unwrap().v1,
            ["ab", "cd"]
        );
        for bad in ["", "t=1", "v1=ab", "t=x,v1=ab", "t=1;v1=ab", "garbage"] {
            assert!(
                matches!(
                    SignatureHeader::parse(bad),
                    Err(WebhookError::MalformedHeader)
                ),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn the_signature_matches_stripes_documented_scheme() {
        // HMAC-SHA256("whsec_test", "1700000000.{}") computed independently with openssl.
        let header = signature_header("whsec_test", 1_700_000_000, b"{}");
        assert_eq!(
            header,
            "t=1700000000,v1=35495024f4ef3f94e5a93e22221544c4b75e9a42300cd965ab81cb85cd994e91"
        );
    }
}
