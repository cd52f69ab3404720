//! What follows a change a domain service made, once it committed; the service decides which
//! change it tells of ([`orders::OrderNotices`], [`delivery::DeliveryNotices`],
//! [`chat::ChatNotices`], [`catalog::StockNotices`]). Here it reaches this instance's
//! subscribers: server push (an event for every change a browser shows), the product snapshot
//! (stock moved), the payment and delivery metrics and the promise's cache. The work that
//! leaves the shop (mail, Discord) is not here: the store writes each change's step into
//! `order_events` in the change's own transaction, and the outbox sends it. A failing
//! subscriber is logged, never turned into a failed write (the browser's polling, the event
//! log's "resync" and the periodic snapshot refresh cover the rest).

use std::sync::Arc;

use chat::{ChatStamp, ChatStatus};
use delivery::{DeliveredOrder, OrderMessage};
use events::{ChatChanged, OrderMessagePosted};
use orders::{OrderId, OrderRepository, OrderStep, PaymentProvider};
use shared::Published;
use store::Store;

use crate::events::ShopEvents;
use crate::metrics::ShopMetrics;
use crate::services::TrackingService;
use crate::snapshot::StockChanged;

/// This instance's subscribers to the services' changes.
#[derive(Clone)]
pub struct ShopNotices {
    /// Reads back what an event shows of its order (its status and buyer).
    pub store: Store,
    pub events: ShopEvents,
    pub stock: StockChanged,
    pub metrics: ShopMetrics,
    pub tracking: Arc<TrackingService>,
}

impl ShopNotices {
    /// Publishes order `id` as it is now (read back: one row) after `step`; with `payment`,
    /// counts the payment's change first, under the event's provider or else the order's.
    async fn order(&self, id: OrderId, step: OrderStep, payment: Option<Option<PaymentProvider>>) {
        let order = match OrderRepository::order(&self.store, id).await {
            Ok(order) => order,
            Err(error) => {
                return tracing::warn!(order = %id, error = ?error, "could not read an order to publish it");
            }
        };
        if let Some(provider) = payment {
            let provider = provider.unwrap_or(order.payment.provider);
            self.metrics.observe_payment(provider, step.as_str());
        }
        let (buyer, status) = (order.buyer.user_id, order.status());
        (self.events)
            .order_changed(id.get(), buyer, status.as_str(), step)
            .await
    }

    async fn chat(&self, stamp: &ChatStamp, status: &str, version: Option<u64>, staff: bool) {
        let chat_id = &stamp.id.to_string();
        let session = stamp.session.as_ref();
        (self.events)
            .chat_changed(ChatChanged {
                chat_id,
                session,
                status,
                version,
                staff,
            })
            .await
    }
}

impl catalog::StockNotices for ShopNotices {
    fn stock_changed(&self) -> Published<'_> {
        Box::pin(self.stock.on_stock_changed())
    }
}

impl orders::OrderNotices for ShopNotices {
    fn order_changed(&self, id: OrderId, step: OrderStep) -> Published<'_> {
        Box::pin(self.order(id, step, None))
    }

    fn payment_changed(
        &self,
        id: OrderId,
        step: OrderStep,
        provider: Option<PaymentProvider>,
    ) -> Published<'_> {
        Box::pin(self.order(id, step, Some(provider)))
    }
}

impl delivery::DeliveryNotices for ShopNotices {
    fn delivered<'a>(&'a self, order: &'a DeliveredOrder) -> Published<'a> {
        self.metrics.observe_delivery(order);
        self.tracking.forget_estimate();
        Box::pin(async {})
    }

    /// Tells the order's buyer and staff, with the message (the order read back for whose it
    /// is: one row).
    fn message_posted<'a>(&'a self, kept: &'a OrderMessage) -> Published<'a> {
        Box::pin(async move {
            match OrderRepository::order(&self.store, kept.order_id).await {
                Ok(order) => {
                    (self.events)
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
        })
    }
}

/// Staff hear of a chat unless it is (and was) with the assistant, which staff do not list.
impl chat::ChatNotices for ShopNotices {
    fn chat_changed<'a>(&'a self, stamp: &'a ChatStamp, was: Option<ChatStatus>) -> Published<'a> {
        let staff = stamp.status != ChatStatus::Ai || was.is_some_and(|s| s != ChatStatus::Ai);
        Box::pin(self.chat(stamp, stamp.status.as_str(), Some(stamp.version), staff))
    }

    fn chat_deleted<'a>(&'a self, stamp: &'a ChatStamp) -> Published<'a> {
        Box::pin(self.chat(stamp, "deleted", None, stamp.status != ChatStatus::Ai))
    }

    fn chats_purged(&self) -> Published<'_> {
        Box::pin(self.events.chat_list_changed())
    }
}
