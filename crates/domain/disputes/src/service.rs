//! What the shop does with a dispute: keeps it, stages the delivery record as evidence once,
//! lets staff submit or accept it, and submits by itself before the deadline.

use chrono::{DateTime, Duration, Utc};
use orders::gateways::PaymentError;
use orders::PaymentProvider;
use shared::{Actor, Clock};

use crate::models::{
    Dispute, DisputeCounts, DisputeError, EvidenceState, WarnedOrder, MAX_NOTE_CHARS,
};
use crate::ports::{Claim, DisputeGateway, DisputeRepository, EvidenceRenderer, RecordMaterials};
use crate::text::evidence_text;
use crate::{DeliveryRecord, DisputeFacts, EvidenceFile, StagedFiles};

/// The refund policy the shop publishes: one source, with a version (what checkout shows and
/// what an order records).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundPolicy {
    pub version: String,
    /// Where it is published (`{public_url}/refunds`).
    pub url: String,
    /// Its text (plain, paragraphs separated by blank lines).
    pub text: String,
}

/// How disputes are handled (`[disputes]` in the configuration).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DisputeSettings {
    /// Without a staff action, the evidence is submitted this many hours before it is due.
    pub submit_hours_before_due: u32,
    /// Submit the evidence at once when it is staged, without waiting for staff.
    pub auto_submit: bool,
    /// The dispute rate the dashboard warns at, in basis points (hundredths of a percent:
    /// 75 is 0.75 %, where the card networks start watching a seller).
    pub warn_rate_basis_points: u32,
    /// The days after its payment an erased buyer's order keeps what its evidence needs.
    pub evidence_retention_days: u32,
}

impl Default for DisputeSettings {
    fn default() -> Self {
        DisputeSettings {
            submit_hours_before_due: 24,
            auto_submit: false,
            warn_rate_basis_points: 75,
            evidence_retention_days: 120,
        }
    }
}

/// The days the dispute rate counts back: disputes opened and orders paid in them.
pub const RATE_WINDOW_DAYS: i64 = 30;

/// The numbers an owner watches: disputes so far, and the rate of the last
/// [`RATE_WINDOW_DAYS`] days against the warning line.
#[derive(Debug, Clone, PartialEq)]
pub struct DisputeFigures {
    pub counts: DisputeCounts,
    /// Disputes opened per paid order in the window, in percent; `None` without paid orders.
    pub rate_percent: Option<f64>,
    /// The warning line, in percent.
    pub warn_rate_percent: f64,
    /// The rate is at or over the line.
    pub over_warning: bool,
}

impl DisputeFigures {
    /// The figures of `counts` against the line `warn_basis_points`.
    pub fn of(counts: DisputeCounts, warn_basis_points: u32) -> Self {
        let (opened, paid) = (counts.opened_in_window, counts.paid_in_window);
        DisputeFigures {
            rate_percent: (paid > 0).then(|| opened as f64 * 100.0 / paid as f64),
            warn_rate_percent: f64::from(warn_basis_points) / 100.0,
            // in whole numbers: opened / paid >= bp / 10,000
            over_warning: opened > 0
                && u128::from(opened) * 10_000 >= u128::from(warn_basis_points) * u128::from(paid),
            counts,
        }
    }
}

/// How many times staging is tried before it is left to staff.
pub const STAGING_ATTEMPTS: i32 = 8;
/// How long one staging attempt holds its lease.
const STAGING_LEASE_MINUTES: i64 = 5;

/// The wait before staging is tried again after `attempts` failed attempts: 1, 2, 4 ... minutes.
fn retry_in(attempts: i32) -> Duration {
    Duration::minutes(1_i64 << attempts.clamp(0, 10))
}

/// The outside parts of the disputes service: where disputes are kept, the provider, the
/// renderer of the files and where the proof pictures are.
pub struct DisputeParts<R, G, E, P> {
    pub repo: R,
    pub gateway: G,
    pub renderer: E,
    pub proofs: P,
}

/// The ports the disputes service runs on, named once.
pub trait DisputePorts: 'static {
    type Repo: DisputeRepository;
    type Gateway: DisputeGateway;
    type Renderer: EvidenceRenderer;
    type Proofs: RecordMaterials;
    type Clock: Clock;
}

/// The ports' parts of a [`DisputePorts`] set.
type PartsOf<K> = DisputeParts<
    <K as DisputePorts>::Repo,
    <K as DisputePorts>::Gateway,
    <K as DisputePorts>::Renderer,
    <K as DisputePorts>::Proofs,
>;

/// The disputes service.
pub struct Disputes<K: DisputePorts> {
    parts: PartsOf<K>,
    clock: K::Clock,
    settings: DisputeSettings,
    policy: RefundPolicy,
}

impl<K: DisputePorts> Disputes<K> {
    pub fn new(
        parts: PartsOf<K>,
        clock: K::Clock,
        settings: DisputeSettings,
        policy: RefundPolicy,
    ) -> Self {
        Disputes {
            parts,
            clock,
            settings,
            policy,
        }
    }

    /// The order's delivery record with the policy's text and the proof pictures read; `None`
    /// when the order is gone. A picture that cannot be read is left out.
    async fn record_of(&self, order: orders::OrderId) -> anyhow::Result<Option<DeliveryRecord>> {
        let Some(mut record) = self.parts.repo.delivery_record(order).await? else {
            return Ok(None);
        };
        record.refund_policy.url = self.policy.url.clone();
        if record.refund_policy.version == self.policy.version
            || record.refund_policy.version.is_empty()
        {
            record.refund_policy.version = self.policy.version.clone();
            record.refund_policy.text = self.policy.text.clone();
        }
        let mut proofs = Vec::with_capacity(record.proofs.len());
        for mut proof in std::mem::take(&mut record.proofs) {
            if let Some(bytes) = self.parts.proofs.picture(proof.path.clone()).await {
                proof.bytes = bytes;
                proofs.push(proof);
            }
        }
        record.proofs = proofs;
        // the mails as the buyer got them, where they can be worded again
        for said in &mut record.communications {
            let Some(kind) = said.mail_kind.clone() else {
                continue;
            };
            if let Some((title, body)) = self.parts.proofs.mail_text(order, kind).await {
                said.title = title;
                said.body = body;
            }
        }
        Ok(Some(record))
    }

    /// The provider reported a dispute (opened, changed or closed): keeps it, and asks for the
    /// delivery record to be staged as evidence when the order was delivered and nothing is
    /// staged yet. However often the provider repeats itself, the evidence is staged once
    /// (staging makes the provider report the dispute changed).
    pub async fn reported(
        &self,
        provider: PaymentProvider,
        payment_id: Option<String>,
        facts: DisputeFacts,
    ) -> anyhow::Result<Dispute> {
        let now = self.clock.now();
        let dispute = self
            .parts
            .repo
            .record(provider, payment_id, facts, now)
            .await?;
        if dispute.delivered && dispute.evidence == EvidenceState::None && !dispute.is_closed() {
            let asked = self
                .parts
                .repo
                .want_staging(dispute.dispute_id.clone(), now)
                .await?;
            if asked {
                tracing::info!(dispute = %dispute.dispute_id, "dispute evidence to be staged");
            }
        }
        Ok(dispute)
    }

    /// Stages the evidence of every dispute whose staging is due; answers how many were staged.
    pub async fn stage_due(&self) -> anyhow::Result<usize> {
        let (now, until) = self.lease_window();
        let mut staged = 0;
        for dispute in self.parts.repo.lease_staging(now, until, 10).await? {
            staged += usize::from(self.stage_one(&dispute).await?);
        }
        Ok(staged)
    }

    /// From now to the end of a lease taken now.
    fn lease_window(&self) -> (DateTime<Utc>, DateTime<Utc>) {
        let now = self.clock.now();
        (now, now + Duration::minutes(STAGING_LEASE_MINUTES))
    }

    async fn stage_one(&self, dispute: &Dispute) -> anyhow::Result<bool> {
        let id = dispute.dispute_id.clone();
        let submit = self.settings.auto_submit;
        match self.send(dispute, None, None, submit).await {
            Ok(files) => {
                let now = self.clock.now();
                if submit {
                    self.parts
                        .repo
                        .submitted(id.clone(), files, now, None)
                        .await?;
                } else if let Some(files) = files {
                    self.parts.repo.staged(id.clone(), files, now).await?;
                }
                tracing::info!(dispute = %id, submitted = submit, "dispute evidence staged");
                Ok(true)
            }
            Err(DisputeError::Provider(error)) => {
                let retry = self.retry_at(&error, dispute.staging_attempts);
                tracing::warn!(dispute = %id, %error, "staging dispute evidence failed");
                self.parts
                    .repo
                    .staging_failed(id, error.to_string(), retry)
                    .await?;
                Ok(false)
            }
            Err(error) => {
                tracing::warn!(dispute = %id, %error, "dispute evidence could not be built");
                self.parts
                    .repo
                    .staging_failed(id, error.to_string(), None)
                    .await?;
                Ok(false)
            }
        }
    }

    /// Builds the evidence and sends it: the files uploaded unless `files` were staged before,
    /// then the text (with staff's `note`), submitted when `submit`. Answers the files sent.
    async fn send(
        &self,
        dispute: &Dispute,
        files: Option<StagedFiles>,
        note: Option<&str>,
        submit: bool,
    ) -> Result<Option<StagedFiles>, DisputeError> {
        let Some(order) = dispute.order_id else {
            return Err(DisputeError::Conflict(
                "This dispute is about no order of ours.".to_owned(),
            ));
        };
        let record = self
            .record_of(order)
            .await?
            .ok_or_else(|| DisputeError::Conflict(format!("Order #{order} is gone.")))?;
        let text = evidence_text(&record, note);
        let files = match files {
            Some(files) => files,
            None => match self.parts.repo.prepared_files(order).await? {
                // prepared at a fraud warning from the record as it still is: nothing to upload
                Some((files, fingerprint)) if fingerprint == record.fingerprint() => {
                    tracing::info!(dispute = %dispute.dispute_id, %order, "dispute staged with the evidence prepared at the fraud warning");
                    files
                }
                _ => self.upload(dispute.dispute_id.clone(), record).await?,
            },
        };
        self.parts
            .gateway
            .update_evidence(
                dispute.dispute_id.clone(),
                text,
                Some(files.clone()),
                submit,
            )
            .await?;
        Ok(Some(files))
    }

    /// Renders the record's three files and uploads them, named by `label`.
    async fn upload(
        &self,
        label: String,
        record: DeliveryRecord,
    ) -> Result<StagedFiles, DisputeError> {
        let pdfs = self
            .parts
            .renderer
            .render(record)
            .await
            .map_err(|error| DisputeError::Unknown(anyhow::Error::new(error)))?;
        let upload = |file: EvidenceFile| {
            self.parts
                .gateway
                .upload_file(label.clone(), file, pdfs.get(file).to_vec())
        };
        Ok(StagedFiles {
            service_documentation: upload(EvidenceFile::ServiceDocumentation).await?,
            customer_communication: upload(EvidenceFile::CustomerCommunication).await?,
            refund_policy: upload(EvidenceFile::RefundPolicy).await?,
        })
    }

    /// When a job that failed with `error` after `attempts` earlier failures is tried again:
    /// a refusal will not change by itself; anything else is tried again, a while later each
    /// time, until staff are left to it (`None`).
    fn retry_at(&self, error: &PaymentError, attempts: i32) -> Option<DateTime<Utc>> {
        match error {
            PaymentError::Rejected { .. } => None,
            _ if attempts + 1 >= STAGING_ATTEMPTS => None,
            _ => Some(self.clock.now() + retry_in(attempts)),
        }
    }

    /// The card's issuer warned that the payment `payment_id` looks fraudulent. When it paid
    /// an order that is delivered (nothing left to hold), the dispute that may follow is
    /// prepared for: the evidence is built and uploaded now, once however often the warning
    /// repeats. Answers whether that was asked now (an undelivered order is held by after the
    /// sale instead).
    pub async fn fraud_warned(
        &self,
        provider: PaymentProvider,
        payment_id: Option<String>,
        fraud_type: Option<String>,
    ) -> anyhow::Result<bool> {
        let Some(payment_id) = payment_id else {
            return Ok(false);
        };
        let Some((order, true)) = self.parts.repo.order_paid_by(provider, payment_id).await? else {
            return Ok(false);
        };
        let asked = self
            .parts
            .repo
            .want_preparing(order, fraud_type, self.clock.now())
            .await?;
        if asked {
            tracing::info!(%order, "fraud warning on a delivered order: its evidence is prepared in advance");
        }
        Ok(asked)
    }

    /// Prepares the evidence of every warned order whose preparing is due; answers how many
    /// were prepared.
    pub async fn prepare_due(&self) -> anyhow::Result<usize> {
        let (now, until) = self.lease_window();
        let mut prepared = 0;
        for warned in self.parts.repo.lease_preparing(now, until, 10).await? {
            prepared += usize::from(self.prepare_one(&warned).await?);
        }
        Ok(prepared)
    }

    async fn prepare_one(&self, warned: &WarnedOrder) -> anyhow::Result<bool> {
        let order = warned.order_id;
        let built = match self.record_of(order).await? {
            Some(record) => {
                let fingerprint = record.fingerprint();
                self.upload(format!("order-{order}"), record)
                    .await
                    .map(|files| (files, fingerprint))
            }
            None => Err(DisputeError::Conflict(format!("Order #{order} is gone."))),
        };
        match built {
            Ok((files, fingerprint)) => {
                self.parts
                    .repo
                    .prepared(order, files, fingerprint, self.clock.now())
                    .await?;
                tracing::info!(%order, "evidence prepared at the fraud warning");
                Ok(true)
            }
            Err(error) => {
                let retry = match &error {
                    DisputeError::Provider(error) => self.retry_at(error, warned.attempts),
                    _ => None,
                };
                tracing::warn!(%order, %error, "preparing the evidence at a fraud warning failed");
                self.parts
                    .repo
                    .preparing_failed(order, error.to_string(), retry)
                    .await?;
                Ok(false)
            }
        }
    }

    /// Every delivered order that got a fraud warning, newest first, with its evidence's state.
    pub async fn warned_orders(&self) -> anyhow::Result<Vec<WarnedOrder>> {
        self.parts.repo.warned_orders().await
    }

    /// One evidence file of a warned order, as a dispute of it would send it (built from the
    /// order's record now). `NotFound` for an order without a warning on record.
    pub async fn warned_evidence_file(
        &self,
        order: orders::OrderId,
        file: EvidenceFile,
    ) -> Result<Vec<u8>, DisputeError> {
        if self.parts.repo.warned_order(order).await?.is_none() {
            return Err(DisputeError::NotFound(format!("order {order}")));
        }
        self.file_of(order, file).await
    }

    /// One evidence file of `order`, built from its record now.
    async fn file_of(
        &self,
        order: orders::OrderId,
        file: EvidenceFile,
    ) -> Result<Vec<u8>, DisputeError> {
        let record = self
            .record_of(order)
            .await?
            .ok_or_else(|| DisputeError::Conflict(format!("Order #{order} is gone.")))?;
        let pdfs = self
            .parts
            .renderer
            .render(record)
            .await
            .map_err(|error| DisputeError::Unknown(anyhow::Error::new(error)))?;
        Ok(pdfs.get(file).to_vec())
    }

    /// Staff submit the evidence to the bank, with their note. Refused when the note is too
    /// long, the dispute unknown, submitted or closed, or its order was never delivered (no
    /// evidence: refund or accept). Nothing changes when the provider fails.
    pub async fn submit(
        &self,
        dispute_id: String,
        note: Option<String>,
        actor: Actor,
    ) -> Result<(), DisputeError> {
        if note
            .as_deref()
            .is_some_and(|note| note.chars().count() > MAX_NOTE_CHARS)
        {
            return Err(DisputeError::NoteTooLong {
                max: MAX_NOTE_CHARS,
            });
        }
        let dispute = self.open_dispute(&dispute_id).await?;
        if !dispute.delivered {
            return Err(DisputeError::Conflict(
                "The order was never delivered: there is no evidence to submit. Refund it or \
                 accept the dispute."
                    .to_owned(),
            ));
        }
        self.submit_claimed(dispute_id, note, Some(actor)).await
    }

    /// Submits with a claim taken first, so that staff and the deadline job (on any instance)
    /// submit once; the claim is given back when the provider fails.
    async fn submit_claimed(
        &self,
        dispute_id: String,
        note: Option<String>,
        actor: Option<Actor>,
    ) -> Result<(), DisputeError> {
        let now = self.clock.now();
        let (dispute, files) = match self
            .parts
            .repo
            .claim_submission(dispute_id.clone(), note.clone(), now)
            .await?
        {
            Claim::Claimed(dispute, files) => (*dispute, files),
            Claim::Taken => return Err(already_done()),
            Claim::NotFound => return Err(DisputeError::NotFound(dispute_id)),
        };
        match self.send(&dispute, files, note.as_deref(), true).await {
            Ok(files) => {
                self.parts
                    .repo
                    .submitted(dispute_id.clone(), files, self.clock.now(), actor)
                    .await?;
                tracing::info!(dispute = %dispute_id, "dispute evidence submitted");
                Ok(())
            }
            Err(error) => {
                self.parts.repo.release_submission(dispute_id).await?;
                Err(error)
            }
        }
    }

    /// Staff accept the dispute: the provider closes it and the money stays with the buyer.
    pub async fn accept(&self, dispute_id: String, actor: Actor) -> Result<(), DisputeError> {
        let dispute = self.open_dispute(&dispute_id).await?;
        if dispute.evidence == EvidenceState::Submitted {
            return Err(already_done());
        }
        self.parts.gateway.accept(dispute_id.clone()).await?;
        self.parts
            .repo
            .accepted(dispute_id, self.clock.now(), actor)
            .await?;
        Ok(())
    }

    /// Submits the staged evidence nobody submitted, `submit_hours_before_due` before it is
    /// due; answers how many went. Once per dispute across instances.
    pub async fn submit_due(&self) -> anyhow::Result<usize> {
        let before =
            self.clock.now() + Duration::hours(i64::from(self.settings.submit_hours_before_due));
        let mut sent = 0;
        for dispute_id in self.parts.repo.due_for_submission(before).await? {
            match self.submit_claimed(dispute_id.clone(), None, None).await {
                Ok(()) => sent += 1,
                Err(DisputeError::Conflict(_)) => {}
                Err(error) => {
                    tracing::warn!(dispute = %dispute_id, %error, "submitting before the deadline failed");
                }
            }
        }
        Ok(sent)
    }

    /// A dispute that is still open, or why not.
    async fn open_dispute(&self, dispute_id: &str) -> Result<Dispute, DisputeError> {
        let dispute = self
            .parts
            .repo
            .dispute(dispute_id.to_owned())
            .await?
            .ok_or_else(|| DisputeError::NotFound(dispute_id.to_owned()))?;
        if dispute.is_closed() {
            return Err(DisputeError::Conflict("This dispute is closed.".to_owned()));
        }
        Ok(dispute)
    }

    /// One dispute as kept.
    pub async fn dispute(&self, dispute_id: String) -> anyhow::Result<Option<Dispute>> {
        self.parts.repo.dispute(dispute_id).await
    }

    /// Every dispute, newest first.
    pub async fn disputes(&self) -> anyhow::Result<Vec<Dispute>> {
        self.parts.repo.disputes().await
    }

    /// The days after its payment an erased buyer's order keeps what its evidence needs.
    pub fn evidence_retention_days(&self) -> u32 {
        self.settings.evidence_retention_days
    }

    /// Purges what was kept of erased buyers for their orders' evidence once
    /// `evidence_retention_days` passed since the payment and no dispute of the order is open.
    pub async fn forget_expired_evidence(&self) -> anyhow::Result<u64> {
        let paid_before =
            self.clock.now() - Duration::days(i64::from(self.settings.evidence_retention_days));
        let forgotten = self.parts.repo.forget_evidence(paid_before).await?;
        if forgotten > 0 {
            tracing::info!(orders = forgotten, "evidence kept of erased buyers purged");
        }
        Ok(forgotten)
    }

    /// The dashboard's dispute numbers now.
    pub async fn figures(&self) -> anyhow::Result<DisputeFigures> {
        let since = self.clock.now() - Duration::days(RATE_WINDOW_DAYS);
        let counts = self.parts.repo.counts(since).await?;
        Ok(DisputeFigures::of(
            counts,
            self.settings.warn_rate_basis_points,
        ))
    }

    /// One evidence file of a dispute, as the provider gets it (built from the order's record
    /// now). `NotFound` for an unknown dispute; `Conflict` for one about no order of ours.
    pub async fn evidence_file(
        &self,
        dispute_id: String,
        file: EvidenceFile,
    ) -> Result<Vec<u8>, DisputeError> {
        let dispute = self
            .parts
            .repo
            .dispute(dispute_id.clone())
            .await?
            .ok_or(DisputeError::NotFound(dispute_id))?;
        let order = dispute.order_id.ok_or_else(|| {
            DisputeError::Conflict("This dispute is about no order of ours.".to_owned())
        })?;
        self.file_of(order, file).await
    }
}

fn already_done() -> DisputeError {
    DisputeError::Conflict(
        "The evidence was submitted already, or the dispute is closed.".to_owned(),
    )
}

#[cfg(test)]
mod figures_tests {
    use super::*;

    fn counts(opened_in_window: u64, paid_in_window: u64) -> DisputeCounts {
        DisputeCounts {
            opened_in_window,
            paid_in_window,
            ..DisputeCounts::default()
        }
    }

    #[test]
    fn the_rate_is_disputes_per_paid_order_and_the_line_is_reached_exactly() {
        // 3 disputes in 400 paid orders: 0.75 %, on the default line
        let on_line = DisputeFigures::of(counts(3, 400), 75);
        assert_eq!(on_line.rate_percent, Some(0.75));
        assert_eq!(on_line.warn_rate_percent, 0.75);
        assert!(on_line.over_warning);
        // 2 in 400: 0.5 %, under it
        let under = DisputeFigures::of(counts(2, 400), 75);
        assert_eq!(under.rate_percent, Some(0.5));
        assert!(!under.over_warning);
    }

    #[test]
    fn without_paid_orders_there_is_no_rate_and_no_dispute_is_no_warning() {
        let quiet = DisputeFigures::of(counts(0, 0), 75);
        assert_eq!(quiet.rate_percent, None);
        assert!(!quiet.over_warning);
        // a dispute of an order paid before the window, none paid in it: over any line
        let alone = DisputeFigures::of(counts(1, 0), 75);
        assert_eq!(alone.rate_percent, None);
        assert!(alone.over_warning);
    }
}
