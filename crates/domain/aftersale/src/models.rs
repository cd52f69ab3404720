//! The values of after the sale: what a provider's notice did, a refund made at the provider,
//! a provider's report on a payment as the shop reads it, what the shop did with it, the
//! blocks a chargeback adds, and how the shop treats risky payments and fraud warnings.

use blocklist::{BlockStatus, NewBlock};
use chrono::{DateTime, Utc};
use disputes::DisputeFacts;
use orders::{
    normalise_ip, BlockKind, Captured, DisputeOutcome, HoldReason, NewHold, Order, OrderId,
    PaymentProvider, ProviderEvent,
};

/// What a provider's notice about a payment did.
#[derive(Debug, Clone, PartialEq)]
pub enum Noticed {
    /// The order changed.
    Changed(Box<Order>),
    /// This very event was applied before, or the order had changed already: nothing changed.
    Unchanged,
    /// No order of ours was paid with this payment (or none is recorded yet).
    UnknownPayment,
}

/// A refund made at the provider (Stripe's `charge.refunded`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderRefund {
    pub provider: PaymentProvider,
    pub payment_id: String,
    /// Whether the whole payment was given back (a partial refund only tells staff).
    pub whole: bool,
    pub event: ProviderEvent,
}

/// A provider's report on a payment, as the shop reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PaymentEvent {
    /// The buyer finished the provider's payment page `reference` (Stripe:
    /// `checkout.session.completed`).
    PageCompleted {
        event: ProviderEvent,
        /// The order the page was opened for; `None` for a page the shop did not open.
        order: Option<OrderId>,
        reference: String,
        /// `false` while the money has not arrived (a payment method that settles later).
        paid: bool,
        /// The provider's id of the payment (Stripe's payment intent), for refunds and disputes.
        payment_id: Option<String>,
    },
    /// The payment page `reference` expired unpaid (Stripe: `checkout.session.expired`).
    PageExpired {
        event: ProviderEvent,
        order: Option<OrderId>,
        reference: String,
    },
    /// A payment was refunded at the provider, wholly or in part (Stripe: `charge.refunded`).
    Refunded {
        event: ProviderEvent,
        payment_id: Option<String>,
        whole: bool,
    },
    /// The buyer disputed a payment (Stripe: `charge.dispute.created`).
    DisputeOpened {
        event: ProviderEvent,
        payment_id: Option<String>,
        /// The bank's reason, kept for staff.
        reason: Option<String>,
        /// The dispute as the provider reports it, when it does (Stripe).
        dispute: Option<DisputeFacts>,
    },
    /// A dispute changed at the provider (Stripe: `charge.dispute.updated`): its status, its
    /// deadline, or evidence staged or submitted.
    DisputeUpdated {
        event: ProviderEvent,
        payment_id: Option<String>,
        dispute: DisputeFacts,
    },
    /// A dispute closed (Stripe: `charge.dispute.closed`); `Err` holds the provider's word for
    /// an outcome the shop does not know.
    DisputeClosed {
        event: ProviderEvent,
        payment_id: Option<String>,
        outcome: Result<DisputeOutcome, String>,
        dispute: Option<DisputeFacts>,
    },
    /// The card's issuer warned that a payment looks fraudulent, before any dispute (Stripe:
    /// `radar.early_fraud_warning.created`).
    FraudWarning {
        event: ProviderEvent,
        payment_id: Option<String>,
        /// The provider's id of the warning (`issfr_...`) and of the charge it is about.
        warning_id: String,
        charge_id: Option<String>,
        /// The issuer's kind of fraud (`unauthorized_use_of_card`, ...).
        fraud_type: Option<String>,
    },
    /// The buyer approved the payment of `order` on the provider's page and came back with the
    /// provider's `token` (PayPal's return): the shop captures the payment itself.
    Approved {
        provider: PaymentProvider,
        order: OrderId,
        token: String,
    },
    /// An event the shop does not act on; `kind` is the provider's type of it.
    Other { event: ProviderEvent, kind: String },
}

/// The card issuer's early fraud warning on a payment (Stripe's
/// `radar.early_fraud_warning.created`), as after the sale reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FraudWarning {
    pub provider: PaymentProvider,
    pub payment_id: String,
    /// The issuer's kind of fraud (`unauthorized_use_of_card`, ...).
    pub fraud_type: Option<String>,
    pub event: ProviderEvent,
}

/// What the store did with a fraud warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Warned {
    /// The order is on the warning's hold now (newly, or instead of a risky payment's).
    Held,
    /// Recorded for staff; the order was past holding (delivered, refunded, disputed) or
    /// already on the warning's hold.
    Noted,
    /// This very event was recorded before: nothing changed.
    Replayed,
}

/// How the shop treats risky payments and fraud warnings (`[payments]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RiskPolicy {
    /// The provider's risk levels (Stripe's `outcome.risk_level`: `normal`, `elevated`,
    /// `highest`, ...) that hold a just-paid order before it enters the delivery queue.
    pub hold_risk_levels: Vec<String>,
    /// Refund a paid order at once when the card's issuer warns of fraud, instead of holding it
    /// for staff.
    pub refund_on_fraud_warning: bool,
    /// How long an order paid with a method that confirms later (a voucher, a bank debit)
    /// holds its stock when the provider names no deadline of the method's own.
    pub delayed_payment_hold_hours: u32,
}

/// The default of [`RiskPolicy::delayed_payment_hold_hours`]: three days, the deadline Stripe
/// gives OXXO, Boleto and Konbini vouchers unless told otherwise.
pub const DELAYED_PAYMENT_HOLD_HOURS: u32 = 72;

impl Default for RiskPolicy {
    fn default() -> Self {
        RiskPolicy {
            hold_risk_levels: vec!["elevated".to_owned(), "highest".to_owned()],
            refund_on_fraud_warning: false,
            delayed_payment_hold_hours: DELAYED_PAYMENT_HOLD_HOURS,
        }
    }
}

impl RiskPolicy {
    /// The hold a payment rated `risk_level` calls for; `None` for a level the shop trusts,
    /// or none at all.
    pub fn hold_for(&self, risk_level: Option<&str>) -> Option<NewHold> {
        let level = risk_level?.trim();
        self.hold_risk_levels
            .iter()
            .any(|held| held.trim().eq_ignore_ascii_case(level))
            .then(|| NewHold {
                reason: HoldReason::RiskLevel,
                detail: Some(level.to_owned()),
            })
    }
}

/// What the shop did with a provider's event.
#[derive(Debug, Clone, PartialEq)]
pub enum Handled {
    /// Applied now, applied before, or not the shop's to apply: the provider is told it was
    /// taken (Stripe: 200) and does not send it again.
    Taken,
    /// The buyer's return after approving: what the capture did.
    Captured(Captured),
}

/// How long a chargeback blocks the address its order came from.
pub const CHARGEBACK_ADDRESS_DAYS: i64 = 30;

/// The blocklist entries a chargeback on `order` adds. What the shop verified blocks: the
/// buyer's Discord account (proven by OAuth), and the client address the order came from for
/// [`CHARGEBACK_ADDRESS_DAYS`]. What the buyer typed (the e-mail and Roblox username) could be
/// a stranger's, so those are only flagged for staff to confirm or remove. An order whose
/// buyer deleted their account names no one: it adds nothing (its e-mail address and Roblox
/// username are placeholders, its client address is gone).
pub fn chargeback_blocks(order: &Order, at: DateTime<Utc>) -> Vec<NewBlock> {
    let reason = format!("chargeback on order #{}", order.id);
    let buyer = &order.buyer;
    let Some(discord) = &buyer.discord else {
        return vec![];
    };
    let address = order.client_ip.as_deref().and_then(normalise_ip).map(|ip| {
        (
            BlockKind::Ip,
            ip,
            BlockStatus::Active,
            Some(at + chrono::Duration::days(CHARGEBACK_ADDRESS_DAYS)),
        )
    });
    [
        (
            BlockKind::DiscordId,
            discord.discord_id.as_str().to_owned(),
            BlockStatus::Active,
            None,
        ),
        (
            BlockKind::Email,
            buyer.email.as_str().to_owned(),
            BlockStatus::Flagged,
            None,
        ),
        (
            BlockKind::RobloxUsername,
            buyer.roblox_username.as_str().to_ascii_lowercase(),
            BlockStatus::Flagged,
            None,
        ),
    ]
    .into_iter()
    .chain(address)
    .map(|(kind, value, status, expires_at)| NewBlock {
        kind,
        value,
        reason: reason.clone(),
        added_by: None,
        created_at: at,
        status,
        expires_at,
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_risk_levels_the_shop_names_hold_a_payment() {
        let policy = RiskPolicy::default();
        for level in ["elevated", "highest", "Elevated"] {
            assert_eq!(
                policy.hold_for(Some(level)).map(|hold| hold.reason),
                Some(HoldReason::RiskLevel),
                "{level}"
            );
        }
        for level in [Some("normal"), Some("not_assessed"), Some("unknown"), None] {
            assert_eq!(policy.hold_for(level), None, "{level:?}");
        }
        let strict = RiskPolicy {
            hold_risk_levels: vec!["highest".into()],
            ..RiskPolicy::default()
        };
        assert_eq!(strict.hold_for(Some("elevated")), None);
        assert_eq!(
            strict
                .hold_for(Some("highest"))
                .and_then(|hold| hold.detail),
            Some("highest".to_owned())
        );
    }
}
