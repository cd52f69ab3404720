//! Stripe's side of disputes (the [`DisputeGateway`] port): the evidence files go up to
//! Stripe's files host, the evidence is staged on the dispute or submitted to the bank, a
//! dispute is accepted, and a payment's latest charge is read for its risk.
//!
//! The dispute and payment intent calls go through async-stripe. async-stripe cannot upload
//! files, so the upload goes through a small client of our own over reqwest, in Stripe's words.

use std::time::Duration;

use ::disputes::{ChargeRisk, DisputeGateway, EvidenceFile, EvidenceText, StagedFiles};
use anyhow::anyhow;
use chrono::{DateTime, Utc};
use orders::gateways::PaymentError;
use reqwest::multipart::{Form, Part};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use shared::upstream::excerpt;
use stripe::{Client, IdempotencyKey, RequestStrategy, StripeRequest};
use stripe_core::dispute::{CloseDispute, UpdateDispute, UpdateDisputeEvidence};
use stripe_core::payment_intent::RetrievePaymentIntent;
use stripe_types::Expandable;

use crate::checkout::api_client;
use crate::error::{answer_error, payment_error, transport_error};
use crate::{StripeSettings, StripeSetupError};

/// How long one dispute call may take. Nobody waits at a checkout for these (staff, or the
/// shop's own deadline job), and an upload carries a file of up to a few megabytes.
pub const DISPUTE_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Stripe's dispute calls for one account.
#[derive(Clone)]
pub struct StripeDisputes {
    client: Client,
    files: FilesClient,
}

impl std::fmt::Debug for StripeDisputes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StripeDisputes").finish_non_exhaustive()
    }
}

impl StripeDisputes {
    /// The calls against `settings.api_base` and `settings.files_api_base`, each given up
    /// after [`DISPUTE_REQUEST_TIMEOUT`].
    pub fn new(settings: &StripeSettings) -> Result<Self, StripeSetupError> {
        Self::with_timeout(settings, DISPUTE_REQUEST_TIMEOUT)
    }

    /// The same, each call given up after `timeout` (tests use a short one).
    pub fn with_timeout(
        settings: &StripeSettings,
        timeout: Duration,
    ) -> Result<Self, StripeSetupError> {
        Ok(Self {
            client: api_client(settings, timeout)?,
            files: FilesClient::new(settings, timeout)?,
        })
    }
}

/// The idempotency key of a dispute's submission: a submit that is retried (after a timeout
/// whose request did reach Stripe, say) submits once.
fn submit_key(dispute_id: &str) -> Result<IdempotencyKey, PaymentError> {
    IdempotencyKey::new(format!("dispute-{dispute_id}-submit"))
        .map_err(|e| PaymentError::Unknown(anyhow!("bad idempotency key: {e}")))
}

/// `None` for an empty value: Stripe reads an empty field as "unset it", and the shop has
/// nothing to say there.
fn given(value: String) -> Option<String> {
    (!value.trim().is_empty()).then_some(value)
}

/// The evidence hash of `POST /v1/disputes/{id}`: the text fields, and the three files when
/// they are uploaded.
fn evidence(text: EvidenceText, files: Option<StagedFiles>) -> UpdateDisputeEvidence {
    let mut evidence = UpdateDisputeEvidence::new();
    evidence.customer_name = given(text.customer_name);
    evidence.customer_email_address = text.customer_email_address.and_then(given);
    evidence.customer_purchase_ip = text.customer_purchase_ip.and_then(given);
    evidence.product_description = given(text.product_description);
    evidence.service_date = text.service_date.and_then(given);
    evidence.access_activity_log = given(text.access_activity_log);
    evidence.refund_policy_disclosure = given(text.refund_policy_disclosure);
    evidence.uncategorized_text = given(text.uncategorized_text);
    if let Some(files) = files {
        evidence.service_documentation = given(files.service_documentation);
        evidence.customer_communication = given(files.customer_communication);
        evidence.refund_policy = given(files.refund_policy);
    }
    evidence
}

/// What the payment's latest charge says of its risk and whether it can still be refunded.
/// The deadline a payment's method that confirms later names in its `next_action`: an OXXO
/// voucher's `expires_after`, a Boleto's, Konbini's, Multibanco's or Pix's `expires_at`; `None`
/// when it names none (a bank debit, a card, no next action).
fn deadline_of(
    next_action: Option<&stripe_core::PaymentIntentNextAction>,
) -> Option<DateTime<Utc>> {
    let action = next_action?;
    let seconds = action
        .oxxo_display_details
        .as_ref()
        .and_then(|oxxo| oxxo.expires_after)
        .or_else(|| action.boleto_display_details.as_ref()?.expires_at)
        .or_else(|| {
            action
                .konbini_display_details
                .as_ref()
                .map(|konbini| konbini.expires_at)
        })
        .or_else(|| action.multibanco_display_details.as_ref()?.expires_at)
        .or_else(|| action.pix_display_qr_code.as_ref()?.expires_at)?;
    DateTime::<Utc>::from_timestamp(seconds, 0)
}

impl StripeDisputes {
    /// `GET /v1/payment_intents/{id}`: the deadline of a payment whose method confirms later
    /// (see [`deadline_of`]).
    #[tracing::instrument(name = "stripe.payment_deadline", skip_all, fields(%payment_id))]
    pub async fn payment_deadline(
        &self,
        payment_id: String,
    ) -> Result<Option<DateTime<Utc>>, PaymentError> {
        let intent = RetrievePaymentIntent::new(payment_id.as_str())
            .send(&self.client)
            .await
            .map_err(payment_error)?;
        Ok(deadline_of(intent.next_action.as_ref()))
    }
}

fn risk_of(
    payment_id: &str,
    latest_charge: Option<Expandable<stripe_core::Charge>>,
) -> Result<ChargeRisk, PaymentError> {
    match latest_charge {
        None => Ok(ChargeRisk {
            risk_level: None,
            charge_id: None,
            refundable: false,
        }),
        Some(Expandable::Object(charge)) => Ok(ChargeRisk {
            risk_level: charge.outcome.and_then(|outcome| outcome.risk_level),
            charge_id: Some(charge.id.as_str().to_owned()),
            refundable: !charge.refunded
                && charge.amount_refunded < charge.amount
                && !charge.disputed,
        }),
        Some(Expandable::Id(charge)) => Err(PaymentError::Unknown(anyhow!(
            "Stripe answered payment {payment_id} with its latest charge {} not expanded",
            charge.as_str()
        ))),
    }
}

impl DisputeGateway for StripeDisputes {
    #[tracing::instrument(name = "stripe.upload_dispute_file", skip_all, fields(%label, file = file.field(), bytes = pdf.len()))]
    async fn upload_file(
        &self,
        label: String,
        file: EvidenceFile,
        pdf: Vec<u8>,
    ) -> Result<String, PaymentError> {
        let file_id = self
            .files
            .upload_pdf(format!("{}-{label}.pdf", file.field()), pdf)
            .await?;
        tracing::info!(%file_id, "stripe dispute evidence file uploaded");
        Ok(file_id)
    }

    /// `POST /v1/disputes/{id}` with `evidence[...]` and `submit`; a submission carries the
    /// dispute's idempotency key.
    #[tracing::instrument(name = "stripe.update_dispute_evidence", skip_all, fields(%dispute_id, submit, files = files.is_some()))]
    async fn update_evidence(
        &self,
        dispute_id: String,
        text: EvidenceText,
        files: Option<StagedFiles>,
        submit: bool,
    ) -> Result<(), PaymentError> {
        let request = UpdateDispute::new(dispute_id.as_str())
            .evidence(evidence(text, files))
            .submit(submit)
            .customize();
        let request = if submit {
            request.request_strategy(RequestStrategy::Idempotent(submit_key(&dispute_id)?))
        } else {
            request
        };
        let dispute = request.send(&self.client).await.map_err(payment_error)?;
        tracing::info!(
            status = dispute.status.as_str(),
            "stripe dispute evidence {}",
            if submit { "submitted" } else { "staged" }
        );
        Ok(())
    }

    #[tracing::instrument(name = "stripe.accept_dispute", skip_all, fields(%dispute_id))]
    async fn accept(&self, dispute_id: String) -> Result<(), PaymentError> {
        let dispute = CloseDispute::new(dispute_id.as_str())
            .send(&self.client)
            .await
            .map_err(payment_error)?;
        tracing::info!(status = dispute.status.as_str(), "stripe dispute accepted");
        Ok(())
    }

    #[tracing::instrument(name = "stripe.charge_risk", skip_all, fields(%payment_id))]
    async fn charge_risk(&self, payment_id: String) -> Result<ChargeRisk, PaymentError> {
        let intent = RetrievePaymentIntent::new(payment_id.as_str())
            .expand(vec!["latest_charge".to_owned()])
            .send(&self.client)
            .await
            .map_err(payment_error)?;
        risk_of(&payment_id, intent.latest_charge)
    }
}

/// Stripe's Files API (`POST {files_api_base}/v1/files`), which async-stripe lacks.
#[derive(Clone)]
struct FilesClient {
    http: reqwest::Client,
    /// `{files_api_base}/v1/files`.
    url: String,
    secret_key: SecretString,
}

/// The answer to an upload: Stripe's file object, of which the shop needs the id.
#[derive(Deserialize)]
struct StripeFile {
    id: String,
}

impl FilesClient {
    fn new(settings: &StripeSettings, timeout: Duration) -> Result<Self, StripeSetupError> {
        if settings.secret_key.expose_secret().trim().is_empty() {
            return Err(StripeSetupError::MissingSecretKey);
        }
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .build()
            .map_err(|err| StripeSetupError::InvalidConfig(err.to_string()))?;
        Ok(Self {
            http,
            url: format!(
                "{}/v1/files",
                settings.files_api_base.trim().trim_end_matches('/')
            ),
            secret_key: settings.secret_key.clone(),
        })
    }

    /// Uploads `pdf` as dispute evidence named `filename`; answers Stripe's `file_...` id.
    async fn upload_pdf(&self, filename: String, pdf: Vec<u8>) -> Result<String, PaymentError> {
        let file = Part::bytes(pdf)
            .file_name(filename)
            .mime_str("application/pdf")
            .map_err(|e| PaymentError::Unknown(anyhow!("bad content type for a file: {e}")))?;
        let form = Form::new()
            .text("purpose", "dispute_evidence")
            .part("file", file);
        let response = self
            .http
            .post(&self.url)
            .bearer_auth(self.secret_key.expose_secret())
            .multipart(form)
            .send()
            .await
            .map_err(transport_error)?;
        let status = response.status();
        let body = response.text().await.map_err(transport_error)?;
        if !status.is_success() {
            return Err(answer_error(status.as_u16(), &body));
        }
        let file: StripeFile = serde_json::from_str(&body).map_err(|e| {
            PaymentError::Unknown(anyhow!(
                "unreadable answer from Stripe's files API: {e}: {}",
                excerpt(&body)
            ))
        })?;
        if file.id.trim().is_empty() {
            return Err(PaymentError::Unknown(anyhow!(
                "Stripe's files API answered a file without an id"
            )));
        }
        Ok(file.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_text_field_is_left_out_rather_than_unset() {
        let evidence = evidence(
            EvidenceText {
                customer_name: "Robin".into(),
                customer_email_address: Some(" ".into()),
                customer_purchase_ip: None,
                product_description: String::new(),
                ..EvidenceText::default()
            },
            None,
        );
        assert_eq!(evidence.customer_name.as_deref(), Some("Robin"));
        assert_eq!(evidence.customer_email_address, None);
        assert_eq!(evidence.customer_purchase_ip, None);
        assert_eq!(evidence.product_description, None);
        assert_eq!(evidence.service_documentation, None);
    }
}
