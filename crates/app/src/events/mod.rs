//! Server push: the events an instance publishes (a chat, an order or the product list
//! changed), numbered in the database's event log so a browser's stream resumes without loss
//! on any instance, and heard by every instance: through PostgreSQL `LISTEN/NOTIFY`, or in
//! process on SQLite (one instance). Each browser's stream (`GET /api/events`,
//! `routes::events`) passes on what its viewer may see ([`Viewer::may_see`]).
//!
//! An event says what changed, never the data itself: the browser refetches the call it
//! already polls, which answers with the same session and role rules as always.

pub mod streams;

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, OnceLock};

use serde_json::json;
use store::{Backend, NewPushEvent, PushEventRow, Store};
use tokio::sync::broadcast;

/// The topics a browser hears.
pub mod topic {
    /// The storefront's product list changed: `{"version": etag}`.
    pub const PRODUCTS: &str = "products";
    /// A help chat changed: `{"chat_id", "status", "version"}` (`status` "deleted" when gone).
    pub const CHAT: &str = "chat";
    /// Staff's chat list changed as a whole (chats purged): `{}`.
    pub const CHAT_LIST: &str = "chat_list";
    /// An order's status or its place in the delivery queue changed:
    /// `{"order_id", "status", "step"}` (`step`: `orders::OrderStep`, e.g. `claimed`).
    pub const ORDER: &str = "order";
}

/// What the listener runs when it hears an event, before the streams pass it on: this
/// instance's caches are made fresh first (the snapshot, the chat poll cache), so the
/// browser's refetch finds the change whichever instance answers it.
pub type Hook =
    Arc<dyn Fn(Arc<PushEventRow>) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// The port: publishing an event every instance (this one included) hears.
pub trait EventBus: Send + Sync + 'static {
    fn publish(&self, event: NewPushEvent) -> impl Future<Output = ()> + Send;
}

/// How events travel between instances.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// SQLite: one instance; the event is passed on as soon as it is stored.
    InProcess,
    /// PostgreSQL: stored and sent with `NOTIFY` in one transaction; every instance (this one
    /// too) passes it on when its listener hears it.
    Postgres,
}

/// One instance's event bus. Cloning shares it.
#[derive(Clone)]
pub struct ShopEvents {
    store: Store,
    transport: Transport,
    sender: broadcast::Sender<Arc<PushEventRow>>,
    /// The highest event number passed on to this instance's streams.
    last_id: Arc<AtomicI64>,
    /// In process, storing and passing on happen under this lock, so streams get events in
    /// number order.
    in_order: Arc<tokio::sync::Mutex<()>>,
    hook: Arc<OnceLock<Hook>>,
    /// `true` once the instance is shutting down: every stream ends at once (browsers
    /// reconnect to another instance after their retry hint).
    closing: Arc<tokio::sync::watch::Sender<bool>>,
}

impl std::fmt::Debug for ShopEvents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShopEvents")
            .field("transport", &self.transport)
            .field("last_id", &self.last_id())
            .field("streams", &self.sender.receiver_count())
            .finish_non_exhaustive()
    }
}

impl ShopEvents {
    /// `buffer`: how many events a slow stream may fall behind before it is told to resync.
    pub async fn new(store: Store, buffer: usize) -> anyhow::Result<Self> {
        let transport = match store.backend() {
            Backend::Postgres => Transport::Postgres,
            Backend::Sqlite => Transport::InProcess,
        };
        let newest = store.push_event_bounds().await?.newest.unwrap_or(0);
        let (sender, _) = broadcast::channel(buffer.max(16));
        Ok(ShopEvents {
            store,
            transport,
            sender,
            last_id: Arc::new(AtomicI64::new(newest)),
            in_order: Arc::new(tokio::sync::Mutex::new(())),
            hook: Arc::new(OnceLock::new()),
            closing: Arc::new(tokio::sync::watch::Sender::new(false)),
        })
    }

    /// Ends every stream of this instance, now and from now on (the instance is shutting down).
    pub fn close_streams(&self) {
        self.closing.send_replace(true);
    }

    /// Becomes `true` when the instance shuts down.
    pub fn closing(&self) -> tokio::sync::watch::Receiver<bool> {
        self.closing.subscribe()
    }

    pub fn transport(&self) -> Transport {
        self.transport
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Sets what runs for every event heard, before streams get it (once, at wiring).
    pub fn set_hook(&self, hook: Hook) {
        if self.hook.set(hook).is_err() {
            tracing::warn!("the event hook was set twice; the first one stays");
        }
    }

    /// The highest event number passed on to streams so far.
    pub fn last_id(&self) -> i64 {
        self.last_id.load(Ordering::SeqCst)
    }

    /// A new stream's receiver of every event this instance passes on from now.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<PushEventRow>> {
        self.sender.subscribe()
    }

    /// Passes an event heard (or, in process, just stored) on to this instance's streams, in
    /// number order: an event at or below the last one passed on is a repeat and is dropped.
    pub async fn deliver(&self, event: PushEventRow) {
        if event.id <= self.last_id() {
            return;
        }
        let event = Arc::new(event);
        if let Some(hook) = self.hook.get() {
            hook(Arc::clone(&event)).await;
        }
        self.last_id.fetch_max(event.id, Ordering::SeqCst);
        // no receiver (no open stream) is not an error
        let _ = self.sender.send(event);
    }

    async fn publish_event(&self, event: NewPushEvent) {
        let now = chrono::Utc::now();
        match self.transport {
            Transport::Postgres => {
                if let Err(error) = self.store.append_push_event(event, now).await {
                    tracing::warn!(error = ?error, "could not publish an event");
                }
            }
            Transport::InProcess => {
                let _in_order = self.in_order.lock().await;
                match self.store.append_push_event(event, now).await {
                    Ok(stored) => self.deliver(stored).await,
                    Err(error) => tracing::warn!(error = ?error, "could not publish an event"),
                }
            }
        }
    }

    /// The storefront's list changed; `version` is its new ETag.
    pub async fn products_changed(&self, version: &str) {
        self.publish(NewPushEvent {
            topic: topic::PRODUCTS.to_owned(),
            data: json!({ "version": version }).to_string(),
            public: true,
            staff: true,
            chat_session: None,
            order_id: None,
            user_id: None,
        })
        .await;
    }

    /// A chat changed: its owner hears it; staff too unless it is (and was) with the
    /// assistant, which staff do not list.
    pub async fn chat_changed(&self, change: ChatChanged<'_>) {
        self.publish(NewPushEvent {
            topic: topic::CHAT.to_owned(),
            data: json!({
                "chat_id": change.chat_id,
                "status": change.status,
                "version": change.version,
            })
            .to_string(),
            public: false,
            staff: change.staff,
            chat_session: Some(change.session.to_owned()),
            order_id: None,
            user_id: None,
        })
        .await;
    }

    /// Staff's chat list changed as a whole (chats purged).
    pub async fn chat_list_changed(&self) {
        self.publish(NewPushEvent {
            topic: topic::CHAT_LIST.to_owned(),
            data: "{}".to_owned(),
            public: false,
            staff: true,
            chat_session: None,
            order_id: None,
            user_id: None,
        })
        .await;
    }

    /// An order changed: its buyer (the session that placed it, or the account it belongs to)
    /// and staff hear it.
    pub async fn order_changed(
        &self,
        order_id: i64,
        user_id: Option<i64>,
        status: &str,
        step: orders::OrderStep,
    ) {
        self.publish(NewPushEvent {
            topic: topic::ORDER.to_owned(),
            data: json!({ "order_id": order_id, "status": status, "step": step.as_str() })
                .to_string(),
            public: false,
            staff: true,
            chat_session: None,
            order_id: Some(order_id),
            user_id,
        })
        .await;
    }
}

impl EventBus for ShopEvents {
    async fn publish(&self, event: NewPushEvent) {
        self.publish_event(event).await
    }
}

/// A chat's change as published.
#[derive(Debug, Clone, Copy)]
pub struct ChatChanged<'a> {
    pub chat_id: &'a str,
    /// The chat's session id: who owns it (never sent to a browser).
    pub session: &'a str,
    pub status: &'a str,
    pub version: Option<u64>,
    /// Whether staff see it.
    pub staff: bool,
}

/// Who a stream is for, as the calls decide it: the chat session id the browser holds, the
/// orders its cookie session placed, the account logged in, and whether that account is staff.
#[derive(Debug, Clone, Default)]
pub struct Viewer {
    pub chat_session: Option<String>,
    pub orders: HashSet<i64>,
    pub user_id: Option<i64>,
    pub staff: bool,
}

impl Viewer {
    /// Whether this viewer may hear the event: the same rules as the calls it makes refetch.
    pub fn may_see(&self, event: &NewPushEvent) -> bool {
        if event.public || (event.staff && self.staff) {
            return true;
        }
        if let (Some(mine), Some(theirs)) = (&self.chat_session, &event.chat_session) {
            if mine == theirs {
                return true;
            }
        }
        if let Some(order) = event.order_id {
            if self.orders.contains(&order) {
                return true;
            }
            if let (Some(me), Some(owner)) = (self.user_id, event.user_id) {
                return me == owner;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event() -> NewPushEvent {
        NewPushEvent {
            topic: topic::CHAT.to_owned(),
            data: "{}".to_owned(),
            public: false,
            staff: false,
            chat_session: None,
            order_id: None,
            user_id: None,
        }
    }

    #[test]
    fn a_viewer_sees_public_events_their_chat_their_orders_and_staff_events_only_as_staff() {
        let shopper = Viewer {
            chat_session: Some("session-mine".into()),
            orders: HashSet::from([7]),
            user_id: Some(3),
            staff: false,
        };
        let staff = Viewer {
            staff: true,
            ..Viewer::default()
        };
        let public = NewPushEvent {
            public: true,
            ..event()
        };
        assert!(shopper.may_see(&public) && staff.may_see(&public));

        let my_chat = NewPushEvent {
            chat_session: Some("session-mine".into()),
            ..event()
        };
        let their_chat = NewPushEvent {
            chat_session: Some("session-theirs".into()),
            staff: true,
            ..event()
        };
        assert!(shopper.may_see(&my_chat));
        assert!(!shopper.may_see(&their_chat));
        assert!(staff.may_see(&their_chat));
        assert!(!staff.may_see(&my_chat), "a chat still with the assistant");

        let session_order = NewPushEvent {
            order_id: Some(7),
            staff: true,
            ..event()
        };
        let account_order = NewPushEvent {
            order_id: Some(8),
            user_id: Some(3),
            ..event()
        };
        let other_order = NewPushEvent {
            order_id: Some(9),
            user_id: Some(4),
            ..event()
        };
        let guest_order = NewPushEvent {
            order_id: Some(10),
            ..event()
        };
        assert!(shopper.may_see(&session_order));
        assert!(shopper.may_see(&account_order));
        assert!(!shopper.may_see(&other_order));
        assert!(!shopper.may_see(&guest_order));
        assert!(!Viewer::default().may_see(&account_order));
    }
}
