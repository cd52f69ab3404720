//! Server push's transport (`store::push`) on both databases: what an instance publishes
//! reaches its own streams numbered in order (on PostgreSQL through `LISTEN/NOTIFY`, or the
//! event log when the listener connects late), each event once.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::Duration;

use events::{EventBus, NewPushEvent, PushEventRow};
use garden_store::push::{ShopEvents, Transport};
use garden_store::testing::TestDatabase;
use garden_store::{Backend, Store};
use rstest::rstest;
use tokio::sync::broadcast;

async fn heard(receiver: &mut broadcast::Receiver<Arc<PushEventRow>>) -> Arc<PushEventRow> {
    tokio::time::timeout(Duration::from_secs(10), receiver.recv())
        .await
        .expect("an event within 10 s")
        .expect("the bus is open")
}

#[rstest]
#[case::sqlite(Backend::Sqlite, Transport::InProcess)]
#[case::postgres(Backend::Postgres, Transport::Postgres)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn published_events_reach_this_instances_streams_in_number_order_and_once(
    #[case] backend: Backend,
    #[case] transport: Transport,
) {
    let db = TestDatabase::create(backend).await;
    let events = ShopEvents::new(
        Store::new(db.connection.clone(), shared::clock::SystemClock),
        16,
    )
    .await
    .unwrap();
    assert_eq!(events.transport(), transport);
    if transport == Transport::Postgres {
        events.spawn_listener(db.url.clone());
    }
    let mut receiver = events.subscribe();

    events.products_changed("\"v1\"").await;
    events.publish(NewPushEvent::chat_list_changed()).await;
    let first = heard(&mut receiver).await;
    let second = heard(&mut receiver).await;
    assert_eq!(first.event, NewPushEvent::products_changed("\"v1\""));
    assert_eq!(second.event, NewPushEvent::chat_list_changed());
    assert_eq!(second.id, first.id + 1);
    assert_eq!(events.last_id(), second.id);

    // an event heard again (a reconnection reads the log) is not passed on twice
    events.deliver(PushEventRow::clone(&first)).await;
    events.products_changed("\"v2\"").await;
    let third = heard(&mut receiver).await;
    assert_eq!(third.id, second.id + 1);
    assert_eq!(third.event, NewPushEvent::products_changed("\"v2\""));
    let stored = events.store().push_events_after(0, 10).await.unwrap();
    assert_eq!(stored.len(), 3);
}
