//! After the sale: the buyer's view of the order through its link (timeline and place in the
//! delivery queue), and the mail to the buyer (receipt, delivered, refunded) queued as intents
//! and sent in the background with retries. The link's key is derived by `orders::OrderKeys`.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, Utc};
use orders::{
    AccessKey, MailKind, MailRetry, Order, OrderError, OrderId, OrderKeys, OrderRepository,
    OrderStatus,
};
use shared::Clock;

use crate::models::{
    order_script, promise_minutes, timeline, BuyerDelivery, BuyerMail, DeliveryStep,
    HandoffSettings, MailJob, MailRound, TrackedOrder, PROMISE_WINDOW_DAYS,
};
use crate::ports::{BuyerMailer, DeliveryTimesRepository, TrackingRepository};

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

    /// The shop's promise, "usually under N minutes" (see [`promise_minutes`](crate::promise_minutes)), measured at
    /// most once a minute. A failed measurement answers the configured default.
    pub async fn estimate_minutes(&self) -> u32 {
        let now = self.clock.now();
        let cached = *self.promise.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((at, minutes)) = cached {
            if now - at < Duration::seconds(PROMISE_TTL_SECONDS) && now >= at {
                return minutes;
            }
        }
        let since = now - Duration::days(PROMISE_WINDOW_DAYS);
        match self.repository.delivered_since(since).await {
            Ok(delivered) => {
                let seconds: Vec<i64> = delivered
                    .iter()
                    .filter_map(|o| o.seconds(DeliveryStep::PaidToDelivered))
                    .collect();
                let minutes = promise_minutes(&seconds, self.handoff.delivery_minutes);
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
        // an order on a risk hold is out of the queue: the buyer is told it is being checked
        // the place in line of an order waiting for a claim: the staff queue's own order
        // (`in_queue_order`), counted by the store
        let paid = order.status() == OrderStatus::Paid && order.held().is_none();
        let queue_position = if paid && facts.claimed_at.is_none() {
            Some(self.repository.paid_orders_ahead(order.id).await? + 1)
        } else {
            None
        };
        let now = self.clock.now();
        let join_by = match (paid, facts.claimed_at, facts.buyer_ready_at) {
            (true, Some(claimed), None) => {
                Some(claimed + Duration::minutes(i64::from(self.handoff.no_show_minutes)))
            }
            _ => None,
        };
        let mut delivery =
            BuyerDelivery::of(order.status(), &facts, self.handoff.guild_id.as_deref());
        if order.held().is_some() {
            delivery = delivery.while_checked();
        }
        if let (Some(url), None) = (&delivery.private_server_url, facts.link_shown_at) {
            self.repository
                .keep_link_shown(order.id, url.clone(), self.clock.now())
                .await?;
        }
        if let (OrderStatus::Delivered, Some(proof)) = (order.status(), facts.proof_id) {
            delivery.proof_picture = self.repository.proof_picture(proof).await?;
        }
        let estimate_minutes = self.estimate_minutes().await;
        let over_promise = paid
            && order
                .lifecycle()
                .paid_at()
                .is_some_and(|at| crate::is_over_promise(at, now, estimate_minutes));
        let steps = order_script(
            &self.handoff,
            estimate_minutes,
            facts.script_progress(&order),
        );
        Ok(TrackedOrder {
            timeline: timeline(&order, &facts),
            steps,
            queue_position,
            delivery,
            estimate_minutes,
            over_promise,
            join_by,
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
        let mail = self.buyer_mail(job.order_id, job.kind).await?;
        self.mailer.send_buyer_mail(mail).await?;
        Ok(())
    }

    /// The buyer's mail of `kind` about the order, as the mail loop sends it (its link with the
    /// order's key).
    pub async fn buyer_mail(&self, id: OrderId, kind: MailKind) -> anyhow::Result<BuyerMail> {
        let order = self.repository.order(id).await?;
        let facts = self.repository.after_sale_facts(id).await?;
        let proof_picture = match kind {
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
        let estimate_minutes = self.estimate_minutes().await;
        let steps = order_script(
            &self.handoff,
            estimate_minutes,
            facts.script_progress(&order),
        );
        Ok(BuyerMail {
            kind,
            steps,
            order_link: self.order_link(order.id),
            order,
            proof_picture,
            estimate_minutes,
            discord_invite: self.handoff.discord_invite.clone(),
            staff_name: match kind {
                MailKind::Released => facts
                    .last_release
                    .as_ref()
                    .and_then(|release| release.staff_name.clone()),
                _ => facts.staff_name,
            },
            release_reason: facts.last_release.and_then(|release| release.reason),
            no_show_minutes: self.handoff.no_show_minutes,
            tickets: self.handoff.tickets,
        })
    }

    fn absolute(&self, path: &str) -> String {
        if path.starts_with("http://") || path.starts_with("https://") {
            path.to_owned()
        } else {
            format!("{}/{}", self.public_url, path.trim_start_matches('/'))
        }
    }
}
