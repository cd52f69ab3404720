//! A few checkouts at a time per product in this process (`PLACEMENTS_AT_ONCE`). Concurrent
//! checkouts of one product queue on the product's row lock in the database anyway (the
//! conditional decrement), each having read the catalog and holding a pooled connection while
//! it waits; here the rest wait in memory instead, before the catalog read, and the one that
//! goes next asks the stock hint first, so once a sale or a refusal has taught the hint that a
//! product is sold out, the rest of a rush is refused without touching the database. A waiter
//! that lost leaves the line as soon as the product sells out.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_lock::{Semaphore, SemaphoreGuardArc};
use catalog::ProductId;
use event_listener::Event;
use futures::future::{select, Either};

/// How many placements of one product go at once in this process. The database orders their
/// sales on the product's row lock, which a placement takes last (its inserts before it run side
/// by side); more than this would only queue on that lock holding pooled connections.
pub(crate) const PLACEMENTS_AT_ONCE: usize = 4;

/// One product's turns, and the signal that it sold out (which wakes every waiter).
#[derive(Debug)]
struct Gate {
    turns: Arc<Semaphore>,
    sold_out: Event,
}

impl Default for Gate {
    fn default() -> Self {
        Gate {
            turns: Arc::new(Semaphore::new(PLACEMENTS_AT_ONCE)),
            sold_out: Event::new(),
        }
    }
}

/// A gate per product id, made on first use and kept (one small lock per product sold here).
#[derive(Debug, Default)]
pub(crate) struct ProductGates {
    gates: Mutex<HashMap<ProductId, Arc<Gate>>>,
}

/// The gates of one placement, released when dropped.
#[derive(Debug)]
pub(crate) struct Entered(#[allow(dead_code)] Vec<SemaphoreGuardArc>);

impl ProductGates {
    fn gates_of(&self, ids: impl IntoIterator<Item = ProductId>) -> Vec<Arc<Gate>> {
        let mut ids: Vec<ProductId> = ids.into_iter().collect();
        ids.sort_by_key(ProductId::get);
        ids.dedup();
        let mut map = match self.gates.lock() {
            Ok(map) => map,
            Err(poisoned) => poisoned.into_inner(),
        };
        ids.iter()
            .map(|id| Arc::clone(map.entry(*id).or_default()))
            .collect()
    }

    /// Waits for the gates of `ids`, taken in id order so that two carts sharing products
    /// never wait on each other in a circle. Before the catalog is read or any database lock
    /// is taken. A placement that cannot win leaves the queue at once: each time one of its
    /// products is signalled sold out ([`Self::sold_out`]) it asks `lost` again, and gives up
    /// (`None`, no gate held) when that answers true, without waiting for its turn.
    pub(crate) async fn enter(
        &self,
        ids: impl IntoIterator<Item = ProductId>,
        lost: impl Fn() -> bool,
    ) -> Option<Entered> {
        let gates = self.gates_of(ids);
        let mut held = Vec::with_capacity(gates.len());
        for gate in gates {
            let mut turn = Box::pin(gate.turns.acquire_arc());
            loop {
                // listening before asking: a signal between the two is not missed
                let signal = gate.sold_out.listen();
                if lost() {
                    return None;
                }
                match select(turn, signal).await {
                    Either::Left((guard, _)) => {
                        held.push(guard);
                        break;
                    }
                    Either::Right(((), waiting)) => turn = waiting,
                }
            }
        }
        Some(Entered(held))
    }

    /// The products `ids` sold out: every placement waiting for them asks whether it lost.
    pub(crate) fn sold_out(&self, ids: impl IntoIterator<Item = ProductId>) {
        for gate in self.gates_of(ids) {
            gate.sold_out.notify(usize::MAX);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    // One thread: the tasks inside stay until the test opens the door, and the test goes on only
    // after every other runnable task has run (`yield_now` puts it last), so who is inside
    // depends on the gates alone, not on a pause.
    #[tokio::test]
    async fn placements_of_one_product_go_one_at_a_time_and_others_pass() {
        let gates = Arc::new(ProductGates::default());
        let inside = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let (door, _) = tokio::sync::watch::channel(false);
        let tasks: Vec<_> = (0..20)
            .map(|n| {
                let (gates, inside, most) = (gates.clone(), inside.clone(), most.clone());
                let mut opened = door.subscribe();
                tokio::spawn(async move {
                    // every cart holds product 1; half also hold product 2, in either order
                    let ids = match n % 3 {
                        0 => vec![ProductId::new(1)],
                        1 => vec![ProductId::new(2), ProductId::new(1)],
                        _ => vec![ProductId::new(1), ProductId::new(2), ProductId::new(1)],
                    };
                    let _entered = gates.enter(ids, || false).await;
                    let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    opened.wait_for(|open| *open).await.expect("the door");
                    inside.fetch_sub(1, Ordering::SeqCst);
                })
            })
            .collect();
        while inside.load(Ordering::SeqCst) < PLACEMENTS_AT_ONCE {
            tokio::task::yield_now().await;
        }
        // every task that could get in has run since: the rest wait at the gate
        tokio::task::yield_now().await;
        assert_eq!(inside.load(Ordering::SeqCst), PLACEMENTS_AT_ONCE);
        door.send_replace(true);
        for task in tasks {
            tokio::time::timeout(Duration::from_secs(5), task)
                .await
                .expect("no circle of waits")
                .expect("the task ran");
        }
        assert_eq!(most.load(Ordering::SeqCst), PLACEMENTS_AT_ONCE);

        // another product is not held up by product 1
        let _one = gates.enter([ProductId::new(1)], || false).await;
        tokio::time::timeout(
            Duration::from_secs(1),
            gates.enter([ProductId::new(3)], || false),
        )
        .await
        .expect("product 3 has its own gate");
    }

    #[tokio::test]
    async fn waiters_that_lost_leave_when_the_product_sells_out_without_their_turn() {
        use std::sync::atomic::AtomicBool;
        let gates = Arc::new(ProductGates::default());
        let sold_out = Arc::new(AtomicBool::new(false));
        // the placements in progress hold every turn for as long as this test likes
        let mut inside = Vec::new();
        for _ in 0..PLACEMENTS_AT_ONCE {
            inside.push(gates.enter([ProductId::new(1)], || false).await);
        }
        let waiters: Vec<_> = (0..10)
            .map(|_| {
                let (gates, sold_out) = (gates.clone(), sold_out.clone());
                tokio::spawn(async move {
                    gates
                        .enter([ProductId::new(1)], || sold_out.load(Ordering::SeqCst))
                        .await
                        .is_some()
                })
            })
            .collect();
        tokio::task::yield_now().await;
        sold_out.store(true, Ordering::SeqCst);
        gates.sold_out([ProductId::new(1)]);
        for waiter in waiters {
            let entered = tokio::time::timeout(Duration::from_secs(5), waiter)
                .await
                .expect("the waiter left while the gate was still held")
                .expect("the task ran");
            assert!(!entered, "a waiter that lost never enters");
        }
        assert!(inside.iter().all(Option::is_some));
    }
}
