//! What happens to an order, as events. Every change of an order is an [`OrderEvent`], written
//! by the store in the same transaction as the change (`order_events`), one row per
//! occurrence: a second claim after a release is a second `claimed` event.
//!
//! That table is the outbox. The [`Dispatcher`] reads the events nobody has dispatched yet and,
//! in one transaction per event, queues what must leave the shop: the buyer's mail (once per
//! order and kind, or once per occurrence for the claim mail) and one job per outside channel
//! that wants the step (the Discord ticket). Each channel's [`OutboxWorker`] then sends its
//! due jobs with retries and a doubling wait, each job leased first so that of several
//! instances one sends it. A crash between a change and its side effects loses nothing; a
//! subscriber that fails never undoes or blocks the change.

use std::fmt;
use std::future::Future;

use chrono::{DateTime, Duration, Utc};
use shared::UserId;

use crate::{Clock, OrderError, OrderId};

/// One step of an order's way, as events and server push name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OrderStep {
    Placed,
    /// The buyer finished the provider's page with a method that confirms later (a voucher, a
    /// bank debit): the order stays pending, its stock held until its `pay_by` (its note: that
    /// deadline, RFC 3339).
    AwaitingPayment,
    Paid,
    PaidAfterExpiry,
    Held,
    Claimed,
    /// The member of staff let the claimed order go, back in line (its note: the reason they
    /// gave, which the buyer is shown and mailed).
    Released,
    /// The buyer did not say "I'm in the game" within `delivery.no_show_minutes` of the claim
    /// (marked once per claim by a background job): they are told, and staff may release it.
    NoShow,
    Ready,
    Delivered,
    /// The buyer said they got their items ("I got my items" on the order page).
    Received,
    Refunded,
    /// Part of the payment was given back at the provider; the order itself is unchanged.
    PartlyRefunded,
    Disputed,
    DisputeWon,
    DisputeLost,
    /// A paid order was put on a risk hold (a fraud warning, a risky payment): out of the
    /// delivery queue until staff refund it or put it back. Its note is what the provider said
    /// (the kind of fraud, the risk level); the reason is the order's (`Order::hold`), never
    /// told to the buyer, so this one step stands for both.
    RiskHeld,
    /// Staff put an order on a risk hold back in the delivery queue.
    HoldReleased,
    /// A message on the order's page, from its buyer or staff (its note: the message's id;
    /// its member of staff: who wrote it, for a staff message). Mirrored into the Discord
    /// ticket; server push tells it as its own `order_message` event.
    Message,
    /// The card's issuer warned that the payment looks fraudulent (its note: the kind of
    /// fraud), whatever it did to the order: for staff only, never published to the buyer.
    FraudWarning,
    Cancelled,
    Expired,
    /// The buyer's account was erased: the order's Discord ticket goes (written by the erasure,
    /// already dispatched, with the one ticket job that deletes the thread).
    Erased,
}

impl OrderStep {
    pub const ALL: [OrderStep; 23] = [
        OrderStep::Placed,
        OrderStep::AwaitingPayment,
        OrderStep::Paid,
        OrderStep::PaidAfterExpiry,
        OrderStep::Held,
        OrderStep::Claimed,
        OrderStep::Released,
        OrderStep::NoShow,
        OrderStep::Ready,
        OrderStep::Delivered,
        OrderStep::Received,
        OrderStep::Refunded,
        OrderStep::PartlyRefunded,
        OrderStep::Disputed,
        OrderStep::DisputeWon,
        OrderStep::DisputeLost,
        OrderStep::RiskHeld,
        OrderStep::HoldReleased,
        OrderStep::Message,
        OrderStep::FraudWarning,
        OrderStep::Cancelled,
        OrderStep::Expired,
        OrderStep::Erased,
    ];

    pub const fn as_str(&self) -> &'static str {
        match self {
            OrderStep::Placed => "placed",
            OrderStep::AwaitingPayment => "awaiting_payment",
            OrderStep::Paid => "paid",
            OrderStep::PaidAfterExpiry => "paid_after_expiry",
            OrderStep::Held => "held",
            OrderStep::Claimed => "claimed",
            OrderStep::Released => "released",
            OrderStep::NoShow => "no_show",
            OrderStep::Ready => "ready",
            OrderStep::Delivered => "delivered",
            OrderStep::Received => "received",
            OrderStep::Refunded => "refunded",
            OrderStep::PartlyRefunded => "partly_refunded",
            OrderStep::Disputed => "disputed",
            OrderStep::DisputeWon => "dispute_won",
            OrderStep::DisputeLost => "dispute_lost",
            OrderStep::RiskHeld => "risk_held",
            OrderStep::HoldReleased => "hold_released",
            OrderStep::Message => "message",
            OrderStep::FraudWarning => "fraud_warning",
            OrderStep::Cancelled => "cancelled",
            OrderStep::Expired => "expired",
            OrderStep::Erased => "erased",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|step| step.as_str() == text)
    }

    /// The mail the buyer gets at this step, and whether it goes once per order (`false`) or
    /// once per occurrence (`true`: every claim tells the buyer staff are waiting).
    pub fn buyer_mail(&self) -> Option<(MailKind, bool)> {
        match self {
            OrderStep::Paid => Some((MailKind::Receipt, false)),
            OrderStep::Claimed => Some((MailKind::Claimed, true)),
            OrderStep::Released => Some((MailKind::Released, true)),
            OrderStep::NoShow => Some((MailKind::NoShow, true)),
            OrderStep::Delivered => Some((MailKind::Delivered, false)),
            OrderStep::Refunded => Some((MailKind::Refunded, false)),
            _ => None,
        }
    }
}

impl fmt::Display for OrderStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One change of an order, as recorded with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderEvent {
    /// The event's number: increasing, and the occurrence of its step.
    pub id: i64,
    pub order_id: OrderId,
    pub step: OrderStep,
    /// The member of staff who made the change, if one did.
    pub staff_id: Option<UserId>,
    /// What the provider said with it (a dispute's reason), at most 200 characters.
    pub note: Option<String>,
    pub at: DateTime<Utc>,
}

/// An outside channel the outbox feeds, and which steps it wants.
#[derive(Debug, Clone, Copy)]
pub struct Channel {
    /// As `outbox_jobs.channel` stores it (at most 16 characters).
    pub name: &'static str,
    pub wants: fn(OrderStep) -> bool,
}

/// One job of a channel, due to be sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxJob {
    pub id: i64,
    pub event: OrderEvent,
    /// Failed attempts so far.
    pub attempts: u32,
    /// The Discord thread the job works on when the order no longer names it (an erased
    /// order's ticket, to delete).
    pub thread: Option<shared::DiscordId>,
}

/// What the dispatcher queues for one event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dispatch {
    /// The buyer's mail and its occurrence (0: once per order and kind; else the event's id).
    pub mail: Option<(MailKind, i64)>,
    /// The channels that get a job.
    pub channels: Vec<&'static str>,
}

/// Where the outbox lives: the events and the channels' jobs.
#[cfg_attr(test, mockall::automock)]
pub trait OutboxRepository: Send + Sync + 'static {
    /// Up to `limit` events not yet dispatched, oldest first.
    fn undispatched(
        &self,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<OrderEvent>, OrderError>> + Send;

    /// In one transaction: queues the mail (once per order, kind and occurrence), one job per
    /// channel (once per event and channel), and marks the event dispatched. Running it twice
    /// for one event (two instances) queues nothing twice.
    fn dispatch(
        &self,
        event: &OrderEvent,
        dispatch: Dispatch,
        at: DateTime<Utc>,
    ) -> impl Future<Output = Result<(), OrderError>> + Send;

    /// Up to `limit` unsent jobs of `channel` due at `now`, oldest first.
    fn due_jobs(
        &self,
        channel: &'static str,
        now: DateTime<Utc>,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<OutboxJob>, OrderError>> + Send;

    /// Takes the job for one attempt until `lease_until`; `false` when another instance took it.
    fn lease_job(
        &self,
        job: i64,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
    ) -> impl Future<Output = Result<bool, OrderError>> + Send;

    fn job_done(
        &self,
        job: i64,
        at: DateTime<Utc>,
    ) -> impl Future<Output = Result<(), OrderError>> + Send;

    /// Records a failed attempt: `retry_at` the next try, or `None` when it gives up.
    fn job_failed(
        &self,
        job: i64,
        attempts: u32,
        retry_at: Option<DateTime<Utc>>,
        error: String,
    ) -> impl Future<Output = Result<(), OrderError>> + Send;
}

/// Turns recorded events into queued work.
#[derive(Debug, Clone)]
pub struct Dispatcher<R, C> {
    repository: R,
    clock: C,
    channels: Vec<Channel>,
}

/// How many events or jobs one round takes.
const BATCH: u32 = 50;
/// How long an attempt holds a job before another instance may try it.
const LEASE_SECONDS: i64 = 120;

impl<R: OutboxRepository, C: Clock> Dispatcher<R, C> {
    pub fn new(repository: R, clock: C, channels: Vec<Channel>) -> Self {
        Dispatcher {
            repository,
            clock,
            channels,
        }
    }

    /// What one event queues.
    pub fn plan(&self, event: &OrderEvent) -> Dispatch {
        Dispatch {
            mail: event
                .step
                .buyer_mail()
                .map(|(kind, per_occurrence)| (kind, if per_occurrence { event.id } else { 0 })),
            channels: self
                .channels
                .iter()
                .filter(|channel| (channel.wants)(event.step))
                .map(|channel| channel.name)
                .collect(),
        }
    }

    /// Dispatches every event not yet dispatched; answers how many.
    pub async fn dispatch_pending(&self) -> Result<usize, OrderError> {
        let mut done = 0;
        loop {
            let events = self.repository.undispatched(BATCH).await?;
            let full = events.len() == BATCH as usize;
            for event in events {
                let plan = self.plan(&event);
                self.repository
                    .dispatch(&event, plan, self.clock.now())
                    .await?;
                done += 1;
            }
            if !full {
                return Ok(done);
            }
        }
    }
}

/// An outside service asked the shop to wait before calling again (Discord's 429).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("rate limited for {retry_after} (global: {global})")]
pub struct RateLimited {
    /// How long to wait, as the answer said.
    pub retry_after: Duration,
    /// The limit covers every call made with the bot's token (Discord's global limit), not one
    /// route: every Discord job waits, on every instance.
    pub global: bool,
    /// Discord counts the answer against its invalid-request budget (every 429 but one of a
    /// `shared` resource limit).
    pub counted: bool,
}

/// Why a job's attempt failed, and whether another attempt can help.
#[derive(Debug, thiserror::Error)]
#[error("{error:#}")]
pub struct JobFailed {
    /// `false`: the same attempt would fail again (a missing permission): give up now.
    pub retry: bool,
    pub error: anyhow::Error,
    /// The service said to wait: the job goes again after the wait, its attempts not counted.
    pub limited: Option<RateLimited>,
    /// Discord counts the answer against its invalid-request budget (401, 403, 429).
    pub invalid: bool,
}

impl JobFailed {
    pub fn retry(error: anyhow::Error) -> Self {
        JobFailed::new(true, error)
    }

    pub fn give_up(error: anyhow::Error) -> Self {
        JobFailed::new(false, error)
    }

    /// The failure of `error`, which says itself when it is a rate limit ([`RateLimited`]
    /// anywhere in its chain) or an answer Discord counts as invalid ([`InvalidRequest`]).
    fn new(retry: bool, error: anyhow::Error) -> Self {
        let limited = error
            .chain()
            .find_map(|cause| cause.downcast_ref::<RateLimited>())
            .copied();
        let invalid = limited.is_some_and(|limit| limit.counted)
            || error
                .chain()
                .any(|cause| cause.downcast_ref::<InvalidRequest>().is_some());
        JobFailed {
            retry: retry || limited.is_some(),
            error,
            limited,
            invalid,
        }
    }
}

/// Discord refused the request as unauthorised or forbidden (401, 403): an answer it counts
/// against its invalid-request budget.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Discord answered {status}")]
pub struct InvalidRequest {
    pub status: u16,
}

/// Whether a channel's jobs may go now: Discord's global rate limit and its invalid-request
/// budget hold every Discord job of every instance ([`crate::discord_limits`]).
pub trait JobGate: Send + Sync + 'static {
    /// When the jobs may go again; `None`: now.
    fn closed_until(
        &self,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Option<DateTime<Utc>>, OrderError>> + Send;

    /// Learns from a failed attempt (a global limit closes the gate until its end; an invalid
    /// answer is counted).
    fn failed(
        &self,
        now: DateTime<Utc>,
        failed: &JobFailed,
    ) -> impl Future<Output = Result<(), OrderError>> + Send;
}

/// A channel with no gate (the buyer's mail).
#[derive(Debug, Clone, Copy, Default)]
pub struct Open;

impl JobGate for Open {
    async fn closed_until(&self, _now: DateTime<Utc>) -> Result<Option<DateTime<Utc>>, OrderError> {
        Ok(None)
    }

    async fn failed(&self, _now: DateTime<Utc>, _failed: &JobFailed) -> Result<(), OrderError> {
        Ok(())
    }
}

/// What a channel does with one job.
pub trait JobHandler: Send + Sync + 'static {
    fn handle(&self, job: &OutboxJob) -> impl Future<Output = Result<(), JobFailed>> + Send;
}

/// What one round of a worker did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct JobRound {
    pub sent: usize,
    pub failed: usize,
    /// Jobs put off by a rate limit (their attempts not counted).
    pub limited: usize,
}

/// Sends one channel's due jobs.
#[derive(Debug, Clone)]
pub struct OutboxWorker<R, H, C, G = Open> {
    repository: R,
    handler: H,
    clock: C,
    channel: &'static str,
    retry: MailRetry,
    gate: G,
}

impl<R: OutboxRepository, H: JobHandler, C: Clock> OutboxWorker<R, H, C, Open> {
    pub fn new(
        repository: R,
        handler: H,
        clock: C,
        channel: &'static str,
        retry: MailRetry,
    ) -> Self {
        OutboxWorker {
            repository,
            handler,
            clock,
            channel,
            retry,
            gate: Open,
        }
    }
}

impl<R: OutboxRepository, H: JobHandler, C: Clock, G: JobGate> OutboxWorker<R, H, C, G> {
    /// The same worker, its jobs held while `gate` is closed.
    pub fn gated<G2: JobGate>(self, gate: G2) -> OutboxWorker<R, H, C, G2> {
        OutboxWorker {
            repository: self.repository,
            handler: self.handler,
            clock: self.clock,
            channel: self.channel,
            retry: self.retry,
            gate,
        }
    }

    /// Sends every job due now, each once per success; a failure is tried again later with a
    /// doubling wait (up to `max_attempts`), unless retrying cannot help. A rate limit puts the
    /// job off by the wait it names, its attempts not counted; a global one (or a closed gate)
    /// ends the round: nothing more is sent until the gate opens.
    pub async fn run_due(&self) -> Result<JobRound, OrderError> {
        let now = self.clock.now();
        let mut round = JobRound::default();
        let due = self.repository.due_jobs(self.channel, now, BATCH).await?;
        if due.is_empty() || self.gate.closed_until(now).await?.is_some() {
            return Ok(round);
        }
        for job in due {
            let leased = self
                .repository
                .lease_job(job.id, now, now + Duration::seconds(LEASE_SECONDS))
                .await?;
            if !leased {
                continue;
            }
            let failed = match self.handler.handle(&job).await {
                Ok(()) => {
                    self.repository.job_done(job.id, self.clock.now()).await?;
                    round.sent += 1;
                    continue;
                }
                Err(failed) => failed,
            };
            let now = self.clock.now();
            self.gate.failed(now, &failed).await?;
            if let Some(limit) = failed.limited {
                tracing::info!(
                    channel = self.channel, order = %job.event.order_id, step = %job.event.step,
                    retry_after_ms = limit.retry_after.num_milliseconds(), global = limit.global,
                    "an outbox job was rate limited; put off"
                );
                self.repository
                    .job_failed(
                        job.id,
                        job.attempts,
                        Some(now + limit.retry_after),
                        format!("{failed}"),
                    )
                    .await?;
                round.limited += 1;
            } else {
                let attempts = job.attempts + 1;
                let retry_at = (failed.retry && attempts < self.retry.max_attempts)
                    .then(|| now + self.retry.delay_after(attempts));
                tracing::warn!(
                    channel = self.channel, order = %job.event.order_id,
                    step = %job.event.step, attempts, gives_up = retry_at.is_none(),
                    error = %failed, "an outbox job failed"
                );
                self.repository
                    .job_failed(job.id, attempts, retry_at, format!("{failed}"))
                    .await?;
                round.failed += 1;
            }
            if (failed.invalid || failed.limited.is_some())
                && self.gate.closed_until(now).await?.is_some()
            {
                break;
            }
        }
        Ok(round)
    }
}

/// Which mail the buyer gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MailKind {
    /// The order was paid: the receipt with the order's link.
    Receipt,
    /// Staff delivered it in the game.
    Delivered,
    /// It was refunded.
    Refunded,
    /// A member of staff took it and waits in the game (once per claim).
    Claimed,
    /// The member of staff let it go, with their reason: back in line (once per release).
    Released,
    /// The time to join the member of staff's server is up (once per claim).
    NoShow,
}

impl MailKind {
    pub const ALL: [MailKind; 6] = [
        MailKind::Receipt,
        MailKind::Delivered,
        MailKind::Refunded,
        MailKind::Claimed,
        MailKind::Released,
        MailKind::NoShow,
    ];

    pub fn as_str(&self) -> &'static str {
        match self {
            MailKind::Receipt => "receipt",
            MailKind::Delivered => "delivered",
            MailKind::Refunded => "refunded",
            MailKind::Claimed => "claimed",
            MailKind::Released => "released",
            MailKind::NoShow => "no_show",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == text)
    }
}

impl fmt::Display for MailKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The mail couldn't be sent (this time).
#[derive(Debug, thiserror::Error)]
#[error("the mail could not be sent: {0}")]
pub struct SendFailed(#[source] pub anyhow::Error);

/// How often and how patiently a mail is tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MailRetry {
    /// Attempts in all before giving up.
    pub max_attempts: u32,
    /// Wait after the first failure; doubled after each further one.
    pub base_delay_seconds: u64,
    /// The longest wait between two attempts.
    pub max_delay_seconds: u64,
}

impl Default for MailRetry {
    fn default() -> Self {
        MailRetry {
            max_attempts: 8,
            base_delay_seconds: 30,
            max_delay_seconds: 3600,
        }
    }
}

impl MailRetry {
    /// The wait after `failures` failed attempts (1 or more).
    pub fn delay_after(&self, failures: u32) -> Duration {
        let doubling = failures.saturating_sub(1).min(30);
        let seconds = self
            .base_delay_seconds
            .max(1)
            .saturating_mul(1u64 << doubling)
            .min(self.max_delay_seconds.max(1));
        Duration::seconds(i64::try_from(seconds).unwrap_or(i64::MAX))
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;
    use mockall::predicate::eq;
    use shared::FixedClock;

    use super::*;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 26, 12, 0, 0).unwrap()
    }

    fn event(id: i64, step: OrderStep) -> OrderEvent {
        OrderEvent {
            id,
            order_id: OrderId::new(7),
            step,
            staff_id: None,
            note: None,
            at: now(),
        }
    }

    fn ticket_wants(step: OrderStep) -> bool {
        matches!(step, OrderStep::Paid | OrderStep::Claimed)
    }

    fn dispatcher(repo: MockOutboxRepository) -> Dispatcher<MockOutboxRepository, FixedClock> {
        Dispatcher::new(
            repo,
            FixedClock(now()),
            vec![Channel {
                name: "ticket",
                wants: ticket_wants,
            }],
        )
    }

    #[test]
    fn steps_round_trip_through_their_names() {
        for step in OrderStep::ALL {
            assert_eq!(OrderStep::parse(step.as_str()), Some(step));
        }
        assert_eq!(OrderStep::DisputeWon.as_str(), "dispute_won");
        assert_eq!(OrderStep::parse("shipped"), None);
    }

    #[test]
    fn the_claim_mail_goes_once_per_claim_the_others_once_per_order() {
        let d = dispatcher(MockOutboxRepository::new());
        assert_eq!(
            d.plan(&event(41, OrderStep::Claimed)),
            Dispatch {
                mail: Some((MailKind::Claimed, 41)),
                channels: vec!["ticket"],
            }
        );
        assert_eq!(
            d.plan(&event(42, OrderStep::Paid)).mail,
            Some((MailKind::Receipt, 0))
        );
        // a release and a no-show each tell the buyer once per occurrence
        assert_eq!(
            d.plan(&event(43, OrderStep::Released)),
            Dispatch {
                mail: Some((MailKind::Released, 43)),
                channels: vec![],
            }
        );
        assert_eq!(
            d.plan(&event(44, OrderStep::NoShow)).mail,
            Some((MailKind::NoShow, 44))
        );
    }

    #[tokio::test]
    async fn every_undispatched_event_is_dispatched_with_its_plan() {
        let mut repo = MockOutboxRepository::new();
        repo.expect_undispatched().times(1).returning(|_| {
            Box::pin(async { Ok(vec![event(1, OrderStep::Paid), event(2, OrderStep::Ready)]) })
        });
        repo.expect_dispatch()
            .withf(|e, plan, _| e.id == 1 && plan.channels == vec!["ticket"])
            .times(1)
            .returning(|_, _, _| Box::pin(async { Ok(()) }));
        repo.expect_dispatch()
            .withf(|e, plan, _| e.id == 2 && plan.channels.is_empty() && plan.mail.is_none())
            .times(1)
            .returning(|_, _, _| Box::pin(async { Ok(()) }));
        assert_eq!(dispatcher(repo).dispatch_pending().await.unwrap(), 2);
    }

    struct Failing(bool);

    impl JobHandler for Failing {
        async fn handle(&self, _job: &OutboxJob) -> Result<(), JobFailed> {
            let error = anyhow::anyhow!("discord said no");
            Err(if self.0 {
                JobFailed::retry(error)
            } else {
                JobFailed::give_up(error)
            })
        }
    }

    fn one_due_job(repo: &mut MockOutboxRepository, attempts: u32) {
        repo.expect_due_jobs().returning(move |_, _, _| {
            Box::pin(async move {
                Ok(vec![OutboxJob {
                    id: 9,
                    event: event(1, OrderStep::Paid),
                    attempts,
                    thread: None,
                }])
            })
        });
        repo.expect_lease_job()
            .returning(|_, _, _| Box::pin(async { Ok(true) }));
    }

    #[tokio::test]
    async fn a_failed_job_is_tried_again_later_with_a_doubling_wait() {
        let mut repo = MockOutboxRepository::new();
        one_due_job(&mut repo, 1);
        let retry = MailRetry::default();
        let expected = Some(now() + retry.delay_after(2));
        repo.expect_job_failed()
            .with(eq(9), eq(2), eq(expected), mockall::predicate::always())
            .times(1)
            .returning(|_, _, _, _| Box::pin(async { Ok(()) }));
        let worker = OutboxWorker::new(repo, Failing(true), FixedClock(now()), "ticket", retry);
        assert_eq!(worker.run_due().await.unwrap().failed, 1);
    }

    #[tokio::test]
    async fn a_failure_retrying_cannot_help_gives_up_at_once() {
        let mut repo = MockOutboxRepository::new();
        one_due_job(&mut repo, 0);
        repo.expect_job_failed()
            .with(eq(9), eq(1), eq(None), mockall::predicate::always())
            .times(1)
            .returning(|_, _, _, _| Box::pin(async { Ok(()) }));
        let worker = OutboxWorker::new(
            repo,
            Failing(false),
            FixedClock(now()),
            "ticket",
            MailRetry::default(),
        );
        worker.run_due().await.unwrap();
    }

    struct Limited(bool);

    impl JobHandler for Limited {
        async fn handle(&self, _job: &OutboxJob) -> Result<(), JobFailed> {
            // as the staff webhook says it: the limit inside the send failure's chain
            Err(JobFailed::retry(
                anyhow::Error::new(RateLimited {
                    retry_after: Duration::seconds(7),
                    global: self.0,
                    counted: true,
                })
                .context("webhook answered 429"),
            ))
        }
    }

    /// A gate closed from the start, or from the first failure it hears of.
    #[derive(Default)]
    struct Gate {
        closed: std::sync::Mutex<Option<DateTime<Utc>>>,
        heard: std::sync::Mutex<Vec<(bool, bool)>>,
    }

    impl JobGate for std::sync::Arc<Gate> {
        async fn closed_until(
            &self,
            _now: DateTime<Utc>,
        ) -> Result<Option<DateTime<Utc>>, OrderError> {
            Ok(*self.closed.lock().unwrap())
        }

        async fn failed(&self, now: DateTime<Utc>, failed: &JobFailed) -> Result<(), OrderError> {
            let global = failed.limited.is_some_and(|l| l.global);
            self.heard.lock().unwrap().push((global, failed.invalid));
            if global {
                *self.closed.lock().unwrap() = Some(now + Duration::seconds(7));
            }
            Ok(())
        }
    }

    #[tokio::test]
    async fn a_rate_limited_job_is_put_off_by_its_wait_without_counting_an_attempt() {
        let mut repo = MockOutboxRepository::new();
        one_due_job(&mut repo, 3);
        repo.expect_job_failed()
            .with(
                eq(9),
                eq(3),
                eq(Some(now() + Duration::seconds(7))),
                mockall::predicate::always(),
            )
            .times(1)
            .returning(|_, _, _, _| Box::pin(async { Ok(()) }));
        let gate = std::sync::Arc::new(Gate::default());
        let worker = OutboxWorker::new(
            repo,
            Limited(false),
            FixedClock(now()),
            "staff",
            MailRetry::default(),
        )
        .gated(std::sync::Arc::clone(&gate));
        let round = worker.run_due().await.unwrap();
        assert_eq!((round.limited, round.failed), (1, 0));
        assert_eq!(
            *gate.heard.lock().unwrap(),
            vec![(false, true)],
            "counted as invalid"
        );
    }

    #[tokio::test]
    async fn a_global_limit_ends_the_round_and_a_closed_gate_sends_nothing() {
        let mut repo = MockOutboxRepository::new();
        repo.expect_due_jobs().returning(|_, _, _| {
            Box::pin(async {
                Ok((1..=3)
                    .map(|id| OutboxJob {
                        id,
                        event: event(id, OrderStep::Paid),
                        attempts: 0,
                        thread: None,
                    })
                    .collect())
            })
        });
        repo.expect_lease_job()
            .times(1)
            .returning(|_, _, _| Box::pin(async { Ok(true) }));
        repo.expect_job_failed()
            .times(1)
            .returning(|_, _, _, _| Box::pin(async { Ok(()) }));
        let gate = std::sync::Arc::new(Gate::default());
        let worker = OutboxWorker::new(
            repo,
            Limited(true),
            FixedClock(now()),
            "ticket",
            MailRetry::default(),
        )
        .gated(std::sync::Arc::clone(&gate));
        assert_eq!(
            worker.run_due().await.unwrap().limited,
            1,
            "one job tried, then the round ends"
        );
        // the next round: the gate is closed, nothing is leased or sent
        assert_eq!(worker.run_due().await.unwrap(), JobRound::default());
    }

    #[test]
    fn the_retry_wait_doubles_up_to_its_cap() {
        let retry = MailRetry {
            max_attempts: 5,
            base_delay_seconds: 10,
            max_delay_seconds: 60,
        };
        let waits: Vec<i64> = (1..=5)
            .map(|n| retry.delay_after(n).num_seconds())
            .collect();
        assert_eq!(waits, [10, 20, 40, 60, 60]);
    }

    #[test]
    fn mail_kinds_round_trip_as_text() {
        for kind in MailKind::ALL {
            assert_eq!(MailKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(MailKind::parse("spam"), None);
    }
}
