//! The browser's event stream: what it has missed since its `Last-Event-ID` (or a "resync"
//! when that is too old), then every event its viewer may see as the instance passes it on,
//! with a heartbeat comment in between; and how many streams one address or account may hold.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ::events::{PushEventRow, Viewer};
use actix_web::web::Bytes;
use futures::Stream;
use store::push::ShopEvents;
use tokio::sync::broadcast::{self, error::RecvError};

/// Why a stream was not opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum StreamRefused {
    #[error("too many open event streams from this address")]
    PerAddress,
    #[error("too many open event streams for this account")]
    PerAccount,
    #[error("too many open event streams")]
    Total,
}

/// The open streams of this instance, per client address and per account.
#[derive(Debug)]
pub struct StreamLimits {
    per_address: usize,
    per_account: usize,
    total: usize,
    open: Mutex<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    total: usize,
    by_key: HashMap<String, usize>,
}

impl Counts {
    fn release(&mut self, keys: &[String]) {
        self.total = self.total.saturating_sub(1);
        for key in keys {
            if let Some(count) = self.by_key.get_mut(key) {
                *count -= 1;
                if *count == 0 {
                    self.by_key.remove(key);
                }
            }
        }
    }
}

/// Holds one stream's place; dropping it (the browser went away) frees it.
#[derive(Debug)]
pub struct StreamGuard {
    limits: Arc<StreamLimits>,
    keys: Vec<String>,
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        self.limits.lock().release(&self.keys);
    }
}

impl StreamLimits {
    pub fn new(per_address: usize, per_account: usize, total: usize) -> Self {
        StreamLimits {
            per_address,
            per_account,
            total,
            open: Mutex::new(Counts::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Counts> {
        match self.open.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Takes a place for a stream from `address` (a client address key) and `account` (when
    /// logged in), or says which limit it would pass.
    pub fn admit(
        self: &Arc<Self>,
        address: &str,
        account: Option<i64>,
    ) -> Result<StreamGuard, StreamRefused> {
        let mut counts = self.lock();
        if counts.total >= self.total {
            return Err(StreamRefused::Total);
        }
        let address_key = format!("ip:{address}");
        if counts.by_key.get(&address_key).copied().unwrap_or(0) >= self.per_address {
            return Err(StreamRefused::PerAddress);
        }
        let mut keys = vec![address_key];
        if let Some(account) = account {
            let account_key = format!("user:{account}");
            if counts.by_key.get(&account_key).copied().unwrap_or(0) >= self.per_account {
                return Err(StreamRefused::PerAccount);
            }
            keys.push(account_key);
        }
        counts.total += 1;
        for key in &keys {
            *counts.by_key.entry(key.clone()).or_insert(0) += 1;
        }
        Ok(StreamGuard {
            limits: Arc::clone(self),
            keys,
        })
    }

    /// How many streams are open on this instance.
    pub fn open(&self) -> usize {
        self.lock().total
    }
}

/// How a stream starts.
#[derive(Debug, Clone, Copy)]
pub struct StreamOptions {
    pub heartbeat: Duration,
    /// The browser's reconnection delay (`retry:`).
    pub retry: Duration,
    /// At most this many missed events are replayed; more means "resync".
    pub replay_max: u64,
}

/// Checks, at every heartbeat, that the stream may go on: the session it was opened with still
/// exists (a logout, a password reset or an expiry ends it), and a staff stream's account is
/// still staff (a role taken away ends it, as it would refuse the next call).
pub type StillValid = Arc<
    dyn Fn() -> std::pin::Pin<Box<dyn std::future::Future<Output = bool> + Send>> + Send + Sync,
>;

fn frame(event: &PushEventRow) -> Bytes {
    Bytes::from(format!(
        "id: {}\nevent: {}\ndata: {}\n\n",
        event.id, event.event.topic, event.event.data
    ))
}

fn resync(id: i64) -> Bytes {
    Bytes::from(format!("id: {id}\nevent: resync\ndata: {{}}\n\n"))
}

/// Opens the stream: `last_event_id` is where the browser stopped (`None`: a fresh start).
pub async fn open(
    events: &ShopEvents,
    viewer: Viewer,
    last_event_id: Option<i64>,
    options: StreamOptions,
    guard: StreamGuard,
    still_valid: Option<StillValid>,
) -> anyhow::Result<impl Stream<Item = Result<Bytes, actix_web::Error>>> {
    // subscribe before reading what was missed: nothing falls between the two
    let receiver = events.subscribe();
    let mut backlog = VecDeque::new();
    let retry = format!("retry: {}\n", options.retry.as_millis());
    let last_sent = match last_event_id {
        None => {
            let id = events.last_id();
            backlog.push_back(Bytes::from(format!(
                "{retry}id: {id}\nevent: ready\ndata: {{\"resumed\":false}}\n\n"
            )));
            id
        }
        Some(last) => {
            backlog.push_back(Bytes::from(format!(
                "{retry}event: ready\ndata: {{\"resumed\":true}}\n\n"
            )));
            let bounds = events.store().push_event_bounds().await?;
            let newest = bounds.newest.unwrap_or(0).max(events.last_id());
            let purged = bounds.oldest.is_some_and(|oldest| last + 1 < oldest);
            if last > newest || purged {
                backlog.push_back(resync(newest));
                newest
            } else {
                let missed = events
                    .store()
                    .push_events_after(last, options.replay_max + 1)
                    .await?;
                if missed.len() as u64 > options.replay_max {
                    backlog.push_back(resync(newest));
                    newest
                } else {
                    let mut sent = last;
                    for event in &missed {
                        if viewer.may_see(&event.event) {
                            backlog.push_back(frame(event));
                        }
                        sent = event.id;
                    }
                    sent
                }
            }
        }
    };
    let mut heartbeat = tokio::time::interval_at(
        tokio::time::Instant::now() + options.heartbeat,
        options.heartbeat,
    );
    heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let state = State {
        receiver,
        backlog,
        last_sent,
        heartbeat,
        viewer,
        still_valid,
        closing: events.closing(),
        events: events.clone(),
        _guard: guard,
        ended: false,
    };
    Ok(futures::stream::unfold(state, next))
}

struct State {
    receiver: broadcast::Receiver<Arc<PushEventRow>>,
    backlog: VecDeque<Bytes>,
    /// Every event up to this number has been sent or was not for this viewer.
    last_sent: i64,
    heartbeat: tokio::time::Interval,
    viewer: Viewer,
    still_valid: Option<StillValid>,
    /// The instance is shutting down: the stream ends.
    closing: tokio::sync::watch::Receiver<bool>,
    events: ShopEvents,
    _guard: StreamGuard,
    ended: bool,
}

async fn next(mut state: State) -> Option<(Result<Bytes, actix_web::Error>, State)> {
    if state.ended || *state.closing.borrow() {
        return None;
    }
    loop {
        if let Some(bytes) = state.backlog.pop_front() {
            return Some((Ok(bytes), state));
        }
        tokio::select! {
            // it only ever turns true (or its sender is gone with the instance)
            _ = state.closing.changed() => return None,
            heard = state.receiver.recv() => match heard {
                Ok(event) => {
                    if event.id <= state.last_sent {
                        continue;
                    }
                    state.last_sent = event.id;
                    if state.viewer.may_see(&event.event) {
                        return Some((Ok(frame(&event)), state));
                    }
                }
                Err(RecvError::Lagged(_)) => {
                    // this stream fell too far behind: the browser refetches everything
                    let id = state.events.last_id();
                    state.last_sent = id;
                    return Some((Ok(resync(id)), state));
                }
                Err(RecvError::Closed) => return None,
            },
            _ = state.heartbeat.tick() => {
                if let Some(still_valid) = &state.still_valid {
                    if !still_valid().await {
                        state.ended = true;
                        return Some((Ok(Bytes::from_static(b"event: ended\ndata: {}\n\n")), state));
                    }
                }
                // the id moves the browser's resume point past events that were not for it
                let beat = format!("id: {}\n: ping\n\n", state.last_sent);
                return Some((Ok(Bytes::from(beat)), state));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn streams_are_limited_per_address_per_account_and_in_total_and_freed_when_dropped() {
        let limits = Arc::new(StreamLimits::new(2, 1, 3));
        let a = limits.admit("10.0.0.1", None).unwrap();
        let _b = limits.admit("10.0.0.1", Some(5)).unwrap();
        assert_eq!(
            limits.admit("10.0.0.1", None).unwrap_err(),
            StreamRefused::PerAddress
        );
        assert_eq!(
            limits.admit("10.0.0.2", Some(5)).unwrap_err(),
            StreamRefused::PerAccount
        );
        let _c = limits.admit("10.0.0.2", None).unwrap();
        assert_eq!(
            limits.admit("10.0.0.3", None).unwrap_err(),
            StreamRefused::Total
        );
        drop(a);
        assert_eq!(limits.open(), 2);
        let _d = limits.admit("10.0.0.1", None).unwrap();
    }
}
