//! The values of after the sale: what a provider's notice did, a refund made at the provider,
//! a provider's report on a payment as the shop reads it, what the shop did with it, and the
//! blocks a chargeback adds.

use blocklist::{BlockStatus, NewBlock};
use chrono::{DateTime, Utc};
use disputes::DisputeFacts;
use orders::{
    normalise_ip, BlockKind, Captured, DisputeOutcome, Order, OrderId, PaymentProvider,
    ProviderEvent,
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
