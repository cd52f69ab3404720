//! One checkout at a time per product in this process. Concurrent checkouts of one product
//! queue on the product's row lock in the database anyway (the conditional decrement), each
//! having read the catalog and holding a pooled connection while it waits; here they wait in
//! memory instead, before the catalog read, and the one that goes next asks the stock hint
//! first, so once a sale or a refusal has taught the hint that a product is sold out, the rest
//! of a rush is refused without touching the database.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use catalog::ProductId;
use futures::lock::{Mutex as AsyncMutex, OwnedMutexGuard};

/// A lock per product id, made on first use and kept (one small lock per product sold here).
#[derive(Debug, Default)]
pub(crate) struct ProductGates {
    gates: Mutex<HashMap<ProductId, Arc<AsyncMutex<()>>>>,
}

/// The gates of one placement, released when dropped.
#[derive(Debug)]
pub(crate) struct Entered(#[allow(dead_code)] Vec<OwnedMutexGuard<()>>);

impl ProductGates {
    /// Waits for the gates of `ids`, taken in id order so that two carts sharing products
    /// never wait on each other in a circle. Before the catalog is read or any database lock
    /// is taken.
    pub(crate) async fn enter(&self, ids: impl IntoIterator<Item = ProductId>) -> Entered {
        let mut ids: Vec<ProductId> = ids.into_iter().collect();
        ids.sort_by_key(ProductId::get);
        ids.dedup();
        let gates: Vec<Arc<AsyncMutex<()>>> = {
            let mut map = match self.gates.lock() {
                Ok(map) => map,
                Err(poisoned) => poisoned.into_inner(),
            };
            ids.iter()
                .map(|id| Arc::clone(map.entry(*id).or_default()))
                .collect()
        };
        let mut held = Vec::with_capacity(gates.len());
        for gate in gates {
            held.push(gate.lock_owned().await);
        }
        Entered(held)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn placements_of_one_product_go_one_at_a_time_and_others_pass() {
        let gates = Arc::new(ProductGates::default());
        let inside = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let tasks: Vec<_> = (0..20)
            .map(|n| {
                let (gates, inside, most) = (gates.clone(), inside.clone(), most.clone());
                tokio::spawn(async move {
                    // every cart holds product 1; half also hold product 2, in either order
                    let ids = match n % 3 {
                        0 => vec![ProductId::new(1)],
                        1 => vec![ProductId::new(2), ProductId::new(1)],
                        _ => vec![ProductId::new(1), ProductId::new(2), ProductId::new(1)],
                    };
                    let _entered = gates.enter(ids).await;
                    let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(2)).await;
                    inside.fetch_sub(1, Ordering::SeqCst);
                })
            })
            .collect();
        for task in tasks {
            tokio::time::timeout(Duration::from_secs(5), task)
                .await
                .expect("no circle of waits")
                .expect("the task ran");
        }
        assert_eq!(most.load(Ordering::SeqCst), 1);

        // another product is not held up by product 1
        let _one = gates.enter([ProductId::new(1)]).await;
        tokio::time::timeout(Duration::from_secs(1), gates.enter([ProductId::new(3)]))
            .await
            .expect("product 3 has its own gate");
    }
}
