//! Everything an instance runs besides answering requests, started in one place: the staff
//! notifier's delivery queue, the buyer's mail, the checkout sweeper, the catalog refresh, the chat version
//! refresh and the chat purge. Each loop runs until the runtime stops; a failed round is logged
//! and the next one tries again.

use std::sync::Arc;
use std::time::Duration;

use accounts::Clock as _;
use discord::StaffNotifier;
use orders::{CheckoutService, CloseError, Closed, Closing, OrderError, ReleaseError};
use store::Store;
use tokio::time::MissedTickBehavior;

use crate::auth::AppClock;
use crate::checkout::providers::ShopProviders;
use crate::checkout::ShopCheckout;
use crate::events::{topic, ShopEvents, Transport};
use crate::help_chat::HelpChat;
use crate::rounds::{Loop, Rounds};
use crate::settings::Settings;
use crate::snapshot::StockChanged;

/// How often each instance sweeps stale orders. Several instances sweeping at once is
/// harmless: an order is released only by the change that moves it out of pending.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// How long rate-limit windows are kept (the longest window is an hour; a day is the longest
/// any limit could want).
const RATE_LIMIT_RETENTION: chrono::Duration = chrono::Duration::days(2);

/// One sweep over the shop's orders: expires pending orders whose payment window has passed
/// and gives their stock and promo use back, in case the provider's own expiry never arrives
/// (PayPal has none; a webhook may be lost). Each order's payment page is closed at the
/// provider first (`orders::Checkout::close_unpaid`): one that turns out paid is confirmed instead, one the
/// provider could not close is tried again next time, and orders held for staff review are
/// left alone. It also forgets rate-limit windows older than two days.
#[derive(Clone)]
pub struct Sweeper {
    checkout: Arc<ShopCheckout>,
    providers: Arc<ShopProviders>,
    clock: AppClock,
    store: Store,
    delivery: actix_web::web::Data<crate::services::DeliveryQueueService>,
}

impl Sweeper {
    /// Expires every stale pending order (its payment page closed, its stock released once),
    /// marks the claims whose buyer's time to join ran out (once per claim across instances)
    /// and purges old rate-limit windows; returns how many orders it expired.
    pub async fn run_once(&self) -> anyhow::Result<usize> {
        if let Err(error) = self.delivery.mark_no_shows().await {
            tracing::warn!(error = ?error, "could not mark the buyers who did not join");
        }
        let checkout = &self.checkout;
        let purged = self
            .store
            .purge_rate_limits(self.clock.now() - RATE_LIMIT_RETENTION)
            .await;
        if let Err(error) = purged {
            tracing::warn!(error = ?error, "could not purge old rate-limit windows");
        }
        let mut expired = 0;
        for id in checkout.stale_orders().await? {
            let order = match checkout.order(id).await {
                Ok(order) => order,
                Err(OrderError::NotFound(_)) => continue,
                Err(OrderError::Unknown(error)) => return Err(error),
            };
            let closed = checkout
                .close_unpaid(&order, Closing::Expired, self.providers.as_ref())
                .await;
            match closed {
                Ok(Closed::Released(_)) => expired += 1,
                Ok(Closed::Paid) => {}
                // paid, cancelled or held for review meanwhile, or gone: nothing to do
                Err(CloseError::Release(
                    ReleaseError::Refused(_)
                    | ReleaseError::UnderReview(_)
                    | ReleaseError::NotFound(_)
                    | ReleaseError::ReferenceMismatch(_),
                )) => {}
                Err(error) => {
                    tracing::warn!(order = %id, error = ?error, "could not expire a stale order; trying again next sweep");
                }
            }
        }
        if expired > 0 {
            tracing::info!(count = expired, "expired stale pending orders");
        }
        Ok(expired)
    }
}

/// The app's one staff notifier (one delivery queue) for checkout and the help chat; its
/// delivery task starts now.
pub fn start_staff_notifier(settings: &Settings) -> StaffNotifier {
    StaffNotifier::start(
        settings.discord.notify_webhook(),
        discord::RetryPolicy {
            request_timeout: settings.discord.request_timeout(),
            ..discord::RetryPolicy::default()
        },
    )
}

/// What the loops work on.
pub struct Loops {
    pub outbox: crate::outbox::Outbox,
    pub checkout: Arc<ShopCheckout>,
    pub providers: Arc<ShopProviders>,
    pub chat: Arc<HelpChat>,
    pub stock: StockChanged,
    pub store: Store,
    pub clock: AppClock,
    pub events: ShopEvents,
    /// Each loop counts its finished rounds here.
    pub rounds: Rounds,
    pub disputes: Arc<crate::disputes::DisputeService>,
    pub disputes_waker: Arc<crate::disputes::DisputesWaker>,
    pub delivery: actix_web::web::Data<crate::services::DeliveryQueueService>,
    pub currencies: Arc<crate::currencies::Currencies>,
}

/// Starts every loop; returns the sweeper (tests run it at once instead of waiting).
pub fn start(loops: Loops, settings: &Settings) -> Sweeper {
    let sweeper = Sweeper {
        checkout: loops.checkout,
        providers: loops.providers,
        clock: loops.clock.clone(),
        store: loops.store.clone(),
        delivery: loops.delivery,
    };
    set_event_hook(
        &loops.events,
        loops.stock.clone(),
        Arc::clone(&loops.chat),
        loops.outbox.waker(),
    );
    if loops.events.transport() == Transport::Postgres {
        loops.events.spawn_listener(settings.database.url.clone());
    }
    let rounds = loops.rounds;
    spawn_event_purge(
        loops.events.clone(),
        loops.clock.clone(),
        Duration::from_secs(settings.events.retention_seconds.max(1)),
        rounds.clone(),
    );
    spawn_sweeper(sweeper.clone(), SWEEP_EVERY, rounds.clone());
    spawn_disputes(
        loops.disputes,
        loops.disputes_waker,
        Duration::from_secs(settings.disputes.check_every_seconds.max(1)),
        rounds.clone(),
    );
    loops.outbox.spawn(
        Duration::from_millis(settings.mail.queue_poll_ms.max(50)),
        rounds.clone(),
    );
    spawn_release_watch(loops.stock.clone(), loops.store.clone());
    spawn_exchange_rates(
        loops.currencies,
        Duration::from_secs(settings.currency.check_every_seconds.max(1)),
        rounds.clone(),
    );
    spawn_catalog_refresh(
        loops.stock,
        Duration::from_secs(settings.catalog.refresh_seconds.max(1)),
        rounds.clone(),
    );
    spawn_chat_version_refresh(
        Arc::clone(&loops.chat),
        loops.store,
        Duration::from_millis(settings.chat.version_refresh_ms.max(100)),
        rounds.clone(),
    );
    spawn_chat_purge(
        loops.chat,
        loops.clock,
        Duration::from_secs(settings.chat.purge_every_seconds.max(1)),
        rounds,
    );
    sweeper
}

/// Expires stale pending orders every `every`.
fn spawn_sweeper(sweeper: Sweeper, every: Duration, rounds: Rounds) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(every);
        loop {
            ticker.tick().await;
            let _round = rounds.begin(Loop::Sweep);
            if let Err(error) = sweeper.run_once().await {
                tracing::warn!(error = ?error, "could not expire stale orders");
            }
        }
    });
}

/// Stages disputes' evidence, prepares the evidence of delivered orders that got a fraud
/// warning, and submits what nobody submitted before the deadline, every
/// `every` and whenever a dispute asks for it (`waker`).
fn spawn_disputes(
    disputes: Arc<crate::disputes::DisputeService>,
    waker: Arc<crate::disputes::DisputesWaker>,
    every: Duration,
    rounds: Rounds,
) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(every);
        ticker.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = ticker.tick() => {}
                () = waker.0.notified() => {}
            }
            let _round = rounds.begin(Loop::Disputes);
            if let Err(error) = disputes.stage_due().await {
                tracing::warn!(error = ?error, "could not stage disputes' evidence");
            }
            if let Err(error) = disputes.prepare_due().await {
                tracing::warn!(error = ?error, "could not prepare the evidence of warned orders");
            }
            if let Err(error) = disputes.submit_due().await {
                tracing::warn!(error = ?error, "could not submit disputes' evidence before the deadline");
            }
            if let Err(error) = disputes.forget_expired_evidence().await {
                tracing::warn!(error = ?error, "could not purge the evidence kept of erased buyers");
            }
        }
    });
}

/// Fetches the day's exchange rates when this instance takes the day's turn, and reads the
/// stored ones (another instance's fetch); the first round at once.
fn spawn_exchange_rates(
    currencies: Arc<crate::currencies::Currencies>,
    every: Duration,
    rounds: Rounds,
) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(every);
        loop {
            ticker.tick().await;
            let _round = rounds.begin(Loop::ExchangeRates);
            currencies.round().await;
        }
    });
}

/// Keeps this instance's snapshot in step with writes made by other instances; a change it
/// installs is published (`StockChanged::refresh`).
fn spawn_catalog_refresh(stock: StockChanged, every: Duration, rounds: Rounds) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(every);
        ticker.tick().await;
        loop {
            ticker.tick().await;
            let _round = rounds.begin(Loop::CatalogRefresh);
            if let Err(error) = stock.refresh().await {
                tracing::warn!(error = ?error, "could not refresh the product snapshot");
            }
        }
    });
}

/// The longest the release watch sleeps before it looks again (a release set meanwhile, a
/// clock moved in tests).
const RELEASE_WATCH_MAX: Duration = Duration::from_secs(1);

/// Turns each drop on at its `release_at`, on this instance's list, and lets one instance
/// announce it: it sleeps until the next release (at most [`RELEASE_WATCH_MAX`]), then refreshes
/// the snapshot and claims the announcement (`StockChanged::release`).
fn spawn_release_watch(stock: StockChanged, store: Store) {
    tokio::spawn(async move {
        loop {
            let now = stock.now();
            if stock.release_due(now) {
                let released = stock.release(store.claim_release_announcements(now)).await;
                if let Err(error) = released {
                    tracing::warn!(error = ?error, "could not release a drop; trying again");
                    tokio::time::sleep(RELEASE_WATCH_MAX).await;
                }
                continue;
            }
            let wait = stock
                .next_release(now)
                .and_then(|at| (at - now).to_std().ok())
                // a millisecond past it, so the clock has passed the release when it wakes
                .map(|until| until + Duration::from_millis(1))
                .unwrap_or(RELEASE_WATCH_MAX)
                .min(RELEASE_WATCH_MAX);
            tokio::time::sleep(wait).await;
        }
    });
}

/// Keeps this instance's chat poll cache in step with chat writes made by other instances.
fn spawn_chat_version_refresh(chat: Arc<HelpChat>, store: Store, every: Duration, rounds: Rounds) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(every);
        ticker.set_missed_tick_behavior(MissedTickBehavior::Delay);
        ticker.tick().await;
        loop {
            ticker.tick().await;
            let _round = rounds.begin(Loop::ChatVersions);
            if let Err(error) = chat.versions.refresh(&store, store.now()).await {
                tracing::warn!(error = ?error, "could not refresh the chat versions");
            }
        }
    });
}

/// Purges expired chats every `chat.purge_every_seconds`, on the shop's clock. Several
/// instances purging at once is harmless: each delete re-checks its condition.
fn spawn_chat_purge(chat: Arc<HelpChat>, clock: AppClock, every: Duration, rounds: Rounds) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(every);
        ticker.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            ticker.tick().await;
            let _round = rounds.begin(Loop::ChatPurge);
            match chat.purge_expired(clock.now()).await {
                Ok(0) => {}
                Ok(purged) => tracing::info!(purged, "purged expired help chats"),
                Err(error) => tracing::warn!(error = ?error, "could not purge expired chats"),
            }
        }
    });
}

/// Before streams pass an event on, this instance's caches are made fresh: the product
/// snapshot for a product change, the chat poll cache for a chat change (another instance's
/// write then shows here at once, not after the next version refresh).
fn set_event_hook(
    events: &ShopEvents,
    stock: StockChanged,
    chat: Arc<HelpChat>,
    outbox: Arc<tokio::sync::Notify>,
) {
    events.set_hook(Arc::new(move |event| {
        let stock = stock.clone();
        let chat = Arc::clone(&chat);
        let outbox = Arc::clone(&outbox);
        Box::pin(async move {
            let data: serde_json::Value =
                serde_json::from_str(&event.event.data).unwrap_or_default();
            match event.event.topic.as_str() {
                topic::PRODUCTS => {
                    if let Some(version) = data["version"].as_str() {
                        stock.heard(version).await;
                    }
                }
                topic::CHAT => {
                    if let Some(id) = data["chat_id"].as_str().and_then(|id| id.parse().ok()) {
                        chat.versions.changed(id);
                    }
                }
                // an order's step was recorded: its mail and jobs are due now
                topic::ORDER => outbox.notify_one(),
                _ => {}
            }
        })
    }));
}

/// Forgets events older than `events.retention_seconds` (a stream reconnecting later is told
/// to resync). Several instances purging at once is harmless.
fn spawn_event_purge(events: ShopEvents, clock: AppClock, keep: Duration, rounds: Rounds) {
    tokio::spawn(async move {
        let every = Duration::from_secs(60).min(keep);
        let mut ticker = tokio::time::interval(every);
        ticker.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            ticker.tick().await;
            let _round = rounds.begin(Loop::EventPurge);
            let Ok(keep) = chrono::Duration::from_std(keep) else {
                return;
            };
            if let Err(error) = events.store().purge_push_events(clock.now() - keep).await {
                tracing::warn!(error = ?error, "could not purge old events");
            }
        }
    });
}
