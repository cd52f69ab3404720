//! The Discord ticket's facts and the outbox (order events, their mail and channel jobs) on
//! both databases, each test on a fresh one. Events are written by SQL, as the order's own
//! writes do.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::{DateTime, Duration, TimeZone, Utc};
use delivery::TrackingRepository;
use garden_store::testing::{seed_order, SeedOrder, TestDatabase};
use garden_store::{Backend, Store};
use orders::tickets::{TicketItem, TicketRepository, TicketStaff};
use orders::{
    DiscordId, Dispatch, MailKind, OrderError, OrderEvent, OrderId, OrderStep, OutboxRepository,
};
use rstest::rstest;
use sea_orm::{ConnectionTrait, DatabaseBackend, DatabaseConnection, Statement, Value};

fn at(minute: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 26, 12, minute, 0).unwrap()
}

/// A statement with `?` placeholders, numbered for PostgreSQL.
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

async fn exec(db: &DatabaseConnection, text: &str, values: Vec<Value>) {
    db.execute(sql(db, text, values)).await.unwrap();
}

async fn count(db: &DatabaseConnection, text: &str, values: Vec<Value>) -> i64 {
    db.query_one(sql(db, text, values))
        .await
        .unwrap()
        .unwrap()
        .try_get_by_index(0)
        .unwrap()
}

async fn fresh(backend: Backend) -> (TestDatabase, Store) {
    let db = TestDatabase::create(backend).await;
    let store = Store::new(db.connection.clone(), shared::clock::SystemClock);
    (db, store)
}

async fn staff(db: &DatabaseConnection, name: &str, link: Option<&str>) -> i64 {
    exec(
        db,
        "INSERT INTO users (name, email, password_hash, role, created_at, updated_at, \
         private_server_url) VALUES (?, ?, 'x', 'admin', ?, ?, ?)",
        vec![
            name.into(),
            format!("{}@shop.test", name.to_lowercase()).into(),
            at(0).into(),
            at(0).into(),
            link.map(str::to_owned).into(),
        ],
    )
    .await;
    count(db, "SELECT id FROM users WHERE name = ?", vec![name.into()]).await
}

async fn order(db: &DatabaseConnection, claimed_by: Option<i64>) -> OrderId {
    let mut seed = SeedOrder::paid(1, "Golden *Can*", 2, at(1));
    seed.lines.push((2, "Seed Pack".into(), 1, 500));
    seed.roblox_username = "Builder_man".into();
    seed.claimed_by = claimed_by;
    OrderId::new(seed_order(db, &seed).await)
}

async fn event(db: &DatabaseConnection, order: OrderId, step: OrderStep, staff: Option<i64>) {
    exec(
        db,
        "INSERT INTO order_events (order_id, step, staff_id, at) VALUES (?, ?, ?, ?)",
        vec![
            order.get().into(),
            step.as_str().into(),
            staff.into(),
            at(2).into(),
        ],
    )
    .await;
}

fn thread(text: &str) -> DiscordId {
    DiscordId::parse(text).unwrap()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_ticket_reads_the_order_its_lines_its_proof_and_its_staff(#[case] backend: Backend) {
    let (db, store) = fresh(backend).await;
    let db = &db.connection;
    let ann = staff(db, "Ann", Some("https://www.roblox.com/share?code=abc")).await;
    let id = order(db, Some(ann)).await;
    exec(
        db,
        "INSERT INTO proofs (items, created_at) VALUES ('cans', ?)",
        vec![at(3).into()],
    )
    .await;
    let proof = count(db, "SELECT MAX(id) FROM proofs", vec![]).await;
    exec(
        db,
        "INSERT INTO proof_images (proof_id, position, path) VALUES (?, 1, '/media/proofs/b.png'), \
         (?, 0, '/media/proofs/a.png')",
        vec![proof.into(), proof.into()],
    )
    .await;
    exec(
        db,
        "UPDATE orders SET proof_id = ? WHERE id = ?",
        vec![proof.into(), id.get().into()],
    )
    .await;

    let ticket = store.ticket_order(id).await.unwrap();

    assert_eq!(ticket.id, id);
    assert_eq!(ticket.buyer, Some(thread("80351110224678912")));
    assert_eq!(ticket.discord_username, "kid");
    assert_eq!(ticket.roblox_username, "Builder_man");
    assert_eq!(
        ticket.items,
        vec![
            TicketItem {
                name: "Golden *Can*".into(),
                quantity: 2
            },
            TicketItem {
                name: "Seed Pack".into(),
                quantity: 1
            },
        ]
    );
    assert_eq!(ticket.claimed_by, Some(shared::UserId::new(ann)));
    assert_eq!(ticket.proof_picture.as_deref(), Some("/media/proofs/a.png"));
    assert_eq!(ticket.thread, None);
    assert_eq!(ticket.problem, None);
    assert_eq!(
        store.ticket_staff(shared::UserId::new(ann)).await.unwrap(),
        Some(TicketStaff {
            name: "Ann".into(),
            private_server_url: Some("https://www.roblox.com/share?code=abc".into()),
        })
    );
    assert_eq!(
        store
            .ticket_staff(shared::UserId::new(ann + 100))
            .await
            .unwrap(),
        None
    );
    assert!(matches!(
        store.ticket_order(OrderId::new(id.get() + 100)).await,
        Err(OrderError::NotFound(_))
    ));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_first_thread_stored_stays_and_the_problem_is_set_and_cleared(
    #[case] backend: Backend,
) {
    let (db, store) = fresh(backend).await;
    let id = order(&db.connection, None).await;

    assert!(store
        .store_thread(id, &thread("1100000000000000001"))
        .await
        .unwrap());
    assert!(!store
        .store_thread(id, &thread("1200000000000000002"))
        .await
        .unwrap());
    store
        .set_ticket_problem(
            id,
            Some("Buyer not added to the ticket: they are not in the Discord server.".into()),
        )
        .await
        .unwrap();

    let ticket = store.ticket_order(id).await.unwrap();
    assert_eq!(ticket.thread, Some(thread("1100000000000000001")));
    assert_eq!(
        ticket.problem.as_deref(),
        Some("Buyer not added to the ticket: they are not in the Discord server.")
    );

    store.set_ticket_problem(id, None).await.unwrap();
    assert_eq!(store.ticket_order(id).await.unwrap().problem, None);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn dispatching_an_event_twice_queues_its_mail_and_jobs_once(#[case] backend: Backend) {
    let (db, store) = fresh(backend).await;
    let db = &db.connection;
    let ann = staff(db, "Ann", None).await;
    let id = order(db, None).await;
    event(db, id, OrderStep::Paid, None).await;
    event(db, id, OrderStep::Claimed, Some(ann)).await;

    let events = store.undispatched(10).await.unwrap();
    assert_eq!(
        events.iter().map(|e| e.step).collect::<Vec<_>>(),
        vec![OrderStep::Paid, OrderStep::Claimed]
    );
    assert_eq!(events[1].staff_id, Some(shared::UserId::new(ann)));
    assert_eq!(events[1].order_id, id);
    assert_eq!(events[1].at, at(2));
    assert_eq!(store.undispatched(1).await.unwrap().len(), 1);

    let paid = Dispatch {
        mail: Some((MailKind::Receipt, 0)),
        channels: vec!["ticket"],
    };
    let claimed = Dispatch {
        mail: Some((MailKind::Claimed, events[1].id)),
        channels: vec!["ticket"],
    };
    for _ in 0..2 {
        store
            .dispatch(&events[0], paid.clone(), at(3))
            .await
            .unwrap();
        store
            .dispatch(&events[1], claimed.clone(), at(3))
            .await
            .unwrap();
    }

    assert!(store.undispatched(10).await.unwrap().is_empty());
    assert_eq!(
        count(
            db,
            "SELECT COUNT(*) FROM mail_jobs WHERE order_id = ? AND status = 'pending'",
            vec![id.get().into()]
        )
        .await,
        2
    );
    assert_eq!(
        count(
            db,
            "SELECT COUNT(*) FROM mail_jobs WHERE kind = 'claimed' AND occurrence = ?",
            vec![events[1].id.into()]
        )
        .await,
        1
    );
    assert_eq!(
        count(db, "SELECT COUNT(*) FROM outbox_jobs", vec![]).await,
        2
    );
    let due = store.due_jobs("ticket", at(3), 10).await.unwrap();
    assert_eq!(
        due.iter().map(|j| j.event.clone()).collect::<Vec<_>>(),
        events
    );
    assert!(due.iter().all(|j| j.attempts == 0));
    assert!(store.due_jobs("other", at(3), 10).await.unwrap().is_empty());
}

async fn one_job(db: &DatabaseConnection, store: &Store) -> (i64, OrderEvent) {
    let id = order(db, None).await;
    event(db, id, OrderStep::Paid, None).await;
    let events = store.undispatched(10).await.unwrap();
    store
        .dispatch(
            &events[0],
            Dispatch {
                mail: None,
                channels: vec!["ticket"],
            },
            at(3),
        )
        .await
        .unwrap();
    let jobs = store.due_jobs("ticket", at(3), 10).await.unwrap();
    (jobs[0].id, jobs[0].event.clone())
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_job_is_leased_once_retried_when_due_and_gone_when_done(#[case] backend: Backend) {
    let (db, store) = fresh(backend).await;
    let db = &db.connection;
    let (job, _) = one_job(db, &store).await;
    let lease = at(3) + Duration::minutes(2);

    assert!(store.lease_job(job, at(3), lease).await.unwrap());
    assert!(!store.lease_job(job, at(3), lease).await.unwrap());
    assert!(store
        .due_jobs("ticket", at(4), 10)
        .await
        .unwrap()
        .is_empty());

    store
        .job_failed(job, 1, Some(at(10)), "Discord is unavailable".into())
        .await
        .unwrap();
    assert!(store
        .due_jobs("ticket", at(9), 10)
        .await
        .unwrap()
        .is_empty());
    let due = store.due_jobs("ticket", at(10), 10).await.unwrap();
    assert_eq!(due[0].attempts, 1);
    assert!(store.lease_job(job, at(10), at(12)).await.unwrap());

    store.job_done(job, at(11)).await.unwrap();
    assert!(store
        .due_jobs("ticket", at(30), 10)
        .await
        .unwrap()
        .is_empty());
    assert!(!store.lease_job(job, at(30), at(32)).await.unwrap());
    assert_eq!(
        count(
            db,
            "SELECT COUNT(*) FROM outbox_jobs WHERE status = 'sent' AND last_error IS NULL",
            vec![]
        )
        .await,
        1
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_job_given_up_is_never_due_again(#[case] backend: Backend) {
    let (db, store) = fresh(backend).await;
    let db = &db.connection;
    let (job, _) = one_job(db, &store).await;

    store
        .job_failed(job, 1, None, "the bot lacks a permission".into())
        .await
        .unwrap();

    assert!(store
        .due_jobs("ticket", at(59), 10)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(
        count(
            db,
            "SELECT COUNT(*) FROM outbox_jobs WHERE status = 'failed' AND attempts = 1 \
             AND last_error = 'the bot lacks a permission'",
            vec![]
        )
        .await,
        1
    );
}

/// The mail queue is leased, retried and ended like the channel jobs (`jobs` in the store).
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_mail_job_is_leased_once_retried_when_due_then_sent_or_given_up(
    #[case] backend: Backend,
) {
    let (db, store) = fresh(backend).await;
    let db = &db.connection;
    for _ in 0..2 {
        let id = order(db, None).await;
        event(db, id, OrderStep::Paid, None).await;
    }
    for event in store.undispatched(10).await.unwrap() {
        let plan = Dispatch {
            mail: Some((MailKind::Receipt, 0)),
            channels: vec![],
        };
        store.dispatch(&event, plan, at(3)).await.unwrap();
    }
    let due = store.due_mail(at(3), 10).await.unwrap();
    assert_eq!(due.len(), 2);
    let (sent, given_up) = (due[0].id, due[1].id);

    assert!(store.lease_mail(sent, at(3), at(5)).await.unwrap());
    assert!(!store.lease_mail(sent, at(4), at(6)).await.unwrap());
    let due = store.due_mail(at(4), 10).await.unwrap();
    assert_eq!(due.iter().map(|j| j.id).collect::<Vec<_>>(), [given_up]);
    store
        .mail_failed(sent, 1, Some(at(10)), "the mail server is down".into())
        .await
        .unwrap();
    assert!(!store.lease_mail(sent, at(9), at(11)).await.unwrap());
    let due = store.due_mail(at(10), 10).await.unwrap();
    assert_eq!(due.iter().find(|j| j.id == sent).unwrap().attempts, 1);
    assert!(store.lease_mail(sent, at(10), at(12)).await.unwrap());
    store.mail_sent(sent, at(11)).await.unwrap();

    store
        .mail_failed(given_up, 3, None, "no such address".into())
        .await
        .unwrap();
    assert!(store.due_mail(at(59), 10).await.unwrap().is_empty());
    assert!(!store.lease_mail(given_up, at(59), at(59)).await.unwrap());
    assert_eq!(
        count(
            db,
            "SELECT COUNT(*) FROM mail_jobs WHERE (id = ? AND status = 'sent' AND sent_at IS NOT NULL \
             AND last_error IS NULL) OR (id = ? AND status = 'failed' AND attempts = 3 \
             AND last_error = 'no such address')",
            vec![sent.into(), given_up.into()]
        )
        .await,
        2
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn two_instances_dispatching_the_same_events_at_once_queue_each_once(
    #[case] backend: Backend,
) {
    let (db, store) = fresh(backend).await;
    let db = &db.connection;
    let id = order(db, None).await;
    for _ in 0..10 {
        event(db, id, OrderStep::Ready, None).await;
    }
    let events = store.undispatched(50).await.unwrap();
    let plan = Dispatch {
        mail: Some((MailKind::Receipt, 0)),
        channels: vec!["ticket"],
    };

    let instance = |store: Store| {
        let (events, plan) = (events.clone(), plan.clone());
        tokio::spawn(async move {
            for event in &events {
                store.dispatch(event, plan.clone(), at(3)).await.unwrap();
            }
        })
    };
    let (a, b) = tokio::join!(instance(store.clone()), instance(store.clone()));
    a.unwrap();
    b.unwrap();

    assert_eq!(
        count(db, "SELECT COUNT(*) FROM outbox_jobs", vec![]).await,
        10
    );
    assert_eq!(count(db, "SELECT COUNT(*) FROM mail_jobs", vec![]).await, 1);
    assert!(store.undispatched(50).await.unwrap().is_empty());
}
