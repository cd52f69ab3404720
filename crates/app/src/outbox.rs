//! The outbox's side in this instance: the dispatcher turns the recorded steps of orders
//! (`order_events`, written with each change) into the buyer's mail and the channels' jobs, and
//! each channel's worker sends its due jobs (`orders::lifecycle`). Each kind of job runs in its
//! own lane (its own task): the buyer's mail (with the dispatcher), the staff channel, the
//! tickets and the joins to the shop's Discord server, so one kind waiting on Discord never
//! holds another. Every lane runs after every `mail.queue_poll_ms`, and at once when this
//! instance hears an order change (its own or, on PostgreSQL, another instance's), so a claim
//! reaches the buyer's mail and the ticket without waiting for the next round. Several
//! instances running it at once is harmless: dispatching is idempotent and every job is leased
//! before it is sent. The Discord lanes share one gate kept in the database
//! (`orders::DiscordLimits`): a global 429 holds them on every instance until its end, and the
//! shop stops before Discord's invalid-request budget is spent.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use discord::{DiscordTickets, StaffNotifier};
use orders::tickets::{Tickets, TICKET_CHANNEL};
use orders::{Dispatcher, OutboxWorker, StaffAlerts, STAFF_CHANNEL};
use store::Store;
use tokio::sync::Notify;

use crate::auth::AppClock;
use crate::discord_gate::{discord_gate, DiscordGate};
use crate::guild_join::ShopGuildJoins;
use crate::rounds::{Loop, Rounds};
use crate::services::TrackingService;

/// The Discord ticket of each paid order.
pub type ShopTickets = Tickets<Store, DiscordTickets>;
type StaffWorker = OutboxWorker<Store, StaffAlerts<Store, StaffNotifier>, AppClock, DiscordGate>;
type TicketWorker = OutboxWorker<Store, ShopTickets, AppClock, DiscordGate>;

/// The tickets, when Discord's ticket settings are there (`None`: the order page is the ticket).
#[derive(Clone)]
pub struct TicketService(pub Option<ShopTickets>);

/// Everything the outbox's lanes run.
pub struct Outbox {
    dispatcher: Dispatcher<Store, AppClock>,
    tracking: Arc<TrackingService>,
    staff: Option<StaffWorker>,
    tickets: Option<TicketWorker>,
    guild_joins: Option<ShopGuildJoins>,
    wake: Arc<Notify>,
}

impl Outbox {
    /// The staff channel when a webhook is configured, the tickets when Discord's are.
    pub fn new(
        store: Store,
        clock: AppClock,
        tracking: Arc<TrackingService>,
        notifier: StaffNotifier,
        tickets: Option<ShopTickets>,
        settings: &crate::settings::Settings,
    ) -> Self {
        let retry = settings.mail.retry();
        let gate = discord_gate(store.clone(), settings);
        let mut channels = Vec::new();
        let staff = notifier.is_enabled().then(|| {
            channels.push(STAFF_CHANNEL);
            let orders_url = format!(
                "{}/admin/orders",
                settings.site.public_url.trim_end_matches('/')
            );
            OutboxWorker::new(
                store.clone(),
                StaffAlerts::new(store.clone(), notifier, orders_url)
                    .refunding_at_fraud_warnings(settings.payments.refund_on_fraud_warning),
                clock.clone(),
                STAFF_CHANNEL.name,
                retry,
            )
            .gated(gate.clone())
        });
        let tickets = tickets.map(|tickets| {
            channels.push(TICKET_CHANNEL);
            OutboxWorker::new(
                store.clone(),
                tickets,
                clock.clone(),
                TICKET_CHANNEL.name,
                retry,
            )
            .gated(gate.clone())
        });
        Outbox {
            dispatcher: Dispatcher::new(store, clock, channels),
            tracking,
            staff,
            tickets,
            guild_joins: None,
            wake: Arc::new(Notify::new()),
        }
    }

    /// Also makes the buyers' joins to the shop's Discord server (when configured).
    pub fn with_guild_joins(mut self, guild_joins: Option<ShopGuildJoins>) -> Self {
        self.guild_joins = guild_joins;
        self
    }

    /// Wakes every lane now (an order changed).
    pub fn waker(&self) -> Arc<Notify> {
        Arc::clone(&self.wake)
    }

    /// Starts the lanes, each running a round every `every` and at once when woken: the buyer's
    /// mail (after dispatching what was recorded, which then wakes the other lanes: their jobs
    /// are queued), and each configured Discord channel. A failure is logged; the next round
    /// tries again.
    pub fn spawn(self, every: Duration, rounds: Rounds) {
        let mut lanes: Vec<Arc<Notify>> = Vec::new();
        let mut discord_lanes: Vec<Arc<Notify>> = Vec::new();
        if let Some(staff) = self.staff.map(Arc::new) {
            discord_lanes.push(lane(every, rounds.clone(), Loop::StaffChannel, move || {
                let staff = Arc::clone(&staff);
                async move {
                    if let Err(error) = staff.run_due().await {
                        tracing::warn!(error = ?error, "could not send the staff channel's jobs");
                    }
                }
            }));
        }
        if let Some(tickets) = self.tickets.map(Arc::new) {
            discord_lanes.push(lane(every, rounds.clone(), Loop::Tickets, move || {
                let tickets = Arc::clone(&tickets);
                async move {
                    if let Err(error) = tickets.run_due().await {
                        tracing::warn!(error = ?error, "could not send the tickets' jobs");
                    }
                }
            }));
        }
        if let Some(joins) = self.guild_joins.map(Arc::new) {
            discord_lanes.push(lane(every, rounds.clone(), Loop::GuildJoins, move || {
                let joins = Arc::clone(&joins);
                async move {
                    if let Err(error) = joins.run_due().await {
                        tracing::warn!(error = ?error, "could not add the buyers to the shop's server");
                    }
                }
            }));
        }
        let dispatcher = Arc::new(self.dispatcher);
        let tracking = self.tracking;
        let dispatched = discord_lanes.clone();
        lanes.push(lane(every, rounds, Loop::Outbox, move || {
            let (dispatcher, tracking) = (Arc::clone(&dispatcher), Arc::clone(&tracking));
            let dispatched = dispatched.clone();
            async move {
                match dispatcher.dispatch_pending().await {
                    Ok(0) => {}
                    Ok(_) => dispatched.iter().for_each(|lane| lane.notify_one()),
                    Err(error) => {
                        tracing::warn!(error = ?error, "could not dispatch the orders' steps");
                    }
                }
                if let Err(error) = tracking.send_due_mail().await {
                    tracing::warn!(error = ?error, "could not send the buyer's mail");
                }
            }
        }));
        lanes.extend(discord_lanes);
        let wake = self.wake;
        tokio::spawn(async move {
            loop {
                wake.notified().await;
                lanes.iter().for_each(|lane| lane.notify_one());
            }
        });
    }
}

/// One lane: `round` every `every` and at once when the answer is notified, each counted as a
/// round of `which`.
fn lane<F, Fut>(every: Duration, rounds: Rounds, which: Loop, round: F) -> Arc<Notify>
where
    F: Fn() -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send,
{
    let wake = Arc::new(Notify::new());
    let woken = Arc::clone(&wake);
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(every);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = ticker.tick() => {}
                () = woken.notified() => {}
            }
            let _round = rounds.begin(which);
            round().await;
        }
    });
    wake
}
