//! The staff delivery queue's value types: which orders it lists and an order as it shows it.

use chrono::{DateTime, Utc};
use orders::{Money, OrderId, OrderStatus, Paid, RiskHold, StaffMember};

/// Which orders the queue lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum QueueFilter {
    /// Paid and not yet delivered, oldest payment first.
    #[default]
    Paid,
    /// Delivered, most recent delivery first.
    Delivered,
    /// Every order that was paid (paid first, oldest first; then the rest, newest first).
    All,
    /// Paid orders on a risk hold (a fraud warning, a risky payment), oldest hold first: out
    /// of the queue until staff refund them or put them back.
    Held,
}

/// One line of a queued order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueuedItem {
    pub name: String,
    pub quantity: u32,
}

/// An order as the delivery queue shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct QueuedOrder {
    pub id: OrderId,
    pub status: OrderStatus,
    pub items: Vec<QueuedItem>,
    pub total: Money,
    /// What the buyer paid, in the currency they paid in.
    pub paid: Paid,
    pub roblox_username: String,
    /// `None` once the buyer deleted their account.
    pub discord_id: Option<String>,
    pub discord_username: String,
    pub email: String,
    pub created_at: DateTime<Utc>,
    pub paid_at: Option<DateTime<Utc>>,
    pub delivered_at: Option<DateTime<Utc>>,
    pub claimed_by: Option<StaffMember>,
    pub proof_id: Option<i64>,
    pub claimed_at: Option<DateTime<Utc>>,
    /// When the buyer said "I'm in the game" (cleared by a release).
    pub buyer_ready_at: Option<DateTime<Utc>>,
    pub ticket_thread_id: Option<String>,
    pub ticket_problem: Option<String>,
    /// Its risk hold, as stored (kept after a refund).
    pub hold: Option<RiskHold>,
}

impl QueuedOrder {
    /// The risk hold keeping it out of the queue: only while it is paid.
    pub fn held(&self) -> Option<&RiskHold> {
        self.hold
            .as_ref()
            .filter(|_| self.status == OrderStatus::Paid)
    }

    /// Whole minutes the buyer has waited: until `now` while paid, until delivery once
    /// delivered; `None` otherwise.
    pub fn minutes_waiting(&self, now: DateTime<Utc>) -> Option<i64> {
        let paid = self.paid_at?;
        let until = match self.status {
            OrderStatus::Paid => now,
            OrderStatus::Delivered => self.delivered_at?,
            _ => return None,
        };
        Some((until - paid).num_minutes().max(0))
    }

    /// Whole minutes since the buyer said they are in the game, while paid.
    pub fn ready_minutes(&self, now: DateTime<Utc>) -> Option<i64> {
        let ready = self
            .buyer_ready_at
            .filter(|_| self.status == OrderStatus::Paid)?;
        Some((now - ready).num_minutes().max(0))
    }

    /// Waiting for a member of staff to claim it: paid, not claimed, not on a risk hold. Only
    /// these are in line, in order of payment (see [`in_queue_order`]).
    pub fn waits_in_line(&self) -> bool {
        self.status == OrderStatus::Paid && self.claimed_by.is_none() && self.held().is_none()
    }

    /// Paid longer ago than the shop's promise (`promise_minutes`) and still not delivered
    /// (nor on a risk hold): the buyer's page and the staff queue both say it runs late.
    pub fn over_promise(&self, now: DateTime<Utc>, promise_minutes: u32) -> bool {
        self.status == OrderStatus::Paid
            && self.held().is_none()
            && self
                .paid_at
                .is_some_and(|paid| is_over_promise(paid, now, promise_minutes))
    }

    /// Claimed at least `no_show_minutes` ago and the buyer has not said they are in the game:
    /// staff may release it to the next buyer.
    pub fn no_show(&self, now: DateTime<Utc>, no_show_minutes: u32) -> bool {
        match (self.status, self.claimed_at, self.buyer_ready_at) {
            (OrderStatus::Paid, Some(claimed), None) => {
                now - claimed >= chrono::Duration::minutes(i64::from(no_show_minutes))
            }
            _ => false,
        }
    }
}

/// Why a member of staff let a claimed order go: what its buyer is shown and mailed, trimmed,
/// 1 to [`ReleaseReason::MAX_CHARS`] characters on one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReleaseReason(String);

impl ReleaseReason {
    pub const MAX_CHARS: usize = 200;

    /// The reason as typed, or what is wrong with it (in words for the member of staff).
    pub fn parse(text: &str) -> Result<Self, &'static str> {
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if text.is_empty() {
            return Err("Tell the buyer why you are letting the order go.");
        }
        if text.chars().count() > Self::MAX_CHARS {
            return Err("Please keep the reason under 200 characters.");
        }
        Ok(ReleaseReason(text))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Whether an order paid at `paid` waits longer than the promise at `now`.
pub fn is_over_promise(paid: DateTime<Utc>, now: DateTime<Utc>, promise_minutes: u32) -> bool {
    now - paid > chrono::Duration::minutes(i64::from(promise_minutes))
}

/// The one order of the delivery queue, the same for staff and buyers: the order of payment,
/// claimed or not, so that a card never jumps under a member of staff's finger. Each order
/// waiting for a claim is numbered in that order (1 = the next to be claimed): the number its
/// buyer's page shows. A buyer can say "I'm in the game" only once their order is claimed, so
/// pressing it never moves an order ahead of earlier payments.
pub fn in_queue_order(orders: &mut [QueuedOrder]) -> Vec<Option<u32>> {
    orders.sort_by_key(|order| (order.paid_at, order.id));
    let mut place = 0;
    orders
        .iter()
        .map(|order| {
            order.waits_in_line().then(|| {
                place += 1;
                place
            })
        })
        .collect()
}

/// The orders the queue's tests look at (its model and its service).
#[cfg(test)]
pub(crate) mod fixtures {
    use chrono::TimeZone;
    use shared::UserId;

    use super::*;

    pub(crate) fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 0).unwrap()
    }

    pub(crate) fn order(status: OrderStatus, claimed_by: Option<(UserId, &str)>) -> QueuedOrder {
        QueuedOrder {
            id: OrderId::new(7),
            status,
            items: vec![QueuedItem {
                name: "Raccoon".into(),
                quantity: 1,
            }],
            total: Money::parse("12.49").unwrap(),
            paid: Paid::in_base("USD".parse().unwrap(), Money::parse("12.49").unwrap()),
            roblox_username: "Builderman".into(),
            discord_id: Some("42".into()),
            discord_username: "kid".into(),
            email: "kid@example.com".into(),
            created_at: now() - chrono::Duration::minutes(30),
            paid_at: Some(now() - chrono::Duration::minutes(25)),
            delivered_at: None,
            claimed_by: claimed_by.map(|(id, name)| StaffMember {
                id,
                name: name.into(),
            }),
            proof_id: None,
            claimed_at: None,
            buyer_ready_at: None,
            ticket_thread_id: None,
            ticket_problem: None,
            hold: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use shared::UserId;

    use super::fixtures::{now, order};
    use super::*;

    #[test]
    fn a_claim_without_a_ready_buyer_becomes_a_no_show_after_the_setting() {
        let claimed = QueuedOrder {
            claimed_at: Some(now() - chrono::Duration::minutes(15)),
            ..order(OrderStatus::Paid, Some((UserId::new(1), "Bo")))
        };
        assert!(claimed.no_show(now(), 15));
        assert!(!claimed.no_show(now(), 16));
        let ready = QueuedOrder {
            buyer_ready_at: Some(now() - chrono::Duration::minutes(3)),
            ..claimed.clone()
        };
        assert!(!ready.no_show(now(), 15));
        assert_eq!(ready.ready_minutes(now()), Some(3));
        let unclaimed = order(OrderStatus::Paid, None);
        assert!(!unclaimed.no_show(now(), 0));
    }

    #[test]
    fn the_queue_is_the_order_of_payment_and_numbers_the_orders_waiting_for_a_claim() {
        let at = |minutes: i64| Some(now() - chrono::Duration::minutes(minutes));
        let make = |id: i64, paid: i64, claimed: Option<i64>, ready: Option<i64>| QueuedOrder {
            id: OrderId::new(id),
            paid_at: at(paid),
            claimed_by: claimed.map(|_| StaffMember {
                id: UserId::new(1),
                name: "Ann".into(),
            }),
            claimed_at: claimed.and_then(at),
            buyer_ready_at: ready.and_then(at),
            ..order(OrderStatus::Paid, None)
        };
        let mut orders = vec![
            make(4, 10, None, Some(9)), // pressed "ready" before any claim (before the rule)
            make(2, 30, None, None),
            make(5, 40, Some(5), None), // claimed, buyer not in yet
            make(3, 20, None, None),
            make(6, 50, Some(8), Some(2)), // claimed, buyer in the game
        ];
        let places = in_queue_order(&mut orders);
        let ids: Vec<i64> = orders.iter().map(|o| o.id.get()).collect();
        // paid 50, 40, 30, 20 and 10 minutes ago
        assert_eq!(ids, [6, 5, 2, 3, 4]);
        assert_eq!(places, [None, None, Some(1), Some(2), Some(3)]);
        // a "ready" on an order nobody claimed (kept from before the rule) moves nothing, and
        // neither does a claim
        let mut later = vec![make(1, 5, None, Some(1)), make(0, 60, None, None)];
        assert_eq!(in_queue_order(&mut later), [Some(1), Some(2)]);
        assert_eq!(later[0].id.get(), 0);
    }

    #[test]
    fn a_release_reason_is_one_trimmed_line_of_1_to_200_characters() {
        assert_eq!(
            ReleaseReason::parse("  My game\ncrashed  ")
                .unwrap()
                .as_str(),
            "My game crashed"
        );
        assert!(ReleaseReason::parse(" \n ").is_err());
        assert!(ReleaseReason::parse(&"é".repeat(200)).is_ok());
        assert!(ReleaseReason::parse(&"é".repeat(201)).is_err());
    }

    #[test]
    fn an_order_runs_late_past_the_promise_while_paid_and_not_held() {
        let paid = order(OrderStatus::Paid, None); // paid 25 minutes ago
        assert!(paid.over_promise(now(), 10));
        assert!(
            !paid.over_promise(now(), 25),
            "exactly the promise is not late"
        );
        assert!(!paid.over_promise(now(), 30));
        let delivered = QueuedOrder {
            status: OrderStatus::Delivered,
            ..paid.clone()
        };
        assert!(!delivered.over_promise(now(), 10));
    }

    #[test]
    fn minutes_waiting_counts_until_now_or_until_delivery() {
        let paid = order(OrderStatus::Paid, None);
        assert_eq!(paid.minutes_waiting(now()), Some(25));
        let delivered = QueuedOrder {
            status: OrderStatus::Delivered,
            delivered_at: Some(now() - chrono::Duration::minutes(15)),
            ..paid.clone()
        };
        assert_eq!(delivered.minutes_waiting(now()), Some(10));
        let refunded = QueuedOrder {
            status: OrderStatus::Refunded,
            ..paid
        };
        assert_eq!(refunded.minutes_waiting(now()), None);
    }
}
