//! The pending joins to the shop's Discord server on both databases, each test on a fresh one:
//! a new link replaces the token and starts over, one instance at a time holds a join, a failed
//! attempt of an old token leaves the new link alone, and no token outlives its expiry, its
//! join or its account.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use accounts::{AccountEraser, Erased, Erasure, UserId};
use chrono::{DateTime, Duration, TimeZone, Utc};
use garden_store::testing::{seed_order, SeedOrder, TestDatabase};
use garden_store::{Backend, GuildJoinStore, Store, TokenSeal};
use orders::{AccessToken, DiscordId, GuildJoinRepository, PendingGuildJoin};
use rstest::rstest;
use sea_orm::{ConnectionTrait, DatabaseBackend, DatabaseConnection, Statement, Value};

fn at(minute: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 26, 12, 0, 0).unwrap() + Duration::minutes(minute)
}

fn nelly() -> DiscordId {
    DiscordId::parse("80351110224678912").unwrap()
}

fn sql(db: &DatabaseConnection, text: &str, values: Vec<Value>) -> Statement {
    let backend = db.get_database_backend();
    let text = match backend {
        DatabaseBackend::Postgres => {
            let mut n = 0;
            text.chars()
                .map(|c| {
                    if c == '?' {
                        n += 1;
                        format!("${n}")
                    } else {
                        c.to_string()
                    }
                })
                .collect()
        }
        _ => text.to_owned(),
    };
    Statement::from_sql_and_values(backend, text, values)
}

async fn rows(db: &DatabaseConnection) -> i64 {
    db.query_one(sql(db, "SELECT COUNT(*) FROM guild_joins", vec![]))
        .await
        .unwrap()
        .unwrap()
        .try_get_by_index(0)
        .unwrap()
}

async fn fresh(backend: Backend) -> (TestDatabase, GuildJoinStore) {
    let db = TestDatabase::create(backend).await;
    let store = GuildJoinStore::new(
        Store::new(db.connection.clone(), shared::clock::SystemClock),
        TokenSeal::derive(&[42; 64]).unwrap(),
    );
    (db, store)
}

async fn queue(store: &GuildJoinStore, token: &str, expires_at: DateTime<Utc>, now: DateTime<Utc>) {
    store
        .queue(nelly(), AccessToken::new(token), expires_at, now)
        .await
        .unwrap();
}

async fn only_due(store: &GuildJoinStore, now: DateTime<Utc>) -> PendingGuildJoin {
    let due = store.due(now, 10).await.unwrap();
    assert_eq!(due.len(), 1, "{due:?}");
    due.into_iter().next().unwrap()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_new_link_replaces_the_token_and_starts_over(#[case] backend: Backend) {
    let (db, store) = fresh(backend).await;
    queue(&store, "first", at(7 * 24 * 60), at(0)).await;
    let join = only_due(&store, at(0)).await;
    assert_eq!(join.discord_id, nelly());
    assert_eq!(join.token.expose(), "first");
    assert_eq!(join.expires_at, at(7 * 24 * 60));
    assert_eq!(join.attempts, 0);
    assert!(store.lease(join.id, at(0), at(2)).await.unwrap());
    store
        .failed(&join, 1, Some(at(30)), "503".into())
        .await
        .unwrap();
    assert!(store.due(at(1), 10).await.unwrap().is_empty(), "waits");

    queue(&store, "second", at(5 + 7 * 24 * 60), at(5)).await;

    assert_eq!(rows(&db.connection).await, 1);
    let join = only_due(&store, at(5)).await;
    assert_eq!(join.token.expose(), "second");
    assert_eq!(join.attempts, 0, "attempts reset");
    assert_eq!(join.expires_at, at(5 + 7 * 24 * 60));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn one_instance_at_a_time_holds_a_join(#[case] backend: Backend) {
    let (db, store) = fresh(backend).await;
    queue(&store, "t", at(600), at(0)).await;
    let join = only_due(&store, at(0)).await;

    assert!(store.lease(join.id, at(0), at(2)).await.unwrap());
    assert!(!store.lease(join.id, at(0), at(2)).await.unwrap(), "held");
    assert!(store.due(at(1), 10).await.unwrap().is_empty(), "held");
    // an instance that died holding it lets go when its lease ends
    let join = only_due(&store, at(2)).await;
    assert!(store.lease(join.id, at(2), at(4)).await.unwrap());

    store.done(join.id).await.unwrap();
    assert_eq!(
        rows(&db.connection).await,
        0,
        "the token is gone with the join"
    );
    assert!(!store.lease(join.id, at(5), at(7)).await.unwrap(), "gone");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_retry_waits_and_giving_up_deletes_the_token(#[case] backend: Backend) {
    let (db, store) = fresh(backend).await;
    queue(&store, "t", at(600), at(0)).await;
    let join = only_due(&store, at(0)).await;
    assert!(store.lease(join.id, at(0), at(2)).await.unwrap());
    store
        .failed(&join, 1, Some(at(10)), "Discord answered 500".into())
        .await
        .unwrap();
    assert!(store.due(at(9), 10).await.unwrap().is_empty());
    let join = only_due(&store, at(10)).await;
    assert_eq!(join.attempts, 1);
    assert!(store.lease(join.id, at(10), at(12)).await.unwrap());

    store
        .failed(&join, 2, None, "Discord answered 403".into())
        .await
        .unwrap();

    assert_eq!(rows(&db.connection).await, 0);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_failure_of_an_old_token_leaves_a_new_link_alone(#[case] backend: Backend) {
    let (db, store) = fresh(backend).await;
    queue(&store, "old", at(600), at(0)).await;
    let old = only_due(&store, at(0)).await;
    assert!(store.lease(old.id, at(0), at(2)).await.unwrap());
    queue(&store, "new", at(601), at(1)).await;

    store.failed(&old, 1, None, "401".into()).await.unwrap();

    assert_eq!(rows(&db.connection).await, 1);
    let new = only_due(&store, at(1)).await;
    assert_eq!(new.token.expose(), "new");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn expired_joins_are_never_due_and_are_swept(#[case] backend: Backend) {
    let (db, store) = fresh(backend).await;
    queue(&store, "t", at(60), at(0)).await;
    store
        .queue(
            DiscordId::parse("100000000000000002").unwrap(),
            AccessToken::new("later"),
            at(120),
            at(0),
        )
        .await
        .unwrap();

    assert_eq!(store.due(at(60), 10).await.unwrap().len(), 1, "one expired");
    assert_eq!(store.sweep_expired(at(60)).await.unwrap(), 1);
    assert_eq!(rows(&db.connection).await, 1);
    assert_eq!(store.sweep_expired(at(60)).await.unwrap(), 0);
    assert_eq!(store.sweep_expired(at(120)).await.unwrap(), 1);
    assert_eq!(rows(&db.connection).await, 0);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn erasing_an_account_deletes_the_pending_join_of_its_discord(#[case] backend: Backend) {
    let (db, store) = fresh(backend).await;
    let conn = &db.connection;
    conn.execute(sql(
        conn,
        "INSERT INTO users (name, email, password_hash, role, created_at, updated_at) \
         VALUES ('kid', 'kid@example.com', 'x', 'customer', ?, ?)",
        vec![at(0).into(), at(0).into()],
    ))
    .await
    .unwrap();
    let user: i64 = conn
        .query_one(sql(conn, "SELECT id FROM users", vec![]))
        .await
        .unwrap()
        .unwrap()
        .try_get_by_index(0)
        .unwrap();
    let mut order = SeedOrder::paid(1, "Seed", 1, at(0));
    order.status = "delivered";
    let order = seed_order(conn, &order).await;
    conn.execute(sql(
        conn,
        "UPDATE orders SET user_id = ? WHERE id = ?",
        vec![user.into(), order.into()],
    ))
    .await
    .unwrap();
    // the seeded order's Discord account, and someone else's
    queue(&store, "t", at(600), at(0)).await;
    store
        .queue(
            DiscordId::parse("100000000000000002").unwrap(),
            AccessToken::new("other"),
            at(600),
            at(0),
        )
        .await
        .unwrap();

    let erased = Store::new(db.connection.clone(), shared::clock::SystemClock)
        .erase(Erasure::of(
            UserId::new(user),
            &accounts::Email::parse("kid@example.com").unwrap(),
            at(1),
            chrono::TimeDelta::days(120),
        ))
        .await
        .unwrap();

    assert!(matches!(erased, Erased::Done), "{erased:?}");
    let left = store.due(at(1), 10).await.unwrap();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].token.expose(), "other");
}

/// The tokens at rest: the column holds a seal, not the token; the join due opens it; a row
/// whose token does not open (plain, as written before the seal, or under another session key)
/// is never handed out and is deleted.
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn tokens_are_sealed_at_rest_and_unreadable_rows_are_dropped(#[case] backend: Backend) {
    let (db, store) = fresh(backend).await;
    let conn = &db.connection;
    queue(&store, "user-access-token", at(600), at(0)).await;
    let stored: String = conn
        .query_one(sql(conn, "SELECT access_token FROM guild_joins", vec![]))
        .await
        .unwrap()
        .unwrap()
        .try_get_by_index(0)
        .unwrap();
    assert!(!stored.contains("user-access-token"), "{stored}");
    assert!(stored.starts_with("v1:"), "{stored}");
    let join = only_due(&store, at(0)).await;
    assert_eq!(join.token.expose(), "user-access-token");

    // the same rows under another key (a new session key): nothing to hand out, row dropped
    let rekeyed = GuildJoinStore::new(
        Store::new(conn.clone(), shared::clock::SystemClock),
        TokenSeal::derive(&[43; 64]).unwrap(),
    );
    assert!(rekeyed.due(at(0), 10).await.unwrap().is_empty());
    assert_eq!(rows(conn).await, 0);

    // a plain row, as an older shop wrote it
    conn.execute(sql(
        conn,
        "INSERT INTO guild_joins (discord_id, access_token, expires_at, attempts, \
         next_attempt_at, created_at) VALUES (?, 'plain-token', ?, 0, ?, ?)",
        vec![
            nelly().as_str().into(),
            at(600).into(),
            at(0).into(),
            at(0).into(),
        ],
    ))
    .await
    .unwrap();
    assert!(store.due(at(0), 10).await.unwrap().is_empty());
    assert_eq!(rows(conn).await, 0);
}
