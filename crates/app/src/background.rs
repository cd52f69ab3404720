//! Everything an instance runs besides answering requests, started in one place: the staff
//! notifier's delivery queue, the checkout sweeper, the catalog refresh, the chat version
//! refresh and the chat purge. Each loop runs until the runtime stops; a failed round is logged
//! and the next one tries again.

use std::sync::Arc;
use std::time::Duration;

use accounts::Clock as _;
use discord::StaffNotifier;
use orders::CheckoutService;
use store::Store;
use tokio::time::MissedTickBehavior;

use crate::auth::AppClock;
use crate::checkout::CheckoutKit;
use crate::help_chat::HelpChat;
use crate::settings::Settings;
use crate::snapshot::StockChanged;

/// How often each instance sweeps stale orders. Several instances sweeping at once is
/// harmless: an order is released only by the change that moves it out of pending.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// One sweep over the shop's orders: expires pending orders whose payment window has passed
/// and gives their stock back, in case the provider's own expiry never arrives (PayPal has
/// none; a webhook may be lost).
#[derive(Clone)]
pub struct Sweeper {
    kit: Arc<CheckoutKit>,
}

impl Sweeper {
    fn new(kit: Arc<CheckoutKit>) -> Self {
        Sweeper { kit }
    }

    /// Expires every stale pending order (its stock released once) and refreshes the product
    /// snapshot when any was; returns how many it expired.
    pub async fn run_once(&self) -> anyhow::Result<usize> {
        let expired = self.kit.service.expire_stale().await?;
        if !expired.is_empty() {
            self.kit.stock.on_stock_changed().await;
        }
        Ok(expired.len())
    }
}

/// The app's one staff notifier (one delivery queue) for checkout and the help chat; its
/// delivery task starts now.
pub fn start_staff_notifier(settings: &Settings) -> StaffNotifier {
    StaffNotifier::start(
        settings.discord.notify_webhook(),
        discord::RetryPolicy::default(),
    )
}

/// What the loops work on.
pub struct Loops {
    pub checkout: Arc<CheckoutKit>,
    pub chat: Arc<HelpChat>,
    pub stock: StockChanged,
    pub store: Store,
    pub clock: AppClock,
}

/// Starts every loop; returns the sweeper (tests run it at once instead of waiting).
pub fn start(loops: Loops, settings: &Settings) -> Sweeper {
    let sweeper = Sweeper::new(loops.checkout);
    spawn_sweeper(sweeper.clone(), SWEEP_EVERY);
    spawn_catalog_refresh(
        loops.stock,
        Duration::from_secs(settings.catalog.refresh_seconds.max(1)),
    );
    spawn_chat_version_refresh(
        Arc::clone(&loops.chat),
        loops.store,
        Duration::from_millis(settings.chat.version_refresh_ms.max(100)),
    );
    spawn_chat_purge(
        loops.chat,
        loops.clock,
        Duration::from_secs(settings.chat.purge_every_seconds.max(1)),
    );
    sweeper
}

/// Expires stale pending orders every `every`.
fn spawn_sweeper(sweeper: Sweeper, every: Duration) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(every);
        loop {
            ticker.tick().await;
            if let Err(error) = sweeper.run_once().await {
                tracing::warn!(error = ?error, "could not expire stale orders");
            }
        }
    });
}

/// Keeps this instance's snapshot in step with writes made by other instances.
fn spawn_catalog_refresh(stock: StockChanged, every: Duration) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(every);
        ticker.tick().await;
        loop {
            ticker.tick().await;
            if let Err(error) = stock.refresh().await {
                tracing::warn!(error = ?error, "could not refresh the product snapshot");
            }
        }
    });
}

/// Keeps this instance's chat poll cache in step with chat writes made by other instances.
fn spawn_chat_version_refresh(chat: Arc<HelpChat>, store: Store, every: Duration) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(every);
        ticker.set_missed_tick_behavior(MissedTickBehavior::Delay);
        ticker.tick().await;
        loop {
            ticker.tick().await;
            if let Err(error) = chat.versions.refresh(&store).await {
                tracing::warn!(error = ?error, "could not refresh the chat versions");
            }
        }
    });
}

/// Purges expired chats every `chat.purge_every_seconds`, on the shop's clock. Several
/// instances purging at once is harmless: each delete re-checks its condition.
fn spawn_chat_purge(chat: Arc<HelpChat>, clock: AppClock, every: Duration) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(every);
        ticker.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            ticker.tick().await;
            match chat.purge_expired(clock.now()).await {
                Ok(0) => {}
                Ok(purged) => tracing::info!(purged, "purged expired help chats"),
                Err(error) => tracing::warn!(error = ?error, "could not purge expired chats"),
            }
        }
    });
}
