use std::fmt;

use chrono::{DateTime, Utc};

/// Where an order stands. `pending` -> `paid` -> `delivered`; `pending` -> `expired` or
/// `cancelled`; `paid` or `delivered` -> `refunded`; `paid`, `delivered` or `refunded` ->
/// `disputed` (a chargeback), and back to the status it had when the dispute is won. Nothing
/// else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OrderStatus {
    /// Awaiting payment; its finite stock is reserved.
    Pending,
    Paid,
    Delivered,
    /// The payment session ran out; the reservation went back to stock.
    Expired,
    /// The shopper cancelled the payment; the reservation went back to stock.
    Cancelled,
    Refunded,
    /// The buyer disputed the payment with their bank (a chargeback): it must not be delivered
    /// while the dispute is open; a won dispute returns it to its earlier status.
    Disputed,
}

impl OrderStatus {
    pub const ALL: [OrderStatus; 7] = [
        OrderStatus::Pending,
        OrderStatus::Paid,
        OrderStatus::Delivered,
        OrderStatus::Expired,
        OrderStatus::Cancelled,
        OrderStatus::Refunded,
        OrderStatus::Disputed,
    ];

    /// The statuses whose orders hold their units: the stock stays taken and they count
    /// toward a drop's `max_per_account` (cancelled, expired and refunded ones gave theirs back).
    pub const HOLDING: [OrderStatus; 4] = [
        OrderStatus::Pending,
        OrderStatus::Paid,
        OrderStatus::Delivered,
        OrderStatus::Disputed,
    ];

    /// As stored and as sent in the API.
    pub fn as_str(&self) -> &'static str {
        match self {
            OrderStatus::Pending => "pending",
            OrderStatus::Paid => "paid",
            OrderStatus::Delivered => "delivered",
            OrderStatus::Expired => "expired",
            OrderStatus::Cancelled => "cancelled",
            OrderStatus::Refunded => "refunded",
            OrderStatus::Disputed => "disputed",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// As the profile shows it.
    pub fn label(&self) -> &'static str {
        match self {
            OrderStatus::Pending => "Pending",
            OrderStatus::Paid => "Paid",
            OrderStatus::Delivered => "Delivered",
            OrderStatus::Expired => "Expired",
            OrderStatus::Cancelled => "Cancelled",
            OrderStatus::Refunded => "Refunded",
            OrderStatus::Disputed => "Disputed",
        }
    }

    /// Whether the lifecycle allows going from this status to `next`.
    pub fn can_become(&self, next: OrderStatus) -> bool {
        use OrderStatus::*;
        matches!(
            (self, next),
            (Pending, Paid)
                | (Pending, Expired)
                | (Pending, Cancelled)
                | (Paid, Delivered)
                | (Paid, Refunded)
                | (Delivered, Refunded)
                | (Paid, Disputed)
                | (Delivered, Disputed)
                | (Refunded, Disputed)
        )
    }

    /// Whether a dispute (chargeback) can be opened on an order in this status: only on money
    /// that was taken.
    pub fn can_be_disputed(&self) -> bool {
        self.can_become(OrderStatus::Disputed)
    }

    /// Whether the order's stock is still held for it, awaiting payment.
    pub fn holds_reservation(&self) -> bool {
        matches!(self, OrderStatus::Pending)
    }

    /// Whether the order has been paid for (whatever happened afterwards).
    pub fn was_paid(&self) -> bool {
        matches!(
            self,
            OrderStatus::Paid
                | OrderStatus::Delivered
                | OrderStatus::Refunded
                | OrderStatus::Disputed
        )
    }
}

impl fmt::Display for OrderStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A change the lifecycle does not allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("An order that is {} cannot become {}.", from.label(), to.label())]
pub struct TransitionError {
    pub from: OrderStatus,
    pub to: OrderStatus,
}

/// An order's status and the times it changed. Only the transitions change it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lifecycle {
    status: OrderStatus,
    paid_at: Option<DateTime<Utc>>,
    delivered_at: Option<DateTime<Utc>>,
    /// When it expired, was cancelled or was refunded.
    closed_at: Option<DateTime<Utc>>,
}

impl Lifecycle {
    /// A new order: pending.
    pub fn pending() -> Self {
        Lifecycle {
            status: OrderStatus::Pending,
            paid_at: None,
            delivered_at: None,
            closed_at: None,
        }
    }

    /// A lifecycle as it was stored, for the store's adapters to rebuild an order.
    pub fn restore(
        status: OrderStatus,
        paid_at: Option<DateTime<Utc>>,
        delivered_at: Option<DateTime<Utc>>,
        closed_at: Option<DateTime<Utc>>,
    ) -> Self {
        Lifecycle {
            status,
            paid_at,
            delivered_at,
            closed_at,
        }
    }

    pub fn status(&self) -> OrderStatus {
        self.status
    }

    pub fn paid_at(&self) -> Option<DateTime<Utc>> {
        self.paid_at
    }

    pub fn delivered_at(&self) -> Option<DateTime<Utc>> {
        self.delivered_at
    }

    pub fn closed_at(&self) -> Option<DateTime<Utc>> {
        self.closed_at
    }

    fn become_(&mut self, next: OrderStatus, at: DateTime<Utc>) -> Result<(), TransitionError> {
        if !self.status.can_become(next) {
            return Err(TransitionError {
                from: self.status,
                to: next,
            });
        }
        self.status = next;
        match next {
            OrderStatus::Paid => self.paid_at = Some(at),
            OrderStatus::Delivered => self.delivered_at = Some(at),
            OrderStatus::Expired | OrderStatus::Cancelled | OrderStatus::Refunded => {
                self.closed_at = Some(at)
            }
            OrderStatus::Pending | OrderStatus::Disputed => {}
        }
        Ok(())
    }

    pub fn pay(&mut self, at: DateTime<Utc>) -> Result<(), TransitionError> {
        self.become_(OrderStatus::Paid, at)
    }

    pub fn deliver(&mut self, at: DateTime<Utc>) -> Result<(), TransitionError> {
        self.become_(OrderStatus::Delivered, at)
    }

    pub fn expire(&mut self, at: DateTime<Utc>) -> Result<(), TransitionError> {
        self.become_(OrderStatus::Expired, at)
    }

    pub fn cancel(&mut self, at: DateTime<Utc>) -> Result<(), TransitionError> {
        self.become_(OrderStatus::Cancelled, at)
    }

    pub fn refund(&mut self, at: DateTime<Utc>) -> Result<(), TransitionError> {
        self.become_(OrderStatus::Refunded, at)
    }

    /// A chargeback was opened (its time is the dispute's, see `orders::Dispute`).
    pub fn dispute(&mut self, at: DateTime<Utc>) -> Result<(), TransitionError> {
        self.become_(OrderStatus::Disputed, at)
    }

    /// A won dispute: the order is back where it was when the dispute opened, its times as
    /// they were.
    pub fn end_dispute_won(&mut self, previous: OrderStatus) -> Result<(), TransitionError> {
        if self.status != OrderStatus::Disputed || !previous.can_be_disputed() {
            return Err(TransitionError {
                from: self.status,
                to: previous,
            });
        }
        self.status = previous;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;
    use OrderStatus::*;

    fn at() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 0).unwrap()
    }

    fn in_status(status: OrderStatus) -> Lifecycle {
        Lifecycle::restore(status, None, None, None)
    }

    type Transition = fn(&mut Lifecycle, DateTime<Utc>) -> Result<(), TransitionError>;

    fn transitions() -> [(OrderStatus, Transition); 6] {
        [
            (Paid, Lifecycle::pay),
            (Delivered, Lifecycle::deliver),
            (Expired, Lifecycle::expire),
            (Cancelled, Lifecycle::cancel),
            (Refunded, Lifecycle::refund),
            (Disputed, Lifecycle::dispute),
        ]
    }

    #[test]
    fn exactly_the_designed_transitions_are_allowed() {
        let allowed = [
            (Pending, Paid),
            (Pending, Expired),
            (Pending, Cancelled),
            (Paid, Delivered),
            (Paid, Refunded),
            (Delivered, Refunded),
            (Paid, Disputed),
            (Delivered, Disputed),
            (Refunded, Disputed),
        ];
        for from in OrderStatus::ALL {
            for (to, transition) in transitions() {
                let mut lifecycle = in_status(from);
                let result = transition(&mut lifecycle, at());
                if allowed.contains(&(from, to)) {
                    assert_eq!(result, Ok(()), "{from} -> {to}");
                    assert_eq!(lifecycle.status(), to);
                } else {
                    assert_eq!(result, Err(TransitionError { from, to }), "{from} -> {to}");
                    assert_eq!(
                        lifecycle.status(),
                        from,
                        "a refused change leaves it as it was"
                    );
                }
                assert_eq!(from.can_become(to), allowed.contains(&(from, to)));
            }
        }
    }

    #[test]
    fn each_transition_records_its_time() {
        let mut paid = Lifecycle::pending();
        paid.pay(at()).unwrap();
        assert_eq!(paid.paid_at(), Some(at()));
        let later = at() + chrono::Duration::hours(2);
        paid.deliver(later).unwrap();
        assert_eq!(paid.delivered_at(), Some(later));

        let mut expired = Lifecycle::pending();
        expired.expire(at()).unwrap();
        assert_eq!((expired.paid_at(), expired.closed_at()), (None, Some(at())));
    }

    #[test]
    fn a_paid_order_cannot_be_paid_again_nor_an_expired_one_paid() {
        let mut paid = in_status(Paid);
        assert_eq!(
            paid.pay(at()),
            Err(TransitionError {
                from: Paid,
                to: Paid
            })
        );
        let mut expired = in_status(Expired);
        assert_eq!(
            expired.pay(at()).unwrap_err().to_string(),
            "An order that is Expired cannot become Paid."
        );
    }

    #[test]
    fn statuses_are_labelled_for_the_profile_and_round_trip_as_text() {
        let labels: Vec<&str> = OrderStatus::ALL.iter().map(OrderStatus::label).collect();
        assert_eq!(
            labels,
            [
                "Pending",
                "Paid",
                "Delivered",
                "Expired",
                "Cancelled",
                "Refunded",
                "Disputed"
            ]
        );
        for status in OrderStatus::ALL {
            assert_eq!(OrderStatus::parse(status.as_str()), Some(status));
        }
        assert_eq!(OrderStatus::parse("Paid"), None);
    }

    #[test]
    fn only_a_pending_order_holds_stock() {
        let holding: Vec<OrderStatus> = OrderStatus::ALL
            .into_iter()
            .filter(OrderStatus::holds_reservation)
            .collect();
        assert_eq!(holding, [Pending]);
        assert!(Delivered.was_paid() && Refunded.was_paid() && !Expired.was_paid());
        assert!(Disputed.was_paid());
    }

    #[test]
    fn a_won_dispute_returns_the_order_to_where_it_was_with_its_times() {
        let paid_at = at();
        let mut delivered = Lifecycle::restore(Delivered, Some(paid_at), Some(paid_at), None);
        delivered.dispute(at()).unwrap();
        assert_eq!(delivered.status(), Disputed);
        assert_eq!(
            delivered.deliver(at()),
            Err(TransitionError {
                from: Disputed,
                to: Delivered
            }),
            "a disputed order cannot be delivered"
        );
        delivered.end_dispute_won(Delivered).unwrap();
        assert_eq!(delivered.status(), Delivered);
        assert_eq!(delivered.delivered_at(), Some(paid_at));
        assert!(in_status(Paid).end_dispute_won(Paid).is_err());
        assert!(in_status(Disputed).end_dispute_won(Pending).is_err());
    }
}
