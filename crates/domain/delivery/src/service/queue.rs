//! The staff delivery queue: paid orders waiting for a member of staff to deliver them in the
//! game. One member of staff claims an order at a time; they mark it delivered (optionally
//! with a proof of delivery). An order on a risk hold (a fraud warning, a risky payment) is out
//! of the queue: it cannot be claimed or delivered until a super_admin releases it to the
//! queue. Refunds go through the provider (`aftersale`).

use std::sync::Arc;

use chrono::{DateTime, Utc};
use orders::{OrderError, OrderId, OrderStatus, OrderStep, TransitionError};
use shared::{Actor, Clock, PrivateServerUrl, UserId};

use crate::error::{QueueError, ReadyRefusal, ReceivedRefusal};
use crate::models::{in_queue_order, DeliveredOrder, QueueFilter, QueuedOrder, ReleaseReason};
use crate::ports::{DeliveryNotices, DeliveryRepository};

/// The queue's rules over its store and a clock.
#[derive(Clone)]
pub struct DeliveryQueue<R, C> {
    repository: R,
    clock: C,
    no_show_minutes: u32,
    guild_id: Option<String>,
    notices: Arc<dyn DeliveryNotices>,
}

impl<R: DeliveryRepository, C: Clock> DeliveryQueue<R, C> {
    pub fn new(repository: R, clock: C) -> Self {
        DeliveryQueue {
            repository,
            clock,
            no_show_minutes: 15,
            guild_id: None,
            notices: Arc::new(shared::Unheard),
        }
    }

    /// The same queue telling `notices` of each change it makes.
    pub fn with_notices(mut self, notices: Arc<dyn DeliveryNotices>) -> Self {
        self.notices = notices;
        self
    }

    /// Tells of order `id`'s `step` when the write `changed` it; answers `changed`.
    async fn told(&self, id: OrderId, changed: bool, step: OrderStep) -> bool {
        if changed {
            self.notices.order_changed(id, step).await;
        }
        changed
    }

    /// After how many minutes a claimed order whose buyer is not ready is a no show, and the
    /// Discord server of the tickets (their links).
    pub fn with_handoff(mut self, no_show_minutes: u32, guild_id: Option<String>) -> Self {
        self.no_show_minutes = no_show_minutes;
        self.guild_id = guild_id;
        self
    }

    /// Whether the order is a no show now (see [`QueuedOrder::no_show`]).
    pub fn no_show(&self, order: &QueuedOrder, now: DateTime<Utc>) -> bool {
        order.no_show(now, self.no_show_minutes)
    }

    /// The link to the order's Discord ticket, when it has one.
    pub fn ticket_url(&self, order: &QueuedOrder) -> Option<String> {
        match (&self.guild_id, &order.ticket_thread_id) {
            (Some(guild), Some(thread)) => {
                Some(format!("https://discord.com/channels/{guild}/{thread}"))
            }
            _ => None,
        }
    }

    pub fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    /// The orders of `filter`, the paid ones in the queue's one order (see
    /// [`in_queue_order`]) with each waiting order's place in line, the rest as the filter
    /// lists them.
    #[tracing::instrument(skip(self))]
    pub async fn list(
        &self,
        filter: QueueFilter,
    ) -> Result<Vec<(QueuedOrder, Option<u32>)>, OrderError> {
        let listed = self.repository.queue(filter).await?;
        let (mut queue, rest): (Vec<_>, Vec<_>) = listed
            .into_iter()
            .partition(|order| order.status == OrderStatus::Paid && order.held().is_none());
        let places = in_queue_order(&mut queue);
        Ok(queue
            .into_iter()
            .zip(places)
            .chain(rest.into_iter().map(|order| (order, None)))
            .collect())
    }

    /// Takes the order for `staff`; claiming one's own claim again changes nothing. The claim
    /// shows the buyer the claimer's private server, so it needs one.
    #[tracing::instrument(skip(self, actor))]
    pub async fn claim(
        &self,
        id: OrderId,
        staff: UserId,
        actor: &Actor,
    ) -> Result<QueuedOrder, QueueError> {
        if self.repository.private_server_url(staff).await?.is_none() {
            return Err(QueueError::NoPrivateServer);
        }
        let claimed = self
            .repository
            .claim(id, staff, self.clock.now(), actor)
            .await?;
        let claimed = self.told(id, claimed, OrderStep::Claimed).await;
        let order = self.repository.queued_order(id).await?;
        if claimed {
            return Ok(order);
        }
        Err(match (&order.claimed_by, order.status) {
            (_, status) if status != OrderStatus::Paid => QueueError::NotPaid(status),
            _ if order.held().is_some() => QueueError::Held(id),
            (Some(other), _) if other.id != staff => QueueError::AlreadyClaimed {
                by: other.name.clone(),
            },
            // unclaimed or theirs just now: the order changed between the two reads
            _ => QueueError::Unknown(anyhow::anyhow!("order {id} changed while being claimed")),
        })
    }

    /// Lets the order go again, telling its buyer why; only the one who claimed it can. An
    /// unclaimed order stays so.
    #[tracing::instrument(skip(self, reason, actor))]
    pub async fn release(
        &self,
        id: OrderId,
        staff: UserId,
        reason: ReleaseReason,
        actor: &Actor,
    ) -> Result<QueuedOrder, QueueError> {
        let released = self
            .repository
            .release(id, staff, reason.as_str().to_owned(), actor)
            .await?;
        let released = self.told(id, released, OrderStep::Released).await;
        let order = self.repository.queued_order(id).await?;
        match (&order.claimed_by, released) {
            (_, true) | (None, false) => Ok(order),
            (Some(other), false) => Err(QueueError::NotYours {
                by: other.name.clone(),
            }),
        }
    }

    /// Marks every claim whose buyer did not say "I'm in the game" within `no_show_minutes` a
    /// no-show, once per claim across instances (the buyer is told on the page and by mail;
    /// staff may release it). Answers how many were marked now.
    pub async fn mark_no_shows(&self) -> Result<usize, OrderError> {
        let now = self.clock.now();
        let claimed_before = now - chrono::Duration::minutes(i64::from(self.no_show_minutes));
        let mut marked = 0;
        for id in self.repository.due_no_shows(claimed_before).await? {
            let marked_now = self.repository.mark_no_show(id, claimed_before, now);
            if self.told(id, marked_now.await?, OrderStep::NoShow).await {
                tracing::info!(order = %id, "the buyer's time to join is up");
                marked += 1;
            }
        }
        Ok(marked)
    }

    /// Marks the order delivered by `staff`, optionally with a proof of delivery.
    #[tracing::instrument(skip(self, actor))]
    pub async fn deliver(
        &self,
        id: OrderId,
        staff: UserId,
        proof: Option<i64>,
        actor: &Actor,
    ) -> Result<QueuedOrder, QueueError> {
        if let Some(proof) = proof {
            if !self.repository.proof_exists(proof).await? {
                return Err(QueueError::UnknownProof(proof));
            }
        }
        let now = self.clock.now();
        let delivered = self
            .repository
            .deliver(id, staff, proof, now, actor)
            .await?;
        let delivered = self.told(id, delivered, OrderStep::Delivered).await;
        let order = self.repository.queued_order(id).await?;
        if delivered {
            if let (Some(paid_at), Some(delivered_at)) = (order.paid_at, order.delivered_at) {
                let (claimed_at, staff_name) = (order.claimed_at, None);
                self.notices
                    .delivered(&DeliveredOrder {
                        paid_at,
                        claimed_at,
                        delivered_at,
                        staff_name,
                    })
                    .await;
            }
            return Ok(order);
        }
        Err(match (&order.claimed_by, order.status) {
            (_, status) if status != OrderStatus::Paid => QueueError::Refused(TransitionError {
                from: status,
                to: OrderStatus::Delivered,
            }),
            _ if order.held().is_some() => QueueError::Held(id),
            (Some(other), _) if other.id != staff => QueueError::AlreadyClaimed {
                by: other.name.clone(),
            },
            (None, _) => QueueError::NotClaimed,
            _ => QueueError::Unknown(anyhow::anyhow!("order {id} changed while being delivered")),
        })
    }

    /// The buyer says they are in the game (from the client address `from`): once per claim,
    /// while the order is paid and claimed (the claim shows them the server to join).
    #[tracing::instrument(skip(self, from))]
    pub async fn buyer_ready(&self, id: OrderId, from: Option<String>) -> Result<(), QueueError> {
        let ready = self.repository.mark_ready(id, self.clock.now(), from);
        if self.told(id, ready.await?, OrderStep::Ready).await {
            return Ok(());
        }
        let order = self.repository.queued_order(id).await?;
        Err(QueueError::NotReady(if order.status != OrderStatus::Paid {
            ReadyRefusal::NotWaiting
        } else if order.held().is_some() {
            ReadyRefusal::Held
        } else if order.claimed_by.is_none() {
            // pressing early cannot move an order ahead of earlier payments
            ReadyRefusal::NotClaimed
        } else {
            ReadyRefusal::AlreadySaid
        }))
    }

    /// The buyer says they got their items (from the client address `from`): once, after the
    /// delivery. A dispute's evidence shows when and from where.
    #[tracing::instrument(skip(self, from))]
    pub async fn buyer_received(
        &self,
        id: OrderId,
        from: Option<String>,
    ) -> Result<(), QueueError> {
        let received = self.repository.mark_received(id, self.clock.now(), from);
        if self.told(id, received.await?, OrderStep::Received).await {
            return Ok(());
        }
        let order = self.repository.queued_order(id).await?;
        Err(QueueError::NotReceivable(match order.status {
            OrderStatus::Delivered => ReceivedRefusal::AlreadySaid,
            _ => ReceivedRefusal::NotDelivered,
        }))
    }

    /// Puts an order on a risk hold back in the queue (the member of staff decided its payment
    /// is fine): `QueueError::NotHeld` when it is not on one (released already, refunded, or
    /// never held).
    #[tracing::instrument(skip(self, actor))]
    pub async fn release_hold(
        &self,
        id: OrderId,
        actor: &Actor,
    ) -> Result<QueuedOrder, QueueError> {
        let released = self
            .repository
            .release_hold(id, self.clock.now(), actor)
            .await?;
        let released = self.told(id, released, OrderStep::HoldReleased).await;
        let order = self.repository.queued_order(id).await?;
        if released {
            tracing::info!(order = %id, "risk hold released: the order is back in the queue");
            Ok(order)
        } else {
            Err(QueueError::NotHeld(id))
        }
    }

    /// The member of staff's private server link.
    pub async fn private_server(&self, staff: UserId) -> Result<Option<String>, OrderError> {
        self.repository.private_server_url(staff).await
    }

    /// Sets or (with `None`) removes the member of staff's private server link.
    pub async fn set_private_server(
        &self,
        staff: UserId,
        url: Option<PrivateServerUrl>,
        actor: &Actor,
    ) -> Result<(), OrderError> {
        self.repository
            .set_private_server_url(staff, url, actor)
            .await
    }

    /// One order as the queue shows it.
    pub async fn order(&self, id: OrderId) -> Result<QueuedOrder, OrderError> {
        self.repository.queued_order(id).await
    }
}

#[cfg(test)]
mod tests {
    use shared::FixedClock;

    use super::*;
    use crate::models::queue_fixtures::{now, order};
    use crate::ports::MockDeliveryRepository;

    fn staff() -> Actor {
        Actor::staff(UserId::new(1), "Bo", "127.0.0.1")
    }

    fn reason() -> ReleaseReason {
        ReleaseReason::parse("My game crashed").unwrap()
    }

    fn queue_with(
        changed: bool,
        current: QueuedOrder,
    ) -> DeliveryQueue<MockDeliveryRepository, FixedClock> {
        let mut repo = MockDeliveryRepository::new();
        repo.expect_claim()
            .returning(move |_, _, _, _| Box::pin(async move { Ok(changed) }));
        repo.expect_release()
            .returning(move |_, _, _, _| Box::pin(async move { Ok(changed) }));
        repo.expect_deliver()
            .returning(move |_, _, _, _, _| Box::pin(async move { Ok(changed) }));
        repo.expect_proof_exists()
            .returning(|id| Box::pin(async move { Ok(id == 3) }));
        repo.expect_private_server_url().returning(|staff| {
            Box::pin(async move {
                Ok((staff != UserId::new(99))
                    .then(|| "https://www.roblox.com/share?code=1".to_owned()))
            })
        });
        repo.expect_mark_ready()
            .returning(move |_, _, _| Box::pin(async move { Ok(changed) }));
        repo.expect_mark_received()
            .returning(move |_, _, _| Box::pin(async move { Ok(changed) }));
        repo.expect_queued_order().returning(move |_| {
            let current = current.clone();
            Box::pin(async move { Ok(current) })
        });
        DeliveryQueue::new(repo, FixedClock(now()))
    }

    /// Notices that write down what they were told.
    #[derive(Default)]
    struct Told(std::sync::Mutex<Vec<String>>);

    impl Told {
        fn note(&self, what: String) -> shared::Published<'_> {
            self.0.lock().unwrap().push(what);
            Box::pin(async {})
        }
    }

    impl orders::StockNotices for Told {
        fn stock_changed(&self) -> shared::Published<'_> {
            self.note("stock".into())
        }
    }

    impl orders::OrderNotices for Told {
        fn order_changed(&self, id: OrderId, step: OrderStep) -> shared::Published<'_> {
            self.note(format!("order {id} {}", step.as_str()))
        }

        fn payment_changed(
            &self,
            id: OrderId,
            step: OrderStep,
            _: Option<orders::PaymentProvider>,
        ) -> shared::Published<'_> {
            self.note(format!("payment {id} {}", step.as_str()))
        }
    }

    impl DeliveryNotices for Told {
        fn delivered<'a>(&'a self, order: &'a DeliveredOrder) -> shared::Published<'a> {
            self.note(format!("delivered at {}", order.delivered_at))
        }

        fn message_posted<'a>(&'a self, _: &'a crate::OrderMessage) -> shared::Published<'a> {
            self.note("message".into())
        }
    }

    #[tokio::test]
    async fn a_delivery_tells_its_step_and_its_times_once_and_a_refused_one_nothing() {
        let mut delivered = order(OrderStatus::Delivered, Some((UserId::new(1), "Bob")));
        delivered.delivered_at = Some(now());
        let told = Arc::new(Told::default());
        let queue = queue_with(true, delivered).with_notices(told.clone());
        let id = OrderId::new(7);
        queue
            .deliver(id, UserId::new(1), None, &staff())
            .await
            .unwrap();
        let refused = queue_with(false, order(OrderStatus::Paid, None)).with_notices(told.clone());
        assert!(refused
            .deliver(id, UserId::new(1), None, &staff())
            .await
            .is_err());
        assert_eq!(
            *told.0.lock().unwrap(),
            [
                format!("order {id} delivered"),
                format!("delivered at {}", now())
            ]
        );
    }

    #[tokio::test]
    async fn a_claim_someone_else_holds_names_them() {
        let queue = queue_with(
            false,
            order(OrderStatus::Paid, Some((UserId::new(2), "Ann"))),
        );
        let error = queue
            .claim(OrderId::new(7), UserId::new(1), &staff())
            .await
            .unwrap_err();
        assert_eq!(error.to_string(), "Already claimed by Ann.");
    }

    #[tokio::test]
    async fn a_won_claim_answers_the_claimed_order() {
        let queue = queue_with(
            true,
            order(OrderStatus::Paid, Some((UserId::new(1), "Bob"))),
        );
        let order = queue
            .claim(OrderId::new(7), UserId::new(1), &staff())
            .await
            .unwrap();
        assert_eq!(order.claimed_by.unwrap().name, "Bob");
    }

    #[tokio::test]
    async fn only_paid_orders_can_be_claimed() {
        let queue = queue_with(false, order(OrderStatus::Delivered, None));
        let error = queue
            .claim(OrderId::new(7), UserId::new(1), &staff())
            .await
            .unwrap_err();
        assert!(matches!(error, QueueError::NotPaid(OrderStatus::Delivered)));
    }

    #[tokio::test]
    async fn only_the_claimer_releases_and_releasing_nothing_is_fine() {
        let taken = queue_with(
            false,
            order(OrderStatus::Paid, Some((UserId::new(2), "Ann"))),
        );
        let error = taken
            .release(OrderId::new(7), UserId::new(1), reason(), &staff())
            .await
            .unwrap_err();
        assert_eq!(error.to_string(), "Only Ann can release this order.");
        let free = queue_with(false, order(OrderStatus::Paid, None));
        assert!(free
            .release(OrderId::new(7), UserId::new(1), reason(), &staff())
            .await
            .is_ok());
    }

    #[tokio::test]
    async fn delivering_checks_the_proof_and_the_claim() {
        let queue = queue_with(
            false,
            order(OrderStatus::Paid, Some((UserId::new(2), "Ann"))),
        );
        let error = queue
            .deliver(OrderId::new(7), UserId::new(1), Some(99), &staff())
            .await
            .unwrap_err();
        assert!(matches!(error, QueueError::UnknownProof(99)));
        let error = queue
            .deliver(OrderId::new(7), UserId::new(1), Some(3), &staff())
            .await
            .unwrap_err();
        assert_eq!(error.to_string(), "Already claimed by Ann.");

        let done = queue_with(false, order(OrderStatus::Refunded, None));
        let error = done
            .deliver(OrderId::new(7), UserId::new(1), None, &staff())
            .await
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "An order that is Refunded cannot become Delivered."
        );
    }

    #[tokio::test]
    async fn claiming_needs_a_private_server_link() {
        let queue = queue_with(true, order(OrderStatus::Paid, None));
        let error = queue
            .claim(OrderId::new(7), UserId::new(99), &staff())
            .await
            .unwrap_err();
        assert!(matches!(error, QueueError::NoPrivateServer));
        assert!(error.to_string().contains("private server link"));
    }

    #[tokio::test]
    async fn an_unclaimed_order_cannot_be_delivered() {
        let queue = queue_with(false, order(OrderStatus::Paid, None));
        let error = queue
            .deliver(OrderId::new(7), UserId::new(1), None, &staff())
            .await
            .unwrap_err();
        assert_eq!(error.to_string(), "Claim this order first.");
    }

    #[tokio::test]
    async fn the_buyer_says_ready_once_and_only_while_paid_and_claimed() {
        let ann = Some((UserId::new(1), "Ann"));
        let first = queue_with(true, order(OrderStatus::Paid, ann));
        assert!(first.buyer_ready(OrderId::new(7), None).await.is_ok());
        let again = queue_with(false, order(OrderStatus::Paid, ann));
        let error = again.buyer_ready(OrderId::new(7), None).await.unwrap_err();
        assert_eq!(error.to_string(), "Staff already know you are in the game.");
        let unclaimed = queue_with(false, order(OrderStatus::Paid, None));
        let error = unclaimed
            .buyer_ready(OrderId::new(7), None)
            .await
            .unwrap_err();
        assert!(error
            .to_string()
            .starts_with("No one has picked up your order yet."));
        let delivered = queue_with(false, order(OrderStatus::Delivered, None));
        let error = delivered
            .buyer_ready(OrderId::new(7), None)
            .await
            .unwrap_err();
        assert!(error.to_string().starts_with("Only a paid order"));
    }

    fn held(order: QueuedOrder) -> QueuedOrder {
        QueuedOrder {
            hold: Some(orders::RiskHold {
                reason: orders::HoldReason::FraudWarning,
                since: now(),
            }),
            ..order
        }
    }

    #[tokio::test]
    async fn an_order_on_a_risk_hold_is_neither_claimed_delivered_nor_readied() {
        let queue = queue_with(false, held(order(OrderStatus::Paid, None)));
        let error = queue
            .claim(OrderId::new(7), UserId::new(1), &staff())
            .await
            .unwrap_err();
        assert!(matches!(error, QueueError::Held(_)), "{error:?}");
        assert!(error.to_string().contains("on hold for a fraud check"));
        let claimed = queue_with(
            false,
            held(order(OrderStatus::Paid, Some((UserId::new(1), "Bo")))),
        );
        let error = claimed
            .deliver(OrderId::new(7), UserId::new(1), None, &staff())
            .await
            .unwrap_err();
        assert!(matches!(error, QueueError::Held(_)), "{error:?}");
        let error = queue.buyer_ready(OrderId::new(7), None).await.unwrap_err();
        assert!(error.to_string().starts_with("We're checking this payment"));
        // refunded since: its hold is history, the refusal says why
        let refunded = queue_with(false, held(order(OrderStatus::Refunded, None)));
        let error = refunded
            .claim(OrderId::new(7), UserId::new(1), &staff())
            .await
            .unwrap_err();
        assert!(matches!(error, QueueError::NotPaid(OrderStatus::Refunded)));
    }

    #[tokio::test]
    async fn releasing_a_hold_answers_the_order_back_in_the_queue_or_says_it_was_not_held() {
        for (released, expected_ok) in [(true, true), (false, false)] {
            let mut repo = MockDeliveryRepository::new();
            repo.expect_release_hold()
                .times(1)
                .returning(move |_, _, _| Box::pin(async move { Ok(released) }));
            repo.expect_queued_order()
                .returning(|_| Box::pin(async { Ok(order(OrderStatus::Paid, None)) }));
            let queue = DeliveryQueue::new(repo, FixedClock(now()));
            let answer = queue.release_hold(OrderId::new(7), &staff()).await;
            match answer {
                Ok(order) => {
                    assert!(expected_ok);
                    assert_eq!(order.held(), None);
                }
                Err(error) => {
                    assert!(!expected_ok);
                    assert_eq!(error.to_string(), "Order #7 is not on hold.");
                }
            }
        }
    }

    #[tokio::test]
    async fn the_buyer_confirms_receipt_once_and_only_after_the_delivery() {
        let from = || Some("203.0.113.9".to_owned());
        let first = queue_with(true, order(OrderStatus::Delivered, None));
        assert!(first.buyer_received(OrderId::new(7), from()).await.is_ok());
        let again = queue_with(false, order(OrderStatus::Delivered, None));
        let error = again
            .buyer_received(OrderId::new(7), from())
            .await
            .unwrap_err();
        assert_eq!(error.to_string(), "You already told us you got your items.");
        let paid = queue_with(false, order(OrderStatus::Paid, None));
        let error = paid
            .buyer_received(OrderId::new(7), from())
            .await
            .unwrap_err();
        assert!(matches!(error, QueueError::NotReceivable(_)));
        assert!(error
            .to_string()
            .contains("once staff marked the order delivered"));
    }

    #[tokio::test]
    async fn a_disputed_order_cannot_be_delivered() {
        let queue = queue_with(false, order(OrderStatus::Disputed, None));
        let error = queue
            .deliver(OrderId::new(7), UserId::new(1), None, &staff())
            .await
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "An order that is Disputed cannot become Delivered."
        );
    }
}
