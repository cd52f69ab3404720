//! Proof that the instance's background work happened: each loop counts its finished rounds
//! (read by `/metrics` as `shop_loop_rounds_total`, so an operator sees a loop that stopped),
//! and work detached from a request (the password reset's mail, sent after the answer) is
//! tracked until it ends (shutdown waits for it). Tests wait on these instead of the clock:
//! "a whole round of the purge ran after the clock moved" is an event, a sleep is a guess.

use std::sync::Arc;

use tokio::sync::watch;
use tokio_util::task::TaskTracker;

/// The instance's background loops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loop {
    /// Expires stale unpaid orders and forgets old rate-limit windows.
    Sweep,
    /// Dispatches the orders' recorded steps and sends the buyer's mail (the outbox's first
    /// lane).
    Outbox,
    /// Sends the staff channel's due jobs (its own lane of the outbox).
    StaffChannel,
    /// Sends the Discord tickets' due jobs (its own lane of the outbox).
    Tickets,
    /// Adds linked buyers to the shop's Discord server (its own lane of the outbox).
    GuildJoins,
    /// Reloads the product snapshot (other instances' writes).
    CatalogRefresh,
    /// Reloads the chat versions (other instances' writes).
    ChatVersions,
    /// Deletes expired help chats.
    ChatPurge,
    /// Deletes old entries of the event log.
    EventPurge,
    /// Stages disputes' evidence and submits it before the deadline.
    Disputes,
    /// Fetches the day's exchange rates (one instance) and reads the stored ones.
    ExchangeRates,
}

impl Loop {
    /// Every loop, in the order of [`Loop::index`].
    pub const ALL: [Loop; 11] = [
        Loop::Sweep,
        Loop::Outbox,
        Loop::StaffChannel,
        Loop::Tickets,
        Loop::GuildJoins,
        Loop::CatalogRefresh,
        Loop::ChatVersions,
        Loop::ChatPurge,
        Loop::EventPurge,
        Loop::Disputes,
        Loop::ExchangeRates,
    ];

    /// The metric label.
    pub fn as_str(self) -> &'static str {
        match self {
            Loop::Sweep => "sweep",
            Loop::Outbox => "outbox",
            Loop::StaffChannel => "staff_channel",
            Loop::Tickets => "tickets",
            Loop::GuildJoins => "guild_joins",
            Loop::CatalogRefresh => "catalog_refresh",
            Loop::ChatVersions => "chat_versions",
            Loop::ChatPurge => "chat_purge",
            Loop::EventPurge => "event_purge",
            Loop::Disputes => "disputes",
            Loop::ExchangeRates => "exchange_rates",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The rounds of each loop (started, finished), and the detached tasks in flight. Cheap to
/// clone.
#[derive(Clone)]
pub struct Rounds {
    counts: Arc<[watch::Sender<(u64, u64)>; Loop::ALL.len()]>,
    detached: TaskTracker,
}

impl Default for Rounds {
    fn default() -> Self {
        Rounds {
            counts: Arc::new(std::array::from_fn(|_| watch::Sender::new((0, 0)))),
            detached: TaskTracker::new(),
        }
    }
}

/// A round in progress; it counts as finished when dropped (whether or not its work
/// succeeded).
#[must_use = "the round finishes when this is dropped"]
pub struct Round<'a> {
    counts: &'a watch::Sender<(u64, u64)>,
}

impl Drop for Round<'_> {
    fn drop(&mut self) {
        self.counts.send_modify(|(_, finished)| *finished += 1);
    }
}

impl Rounds {
    /// Records that `which` starts a round, finished when the answer is dropped.
    pub fn begin(&self, which: Loop) -> Round<'_> {
        let counts = &self.counts[which.index()];
        counts.send_modify(|(started, _)| *started += 1);
        Round { counts }
    }

    /// How many rounds `which` has started.
    pub fn started(&self, which: Loop) -> u64 {
        self.counts[which.index()].borrow().0
    }

    /// How many rounds `which` has finished.
    pub fn count(&self, which: Loop) -> u64 {
        self.counts[which.index()].borrow().1
    }

    /// Waits until `which` has finished `rounds` rounds in all.
    pub async fn finished(&self, which: Loop, rounds: u64) {
        let mut seen = self.counts[which.index()].subscribe();
        // the sender lives as long as `self`, so waiting cannot fail
        let _ = seen.wait_for(|(_, finished)| *finished >= rounds).await;
    }

    /// Waits until `which` has run a whole round that started after this call.
    pub async fn whole_round(&self, which: Loop) {
        let (started, _) = *self.counts[which.index()].borrow();
        self.finished(which, started + 1).await;
    }

    /// Waits until `which` is between rounds.
    pub async fn between_rounds(&self, which: Loop) {
        let mut seen = self.counts[which.index()].subscribe();
        let _ = seen
            .wait_for(|(started, finished)| started == finished)
            .await;
    }

    /// Runs `work` after the answer, tracked until it ends.
    pub fn detach<F>(&self, work: F)
    where
        F: std::future::Future<Output = ()> + 'static,
    {
        actix_web::rt::spawn(self.detached.track_future(work));
    }

    /// Waits until no detached work is in flight.
    pub async fn detached_idle(&self) {
        self.detached.close();
        self.detached.wait().await;
        self.detached.reopen();
    }
}
