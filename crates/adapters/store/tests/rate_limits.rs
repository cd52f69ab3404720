//! The shared rate limit counters on both databases: parallel hits each get their own count.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use chrono::{DateTime, Utc};
use garden_store::testing::TestDatabase;
use garden_store::{Backend, Store};
use rstest::rstest;
use shared::{admit, forget, RateLimiter, Refused, Rule};

fn at(secs: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(secs, 0).unwrap()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sixty_parallel_hits_let_exactly_the_limit_through(#[case] backend: Backend) {
    let db = TestDatabase::create(backend).await;
    let store = Store::new(db.connection.clone(), shared::clock::SystemClock);
    let rule = Rule::new(5, Duration::from_secs(900));
    let now = at(1_800_000_000);
    let tries = (0..60).map(|_| {
        let store = store.clone();
        tokio::spawn(async move { admit(&store, "login", "a@b.c", rule, now).await.unwrap() })
    });
    let answers = futures::future::join_all(tries).await;
    let through = answers.iter().filter(|a| matches!(a, Ok(Ok(())))).count();
    assert_eq!(through, 5);
    let refused = answers
        .iter()
        .find_map(|a| match a {
            Ok(Err(Refused { retry_after })) => Some(*retry_after),
            _ => None,
        })
        .unwrap();
    assert_eq!(refused, Duration::from_secs(900));

    // another key, another window and a cleared count all start afresh
    assert!(admit(&store, "login", "other", rule, now)
        .await
        .unwrap()
        .is_ok());
    assert!(admit(&store, "login", "a@b.c", rule, at(1_800_000_900))
        .await
        .unwrap()
        .is_ok());
    forget(&store, "login", "a@b.c", rule, now).await.unwrap();
    assert!(admit(&store, "login", "a@b.c", rule, now)
        .await
        .unwrap()
        .is_ok());

    // a request given back frees its place, never below zero
    let other = Rule::new(1, Duration::from_secs(900));
    assert!(admit(&store, "login", "c", other, now)
        .await
        .unwrap()
        .is_ok());
    shared::give_back(&store, "login", "c", other, now)
        .await
        .unwrap();
    shared::give_back(&store, "login", "c", other, now)
        .await
        .unwrap();
    assert!(admit(&store, "login", "c", other, now)
        .await
        .unwrap()
        .is_ok());
    assert!(admit(&store, "login", "c", other, now)
        .await
        .unwrap()
        .is_err());
    forget(&store, "login", "c", other, now).await.unwrap();

    // old windows are purged
    let purged = store.purge_rate_limits(at(1_800_000_900)).await.unwrap();
    assert_eq!(purged, 2);
    let (start, _) = rule.window_at(at(1_800_000_900));
    assert_eq!(store.hit("login:a@b.c", start).await.unwrap().count, 2);
}
