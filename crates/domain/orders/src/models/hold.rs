//! A risk hold: a paid order kept out of the delivery queue until staff refund it or put it
//! back, because its payment looks like fraud. It is apart from the PayPal review hold
//! (`Order::review`), which keeps a pending order from expiring.

use std::fmt;

use chrono::{DateTime, Utc};

/// Why a paid order is on a risk hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HoldReason {
    /// The card's issuer warned of fraud before any dispute (Stripe's early fraud warning).
    FraudWarning,
    /// The payment provider rated the payment's risk high (Stripe's `outcome.risk_level`).
    RiskLevel,
}

impl HoldReason {
    pub const ALL: [HoldReason; 2] = [HoldReason::FraudWarning, HoldReason::RiskLevel];

    /// As stored (`orders.hold_reason`) and sent to staff.
    pub const fn as_str(&self) -> &'static str {
        match self {
            HoldReason::FraudWarning => "fraud_warning",
            HoldReason::RiskLevel => "risk_level",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|reason| reason.as_str() == text)
    }

    /// As staff read it.
    pub const fn label(&self) -> &'static str {
        match self {
            HoldReason::FraudWarning => "Fraud warning",
            HoldReason::RiskLevel => "Risky payment",
        }
    }
}

impl fmt::Display for HoldReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An order's risk hold, as stored with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RiskHold {
    pub reason: HoldReason,
    pub since: DateTime<Utc>,
}

/// What puts an order on a risk hold: the reason, and what the provider said of it (the risk
/// level, the kind of fraud), which the order's `risk_held` step keeps for staff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewHold {
    pub reason: HoldReason,
    pub detail: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_round_trip_as_stored_and_read_as_staff_call_them() {
        for reason in HoldReason::ALL {
            assert_eq!(HoldReason::parse(reason.as_str()), Some(reason));
        }
        assert_eq!(HoldReason::parse("review"), None);
        assert_eq!(HoldReason::FraudWarning.label(), "Fraud warning");
        assert_eq!(HoldReason::RiskLevel.label(), "Risky payment");
    }
}
