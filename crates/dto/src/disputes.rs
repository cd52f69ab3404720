//! Disputes (`/api/admin/disputes…`) as the API sends them.

use chrono::{DateTime, Utc};
use disputes::Dispute;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::in_major_units;

/// Where a dispute's evidence is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = DisputeEvidence)]
#[serde(rename_all = "snake_case")]
pub enum Evidence {
    /// Nothing sent yet (an undelivered order never has evidence: refund or accept).
    None,
    /// Staged with Stripe for staff to review; not with the bank yet.
    Staged,
    /// Submitted to the bank.
    Submitted,
}

impl From<disputes::EvidenceState> for Evidence {
    fn from(state: disputes::EvidenceState) -> Self {
        match state {
            disputes::EvidenceState::None => Evidence::None,
            disputes::EvidenceState::Staged => Evidence::Staged,
            disputes::EvidenceState::Submitted => Evidence::Submitted,
        }
    }
}

/// A buyer's dispute of an order's payment.
#[derive(Serialize, ToSchema)]
#[schema(as = Dispute)]
pub struct DisputeJson {
    /// Stripe's dispute id.
    #[schema(example = "du_1PqXyZ2eZvKYlo2C")]
    dispute_id: String,
    /// The order whose payment is disputed; `null` for a payment of no order of ours.
    #[schema(required = true, example = 42)]
    order_id: Option<i64>,
    /// Whether that order was delivered (only a delivered order has evidence).
    delivered: bool,
    /// The amount disputed, in `currency`, like the order totals.
    #[schema(example = 24.99)]
    amount: f64,
    #[schema(example = "USD")]
    currency: String,
    /// The bank's reason (`fraudulent`, `product_not_received`, ...).
    #[schema(required = true, example = "product_not_received")]
    reason: Option<String>,
    /// Stripe's status (`needs_response`, `under_review`, `won`, `lost`, ...).
    #[schema(example = "needs_response")]
    status: String,
    /// When the evidence must be with the bank.
    #[schema(required = true)]
    due_by: Option<DateTime<Utc>>,
    evidence: Evidence,
    /// How it ended (`won`, `lost`); `null` while open.
    #[schema(required = true, example = "won")]
    outcome: Option<String>,
    /// What staff wrote to the bank with the evidence.
    #[schema(required = true)]
    note: Option<String>,
    created_at: DateTime<Utc>,
}

/// The decimals of `currency` as Stripe names it (`brl`, `jpy`): 2 for one ISO 4217 does not
/// know.
fn minor_units_of(currency: &str) -> u32 {
    iso_currency::Currency::from_code(&currency.trim().to_ascii_uppercase())
        .map_or(2, |known| u32::from(known.exponent().unwrap_or(0)))
}

pub fn to_json(dispute: Dispute) -> DisputeJson {
    DisputeJson {
        dispute_id: dispute.dispute_id,
        order_id: dispute.order_id.map(|id| id.get()),
        delivered: dispute.delivered,
        amount: in_major_units(dispute.amount_minor, minor_units_of(&dispute.currency)),
        currency: dispute.currency,
        reason: dispute.reason,
        status: dispute.status,
        due_by: dispute.due_by,
        evidence: dispute.evidence.into(),
        outcome: dispute.outcome,
        note: dispute.staff_note,
        created_at: dispute.created_at,
    }
}

/// `POST /api/admin/disputes/{dispute_id}/submit`: staff's note to the bank.
#[derive(Deserialize, ToSchema, Default)]
#[schema(as = DisputeSubmission)]
#[serde(default)]
pub struct Submission {
    /// Added to the evidence's summary (at most 1,000 characters).
    #[schema(
        max_length = 1000,
        example = "The buyer thanked our staff in the ticket after the trade."
    )]
    pub note: Option<String>,
}

/// Where a warned order's evidence is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = PreparedEvidence)]
#[serde(rename_all = "snake_case")]
pub enum Prepared {
    /// Being built and uploaded to Stripe (or tried again after a failure).
    Preparing,
    /// Uploaded to Stripe: a dispute of the order is staged with these files at once.
    Prepared,
    /// Given up after its attempts; a dispute of the order builds its own files.
    Failed,
}

impl From<disputes::PreparedState> for Prepared {
    fn from(state: disputes::PreparedState) -> Self {
        match state {
            disputes::PreparedState::Preparing => Prepared::Preparing,
            disputes::PreparedState::Prepared => Prepared::Prepared,
            disputes::PreparedState::Failed => Prepared::Failed,
        }
    }
}

/// A delivered order that got an early fraud warning: a dispute may follow, and its evidence
/// is prepared in advance.
#[derive(Serialize, ToSchema)]
#[schema(as = FraudWarnedOrder)]
pub struct WarnedOrderJson {
    #[schema(example = 42)]
    order_id: i64,
    /// When the warning came.
    warned_at: DateTime<Utc>,
    /// The issuer's kind of fraud, as Stripe says it.
    #[schema(required = true, example = "unauthorized_use_of_card")]
    fraud_type: Option<String>,
    evidence: Prepared,
    /// When the files were uploaded to Stripe.
    #[schema(required = true)]
    prepared_at: Option<DateTime<Utc>>,
    /// Why the last attempt failed, while not prepared.
    #[schema(required = true)]
    error: Option<String>,
}

pub fn warned_json(warned: disputes::WarnedOrder) -> WarnedOrderJson {
    let evidence = warned.evidence();
    WarnedOrderJson {
        order_id: warned.order_id.get(),
        warned_at: warned.warned_at,
        fraud_type: warned.fraud_type,
        evidence: evidence.into(),
        prepared_at: warned.prepared_at,
        error: (evidence != disputes::PreparedState::Prepared)
            .then_some(warned.last_error)
            .flatten(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use disputes::{EvidenceState, PreparedState};

    #[test]
    fn every_evidence_state_is_sent_as_the_domain_names_it() {
        for state in [
            EvidenceState::None,
            EvidenceState::Staged,
            EvidenceState::Submitted,
        ] {
            assert_eq!(
                serde_json::to_value(Evidence::from(state)).unwrap(),
                state.as_str()
            );
        }
        for state in [
            PreparedState::Preparing,
            PreparedState::Prepared,
            PreparedState::Failed,
        ] {
            assert_eq!(
                serde_json::to_value(Prepared::from(state)).unwrap(),
                state.as_str()
            );
        }
    }
}
