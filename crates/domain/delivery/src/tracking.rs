//! After the sale: the buyer's view of the order through its link (timeline and place in the
//! delivery queue), and the mail to the buyer (receipt, delivered, refunded) queued as intents
//! and sent in the background with retries. The link's key is derived by `orders::OrderKeys`.

use std::future::Future;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, Utc};
use orders::{
    AccessKey, MailKind, MailRetry, Order, OrderError, OrderId, OrderKeys, OrderRepository,
    OrderStatus, SendFailed,
};
use shared::Clock;

use crate::promise::{self, DeliveryStep, DeliveryTimesRepository};

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
    /// The Discord thread of the order's ticket.
    pub ticket_thread_id: Option<String>,
    /// Why the ticket is missing or the buyer is not in it.
    pub ticket_problem: Option<String>,
}

/// The handoff as the buyer's page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BuyerDelivery {
    pub staff_name: Option<String>,
    /// Only while the order is paid and claimed: never after delivery, a refund or a release.
    pub private_server_url: Option<String>,
    pub claimed_at: Option<DateTime<Utc>>,
    pub buyer_ready_at: Option<DateTime<Utc>>,
    pub ticket_url: Option<String>,
    pub ticket_problem: Option<String>,
    /// The first picture of the proof the order was delivered with (`/media/proofs/…`).
    pub proof_picture: Option<String>,
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
            ticket_url: match (guild, &facts.ticket_thread_id) {
                (Some(guild), Some(thread)) => {
                    Some(format!("https://discord.com/channels/{guild}/{thread}"))
                }
                _ => None,
            },
            ticket_problem: facts.ticket_problem.clone(),
            proof_picture: None,
        }
    }
}

/// What the handoff needs from the shop's settings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HandoffSettings {
    /// The promise while fewer than 10 orders were delivered in the last 7 days.
    pub delivery_minutes: u32,
    /// The shop's Discord server invite.
    pub discord_invite: Option<String>,
    /// The Discord server of the tickets (their links).
    pub guild_id: Option<String>,
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

/// Where the buyer's page and the mail loop read and record.
#[cfg_attr(test, mockall::automock)]
pub trait TrackingRepository: Send + Sync + 'static {
    /// The stored hash of the order's link key; `None` for an order placed without one.
    /// `OrderError::NotFound` when there is no such order.
    fn access_key_hash(
        &self,
        id: OrderId,
    ) -> impl Future<Output = Result<Option<String>, OrderError>> + Send;

    /// Fails only with `OrderError::Unknown`.
    fn after_sale_facts(
        &self,
        id: OrderId,
    ) -> impl Future<Output = Result<TrackingFacts, OrderError>> + Send;

    /// How many paid orders come before this paid one in the delivery queue (paid earlier, or
    /// at the same time with a smaller id). Fails only with `OrderError::Unknown`.
    fn paid_orders_ahead(
        &self,
        id: OrderId,
    ) -> impl Future<Output = Result<u32, OrderError>> + Send;

    /// The public path of the first picture of a proof (`/media/proofs/…`), if any.
    fn proof_picture(
        &self,
        proof_id: i64,
    ) -> impl Future<Output = Result<Option<String>, OrderError>> + Send;

    /// Up to `limit` unsent mails due at `now`, oldest first.
    fn due_mail(
        &self,
        now: DateTime<Utc>,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<MailJob>, OrderError>> + Send;

    /// Takes the job for one attempt: pushes its due time to `lease_until` where it is still
    /// unsent and due; `false` when another instance took it first.
    fn lease_mail(
        &self,
        job: i64,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
    ) -> impl Future<Output = Result<bool, OrderError>> + Send;

    fn mail_sent(
        &self,
        job: i64,
        at: DateTime<Utc>,
    ) -> impl Future<Output = Result<(), OrderError>> + Send;

    /// Records a failed attempt: `retry_at` the next try, or `None` when it gives up.
    fn mail_failed(
        &self,
        job: i64,
        attempts: u32,
        retry_at: Option<DateTime<Utc>>,
        error: String,
    ) -> impl Future<Output = Result<(), OrderError>> + Send;
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
    /// Who claimed the order (the claim mail).
    pub staff_name: Option<String>,
}

/// Where buyer mail goes: SMTP or the local outbox.
#[cfg_attr(test, mockall::automock)]
pub trait BuyerMailer: Send + Sync + 'static {
    fn send_buyer_mail(
        &self,
        mail: BuyerMail,
    ) -> impl Future<Output = Result<(), SendFailed>> + Send;
}

/// How long an attempt holds a job before another instance may try it.
const LEASE: i64 = 120;
/// Jobs taken per round.
const BATCH: u32 = 20;

/// The buyer's page and the mail loop over their ports.
#[derive(Debug, Clone)]
pub struct OrderTracking<R, M, C> {
    repository: R,
    mailer: M,
    clock: C,
    keys: OrderKeys,
    public_url: String,
    retry: MailRetry,
    handoff: HandoffSettings,
    /// The promise and when it was measured: measured again after [`PROMISE_TTL_SECONDS`].
    promise: Arc<Mutex<Option<MeasuredPromise>>>,
}

/// A promise in minutes and when it was measured.
type MeasuredPromise = (DateTime<Utc>, u32);

/// How long a measured promise is used before it is measured again.
const PROMISE_TTL_SECONDS: i64 = 60;

/// What one round of the mail loop did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MailRound {
    pub sent: usize,
    pub failed: usize,
}

impl<R, M, C> OrderTracking<R, M, C>
where
    R: TrackingRepository + OrderRepository + DeliveryTimesRepository,
    M: BuyerMailer,
    C: Clock,
{
    pub fn new(
        repository: R,
        mailer: M,
        clock: C,
        keys: OrderKeys,
        public_url: &str,
        retry: MailRetry,
        handoff: HandoffSettings,
    ) -> Self {
        OrderTracking {
            repository,
            mailer,
            clock,
            keys,
            public_url: public_url.trim_end_matches('/').to_owned(),
            retry,
            handoff,
            promise: Arc::new(Mutex::new(None)),
        }
    }

    pub fn handoff(&self) -> &HandoffSettings {
        &self.handoff
    }

    /// The shop's promise, "usually under N minutes" (see [`crate::promise`]), measured at
    /// most once a minute. A failed measurement answers the configured default.
    pub async fn estimate_minutes(&self) -> u32 {
        let now = self.clock.now();
        let cached = *self.promise.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((at, minutes)) = cached {
            if now - at < Duration::seconds(PROMISE_TTL_SECONDS) && now >= at {
                return minutes;
            }
        }
        let since = now - Duration::days(promise::PROMISE_WINDOW_DAYS);
        match self.repository.delivered_since(since).await {
            Ok(delivered) => {
                let seconds: Vec<i64> = delivered
                    .iter()
                    .filter_map(|o| o.seconds(DeliveryStep::PaidToDelivered))
                    .collect();
                let minutes = promise::promise_minutes(&seconds, self.handoff.delivery_minutes);
                *self.promise.lock().unwrap_or_else(|p| p.into_inner()) = Some((now, minutes));
                minutes
            }
            Err(error) => {
                tracing::warn!(error = ?error, "could not measure the delivery promise");
                self.handoff.delivery_minutes
            }
        }
    }

    /// Forgets the measured promise (a delivery just changed it).
    pub fn forget_estimate(&self) {
        *self.promise.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }

    /// `{public_url}/orders/{id}?key=…`.
    pub fn order_link(&self, id: OrderId) -> String {
        format!(
            "{}/orders/{}?key={}",
            self.public_url,
            id,
            self.keys.key_for(id).expose()
        )
    }

    /// Whether `key` opens the order's page. `OrderError::NotFound` for no such order.
    pub async fn key_opens(&self, id: OrderId, key: &str) -> Result<bool, OrderError> {
        Ok(self
            .repository
            .access_key_hash(id)
            .await?
            .is_some_and(|stored| AccessKey::matches(&stored, key)))
    }

    /// The order with its timeline and place in the queue.
    pub async fn track(&self, order: Order) -> Result<TrackedOrder, OrderError> {
        let facts = self.repository.after_sale_facts(order.id).await?;
        let queue_position = if order.status() == OrderStatus::Paid {
            Some(self.repository.paid_orders_ahead(order.id).await? + 1)
        } else {
            None
        };
        let mut delivery =
            BuyerDelivery::of(order.status(), &facts, self.handoff.guild_id.as_deref());
        if let (OrderStatus::Delivered, Some(proof)) = (order.status(), facts.proof_id) {
            delivery.proof_picture = self.repository.proof_picture(proof).await?;
        }
        Ok(TrackedOrder {
            timeline: timeline(&order, &facts),
            queue_position,
            delivery,
            estimate_minutes: self.estimate_minutes().await,
            order,
        })
    }

    /// Sends every mail due now, each once; a failure is tried again later with a doubling
    /// wait, up to `max_attempts` in all.
    pub async fn send_due_mail(&self) -> Result<MailRound, OrderError> {
        let now = self.clock.now();
        let mut round = MailRound::default();
        for job in self.repository.due_mail(now, BATCH).await? {
            let leased = self
                .repository
                .lease_mail(job.id, now, now + Duration::seconds(LEASE))
                .await?;
            if !leased {
                continue;
            }
            match self.send_one(&job).await {
                Ok(()) => {
                    self.repository.mail_sent(job.id, self.clock.now()).await?;
                    tracing::info!(order = %job.order_id, kind = %job.kind, "buyer mail sent");
                    round.sent += 1;
                }
                Err(error) => {
                    let attempts = job.attempts + 1;
                    let retry_at = (attempts < self.retry.max_attempts)
                        .then(|| self.clock.now() + self.retry.delay_after(attempts));
                    if retry_at.is_none() {
                        tracing::error!(order = %job.order_id, kind = %job.kind, attempts, error = ?error, "gave up sending a buyer mail");
                    } else {
                        tracing::warn!(order = %job.order_id, kind = %job.kind, attempts, error = ?error, "a buyer mail failed; trying again later");
                    }
                    self.repository
                        .mail_failed(job.id, attempts, retry_at, format!("{error:#}"))
                        .await?;
                    round.failed += 1;
                }
            }
        }
        Ok(round)
    }

    async fn send_one(&self, job: &MailJob) -> anyhow::Result<()> {
        let order = self.repository.order(job.order_id).await?;
        let facts = self.repository.after_sale_facts(job.order_id).await?;
        let proof_picture = match job.kind {
            MailKind::Delivered => match facts.proof_id {
                Some(proof) => self
                    .repository
                    .proof_picture(proof)
                    .await?
                    .map(|path| self.absolute(&path)),
                None => None,
            },
            _ => None,
        };
        self.mailer
            .send_buyer_mail(BuyerMail {
                kind: job.kind,
                order_link: self.order_link(order.id),
                order,
                proof_picture,
                estimate_minutes: self.estimate_minutes().await,
                discord_invite: self.handoff.discord_invite.clone(),
                staff_name: facts.staff_name,
            })
            .await?;
        Ok(())
    }

    fn absolute(&self, path: &str) -> String {
        if path.starts_with("http://") || path.starts_with("https://") {
            path.to_owned()
        } else {
            format!("{}/{}", self.public_url, path.trim_start_matches('/'))
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

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
            },
            orders::Amounts {
                subtotal: Money::ZERO,
                discount: Money::ZERO,
                fee: Money::ZERO,
                total: Money::ZERO,
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
}
