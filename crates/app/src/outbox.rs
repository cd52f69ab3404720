//! The outbox's side in this instance: the dispatcher turns the recorded steps of orders
//! (`order_events`, written with each change) into the buyer's mail and the channels' jobs, and
//! each channel's worker sends its due jobs (`orders::lifecycle`). One loop runs it all after
//! every `mail.queue_poll_ms`, and at once when this instance hears an order change (its own
//! or, on PostgreSQL, another instance's), so a claim reaches the buyer's mail and the ticket
//! without waiting for the next round. Several instances running it at once is harmless:
//! dispatching is idempotent and every job is leased before it is sent. The same loop adds
//! linked buyers to the shop's Discord server (`crate::guild_join`), woken by the link.

use std::sync::Arc;
use std::time::Duration;

use discord::{DiscordTickets, StaffNotifier};
use orders::tickets::{Tickets, TICKET_CHANNEL};
use orders::{Dispatcher, OutboxWorker, StaffAlerts, STAFF_CHANNEL};
use store::Store;
use tokio::sync::Notify;

use crate::auth::AppClock;
use crate::guild_join::ShopGuildJoins;
use crate::services::TrackingService;

/// The Discord ticket of each paid order.
pub type ShopTickets = Tickets<Store, DiscordTickets>;
type StaffWorker = OutboxWorker<Store, StaffAlerts<Store, StaffNotifier>, AppClock>;
type TicketWorker = OutboxWorker<Store, ShopTickets, AppClock>;

/// The tickets, when Discord's ticket settings are there (`None`: the order page is the ticket).
#[derive(Clone)]
pub struct TicketService(pub Option<ShopTickets>);

/// Everything the outbox loop runs.
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
        let mut channels = Vec::new();
        let staff = notifier.is_enabled().then(|| {
            channels.push(STAFF_CHANNEL);
            let orders_url = format!(
                "{}/admin/orders",
                settings.site.public_url.trim_end_matches('/')
            );
            OutboxWorker::new(
                store.clone(),
                StaffAlerts::new(store.clone(), notifier, orders_url),
                clock.clone(),
                STAFF_CHANNEL.name,
                retry,
            )
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

    /// Wakes the loop now (an order changed).
    pub fn waker(&self) -> Arc<Notify> {
        Arc::clone(&self.wake)
    }

    /// One round: dispatch what was recorded, then send what is due. A failure is logged; the
    /// next round tries again.
    pub async fn run_once(&self) {
        if let Err(error) = self.dispatcher.dispatch_pending().await {
            tracing::warn!(error = ?error, "could not dispatch the orders' steps");
        }
        if let Err(error) = self.tracking.send_due_mail().await {
            tracing::warn!(error = ?error, "could not send the buyer's mail");
        }
        if let Some(staff) = &self.staff {
            if let Err(error) = staff.run_due().await {
                tracing::warn!(error = ?error, "could not send the staff channel's jobs");
            }
        }
        if let Some(tickets) = &self.tickets {
            if let Err(error) = tickets.run_due().await {
                tracing::warn!(error = ?error, "could not send the tickets' jobs");
            }
        }
        if let Some(joins) = &self.guild_joins {
            if let Err(error) = joins.run_due().await {
                tracing::warn!(error = ?error, "could not add the buyers to the shop's server");
            }
        }
    }

    /// Runs a round every `every`, and at once when woken.
    pub fn spawn(self, every: Duration, rounds: crate::rounds::Rounds) {
        tokio::spawn(async move {
            let mut ticker = tokio::time::interval(every);
            ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = ticker.tick() => {}
                    () = self.wake.notified() => {}
                }
                let _round = rounds.begin(crate::rounds::Loop::Outbox);
                self.run_once().await;
            }
        });
    }
}
