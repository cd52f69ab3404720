//! The ports of disputes: the provider's dispute calls, and the renderer of the PDF files.

use std::future::Future;

use chrono::{DateTime, Utc};
use orders::gateways::PaymentError;
use orders::{OrderId, PaymentProvider};
use shared::Actor;

use crate::{
    DeliveryRecord, Dispute, DisputeFacts, EvidenceFile, EvidenceFiles, EvidenceText, StagedFiles,
    WarnedOrder,
};

/// Building the evidence files failed (a bug or a picture that cannot be read is skipped, not
/// this; this is the renderer failing as a whole).
#[derive(Debug, thiserror::Error)]
#[error("the evidence files could not be built: {0}")]
pub struct EvidenceError(pub String);

/// Turns a delivery record into the three PDF files of the evidence: CPU work (seconds for an
/// order with many pictures), so an implementation runs it off the async threads.
#[cfg_attr(test, mockall::automock)]
pub trait EvidenceRenderer: Send + Sync + 'static {
    /// The three files, together under 4.5 MB however many proof pictures the order has
    /// (pictures are downscaled, and left out past what fits, saying so in the file).
    fn render(
        &self,
        record: DeliveryRecord,
    ) -> impl Future<Output = Result<EvidenceFiles, EvidenceError>> + Send;
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
    /// Uploads one evidence file (`purpose=dispute_evidence`) and answers its id. `label`
    /// names the file: the dispute's id, or `order-N` when prepared before any dispute.
    fn upload_file(
        &self,
        label: String,
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

/// Where disputes are kept. A dispute is found by the provider's id (unique per provider;
/// the shop has one provider with disputes, Stripe).
#[cfg_attr(test, mockall::automock)]
pub trait DisputeRepository: Send + Sync + 'static {
    /// Records the provider's report of a dispute of payment `payment_id`: the first report
    /// creates the record (with the order paid by that payment, if any), later ones update
    /// its status, deadline, amount and reason; a report that the evidence was submitted marks
    /// it submitted; a status that ends the dispute (`won`, `lost`) records the outcome and
    /// closes it. Answers the dispute as kept now.
    fn record(
        &self,
        provider: PaymentProvider,
        payment_id: Option<String>,
        facts: DisputeFacts,
        at: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<Dispute>> + Send;

    /// Asks for the dispute's evidence to be staged, due at `at`, unless it was staged or
    /// submitted, was asked for before, or the dispute is closed: `true` when asked now.
    fn want_staging(
        &self,
        dispute_id: String,
        at: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<bool>> + Send;

    /// Up to `limit` disputes whose staging is due at `now`, each leased to this caller until
    /// `lease_until` (another instance does not get it meanwhile).
    fn lease_staging(
        &self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: u32,
    ) -> impl Future<Output = anyhow::Result<Vec<Dispute>>> + Send;

    /// The order's delivery record, `None` when there is no such order. Kept for disputes after
    /// the buyer's erasure (the evidence's legitimate interest).
    fn delivery_record(
        &self,
        order: OrderId,
    ) -> impl Future<Output = anyhow::Result<Option<DeliveryRecord>>> + Send;

    /// The dispute's evidence is staged with these files; its staging job is done.
    fn staged(
        &self,
        dispute_id: String,
        files: StagedFiles,
        at: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;

    /// A staging attempt failed with `error`: tried again at `retry_at`, or never (`None`).
    fn staging_failed(
        &self,
        dispute_id: String,
        error: String,
        retry_at: Option<DateTime<Utc>>,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;

    /// Takes the right to submit the dispute's evidence, keeping staff's `note`: `Claimed` for
    /// one caller across instances; a dispute submitted, being submitted or closed is not
    /// claimed again.
    fn claim_submission(
        &self,
        dispute_id: String,
        note: Option<String>,
        at: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<Claim>> + Send;

    /// Gives a claim back after the provider failed: nothing was submitted.
    fn release_submission(
        &self,
        dispute_id: String,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;

    /// The evidence was submitted at `at` (by `actor`, audited in the same transaction; by the
    /// deadline job when `None`).
    fn submitted(
        &self,
        dispute_id: String,
        files: Option<StagedFiles>,
        at: DateTime<Utc>,
        actor: Option<Actor>,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;

    /// The dispute was accepted at `at` by `actor` (audited): closed, the money with the buyer.
    fn accepted(
        &self,
        dispute_id: String,
        at: DateTime<Utc>,
        actor: Actor,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;

    /// Disputes with staged evidence nobody submitted, open, due by `before`.
    fn due_for_submission(
        &self,
        before: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<Vec<String>>> + Send;

    /// Every dispute, newest first.
    fn disputes(&self) -> impl Future<Output = anyhow::Result<Vec<Dispute>>> + Send;

    /// Deletes what was kept of erased buyers for the evidence of orders paid before
    /// `paid_before` that no open dispute names; answers how many orders' worth.
    fn forget_evidence(
        &self,
        paid_before: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<u64>> + Send;

    /// The disputes by outcome, and the disputes opened and orders paid since `since`.
    fn counts(
        &self,
        since: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<crate::DisputeCounts>> + Send;

    /// One dispute.
    fn dispute(
        &self,
        dispute_id: String,
    ) -> impl Future<Output = anyhow::Result<Option<Dispute>>> + Send;

    /// The order paid by `payment_id`, and whether it is delivered now.
    fn order_paid_by(
        &self,
        provider: PaymentProvider,
        payment_id: String,
    ) -> impl Future<Output = anyhow::Result<Option<(OrderId, bool)>>> + Send;

    /// Records a fraud warning on `order` and asks for its evidence to be prepared, due at
    /// `at`, unless it was asked for before: `true` when asked now.
    fn want_preparing(
        &self,
        order: OrderId,
        fraud_type: Option<String>,
        at: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<bool>> + Send;

    /// Up to `limit` warned orders whose evidence is due to be prepared at `now`, each leased
    /// to this caller until `lease_until`.
    fn lease_preparing(
        &self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: u32,
    ) -> impl Future<Output = anyhow::Result<Vec<WarnedOrder>>> + Send;

    /// The order's evidence is prepared: these files, built from the record of `fingerprint`.
    fn prepared(
        &self,
        order: OrderId,
        files: StagedFiles,
        fingerprint: String,
        at: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;

    /// Preparing failed with `error`: tried again at `retry_at`, or never (`None`).
    fn preparing_failed(
        &self,
        order: OrderId,
        error: String,
        retry_at: Option<DateTime<Utc>>,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;

    /// The files prepared for `order` and the fingerprint of the record they were built from.
    fn prepared_files(
        &self,
        order: OrderId,
    ) -> impl Future<Output = anyhow::Result<Option<(StagedFiles, String)>>> + Send;

    /// Every warned delivered order, newest warning first.
    fn warned_orders(&self) -> impl Future<Output = anyhow::Result<Vec<WarnedOrder>>> + Send;

    /// The warned delivered order `order`, `None` when no warning names it.
    fn warned_order(
        &self,
        order: OrderId,
    ) -> impl Future<Output = anyhow::Result<Option<WarnedOrder>>> + Send;
}

/// What claiming a submission found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// This caller submits; the dispute as kept, with the files staged before (if any).
    Claimed(Box<Dispute>, Option<StagedFiles>),
    /// Submitted already, being submitted, or closed.
    Taken,
    NotFound,
}

/// What the delivery record shows besides the store's rows: the proof pictures the shop keeps
/// (the media store) and the buyer's mails as they were worded.
#[cfg_attr(test, mockall::automock)]
pub trait RecordMaterials: Send + Sync + 'static {
    /// The picture at `path`, `None` when it is gone or cannot be read.
    fn picture(&self, path: String) -> impl Future<Output = Option<Vec<u8>>> + Send;

    /// The subject and plain text of the buyer's mail `kind` (`receipt`, `claimed`,
    /// `delivered`, `refunded`) about `order`, worded as sent (its link without the order's
    /// key); `None` when it cannot be worded now.
    fn mail_text(
        &self,
        order: orders::OrderId,
        kind: String,
    ) -> impl Future<Output = Option<(String, String)>> + Send;
}
