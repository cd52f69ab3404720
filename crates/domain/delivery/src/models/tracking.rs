//! The buyer's view of an order through its link (its timeline and the handoff) and the mail
//! to the buyer, as values.

use chrono::{DateTime, Utc};
use orders::{MailKind, Order, OrderId, OrderStatus};

use super::script::{ScriptProgress, ScriptStep};

/// One queued mail, due to be sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailJob {
    pub id: i64,
    pub order_id: OrderId,
    pub kind: MailKind,
    /// Failed attempts so far.
    pub attempts: u32,
}

/// One step of the buyer's timeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimelineStep {
    pub status: &'static str,
    pub at: DateTime<Utc>,
}

/// What the store knows about an order beyond the order itself, for the buyer's page.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TrackingFacts {
    /// When the member of staff delivering it took it from the queue (while it is claimed).
    pub claimed_at: Option<DateTime<Utc>>,
    /// The proof of delivery it was delivered with.
    pub proof_id: Option<i64>,
    /// Who claimed it (while claimed, and after delivery who delivered it).
    pub staff_name: Option<String>,
    /// The claimer's private server link, as they keep it now.
    pub private_server_url: Option<String>,
    /// When the buyer said "I'm in the game" (cleared by a release).
    pub buyer_ready_at: Option<DateTime<Utc>>,
    /// When the buyer said "I got my items".
    pub received_at: Option<DateTime<Utc>>,
    /// When the buyer's page first showed the private server link (kept for the evidence).
    pub link_shown_at: Option<DateTime<Utc>>,
    /// The Discord thread of the order's ticket.
    pub ticket_thread_id: Option<String>,
    /// Why the ticket is missing or the buyer is not in it.
    pub ticket_problem: Option<String>,
    /// The last time staff let the order go: when, who and the reason they gave.
    pub last_release: Option<Release>,
    /// When the buyer's time to join ran out under the current claim (the no-show job).
    pub no_show_at: Option<DateTime<Utc>>,
    /// The buyer left a review of the order.
    pub reviewed: bool,
}

/// Staff let a claimed order go, back in line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Release {
    pub at: DateTime<Utc>,
    pub staff_name: Option<String>,
    pub reason: Option<String>,
}

/// The handoff as the buyer's page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BuyerDelivery {
    pub staff_name: Option<String>,
    /// Only while the order is paid and claimed: never after delivery, a refund or a release.
    pub private_server_url: Option<String>,
    pub claimed_at: Option<DateTime<Utc>>,
    pub buyer_ready_at: Option<DateTime<Utc>>,
    /// Only once delivered: when the buyer said "I got my items".
    pub received_at: Option<DateTime<Utc>>,
    pub ticket_url: Option<String>,
    pub ticket_problem: Option<String>,
    /// The first picture of the proof the order was delivered with (`/media/proofs/…`).
    pub proof_picture: Option<String>,
    /// While the order waits in line again: the last release (who let it go, and why).
    pub released: Option<Release>,
    /// While claimed: the buyer's time to join ran out (staff may release it).
    pub no_show: bool,
}

impl BuyerDelivery {
    /// What the buyer may see of `facts` for an order in `status`; `guild` makes the ticket's
    /// link.
    pub fn of(status: OrderStatus, facts: &TrackingFacts, guild: Option<&str>) -> Self {
        let claimed = facts.claimed_at.is_some() && status == OrderStatus::Paid;
        let shows_claim = matches!(status, OrderStatus::Paid | OrderStatus::Delivered);
        BuyerDelivery {
            staff_name: facts.staff_name.clone().filter(|_| shows_claim),
            private_server_url: facts.private_server_url.clone().filter(|_| claimed),
            claimed_at: facts.claimed_at.filter(|_| shows_claim),
            buyer_ready_at: facts.buyer_ready_at.filter(|_| status == OrderStatus::Paid),
            received_at: facts
                .received_at
                .filter(|_| status == OrderStatus::Delivered),
            ticket_url: match (guild, &facts.ticket_thread_id) {
                (Some(guild), Some(thread)) => {
                    Some(format!("https://discord.com/channels/{guild}/{thread}"))
                }
                _ => None,
            },
            ticket_problem: facts.ticket_problem.clone(),
            proof_picture: None,
            // told while the order waits for its next claim
            released: facts
                .last_release
                .clone()
                .filter(|_| status == OrderStatus::Paid && facts.claimed_at.is_none()),
            no_show: claimed && facts.no_show_at.is_some() && facts.buyer_ready_at.is_none(),
        }
    }

    /// The handoff while the order's payment is being checked (a risk hold): nobody is on the
    /// way, so no claim, private server or "I'm in the game" is shown.
    pub fn while_checked(self) -> Self {
        BuyerDelivery {
            staff_name: None,
            private_server_url: None,
            claimed_at: None,
            buyer_ready_at: None,
            released: None,
            no_show: false,
            ..self
        }
    }
}

/// An order as its buyer sees it through the link.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackedOrder {
    pub order: Order,
    pub timeline: Vec<TimelineStep>,
    /// 1 for the next order staff deliver; `None` unless paid and waiting.
    pub queue_position: Option<u32>,
    pub delivery: BuyerDelivery,
    /// "Usually under N minutes".
    pub estimate_minutes: u32,
    /// Paid longer ago than that and still waiting: the page says it runs late (the staff
    /// queue says the same of it).
    pub over_promise: bool,
    /// While claimed and the buyer not yet in the game: by when they are to join the member of
    /// staff's private server (`delivery.no_show_minutes` after the claim).
    pub join_by: Option<DateTime<Utc>>,
    /// The script from payment to delivery, marked where the order is past a step.
    pub steps: Vec<ScriptStep>,
}

impl TrackingFacts {
    /// How far `order` is in its script, from these facts of it (`reviewed`: it has a review).
    pub fn script_progress(&self, order: &Order) -> ScriptProgress {
        let facts = self;
        let delivered = order.lifecycle().delivered_at().is_some();
        let paid = order.status() == OrderStatus::Paid && order.held().is_none();
        let claimed = paid && facts.claimed_at.is_some();
        ScriptProgress {
            in_discord: facts.ticket_thread_id.is_some() && facts.ticket_problem.is_none(),
            claimed,
            ready: claimed && facts.buyer_ready_at.is_some(),
            delivered,
            reviewed: facts.reviewed,
        }
    }
}

/// The status steps of an order, oldest first.
pub fn timeline(order: &Order, facts: &TrackingFacts) -> Vec<TimelineStep> {
    let lifecycle = order.lifecycle();
    let mut steps = Vec::new();
    if let Some(at) = lifecycle.paid_at() {
        steps.push(TimelineStep { status: "paid", at });
    }
    if let (Some(at), OrderStatus::Paid | OrderStatus::Delivered) =
        (facts.claimed_at, order.status())
    {
        steps.push(TimelineStep {
            status: "claimed",
            at,
        });
    }
    if let Some(at) = lifecycle.delivered_at() {
        steps.push(TimelineStep {
            status: "delivered",
            at,
        });
    }
    if let (Some(at), OrderStatus::Delivered) = (facts.received_at, order.status()) {
        steps.push(TimelineStep {
            status: "received",
            at,
        });
    }
    // any later status (a dispute) closes the way too; the lead adds its step when it exists
    if let (
        status @ (OrderStatus::Refunded | OrderStatus::Expired | OrderStatus::Cancelled),
        Some(at),
    ) = (order.status(), lifecycle.closed_at())
    {
        steps.push(TimelineStep {
            status: status.as_str(),
            at,
        });
    }
    steps
}

/// A mail to the buyer about their order, with everything needed to word it.
#[derive(Debug, Clone, PartialEq)]
pub struct BuyerMail {
    pub kind: MailKind,
    pub order: Order,
    /// `{public_url}/orders/{id}?key=…`.
    pub order_link: String,
    /// The proof's picture (absolute URL), for the delivered mail.
    pub proof_picture: Option<String>,
    /// The shop's promise: "usually under N minutes".
    pub estimate_minutes: u32,
    /// The shop's Discord server invite, when it has one (else the mail points to the help
    /// chat).
    pub discord_invite: Option<String>,
    /// Who claimed the order (the claim mail), or let it go (the release mail).
    pub staff_name: Option<String>,
    /// The reason staff gave when they last let the order go (the release mail).
    pub release_reason: Option<String>,
    /// The minutes a buyer has to join after a claim (the no-show mail).
    pub no_show_minutes: u32,
    /// A Discord bot opens each order's ticket (the script's Discord step says so).
    pub tickets: bool,
    /// The script from payment to delivery, marked where the order is past a step (the
    /// receipt and delivered mails number them).
    pub steps: Vec<ScriptStep>,
}

/// What one round of the mail loop did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MailRound {
    pub sent: usize,
    pub failed: usize,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use chrono::Duration;

    fn order_in(lifecycle: orders::Lifecycle) -> Order {
        use orders::{Money, PaymentMethod};
        Order::restore(
            OrderId::new(3),
            vec![],
            orders::Buyer {
                discord: Some(orders::DiscordIdentity {
                    discord_id: orders::DiscordId::parse("80351110224678912").unwrap(),
                    username: "kid".into(),
                    avatar_url: None,
                }),
                roblox_username: orders::RobloxUsername::parse("Builderman").unwrap(),
                email: orders::Email::parse("kid@example.com").unwrap(),
                user_id: None,
                language: shared::Language::English,
            },
            orders::Amounts {
                subtotal: Money::ZERO,
                discount: Money::ZERO,
                fee: Money::ZERO,
                total: Money::ZERO,
                paid: orders::Paid::in_base("USD".parse().unwrap(), Money::ZERO),
            },
            None,
            orders::Payment {
                method: PaymentMethod::Card,
                provider: orders::PaymentProvider::Dev,
                reference: None,
                payment_id: None,
            },
            at(0),
            None,
            lifecycle,
        )
    }

    fn at(minutes: i64) -> DateTime<Utc> {
        use chrono::TimeZone;
        Utc.with_ymd_and_hms(2026, 11, 24, 12, 0, 0).unwrap() + Duration::minutes(minutes)
    }

    #[test]
    fn the_private_server_link_shows_only_while_paid_and_claimed() {
        let facts = TrackingFacts {
            claimed_at: Some(at(5)),
            staff_name: Some("Ann".into()),
            private_server_url: Some("https://www.roblox.com/share?code=1".into()),
            ticket_thread_id: Some("99".into()),
            ..TrackingFacts::default()
        };
        let paid = BuyerDelivery::of(OrderStatus::Paid, &facts, Some("7"));
        assert_eq!(paid.private_server_url, facts.private_server_url);
        assert_eq!(paid.staff_name.as_deref(), Some("Ann"));
        assert_eq!(
            paid.ticket_url.as_deref(),
            Some("https://discord.com/channels/7/99")
        );
        for status in [
            OrderStatus::Delivered,
            OrderStatus::Refunded,
            OrderStatus::Disputed,
        ] {
            assert_eq!(
                BuyerDelivery::of(status, &facts, None).private_server_url,
                None
            );
        }
        let released = TrackingFacts {
            claimed_at: None,
            ..facts.clone()
        };
        assert_eq!(
            BuyerDelivery::of(OrderStatus::Paid, &released, None).private_server_url,
            None
        );
        assert_eq!(
            BuyerDelivery::of(OrderStatus::Paid, &facts, None).ticket_url,
            None
        );
    }

    #[test]
    fn while_the_payment_is_checked_no_claim_is_shown_but_the_ticket_is() {
        let facts = TrackingFacts {
            claimed_at: Some(at(5)),
            staff_name: Some("Ann".into()),
            private_server_url: Some("https://www.roblox.com/share?code=1".into()),
            buyer_ready_at: Some(at(6)),
            ticket_thread_id: Some("9".into()),
            ..TrackingFacts::default()
        };
        let checked = BuyerDelivery::of(OrderStatus::Paid, &facts, Some("7")).while_checked();
        assert_eq!(checked.staff_name, None);
        assert_eq!(checked.private_server_url, None);
        assert_eq!(checked.claimed_at, None);
        assert_eq!(checked.buyer_ready_at, None);
        assert_eq!(
            checked.ticket_url.as_deref(),
            Some("https://discord.com/channels/7/9")
        );
    }

    fn statuses(order: &Order, facts: &TrackingFacts) -> Vec<&'static str> {
        timeline(order, facts).iter().map(|s| s.status).collect()
    }

    #[test]
    fn the_timeline_lists_the_steps_taken_in_order() {
        use orders::Lifecycle;
        let claimed = TrackingFacts {
            claimed_at: Some(at(5)),
            ..TrackingFacts::default()
        };
        let pending = order_in(Lifecycle::pending());
        assert!(timeline(&pending, &claimed).is_empty());
        let paid = order_in(Lifecycle::restore(
            OrderStatus::Paid,
            Some(at(1)),
            None,
            None,
        ));
        assert_eq!(statuses(&paid, &TrackingFacts::default()), ["paid"]);
        assert_eq!(statuses(&paid, &claimed), ["paid", "claimed"]);
        let delivered = order_in(Lifecycle::restore(
            OrderStatus::Delivered,
            Some(at(1)),
            Some(at(9)),
            None,
        ));
        let steps = timeline(&delivered, &claimed);
        assert_eq!(
            steps,
            [
                TimelineStep {
                    status: "paid",
                    at: at(1)
                },
                TimelineStep {
                    status: "claimed",
                    at: at(5)
                },
                TimelineStep {
                    status: "delivered",
                    at: at(9)
                },
            ]
        );
        let refunded = order_in(Lifecycle::restore(
            OrderStatus::Refunded,
            Some(at(1)),
            None,
            Some(at(30)),
        ));
        assert_eq!(statuses(&refunded, &claimed), ["paid", "refunded"]);
    }

    #[test]
    fn the_scripts_progress_reads_the_claim_the_ready_the_delivery_and_the_review() {
        use crate::ScriptProgress;
        use orders::Lifecycle;
        let paid = order_in(Lifecycle::restore(
            OrderStatus::Paid,
            Some(at(1)),
            None,
            None,
        ));
        let waiting = TrackingFacts::default().script_progress(&paid);
        assert_eq!(waiting, ScriptProgress::default());
        let in_ticket = TrackingFacts {
            ticket_thread_id: Some("9".into()),
            ..TrackingFacts::default()
        };
        assert!(in_ticket.script_progress(&paid).in_discord);
        let not_in_it = TrackingFacts {
            ticket_problem: Some("not in the server".into()),
            ..in_ticket
        };
        assert!(!not_in_it.script_progress(&paid).in_discord);
        let ready = TrackingFacts {
            claimed_at: Some(at(5)),
            buyer_ready_at: Some(at(6)),
            ..TrackingFacts::default()
        };
        let progress = ready.script_progress(&paid);
        assert!(progress.claimed && progress.ready && !progress.delivered);
        // released: the claim is gone, and with it the ready
        let released = TrackingFacts {
            claimed_at: None,
            buyer_ready_at: Some(at(6)),
            ..TrackingFacts::default()
        };
        assert_eq!(released.script_progress(&paid), ScriptProgress::default());
        let delivered = order_in(Lifecycle::restore(
            OrderStatus::Delivered,
            Some(at(1)),
            Some(at(9)),
            None,
        ));
        let reviewed = TrackingFacts {
            claimed_at: Some(at(5)),
            reviewed: true,
            ..TrackingFacts::default()
        };
        let progress = reviewed.script_progress(&delivered);
        assert!(progress.delivered && progress.reviewed && !progress.claimed);
    }
}
