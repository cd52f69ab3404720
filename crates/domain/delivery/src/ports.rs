//! The ports of delivery: where the queue, the buyer's page, the mail loop and delivery times
//! read and record, and where buyer mail goes.

use std::future::Future;

use chrono::{DateTime, Utc};
use orders::{OrderError, OrderId, OrderNotices, OrderStatus, SendFailed};
use shared::{Actor, PrivateServerUrl, Published, Unheard, UserId};

use crate::models::{
    BuyerMail, DeliveredOrder, MailJob, NewOrderMessage, OrderMessage, QueueFilter, QueuedOrder,
    TrackingFacts,
};

/// Who hears, after it committed, what the queue and the order page changed: besides each
/// order's step ([`OrderNotices`]), a delivery with its times (the delivery time histogram and
/// the promise) and a message on an order's page (its buyer and staff, with the message).
pub trait DeliveryNotices: OrderNotices {
    fn delivered<'a>(&'a self, order: &'a DeliveredOrder) -> Published<'a>;
    fn message_posted<'a>(&'a self, message: &'a OrderMessage) -> Published<'a>;
}

impl DeliveryNotices for Unheard {
    fn delivered(&self, _: &DeliveredOrder) -> Published<'_> {
        Box::pin(async {})
    }

    fn message_posted(&self, _: &OrderMessage) -> Published<'_> {
        Box::pin(async {})
    }
}

/// Where the queue reads and changes orders. Every change is one conditional statement, so
/// of two members of staff acting at once exactly one succeeds.
#[cfg_attr(test, mockall::automock)]
pub trait DeliveryRepository: Send + Sync + 'static {
    /// The orders the filter selects, in its order (at most a few hundred).
    fn queue(
        &self,
        filter: QueueFilter,
    ) -> impl Future<Output = Result<Vec<QueuedOrder>, OrderError>> + Send;

    /// `OrderError::NotFound` when there is no such order.
    fn queued_order(
        &self,
        id: OrderId,
    ) -> impl Future<Output = Result<QueuedOrder, OrderError>> + Send;

    /// Sets `claimed_by` to `staff` where the order is paid, not on a risk hold and unclaimed
    /// (or already theirs), and `claimed_at` to `at` unless it was theirs already; `false` when no row matched.
    /// `actor` is who the audit log names for the change (written with it).
    fn claim(
        &self,
        id: OrderId,
        staff: UserId,
        at: DateTime<Utc>,
        actor: &Actor,
    ) -> impl Future<Output = Result<bool, OrderError>> + Send;

    /// Clears `claimed_by` where it is `staff`, recording the `reason` with the order's
    /// `released` step; `false` when no row matched.
    fn release(
        &self,
        id: OrderId,
        staff: UserId,
        reason: String,
        actor: &Actor,
    ) -> impl Future<Output = Result<bool, OrderError>> + Send;

    /// The paid orders, not on a risk hold, claimed at or before `claimed_before` whose buyer
    /// has not said "I'm in the game" and which are not marked no-show yet under this claim.
    fn due_no_shows(
        &self,
        claimed_before: DateTime<Utc>,
    ) -> impl Future<Output = Result<Vec<OrderId>, OrderError>> + Send;

    /// Marks the order a no-show at `at` (with its `no_show` step) if it still is one as
    /// [`due_no_shows`](Self::due_no_shows) says: `true` for the one caller that did.
    fn mark_no_show(
        &self,
        id: OrderId,
        claimed_before: DateTime<Utc>,
        at: DateTime<Utc>,
    ) -> impl Future<Output = Result<bool, OrderError>> + Send;

    /// Turns a paid order not on a risk hold that is claimed by `staff` into delivered at `at`,
    /// with the proof; `false` when no row matched.
    fn deliver(
        &self,
        id: OrderId,
        staff: UserId,
        proof: Option<i64>,
        at: DateTime<Utc>,
        actor: &Actor,
    ) -> impl Future<Output = Result<bool, OrderError>> + Send;

    /// Takes a paid order off its risk hold at `at`, back into the queue (its `hold_released`
    /// step, audited as `actor`'s); `false` when no paid order with a hold matched.
    fn release_hold(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        actor: &Actor,
    ) -> impl Future<Output = Result<bool, OrderError>> + Send;

    /// Whether a proof of delivery with this id exists.
    fn proof_exists(&self, id: i64) -> impl Future<Output = Result<bool, OrderError>> + Send;

    /// Sets `buyer_ready_at` to `at` (and the client address it came `from`) where the order
    /// is paid, not on a risk hold, and it is not set (once per claim: a release clears it);
    /// `false` when no row matched.
    fn mark_ready(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        from: Option<String>,
    ) -> impl Future<Output = Result<bool, OrderError>> + Send;

    /// Sets `received_at` to `at` (and the client address it came `from`) where the order is
    /// delivered and it is not set, with the step in its history; `false` when no row matched.
    fn mark_received(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        from: Option<String>,
    ) -> impl Future<Output = Result<bool, OrderError>> + Send;

    /// The member of staff's private server link (`None`: none set, or no such user).
    fn private_server_url(
        &self,
        staff: UserId,
    ) -> impl Future<Output = Result<Option<String>, OrderError>> + Send;

    /// Sets (or with `None` removes) the member of staff's private server link, audited.
    fn set_private_server_url(
        &self,
        staff: UserId,
        url: Option<PrivateServerUrl>,
        actor: &Actor,
    ) -> impl Future<Output = Result<(), OrderError>> + Send;
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

    /// Keeps the private server link `url` as the buyer's page first showed it, and when,
    /// unless one was kept already (staff change their links; a dispute's evidence needs the
    /// one shown).
    fn keep_link_shown(
        &self,
        id: OrderId,
        url: String,
        at: DateTime<Utc>,
    ) -> impl Future<Output = Result<(), OrderError>> + Send;

    /// How many paid orders come before this paid one in the delivery queue (paid earlier, or
    /// at the same time with a smaller id; orders on a risk hold are not in the queue). Fails
    /// only with `OrderError::Unknown`.
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

/// Where buyer mail goes: SMTP or the local outbox.
#[cfg_attr(test, mockall::automock)]
pub trait BuyerMailer: Send + Sync + 'static {
    fn send_buyer_mail(
        &self,
        mail: BuyerMail,
    ) -> impl Future<Output = Result<(), SendFailed>> + Send;
}

/// Where delivery times are read.
#[cfg_attr(test, mockall::automock)]
pub trait DeliveryTimesRepository: Send + Sync + 'static {
    /// Every order delivered at or after `since` (and not since refunded or disputed away:
    /// any order that was delivered counts), with its times.
    fn delivered_since(
        &self,
        since: DateTime<Utc>,
    ) -> impl Future<Output = Result<Vec<DeliveredOrder>, OrderError>> + Send;
}

/// Where the line between an order's buyer and the shop's staff is kept.
#[cfg_attr(test, mockall::automock)]
pub trait MessageRepository: Send + Sync + 'static {
    /// The order's status and when it was delivered (if it was): whether it takes messages.
    /// `OrderError::NotFound` when there is no such order.
    fn message_window(
        &self,
        order: OrderId,
    ) -> impl Future<Output = Result<(OrderStatus, Option<DateTime<Utc>>), OrderError>> + Send;

    /// The order's messages, oldest first; none for an order without any (or no such order).
    /// Fails only with `OrderError::Unknown`.
    fn order_messages(
        &self,
        order: OrderId,
    ) -> impl Future<Output = Result<Vec<OrderMessage>, OrderError>> + Send;

    /// Keeps the message where its order is paid, or delivered at or after `delivered_since`,
    /// in one transaction that starts with that write, together with the order's `message`
    /// step (the outbox: the Discord ticket mirrors it; the step's note is the message's id)
    /// and, for a message of staff, the audit entry `order.message` by `actor`, which names
    /// the message by its id only. `None` when the order is not (or no longer) open.
    fn add_message(
        &self,
        message: &NewOrderMessage,
        delivered_since: DateTime<Utc>,
        actor: Option<Actor>,
    ) -> impl Future<Output = Result<Option<OrderMessage>, OrderError>> + Send;
}
