//! Discord's limits on both databases: one row every instance shares. A global pause keeps the
//! latest end it was given; invalid answers add up within a ten-minute window and start over
//! after it; the gate they make closes at the budget and opens when the window ends.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::{DateTime, Duration, TimeZone, Utc};
use garden_store::testing::TestDatabase;
use garden_store::{Backend, Store};
use orders::discord_limits::INVALID_WINDOW;
use orders::{DiscordLimitRepository, DiscordLimits, JobGate};
use rstest::rstest;

fn at(seconds: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 28, 12, 0, 0).unwrap() + Duration::seconds(seconds)
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_global_pause_keeps_its_latest_end_for_every_instance(#[case] backend: Backend) {
    let db = TestDatabase::create(backend).await;
    let (one, other) = (
        Store::new(db.connection.clone(), shared::clock::SystemClock),
        Store::new(db.connection.clone(), shared::clock::SystemClock),
    );
    assert_eq!(one.discord_limits().await.unwrap().paused_until, None);
    one.pause_discord(at(30)).await.unwrap();
    other.pause_discord(at(10)).await.unwrap();
    assert_eq!(
        other.discord_limits().await.unwrap().paused_until,
        Some(at(30))
    );
    let gate = DiscordLimits::new(other.clone(), 100);
    assert_eq!(gate.closed_until(at(5)).await.unwrap(), Some(at(30)));
    assert_eq!(gate.closed_until(at(30)).await.unwrap(), None);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn invalid_answers_add_up_in_their_window_and_close_the_gate_at_the_budget(
    #[case] backend: Backend,
) {
    let db = TestDatabase::create(backend).await;
    let store = Store::new(db.connection.clone(), shared::clock::SystemClock);
    let gate = DiscordLimits::new(store.clone(), 3);
    for second in [0, 60, 120] {
        assert_eq!(gate.closed_until(at(second)).await.unwrap(), None);
        store
            .count_invalid_discord_answer(at(second), at(second) - INVALID_WINDOW)
            .await
            .unwrap();
    }
    let state = store.discord_limits().await.unwrap();
    assert_eq!((state.window_start, state.invalid), (Some(at(0)), 3));
    assert_eq!(
        gate.closed_until(at(121)).await.unwrap(),
        Some(at(0) + INVALID_WINDOW),
        "the budget is spent until the window ends"
    );
    // a new window starts over
    let later = at(0) + INVALID_WINDOW;
    assert_eq!(gate.closed_until(later).await.unwrap(), None);
    store
        .count_invalid_discord_answer(later, later - INVALID_WINDOW)
        .await
        .unwrap();
    let state = store.discord_limits().await.unwrap();
    assert_eq!((state.window_start, state.invalid), (Some(later), 1));
}
