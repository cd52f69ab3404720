//! Both session stores against the real thing: the database store on SQLite and PostgreSQL
//! (`TEST_POSTGRES_URL`), the Redis store on `TEST_REDIS_URL` (default
//! `redis://127.0.0.1:6379`). A session holding a user is ended with every other session of
//! that user, and a write to an ended session starts a new one without the user.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;

use accounts::{UserId, UserSessions};
use actix_session::storage::SessionStore;
use actix_web::cookie::time::Duration;
use garden_sessions::{session_user, ShopSessionStore, USER_ID_KEY};
use store::testing::TestDatabase;
use store::{Backend, Store};

fn redis_url() -> String {
    std::env::var("TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".to_owned())
}

fn holding(user: Option<i64>) -> HashMap<String, String> {
    let mut state = HashMap::from([("cart".to_owned(), "\"3 seeds\"".to_owned())]);
    if let Some(user) = user {
        state.insert(USER_ID_KEY.to_owned(), user.to_string());
    }
    state
}

/// A user id no other run of this test uses (Redis outlives the test's database).
fn fresh_user() -> i64 {
    i64::from(uuid::Uuid::new_v4().as_fields().0 >> 1) + 1
}

async fn ending_a_users_sessions_ends_them_all_and_only_theirs(sessions: ShopSessionStore) {
    let ttl = Duration::minutes(10);
    let (user, other) = (fresh_user(), fresh_user());
    let first = sessions.save(holding(Some(user)), &ttl).await.unwrap();
    let second = sessions.save(holding(Some(user)), &ttl).await.unwrap();
    let theirs = sessions.save(holding(Some(other)), &ttl).await.unwrap();
    let guest = sessions.save(holding(None), &ttl).await.unwrap();
    let loaded = sessions.load(&first).await.unwrap().unwrap();
    assert_eq!(loaded, holding(Some(user)));
    assert_eq!(session_user(&loaded), Some(user));

    let ended = sessions.end_all(UserId::new(user)).await.unwrap();
    assert_eq!(ended, 2);
    assert!(sessions.load(&first).await.unwrap().is_none());
    assert!(sessions.load(&second).await.unwrap().is_none());
    assert!(sessions.load(&theirs).await.unwrap().is_some());
    assert!(sessions.load(&guest).await.unwrap().is_some());

    // a request still holding the ended session writes to it: a new session, without the user
    let first_key = first.as_ref().to_owned();
    let renewed = sessions
        .update(first, holding(Some(user)), &ttl)
        .await
        .unwrap();
    assert_ne!(renewed.as_ref(), first_key);
    assert_eq!(
        sessions.load(&renewed).await.unwrap().unwrap(),
        holding(None)
    );

    // a live session is updated in place and deleted for good
    let theirs_key = theirs.as_ref().to_owned();
    let kept = sessions
        .update(theirs, holding(Some(other)), &ttl)
        .await
        .unwrap();
    assert_eq!(kept.as_ref(), theirs_key);
    sessions.update_ttl(&kept, &ttl).await.unwrap();
    sessions.delete(&kept).await.unwrap();
    assert!(sessions.load(&kept).await.unwrap().is_none());
    assert_eq!(sessions.end_all(UserId::new(other)).await.unwrap(), 0);
}

#[tokio::test]
async fn database_sessions_on_sqlite() {
    let db = TestDatabase::create(Backend::Sqlite).await;
    let sessions = ShopSessionStore::connect(
        None,
        Store::new(db.connection.clone(), shared::clock::SystemClock),
        &db.url,
    )
    .await
    .unwrap();
    assert!(sessions
        .ping(std::time::Duration::from_secs(1))
        .await
        .is_none());
    ending_a_users_sessions_ends_them_all_and_only_theirs(sessions).await;
}

#[tokio::test]
async fn database_sessions_on_postgres() {
    let db = TestDatabase::create(Backend::Postgres).await;
    let sessions = ShopSessionStore::connect(
        Some(""),
        Store::new(db.connection.clone(), shared::clock::SystemClock),
        &db.url,
    )
    .await
    .unwrap();
    assert!(matches!(sessions, ShopSessionStore::Database(_)));
    ending_a_users_sessions_ends_them_all_and_only_theirs(sessions).await;
}

#[tokio::test]
async fn redis_sessions() {
    let db = TestDatabase::create(Backend::Sqlite).await;
    let sessions = ShopSessionStore::connect(
        Some(&redis_url()),
        Store::new(db.connection.clone(), shared::clock::SystemClock),
        &db.url,
    )
    .await
    .unwrap();
    let pong = sessions.ping(std::time::Duration::from_secs(2)).await;
    assert!(matches!(pong, Some(Ok(()))), "{pong:?}");
    ending_a_users_sessions_ends_them_all_and_only_theirs(sessions).await;
}

#[tokio::test]
async fn an_unreachable_redis_stops_the_start_naming_the_setting_without_the_password() {
    let db = TestDatabase::create(Backend::Sqlite).await;
    let error = ShopSessionStore::connect(
        Some("redis://:hunter2@127.0.0.1:1"),
        Store::new(db.connection.clone(), shared::clock::SystemClock),
        &db.url,
    )
    .await
    .err()
    .unwrap();
    let message = format!("{error:#}");
    assert!(message.contains("session.redis_url"), "{message}");
    assert!(!message.contains("hunter2"), "{message}");
}
