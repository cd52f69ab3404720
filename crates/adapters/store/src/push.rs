//! Server push's transport (docs/architecture.md, "Server push"): the events an instance
//! publishes, numbered in the event log (`push_events.rs`) so a browser's stream resumes
//! without loss on any instance, and heard by every instance: through PostgreSQL
//! `LISTEN/NOTIFY`, or in process on SQLite (one instance). What an event is and who may see
//! it are the domain's (`events`).

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use events::{ChatChanged, EventBus, NewPushEvent, PushEventRow};
use tokio::sync::broadcast;

use crate::connection::Backend;
use crate::push_events::{Heard, PushListener};
use crate::store::Store;

/// What the listener runs when it hears an event, before the streams pass it on: this
/// instance's caches are made fresh first (the snapshot, the chat poll cache), so the
/// browser's refetch finds the change whichever instance answers it.
pub type Hook =
    Arc<dyn Fn(Arc<PushEventRow>) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

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
        let now = self.store.now();
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
        self.publish(NewPushEvent::products_changed(version)).await;
    }

    /// A chat changed (who hears it: [`NewPushEvent::chat_changed`]).
    pub async fn chat_changed(&self, change: ChatChanged<'_>) {
        self.publish(NewPushEvent::chat_changed(change)).await;
    }

    /// Staff's chat list changed as a whole (chats purged).
    pub async fn chat_list_changed(&self) {
        self.publish(NewPushEvent::chat_list_changed()).await;
    }

    /// An order changed: its buyer (the session that placed it, or the account it belongs to)
    /// and staff hear it.
    pub async fn order_changed(
        &self,
        order_id: i64,
        user_id: Option<shared::UserId>,
        status: &str,
        step: orders::OrderStep,
    ) {
        self.publish(NewPushEvent::order_changed(
            order_id,
            user_id,
            status,
            step.as_str(),
        ))
        .await;
    }

    /// A message on an order's page: its buyer and staff hear it, with the message.
    pub async fn order_message(&self, posted: events::OrderMessagePosted<'_>) {
        self.publish(NewPushEvent::order_message(posted)).await;
    }

    /// PostgreSQL: hears every instance's events (its own too) and passes them on in number
    /// order; after a lost connection, or a gap in the numbers, reads what it missed from the
    /// event log. Runs until the runtime stops.
    pub fn spawn_listener(&self, url: String) {
        let events = self.clone();
        tokio::spawn(async move {
            loop {
                match PushListener::connect(&url).await {
                    Ok(mut listener) => {
                        events.catch_up().await;
                        loop {
                            match listener.next().await {
                                Ok(Heard::Event(event)) => {
                                    if event.id > events.last_id() + 1 {
                                        events.catch_up().await;
                                    }
                                    events.deliver(*event).await;
                                }
                                Ok(Heard::Reconnected) => events.catch_up().await,
                                Err(error) => {
                                    tracing::warn!(error = ?error, "the event listener stopped; reconnecting");
                                    break;
                                }
                            }
                        }
                    }
                    Err(error) => {
                        tracing::warn!(error = ?error, "could not listen for events; trying again");
                    }
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
    }

    /// Passes on the stored events this instance has not passed on yet.
    async fn catch_up(&self) {
        loop {
            match self.store.push_events_after(self.last_id(), 500).await {
                Ok(missed) => {
                    let more = missed.len() == 500;
                    for event in missed {
                        self.deliver(event).await;
                    }
                    if !more {
                        return;
                    }
                }
                Err(error) => {
                    tracing::warn!(error = ?error, "could not read missed events");
                    return;
                }
            }
        }
    }
}

impl EventBus for ShopEvents {
    async fn publish(&self, event: NewPushEvent) {
        self.publish_event(event).await
    }
}
