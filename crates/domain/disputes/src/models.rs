//! A dispute as the shop keeps it, and the states of its evidence.

use chrono::{DateTime, Utc};
use orders::{OrderId, PaymentProvider};

/// Where a dispute's evidence is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvidenceState {
    /// Nothing sent to the provider yet.
    None,
    /// Sent to the provider for staff to review; not yet with the bank.
    Staged,
    /// Submitted to the bank (by staff, by the deadline job, or at the provider's dashboard).
    Submitted,
}

impl EvidenceState {
    pub fn as_str(self) -> &'static str {
        match self {
            EvidenceState::None => "none",
            EvidenceState::Staged => "staged",
            EvidenceState::Submitted => "submitted",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "none" => Some(EvidenceState::None),
            "staged" => Some(EvidenceState::Staged),
            "submitted" => Some(EvidenceState::Submitted),
            _ => None,
        }
    }
}

/// A provider's dispute as the shop keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dispute {
    pub provider: PaymentProvider,
    /// The provider's dispute id.
    pub dispute_id: String,
    /// The order whose payment is disputed (`None` when no order of ours has that payment).
    pub order_id: Option<OrderId>,
    /// Whether that order had been delivered (only a delivered order has evidence to send).
    pub delivered: bool,
    pub amount_minor: i64,
    pub currency: String,
    pub reason: Option<String>,
    /// The provider's status (`needs_response`, `under_review`, `won`, `lost`, ...).
    pub status: String,
    pub due_by: Option<DateTime<Utc>>,
    pub evidence: EvidenceState,
    /// How it ended (`won`, `lost`), once closed.
    pub outcome: Option<String>,
    pub staff_note: Option<String>,
    /// How many times staging the evidence failed.
    pub staging_attempts: i32,
    pub created_at: DateTime<Utc>,
    pub closed_at: Option<DateTime<Utc>>,
}

impl Dispute {
    /// Whether the dispute is over (the bank decided, or the shop accepted it).
    pub fn is_closed(&self) -> bool {
        self.closed_at.is_some()
    }
}

/// The disputes counted: by outcome so far, and in the dashboard's window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DisputeCounts {
    /// Every dispute ever opened.
    pub opened: u64,
    pub won: u64,
    pub lost: u64,
    /// Open: no outcome yet.
    pub pending: u64,
    /// The money lost to disputes, in cents (the shop sells in one currency).
    pub lost_minor: i64,
    /// Disputes opened in the window.
    pub opened_in_window: u64,
    /// Orders paid in the window.
    pub paid_in_window: u64,
}

/// How a staff submission or acceptance went wrong before anything changed.
#[derive(Debug, thiserror::Error)]
pub enum DisputeError {
    #[error("no dispute {0}")]
    NotFound(String),
    /// Submitted already, or closed: nothing more can be sent.
    #[error("{0}")]
    Conflict(String),
    /// The note is longer than [`MAX_NOTE_CHARS`].
    #[error("The note is longer than {max} characters.")]
    NoteTooLong { max: usize },
    /// The provider refused or could not be reached: nothing changed.
    #[error("the payment provider failed: {0}")]
    Provider(#[from] orders::gateways::PaymentError),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// The most a staff note to the bank may hold.
pub const MAX_NOTE_CHARS: usize = 1_000;

/// An early fraud warning on a delivered order, and the evidence prepared at once for the
/// dispute that may follow (built and uploaded to the provider before any dispute exists).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarnedOrder {
    pub order_id: OrderId,
    pub warned_at: DateTime<Utc>,
    /// The issuer's kind of fraud (`unauthorized_use_of_card`, ...), as the provider says it.
    pub fraud_type: Option<String>,
    /// When the files were uploaded; `None` while they are not.
    pub prepared_at: Option<DateTime<Utc>>,
    /// Whether building them is due or under way (tried again after a failure).
    pub pending: bool,
    pub attempts: i32,
    /// Why the last attempt failed.
    pub last_error: Option<String>,
}

/// Where a warned order's evidence is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreparedState {
    /// To be built and uploaded (or being).
    Preparing,
    /// Uploaded: a dispute is staged with these files while the record stays the same.
    Prepared,
    /// Given up after its attempts (a dispute still builds its own).
    Failed,
}

impl PreparedState {
    pub fn as_str(self) -> &'static str {
        match self {
            PreparedState::Preparing => "preparing",
            PreparedState::Prepared => "prepared",
            PreparedState::Failed => "failed",
        }
    }
}

impl WarnedOrder {
    pub fn evidence(&self) -> PreparedState {
        match (self.prepared_at, self.pending) {
            (Some(_), _) => PreparedState::Prepared,
            (None, true) => PreparedState::Preparing,
            (None, false) => PreparedState::Failed,
        }
    }
}
