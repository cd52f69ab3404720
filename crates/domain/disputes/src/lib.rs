//! Disputes: what the bank is told when a buyer disputes a payment. The shop keeps each
//! dispute as a record, turns an order's delivery record into the provider's evidence (text
//! fields and three PDF files), stages it with the provider for staff to review, and submits it
//! before the deadline when nobody did.

mod evidence;
mod ports;

pub use evidence::{
    Communication, DeliveryRecord, DisputeFacts, EvidenceFile, EvidenceFiles, EvidenceText, ProofImage,
    RecordLine, RefundPolicyShown, StagedFiles,
};
pub use ports::{ChargeRisk, DisputeGateway, EvidenceError, EvidenceRenderer};
