//! The in-process side of the one dispatcher: the store as the chat service, checkout, the
//! delivery queue and after-sale see it. Each method does what the store does and answers the
//! same; after a write committed, what it changed is handed to this instance's subscribers:
//! server push (an event for every change a browser shows, an order's with its
//! `orders::OrderStep`), the product snapshot (a placed, paid or released order moved
//! stock) and the deliveries' watcher (the delivery time histogram and the promise's cache,
//! set at wiring: [`DeliveryWatch`]). The work that leaves the shop (mail, Discord) is not here: the store writes each
//! change's step into `order_events` in the change's own transaction, and the outbox
//! (`background`, `orders::lifecycle`) sends it. A failing subscriber is logged, never turned
//! into a failed write (the browser's polling, the event log's "resync" and the periodic
//! snapshot refresh cover the rest).

use chat::{
    Chat, ChatError, ChatId, ChatMessage, ChatRepository, ChatStamp, ChatStatus, NewChat,
    NewMessage, Opened, SessionId, Side, StaffChatRow, StaffChatsQuery, StatusChange,
};
use std::sync::Arc;

use aftersale::{AfterSaleRepository, Warned};
use blocklist::NewBlock;
use chrono::{DateTime, Utc};
use delivery::{
    DeliveredOrder, DeliveryRepository, MessageRepository, NewOrderMessage, OrderMessage,
    QueueFilter, QueuedOrder,
};
use events::{ChatChanged, OrderMessagePosted};
use orders::{
    Applied, Closing, DisputeOutcome, NewHold, NewOrder, Order, OrderError, OrderId,
    OrderRepository, OrderStep, PaymentProvider, PendingCaps, PlaceError, ProviderEvent,
    Reservation,
};
use shared::{Actor, PrivateServerUrl, UserId};

use crate::push::ShopEvents;
use crate::Store;

/// Who hears that a write moved stock (a placed, paid or released order, a product changed):
/// the app's product snapshot, which refreshes and tells the storefronts. It logs its own
/// failures: a write that committed is never turned into a failed one.
pub trait StockWatch: Clone + Send + Sync + 'static {
    fn on_stock_changed(&self) -> impl std::future::Future<Output = ()> + Send;
}

/// Who hears of each delivery this instance makes, with its times.
#[derive(Clone)]
pub struct DeliveryWatch(Arc<dyn Fn(&DeliveredOrder) + Send + Sync>);

impl DeliveryWatch {
    pub fn new(watch: impl Fn(&DeliveredOrder) + Send + Sync + 'static) -> Self {
        DeliveryWatch(Arc::new(watch))
    }
}

impl std::fmt::Debug for DeliveryWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DeliveryWatch")
    }
}

/// Who hears of each change of an order's payment this instance applies: the order's payment
/// provider and the outcome (`paid`, `paid_after_expiry`, `cancelled`, `expired`, `refunded`,
/// `disputed`, `dispute_won`, `dispute_lost`). Each change is applied once, whichever
/// instance hears of it first, so summing over instances counts each once.
#[derive(Clone)]
pub struct PaymentWatch(Arc<dyn Fn(PaymentProvider, &'static str) + Send + Sync>);

impl PaymentWatch {
    pub fn new(watch: impl Fn(PaymentProvider, &'static str) + Send + Sync + 'static) -> Self {
        PaymentWatch(Arc::new(watch))
    }
}

impl std::fmt::Debug for PaymentWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PaymentWatch")
    }
}

/// The shop's store, handing what its writes change to this instance's subscribers.
#[derive(Debug, Clone)]
pub struct EventsStore<W> {
    store: Store,
    events: ShopEvents,
    stock: W,
    deliveries: Option<DeliveryWatch>,
    payments: Option<PaymentWatch>,
}

impl<W: StockWatch> EventsStore<W> {
    pub fn new(store: Store, events: ShopEvents, stock: W) -> Self {
        EventsStore {
            store,
            events,
            stock,
            deliveries: None,
            payments: None,
        }
    }

    /// Tells `watch` of each change of an order's payment too.
    pub fn watching_payments(mut self, watch: PaymentWatch) -> Self {
        self.payments = Some(watch);
        self
    }

    /// Tells the payments' watcher of a change just applied (not of one that changed nothing),
    /// with the provider of the event that made it, or else the order's (one row read).
    async fn payment_changed(
        &self,
        id: OrderId,
        applied: Applied,
        provider: Option<PaymentProvider>,
        outcome: &'static str,
    ) {
        let Some(watch) = self
            .payments
            .as_ref()
            .filter(|_| applied == Applied::Changed)
        else {
            return;
        };
        let provider = match provider {
            Some(provider) => provider,
            None => match self.store.order(id).await {
                Ok(order) => order.payment.provider,
                Err(error) => {
                    tracing::warn!(order = %id, error = %error, "no payment metric: the order could not be read");
                    return;
                }
            },
        };
        (watch.0)(provider, outcome);
    }

    /// Hands each delivery's times to `watch` too.
    pub fn watching_deliveries(mut self, watch: DeliveryWatch) -> Self {
        self.deliveries = Some(watch);
        self
    }

    /// Tells the deliveries' watcher of order `id`, just delivered (read back: one row).
    async fn delivered(&self, id: OrderId) {
        let Some(watch) = &self.deliveries else {
            return;
        };
        match self.store.queued_order(id).await {
            Ok(QueuedOrder {
                paid_at: Some(paid_at),
                claimed_at,
                delivered_at: Some(delivered_at),
                ..
            }) => (watch.0)(&DeliveredOrder {
                paid_at,
                claimed_at,
                delivered_at,
                staff_name: None,
            }),
            Ok(_) => {}
            Err(error) => {
                tracing::warn!(error = ?error, "could not read a delivered order's times")
            }
        }
    }

    async fn publish_chat(&self, stamp: &ChatStamp, was: Option<ChatStatus>) {
        let staff = stamp.status != ChatStatus::Ai || was.is_some_and(|s| s != ChatStatus::Ai);
        self.events
            .chat_changed(ChatChanged {
                chat_id: &stamp.id.to_string(),
                session: stamp.session.as_ref(),
                status: stamp.status.as_str(),
                version: Some(stamp.version),
                staff,
            })
            .await;
    }

    /// Publishes the chat as it is now (read back: one row).
    async fn chat_now(&self, id: ChatId, was: Option<ChatStatus>) {
        match ChatRepository::stamp(&self.store, id).await {
            Ok(Some(stamp)) => self.publish_chat(&stamp, was).await,
            Ok(None) => {}
            Err(error) => tracing::warn!(error = ?error, "could not read a chat to publish it"),
        }
    }

    /// Publishes the order when the write changed it; answers what the write did.
    async fn published(&self, id: OrderId, applied: Applied, step: OrderStep) -> Applied {
        if applied == Applied::Changed {
            self.order_now(id, step).await;
        }
        applied
    }

    /// Publishes the order as it is now (read back), after `step`.
    async fn order_now(&self, id: OrderId, step: OrderStep) {
        match OrderRepository::order(&self.store, id).await {
            Ok(order) => {
                self.events
                    .order_changed(
                        order.id.get(),
                        order.buyer.user_id,
                        order.status().as_str(),
                        step,
                    )
                    .await
            }
            Err(error) => tracing::warn!(error = ?error, "could not read an order to publish it"),
        }
    }
}

impl<W: StockWatch> ChatRepository for EventsStore<W> {
    async fn create_or_open(
        &self,
        chat: NewChat,
        messages: Vec<NewMessage>,
    ) -> Result<Opened, ChatError> {
        let opened = self.store.create_or_open(chat, messages).await?;
        if opened.created {
            let chat = &opened.chat;
            self.publish_chat(
                &ChatStamp {
                    id: chat.id,
                    session: chat.session.clone(),
                    version: chat.version,
                    status: chat.status,
                    accepted_by: chat.accepted_by,
                },
                None,
            )
            .await;
        }
        Ok(opened)
    }

    async fn chat(&self, id: ChatId) -> Result<Chat, ChatError> {
        self.store.chat(id).await
    }

    async fn latest_open_chat(&self, session: &SessionId) -> Result<Option<Chat>, ChatError> {
        self.store.latest_open_chat(session).await
    }

    async fn messages(&self, id: ChatId) -> Result<Vec<ChatMessage>, ChatError> {
        self.store.messages(id).await
    }

    async fn append(
        &self,
        id: ChatId,
        messages: Vec<NewMessage>,
    ) -> Result<Vec<ChatMessage>, ChatError> {
        let stored = self.store.append(id, messages).await?;
        self.chat_now(id, None).await;
        Ok(stored)
    }

    async fn change_status(&self, change: StatusChange) -> Result<bool, ChatError> {
        let (id, from) = (change.chat, change.from);
        let changed = self.store.change_status(change).await?;
        if changed {
            self.chat_now(id, Some(from)).await;
        }
        Ok(changed)
    }

    /// Not published: reading changes only the reader's own unread flag, which the reader
    /// already knows (and a published read would make every open view refetch and read again).
    async fn mark_read(&self, id: ChatId, side: Side, at: DateTime<Utc>) -> Result<(), ChatError> {
        self.store.mark_read(id, side, at).await
    }

    async fn delete(&self, id: ChatId, actor: Option<Actor>) -> Result<(), ChatError> {
        let before = ChatRepository::stamp(&self.store, id).await?;
        self.store.delete(id, actor).await?;
        if let Some(stamp) = before {
            self.events
                .chat_changed(ChatChanged {
                    chat_id: &id.to_string(),
                    session: stamp.session.as_ref(),
                    status: "deleted",
                    version: None,
                    staff: stamp.status != ChatStatus::Ai,
                })
                .await;
        }
        Ok(())
    }

    async fn staff_chats(&self, query: StaffChatsQuery) -> Result<Vec<StaffChatRow>, ChatError> {
        self.store.staff_chats(query).await
    }

    async fn claim_staff_notification(
        &self,
        id: ChatId,
        at: DateTime<Utc>,
    ) -> Result<bool, ChatError> {
        self.store.claim_staff_notification(id, at).await
    }

    async fn purge(
        &self,
        idle_ai_before: DateTime<Utc>,
        closed_before: DateTime<Utc>,
        batch: u32,
    ) -> Result<Vec<ChatId>, ChatError> {
        let purged = self
            .store
            .purge(idle_ai_before, closed_before, batch)
            .await?;
        if !purged.is_empty() {
            self.events.chat_list_changed().await;
        }
        Ok(purged)
    }

    async fn stamp(&self, id: ChatId) -> Result<Option<ChatStamp>, ChatError> {
        ChatRepository::stamp(&self.store, id).await
    }
}

impl<W: StockWatch> OrderRepository for EventsStore<W> {
    /// Not published (the buyer placing it knows, and staff's queue lists paid orders only);
    /// the reserved stock reaches the snapshot.
    async fn place(
        &self,
        order: NewOrder,
        reservation: Reservation,
        caps: PendingCaps,
    ) -> Result<Order, PlaceError> {
        self.store.place(order, reservation, caps).await
    }

    async fn stock_taken(&self) {
        self.stock.on_stock_changed().await;
    }

    async fn attach_payment_reference(
        &self,
        id: OrderId,
        reference: String,
        url: String,
    ) -> Result<(), OrderError> {
        self.store
            .attach_payment_reference(id, reference, url)
            .await
    }

    async fn keyed_order(
        &self,
        key: orders::ScopedKey,
        since: DateTime<Utc>,
    ) -> Result<Option<orders::KeyedOrder>, OrderError> {
        self.store.keyed_order(key, since).await
    }

    async fn order(&self, id: OrderId) -> Result<Order, OrderError> {
        OrderRepository::order(&self.store, id).await
    }

    async fn orders_of_user(&self, user_id: UserId) -> Result<Vec<Order>, OrderError> {
        self.store.orders_of_user(user_id).await
    }

    async fn mark_paid(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        event: Option<ProviderEvent>,
        hold: Option<NewHold>,
    ) -> Result<Applied, OrderError> {
        let provider = event.as_ref().map(|event| event.provider);
        let applied = self.store.mark_paid(id, at, event, hold).await?;
        self.payment_changed(id, applied, provider, "paid").await;
        if applied == Applied::Changed {
            // a sale can archive a product sold out for good
            self.stock.on_stock_changed().await;
        }
        Ok(self.published(id, applied, OrderStep::Paid).await)
    }

    async fn mark_paid_too_late(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        event: Option<ProviderEvent>,
    ) -> Result<Applied, OrderError> {
        let provider = event.as_ref().map(|event| event.provider);
        let applied = self.store.mark_paid_too_late(id, at, event).await?;
        self.payment_changed(id, applied, provider, "paid_after_expiry")
            .await;
        Ok(self
            .published(id, applied, OrderStep::PaidAfterExpiry)
            .await)
    }

    async fn release(
        &self,
        id: OrderId,
        closing: Closing,
        at: DateTime<Utc>,
        event: Option<ProviderEvent>,
    ) -> Result<Applied, OrderError> {
        let provider = event.as_ref().map(|event| event.provider);
        let applied = OrderRepository::release(&self.store, id, closing, at, event).await?;
        let step = match closing {
            Closing::Expired => OrderStep::Expired,
            Closing::Cancelled => OrderStep::Cancelled,
        };
        self.payment_changed(id, applied, provider, step.as_str())
            .await;
        if applied == Applied::Changed {
            self.stock.on_stock_changed().await;
        }
        Ok(self.published(id, applied, step).await)
    }

    async fn hold_for_review(&self, id: OrderId, reason: String) -> Result<Applied, OrderError> {
        let applied = self.store.hold_for_review(id, reason).await?;
        Ok(self.published(id, applied, OrderStep::Held).await)
    }

    async fn set_access_key_hash(&self, id: OrderId, hash: String) -> Result<(), OrderError> {
        self.store.set_access_key_hash(id, hash).await
    }

    async fn pending_past_deadline(
        &self,
        usual_cutoff: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<Vec<OrderId>, OrderError> {
        self.store.pending_past_deadline(usual_cutoff, now).await
    }

    async fn units_held(
        &self,
        holders: orders::DropHolders,
    ) -> Result<Vec<orders::HeldUnits>, OrderError> {
        self.store.units_held(holders).await
    }
}

impl<W: StockWatch> DeliveryRepository for EventsStore<W> {
    async fn queue(&self, filter: QueueFilter) -> Result<Vec<QueuedOrder>, OrderError> {
        self.store.queue(filter).await
    }

    async fn queued_order(&self, id: OrderId) -> Result<QueuedOrder, OrderError> {
        self.store.queued_order(id).await
    }

    async fn claim(
        &self,
        id: OrderId,
        staff: UserId,
        at: DateTime<Utc>,
        actor: &Actor,
    ) -> Result<bool, OrderError> {
        let claimed = self.store.claim(id, staff, at, actor).await?;
        if claimed {
            self.order_now(id, OrderStep::Claimed).await;
        }
        Ok(claimed)
    }

    async fn release(
        &self,
        id: OrderId,
        staff: UserId,
        reason: String,
        actor: &Actor,
    ) -> Result<bool, OrderError> {
        let released = DeliveryRepository::release(&self.store, id, staff, reason, actor).await?;
        if released {
            self.order_now(id, OrderStep::Released).await;
        }
        Ok(released)
    }

    async fn due_no_shows(
        &self,
        claimed_before: DateTime<Utc>,
    ) -> Result<Vec<OrderId>, OrderError> {
        self.store.due_no_shows(claimed_before).await
    }

    async fn mark_no_show(
        &self,
        id: OrderId,
        claimed_before: DateTime<Utc>,
        at: DateTime<Utc>,
    ) -> Result<bool, OrderError> {
        let marked = self.store.mark_no_show(id, claimed_before, at).await?;
        if marked {
            self.order_now(id, OrderStep::NoShow).await;
        }
        Ok(marked)
    }

    async fn deliver(
        &self,
        id: OrderId,
        staff: UserId,
        proof: Option<i64>,
        at: DateTime<Utc>,
        actor: &Actor,
    ) -> Result<bool, OrderError> {
        let delivered = self.store.deliver(id, staff, proof, at, actor).await?;
        if delivered {
            self.order_now(id, OrderStep::Delivered).await;
            self.delivered(id).await;
        }
        Ok(delivered)
    }

    async fn release_hold(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        actor: &Actor,
    ) -> Result<bool, OrderError> {
        let released = self.store.release_hold(id, at, actor).await?;
        if released {
            self.order_now(id, OrderStep::HoldReleased).await;
        }
        Ok(released)
    }

    async fn proof_exists(&self, id: i64) -> Result<bool, OrderError> {
        self.store.proof_exists(id).await
    }

    async fn mark_ready(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        from: Option<String>,
    ) -> Result<bool, OrderError> {
        let ready = self.store.mark_ready(id, at, from).await?;
        if ready {
            self.order_now(id, OrderStep::Ready).await;
        }
        Ok(ready)
    }

    async fn mark_received(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        from: Option<String>,
    ) -> Result<bool, OrderError> {
        let received = self.store.mark_received(id, at, from).await?;
        if received {
            self.order_now(id, OrderStep::Received).await;
        }
        Ok(received)
    }

    async fn private_server_url(&self, staff: UserId) -> Result<Option<String>, OrderError> {
        self.store.private_server_url(staff).await
    }

    async fn set_private_server_url(
        &self,
        staff: UserId,
        url: Option<PrivateServerUrl>,
        actor: &Actor,
    ) -> Result<(), OrderError> {
        self.store.set_private_server_url(staff, url, actor).await
    }
}

impl<W: StockWatch> MessageRepository for EventsStore<W> {
    async fn message_window(
        &self,
        order: OrderId,
    ) -> Result<(orders::OrderStatus, Option<DateTime<Utc>>), OrderError> {
        self.store.message_window(order).await
    }

    async fn order_messages(&self, order: OrderId) -> Result<Vec<OrderMessage>, OrderError> {
        self.store.order_messages(order).await
    }

    /// Keeps the message and tells its order's buyer and staff, with the message (the order
    /// read back for whose it is: one row).
    async fn add_message(
        &self,
        message: &NewOrderMessage,
        delivered_since: DateTime<Utc>,
        actor: Option<Actor>,
    ) -> Result<Option<OrderMessage>, OrderError> {
        let kept = self
            .store
            .add_message(message, delivered_since, actor)
            .await?;
        if let Some(kept) = &kept {
            match OrderRepository::order(&self.store, kept.order_id).await {
                Ok(order) => {
                    self.events
                        .order_message(OrderMessagePosted {
                            order_id: kept.order_id.get(),
                            user_id: order.buyer.user_id,
                            id: kept.id,
                            from: kept.from.as_str(),
                            author: &kept.author,
                            text: &kept.text,
                            created_at: kept.created_at,
                        })
                        .await
                }
                Err(error) => {
                    tracing::warn!(order = %kept.order_id, error = ?error, "a message was kept but not told")
                }
            }
        }
        Ok(kept)
    }
}

impl<W: StockWatch> AfterSaleRepository for EventsStore<W> {
    async fn order_by_payment(
        &self,
        provider: PaymentProvider,
        payment_id: String,
    ) -> Result<Option<Order>, OrderError> {
        self.store.order_by_payment(provider, payment_id).await
    }

    async fn record_payment_id(&self, id: OrderId, payment_id: String) -> Result<(), OrderError> {
        self.store.record_payment_id(id, payment_id).await
    }

    async fn record_partial_refund(
        &self,
        id: OrderId,
        event: ProviderEvent,
        at: DateTime<Utc>,
    ) -> Result<bool, OrderError> {
        let recorded = self.store.record_partial_refund(id, event, at).await?;
        if recorded {
            self.order_now(id, OrderStep::PartlyRefunded).await;
        }
        Ok(recorded)
    }

    async fn mark_refunded(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        refund_id: Option<String>,
        event: Option<ProviderEvent>,
        actor: Option<Actor>,
    ) -> Result<Applied, OrderError> {
        let provider = event.as_ref().map(|event| event.provider);
        let applied = self
            .store
            .mark_refunded(id, at, refund_id, event, actor)
            .await?;
        self.payment_changed(id, applied, provider, "refunded")
            .await;
        Ok(self.published(id, applied, OrderStep::Refunded).await)
    }

    async fn open_dispute(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        event: ProviderEvent,
        reason: Option<String>,
        blocks: Vec<NewBlock>,
    ) -> Result<Applied, OrderError> {
        let provider = Some(event.provider);
        let applied = self
            .store
            .open_dispute(id, at, event, reason, blocks)
            .await?;
        self.payment_changed(id, applied, provider, "disputed")
            .await;
        Ok(self.published(id, applied, OrderStep::Disputed).await)
    }

    async fn close_dispute(
        &self,
        id: OrderId,
        outcome: DisputeOutcome,
        at: DateTime<Utc>,
        event: ProviderEvent,
    ) -> Result<Applied, OrderError> {
        let provider = Some(event.provider);
        let applied = self.store.close_dispute(id, outcome, at, event).await?;
        let step = match outcome {
            DisputeOutcome::Won => OrderStep::DisputeWon,
            DisputeOutcome::Lost => OrderStep::DisputeLost,
        };
        self.payment_changed(id, applied, provider, step.as_str())
            .await;
        Ok(self.published(id, applied, step).await)
    }

    /// Published only when it holds the order (`risk_held`): the warning itself is for staff,
    /// and the buyer's stream never hears of it.
    async fn record_fraud_warning(
        &self,
        id: OrderId,
        event: ProviderEvent,
        fraud_type: Option<String>,
        hold: Option<NewHold>,
        at: DateTime<Utc>,
    ) -> Result<Warned, OrderError> {
        let warned = self
            .store
            .record_fraud_warning(id, event, fraud_type, hold, at)
            .await?;
        if warned == Warned::Held {
            self.order_now(id, OrderStep::RiskHeld).await;
        }
        Ok(warned)
    }
}

impl<W: StockWatch> catalog::ProductRepository for EventsStore<W> {
    async fn all_products(&self) -> Result<Vec<catalog::Product>, catalog::CatalogError> {
        self.store.all_products().await
    }

    async fn product(
        &self,
        id: catalog::ProductId,
    ) -> Result<catalog::Product, catalog::CatalogError> {
        catalog::ProductRepository::product(&self.store, id).await
    }

    async fn count_products(&self) -> Result<u64, catalog::CatalogError> {
        self.store.count_products().await
    }

    async fn insert_with_ids(
        &self,
        products: Vec<(catalog::ProductId, catalog::ProductDraft)>,
    ) -> Result<(), catalog::CatalogError> {
        self.store.insert_with_ids(products).await?;
        self.stock.on_stock_changed().await;
        Ok(())
    }
}

/// The admin's catalog writes: each change reaches the snapshot (and, through it, every
/// instance and open storefront) once it committed.
impl<W: StockWatch> catalog::ProductWrites for EventsStore<W> {
    async fn create(
        &self,
        draft: catalog::ProductDraft,
        actor: &Actor,
    ) -> Result<catalog::Product, catalog::CatalogError> {
        let product = self.store.create(draft, actor).await?;
        self.stock.on_stock_changed().await;
        Ok(product)
    }

    async fn update(
        &self,
        id: catalog::ProductId,
        draft: catalog::ProductDraft,
        refuse_if_held: bool,
        actor: &Actor,
    ) -> Result<catalog::Product, catalog::CatalogError> {
        let product = self.store.update(id, draft, refuse_if_held, actor).await?;
        self.stock.on_stock_changed().await;
        Ok(product)
    }

    async fn remove(
        &self,
        id: catalog::ProductId,
        actor: &Actor,
    ) -> Result<catalog::Removal, catalog::CatalogError> {
        let removal = catalog::ProductWrites::remove(&self.store, id, actor).await?;
        self.stock.on_stock_changed().await;
        Ok(removal)
    }

    async fn reorder(
        &self,
        positions: Vec<(catalog::ProductId, i32)>,
        actor: &Actor,
    ) -> Result<(), catalog::CatalogError> {
        self.store.reorder(positions, actor).await?;
        self.stock.on_stock_changed().await;
        Ok(())
    }

    async fn set_stock(
        &self,
        id: catalog::ProductId,
        stock: catalog::Stock,
        actor: &Actor,
    ) -> Result<catalog::Product, catalog::CatalogError> {
        let product = self.store.set_stock(id, stock, actor).await?;
        self.stock.on_stock_changed().await;
        Ok(product)
    }

    async fn change_stock(
        &self,
        id: catalog::ProductId,
        change: catalog::StockChange,
        actor: &Actor,
    ) -> Result<catalog::Product, catalog::CatalogError> {
        let product = self.store.change_stock(id, change, actor).await?;
        self.stock.on_stock_changed().await;
        Ok(product)
    }

    async fn bundles_containing(
        &self,
        id: catalog::ProductId,
    ) -> Result<Vec<catalog::ProductId>, catalog::CatalogError> {
        self.store.bundles_containing(id).await
    }

    async fn image_paths_in_use(&self) -> Result<Vec<String>, catalog::CatalogError> {
        self.store.image_paths_in_use().await
    }
}
