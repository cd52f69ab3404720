//! Disputes: what the bank is told when a buyer disputes a payment. The shop keeps each
//! dispute as a record, turns an order's delivery record into the provider's evidence (text
//! fields and three PDF files), stages it with the provider for staff to review, and submits it
//! before the deadline when nobody did.

mod evidence;
mod models;
mod ports;
mod service;
mod text;

pub use evidence::{
    Communication, DeliveryRecord, DisputeFacts, EvidenceFile, EvidenceFiles, EvidenceText,
    ProofImage, RecordLine, RefundPolicyShown, StagedFiles,
};
pub use models::{
    Dispute, DisputeCounts, DisputeError, EvidenceState, PreparedState, WarnedOrder, MAX_NOTE_CHARS,
};
pub use ports::{
    ChargeRisk, Claim, DisputeGateway, DisputeRepository, EvidenceError, EvidenceRenderer,
    RecordMaterials,
};
pub use service::{
    DisputeFigures, DisputeParts, DisputePorts, DisputeSettings, Disputes, RefundPolicy,
    RATE_WINDOW_DAYS, STAGING_ATTEMPTS,
};
pub use text::{evidence_text, timeline, utc};
