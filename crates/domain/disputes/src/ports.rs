//! The ports of disputes: the provider's dispute calls, and the renderer of the PDF files.

use std::future::Future;

use orders::gateways::PaymentError;

use crate::{DeliveryRecord, EvidenceFile, EvidenceFiles, EvidenceText, StagedFiles};

/// Building the evidence files failed (a bug or a picture that cannot be read is skipped, not
/// this; this is the renderer failing as a whole).
#[derive(Debug, thiserror::Error)]
#[error("the evidence files could not be built: {0}")]
pub struct EvidenceError(pub String);

/// Turns a delivery record into the three PDF files of the evidence. CPU work, no I/O.
#[cfg_attr(test, mockall::automock)]
pub trait EvidenceRenderer: Send + Sync + 'static {
    /// The three files, together under 4.5 MB however many proof pictures the order has
    /// (pictures are downscaled, and left out past what fits, saying so in the file).
    fn render(&self, record: &DeliveryRecord) -> Result<EvidenceFiles, EvidenceError>;
}

/// What the provider says of a payment's charge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChargeRisk {
    /// Stripe's `outcome.risk_level` of the latest charge (`normal`, `elevated`, `highest`,
    /// `not_assessed`, `unknown`); `None` when the payment has no charge yet.
    pub risk_level: Option<String>,
    /// The charge's id (`ch_...`).
    pub charge_id: Option<String>,
    /// Whether the charge can still be refunded (not refunded wholly, not disputed).
    pub refundable: bool,
}

/// The provider's dispute calls (Stripe's Disputes and Files APIs). Every call fails like the
/// payment gateway's: `Rejected` (our request is wrong: retrying will not help), `Unavailable`
/// (try again later), `Unknown` (an answer we cannot read).
#[cfg_attr(test, mockall::automock)]
pub trait DisputeGateway: Send + Sync + 'static {
    /// Uploads one evidence file (`purpose=dispute_evidence`) and answers its id.
    fn upload_file(
        &self,
        dispute_id: String,
        file: EvidenceFile,
        pdf: Vec<u8>,
    ) -> impl Future<Output = Result<String, PaymentError>> + Send;

    /// Sets the dispute's evidence (`POST /v1/disputes/{id}` with `evidence[...]`), and
    /// submits it to the bank when `submit` (otherwise it stays staged for review).
    fn update_evidence(
        &self,
        dispute_id: String,
        text: EvidenceText,
        files: Option<StagedFiles>,
        submit: bool,
    ) -> impl Future<Output = Result<(), PaymentError>> + Send;

    /// Accepts the dispute (`POST /v1/disputes/{id}/close`): the money stays with the buyer.
    fn accept(&self, dispute_id: String) -> impl Future<Output = Result<(), PaymentError>> + Send;

    /// The risk of the payment's latest charge (`GET /v1/payment_intents/{id}` with
    /// `latest_charge` expanded).
    fn charge_risk(
        &self,
        payment_id: String,
    ) -> impl Future<Output = Result<ChargeRisk, PaymentError>> + Send;
}
