//! The staff delivery queue (`/api/admin/orders…`) as the API reads and sends it.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::lenient::Lenient;

/// One line of a queued order.
#[derive(Serialize, ToSchema)]
#[schema(as = QueuedOrderItem)]
pub struct Item {
    #[schema(example = "Golden Raccoon")]
    pub name: String,
    #[schema(minimum = 1, example = 2)]
    pub qty: u32,
}

/// The member of staff who claimed an order.
#[derive(Serialize, ToSchema)]
#[schema(as = ClaimedBy)]
pub struct Staff {
    pub id: i64,
    #[schema(example = "Ann")]
    pub name: String,
}

/// Why an order is on a risk hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum HoldReason {
    /// The card's issuer warned of fraud (Stripe's early fraud warning).
    FraudWarning,
    /// Stripe rated the payment's risk high (`payments.hold_risk_levels`).
    RiskLevel,
}

impl From<orders::HoldReason> for HoldReason {
    fn from(reason: orders::HoldReason) -> Self {
        match reason {
            orders::HoldReason::FraudWarning => HoldReason::FraudWarning,
            orders::HoldReason::RiskLevel => HoldReason::RiskLevel,
        }
    }
}

/// A paid order's risk hold: out of the delivery queue until it is refunded or released.
#[derive(Serialize, ToSchema)]
#[schema(as = OrderHold)]
pub struct HoldJson {
    pub reason: HoldReason,
    /// "Fraud warning" or "Risky payment".
    #[schema(example = "Fraud warning")]
    pub reason_label: &'static str,
    /// When the hold began.
    pub since: DateTime<Utc>,
}

/// An order as the delivery queue shows it.
#[derive(Serialize, ToSchema)]
#[schema(as = QueuedOrder)]
pub struct QueuedOrderJson {
    pub id: i64,
    pub status: crate::order::OrderStatus,
    /// The status in words: `Paid`, `Delivered`…
    #[schema(example = "Paid")]
    pub status_label: &'static str,
    pub items: Vec<Item>,
    /// What the buyer paid, in the base currency (dollars).
    #[schema(example = 9.98)]
    pub total: f64,
    /// The currency the buyer paid in.
    #[schema(example = "BRL")]
    pub currency: String,
    /// What the buyer paid in `currency` (the grand total).
    #[schema(example = 53.31)]
    pub amount_paid: f64,
    pub roblox_username: String,
    /// The buyer's Roblox headshot; null when Roblox cannot say within 2 seconds.
    #[schema(required = true)]
    pub roblox_avatar_url: Option<String>,
    pub discord_username: String,
    /// Null once the buyer deleted their account (the order is kept for the books).
    #[schema(required = true)]
    pub discord_id: Option<String>,
    pub email: String,
    pub created_at: DateTime<Utc>,
    #[schema(required = true)]
    pub paid_at: Option<DateTime<Utc>>,
    #[schema(required = true)]
    pub delivered_at: Option<DateTime<Utc>>,
    /// Minutes from payment until now while paid, until delivery once delivered; null in any
    /// other status.
    #[schema(required = true)]
    pub minutes_waiting: Option<i64>,
    /// Who claimed it; null when nobody did.
    #[schema(required = true)]
    pub claimed_by: Option<Staff>,
    /// The proof of delivery it was delivered with, if any.
    #[schema(required = true)]
    pub proof_id: Option<i64>,
    /// When the current claim was made.
    #[schema(required = true)]
    pub claimed_at: Option<DateTime<Utc>>,
    /// When the buyer said "I'm in the game" (cleared by a release).
    #[schema(required = true)]
    pub buyer_ready_at: Option<DateTime<Utc>>,
    /// Whole minutes since the buyer said they are in the game, while paid.
    #[schema(required = true)]
    pub ready_minutes: Option<i64>,
    /// Claimed at least `delivery.no_show_minutes` ago and the buyer is not in the game yet:
    /// release it to the next buyer.
    pub no_show: bool,
    /// Its place in line while it waits for a claim (paid, unclaimed, not held; in order of
    /// payment): the number its buyer's page shows. Null otherwise.
    #[schema(required = true, minimum = 1)]
    pub queue_position: Option<u32>,
    /// Paid longer ago than the shop's promise and still not delivered (its buyer's page says
    /// it is taking longer than usual).
    pub over_promise: bool,
    /// The order's Discord ticket.
    #[schema(required = true)]
    pub ticket_url: Option<String>,
    /// Why the ticket is missing or the buyer is not in it.
    #[schema(required = true)]
    pub ticket_problem: Option<String>,
    /// Its risk hold while it is paid and on one (a fraud warning, a risky payment): it cannot
    /// be claimed or delivered until a super_admin releases it, or it is refunded.
    #[schema(required = true)]
    pub hold: Option<HoldJson>,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// `paid` (the default: waiting for delivery, oldest first), `delivered`, `held` (on a
    /// risk hold, oldest hold first) or `all`.
    #[serde(default, deserialize_with = "crate::lenient::word")]
    #[param(value_type = Option<QueueFilter>)]
    pub filter: Lenient<QueueFilter>,
}

/// Which orders the queue lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum QueueFilter {
    Paid,
    Delivered,
    Held,
    All,
}

impl From<QueueFilter> for delivery::QueueFilter {
    fn from(filter: QueueFilter) -> Self {
        match filter {
            QueueFilter::Paid => delivery::QueueFilter::Paid,
            QueueFilter::Delivered => delivery::QueueFilter::Delivered,
            QueueFilter::Held => delivery::QueueFilter::Held,
            QueueFilter::All => delivery::QueueFilter::All,
        }
    }
}

/// Why a member of staff lets a claimed order go (`POST /api/admin/orders/{id}/release`).
#[derive(Deserialize, ToSchema, Default)]
#[schema(as = ReleaseRequest)]
pub struct ReleaseBody {
    /// Why the order goes back in line: its buyer is shown it and mailed it (1 to 200
    /// characters).
    #[schema(
        min_length = 1,
        max_length = 200,
        example = "My game crashed; the next member of staff takes it."
    )]
    pub reason: Option<String>,
}

/// The proof a delivery is made with (`POST /api/admin/orders/{id}/deliver`).
#[derive(Deserialize, ToSchema)]
pub struct DeliverRequest {
    /// A published proof of delivery's id; null or left out: none.
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 1, example = 3)]
    pub proof_id: Lenient<i64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hold_reason_is_sent_as_stored() {
        for reason in orders::HoldReason::ALL {
            let sent = serde_json::to_value(HoldReason::from(reason)).unwrap();
            assert_eq!(sent, reason.as_str());
        }
    }

    #[test]
    fn every_queue_filter_of_the_domain_is_read_from_its_word() {
        for (word, filter) in [
            ("paid", delivery::QueueFilter::Paid),
            ("delivered", delivery::QueueFilter::Delivered),
            ("held", delivery::QueueFilter::Held),
            ("all", delivery::QueueFilter::All),
        ] {
            // a new filter of the domain fails here until it has a word
            match filter {
                delivery::QueueFilter::Paid
                | delivery::QueueFilter::Delivered
                | delivery::QueueFilter::Held
                | delivery::QueueFilter::All => {}
            }
            let read: QueueFilter = serde_json::from_value(word.into()).unwrap();
            assert_eq!(delivery::QueueFilter::from(read), filter);
        }
    }
}
