//! The admin's side of the store on both databases: product writes, stock changes under
//! concurrency, sales statistics added up by the database, and the delivery queue's claims.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use cart_pricing::Money;
use catalog::{
    CatalogError, ProductDraft, ProductId, ProductRepository, ProductWrites, Removal, Stock,
    StockChange,
};
use chrono::{DateTime, Duration, NaiveDate, SubsecRound, TimeZone, Utc};
use delivery::{DeliveryQueue, DeliveryRepository, QueueError, QueueFilter};
use garden_store::testing::{seed_order, SeedOrder, TestDatabase};
use garden_store::{Backend, Store};
use orders::{OrderId, OrderStatus};
use promo::FixedClock;
use rstest::rstest;
use sales::{Granularity, SalesRepository, SalesStatistics};

fn draft(name: &str, stock: Stock, related: &[i64]) -> ProductDraft {
    ProductDraft {
        max_per_account: None,
        release_at: None,
        name: name.into(),
        description: "d".into(),
        price: Money::parse("4.99").unwrap(),
        category: "Pets".into(),
        image: Some(format!("/media/products/{name}.png").to_lowercase()),
        stock,
        weight: Some(1.5),
        mutation: None,
        savings: None,
        sort_order: None,
        delete_after_out_of_stock: false,
        related_ids: related.iter().copied().map(ProductId::new).collect(),
        dupe_warning: false,
    }
}

/// The command line as the actor of these writes.
fn cli() -> shared::Actor {
    shared::Actor::command_line()
}

async fn store(backend: Backend) -> (TestDatabase, Store) {
    let db = TestDatabase::create(backend).await;
    let store = Store::new(db.connection.clone(), shared::clock::SystemClock);
    (db, store)
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn create_update_and_components_round_trip(#[case] backend: Backend) {
    let (_db, store) = store(backend).await;
    let owl = store
        .create(draft("Owl", Stock::Finite(3), &[]), &cli())
        .await
        .unwrap();
    let bee = store
        .create(draft("Bee", Stock::Unlimited, &[]), &cli())
        .await
        .unwrap();
    let bundle = store
        .create(
            draft("Pack", Stock::Finite(1), &[bee.id.get(), owl.id.get()]),
            &cli(),
        )
        .await
        .unwrap();
    assert_eq!(bundle.related_ids, vec![bee.id, owl.id]);
    assert_eq!(
        store.bundles_containing(owl.id).await.unwrap(),
        vec![bundle.id]
    );

    let changed = store
        .update(
            bundle.id,
            ProductDraft {
                name: "Bigger Pack".into(),
                image: None,
                ..draft("x", Stock::Finite(9), &[owl.id.get()])
            },
            false,
            &cli(),
        )
        .await
        .unwrap();
    assert_eq!(changed.name, "Bigger Pack");
    assert_eq!(changed.related_ids, vec![owl.id]);
    assert_eq!(changed.stock, Stock::Finite(9));
    assert!(store.bundles_containing(bee.id).await.unwrap().is_empty());

    let mut in_use = store.image_paths_in_use().await.unwrap();
    in_use.sort();
    assert_eq!(
        in_use,
        vec!["/media/products/bee.png", "/media/products/owl.png"]
    );
    assert!(matches!(
        store
            .update(
                ProductId::new(999),
                draft("y", Stock::Unlimited, &[]),
                false,
                &cli(),
            )
            .await,
        Err(CatalogError::NotFound(_))
    ));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn remove_archives_a_product_with_orders_and_deletes_one_without(#[case] backend: Backend) {
    let (db, store) = store(backend).await;
    let sold = store
        .create(draft("Sold", Stock::Finite(3), &[]), &cli())
        .await
        .unwrap();
    let unsold = store
        .create(draft("Unsold", Stock::Finite(3), &[]), &cli())
        .await
        .unwrap();
    let pack = store
        .create(draft("Pack", Stock::Unlimited, &[unsold.id.get()]), &cli())
        .await
        .unwrap();
    seed_order(
        &db.connection,
        &SeedOrder::paid(sold.id.get(), "Sold", 1, Utc::now()),
    )
    .await;

    assert_eq!(
        store.remove(sold.id, &cli()).await.unwrap(),
        Removal::Archived
    );
    assert!(store.product(sold.id).await.unwrap().archived);
    assert_eq!(
        store.remove(unsold.id, &cli()).await.unwrap(),
        Removal::Deleted
    );
    assert!(matches!(
        store.product(unsold.id).await,
        Err(CatalogError::NotFound(_))
    ));
    assert!(
        store.product(pack.id).await.unwrap().related_ids.is_empty(),
        "a deleted product leaves the bundles it was in"
    );
    assert!(matches!(
        store.remove(unsold.id, &cli()).await,
        Err(CatalogError::NotFound(_))
    ));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn reorder_is_all_or_nothing(#[case] backend: Backend) {
    let (_db, store) = store(backend).await;
    let a = store
        .create(draft("A", Stock::Unlimited, &[]), &cli())
        .await
        .unwrap();
    let b = store
        .create(draft("B", Stock::Unlimited, &[]), &cli())
        .await
        .unwrap();
    store
        .reorder(vec![(b.id, 0), (a.id, 1)], &cli())
        .await
        .unwrap();
    assert_eq!(store.product(b.id).await.unwrap().sort_order, Some(0));
    assert_eq!(store.product(a.id).await.unwrap().sort_order, Some(1));

    let refused = store
        .reorder(vec![(a.id, 0), (ProductId::new(999), 1), (b.id, 2)], &cli())
        .await;
    assert!(matches!(refused, Err(CatalogError::NotFound(id)) if id.get() == 999));
    assert_eq!(
        store.product(a.id).await.unwrap().sort_order,
        Some(1),
        "nothing changed"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn stock_changes_never_go_below_zero_under_concurrency(#[case] backend: Backend) {
    let (_db, store) = store(backend).await;
    let owl = store
        .create(draft("Owl", Stock::Finite(20), &[]), &cli())
        .await
        .unwrap();
    let store = Arc::new(store);
    let minus = (0..50).map(|_| {
        let store = store.clone();
        tokio::spawn(async move {
            store
                .change_stock(owl.id, StockChange::Minus(1), &cli())
                .await
        })
    });
    for result in futures::future::join_all(minus).await {
        let product = result.unwrap().unwrap();
        assert!(product.stock.count().unwrap() >= 0);
    }
    let after = store.product(owl.id).await.unwrap();
    assert_eq!(after.stock, Stock::Finite(0));

    let plus = (0..30).map(|_| {
        let store = store.clone();
        tokio::spawn(async move {
            store
                .change_stock(owl.id, StockChange::Plus(1), &cli())
                .await
        })
    });
    futures::future::join_all(plus).await;
    assert_eq!(
        store.product(owl.id).await.unwrap().stock,
        Stock::Finite(30)
    );
    assert_eq!(
        store
            .change_stock(owl.id, StockChange::Minus(100), &cli())
            .await
            .unwrap()
            .stock,
        Stock::Finite(0)
    );

    let bee = store
        .create(draft("Bee", Stock::Unlimited, &[]), &cli())
        .await
        .unwrap();
    let refused = store
        .change_stock(bee.id, StockChange::Minus(1), &cli())
        .await;
    assert!(
        matches!(refused, Err(CatalogError::UnlimitedStock(id)) if id == bee.id),
        "a minus on unlimited stock is refused: {refused:?}"
    );
    assert_eq!(
        store.product(bee.id).await.unwrap().stock,
        Stock::Unlimited,
        "and leaves it unlimited"
    );
    let counted = store
        .change_stock(bee.id, StockChange::Plus(2), &cli())
        .await
        .unwrap();
    assert_eq!(
        counted.stock,
        Stock::Finite(2),
        "plus starts counting from 0"
    );
    let set = store
        .set_stock(bee.id, Stock::Finite(12), &cli())
        .await
        .unwrap();
    assert_eq!(set.stock, Stock::Finite(12));
    assert!(matches!(
        store
            .change_stock(ProductId::new(999), StockChange::Plus(1), &cli())
            .await,
        Err(CatalogError::NotFound(_))
    ));
}

fn at(y: i32, m: u32, d: u32, h: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, m, d, h, 0, 0).unwrap()
}

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_database_adds_sales_up_by_day_week_and_month(#[case] backend: Backend) {
    let (db, store) = store(backend).await;
    let owl = store
        .create(draft("Owl", Stock::Unlimited, &[]), &cli())
        .await
        .unwrap()
        .id
        .get();
    let bee = store
        .create(draft("Bee", Stock::Unlimited, &[]), &cli())
        .await
        .unwrap()
        .id
        .get();
    let c = &db.connection;
    // "today" is Saturday 2026-11-21
    seed_order(c, &SeedOrder::paid(owl, "Owl", 2, at(2026, 11, 21, 0))).await;
    seed_order(c, &SeedOrder::paid(owl, "Owl", 1, at(2026, 11, 20, 23))).await;
    seed_order(c, &SeedOrder::paid(bee, "Bee", 4, at(2026, 11, 16, 8))).await; // Monday, W47
    seed_order(c, &SeedOrder::paid(owl, "Owl", 3, at(2026, 11, 15, 22))).await; // Sunday, W46
    seed_order(c, &SeedOrder::paid(owl, "Owl", 5, at(2026, 9, 30, 12))).await;
    seed_order(c, &SeedOrder::paid(owl, "Owl", 7, at(2025, 11, 30, 12))).await; // 12 months ago
    seed_order(
        c,
        &SeedOrder {
            status: "delivered",
            ..SeedOrder::paid(bee, "Old name", 1, at(2026, 11, 21, 9))
        },
    )
    .await;
    for status in ["refunded", "expired"] {
        seed_order(
            c,
            &SeedOrder {
                status,
                ..SeedOrder::paid(owl, "Owl", 100, at(2026, 11, 21, 9))
            },
        )
        .await;
    }
    seed_order(
        c,
        &SeedOrder {
            status: "pending",
            paid_at: None,
            ..SeedOrder::paid(owl, "Owl", 100, at(2026, 11, 21, 9))
        },
    )
    .await;

    let mut daily = store
        .units_sold(Granularity::Day, at(2026, 11, 15, 0), at(2026, 11, 22, 0))
        .await
        .unwrap();
    daily.sort_by(|a, b| (a.period_start, &a.item).cmp(&(b.period_start, &b.item)));
    let daily: Vec<(NaiveDate, &str, u64)> = daily
        .iter()
        .map(|s| (s.period_start, s.item.as_str(), s.units))
        .collect();
    assert_eq!(
        daily,
        vec![
            (day(2026, 11, 15), "Owl", 3),
            (day(2026, 11, 16), "Bee", 4),
            (day(2026, 11, 20), "Owl", 1),
            (day(2026, 11, 21), "Bee", 1),
            (day(2026, 11, 21), "Owl", 2),
        ]
    );

    let weekly = store
        .units_sold(Granularity::Week, at(2026, 11, 9, 0), at(2026, 11, 23, 0))
        .await
        .unwrap();
    let owl_w47: u64 = weekly
        .iter()
        .filter(|s| s.item == "Owl" && s.period_start == day(2026, 11, 16))
        .map(|s| s.units)
        .sum();
    let owl_w46: u64 = weekly
        .iter()
        .filter(|s| s.item == "Owl" && s.period_start == day(2026, 11, 9))
        .map(|s| s.units)
        .sum();
    assert_eq!((owl_w46, owl_w47), (3, 3));

    // through the statistics service with its clock fixed on 2026-11-21
    let report = SalesStatistics::new(store.clone(), FixedClock(at(2026, 11, 21, 18)))
        .report()
        .await
        .unwrap();
    assert_eq!(report.daily["Owl"].len(), 30);
    assert_eq!(report.daily["Owl"]["2026-11-21"], 2);
    assert_eq!(report.daily["Owl"]["2026-11-19"], 0);
    assert_eq!(
        report.daily["Bee"]["2026-11-21"], 1,
        "the current name counts"
    );
    assert!(!report.daily["Owl"].contains_key("2026-09-30"));
    assert_eq!(report.weekly["Owl"]["2026-W47"], 3);
    assert_eq!(report.weekly["Owl"]["2026-W46"], 3);
    assert_eq!(report.weekly["Owl"]["2026-W40"], 5);
    assert_eq!(report.weekly["Bee"]["2026-W47"], 5);
    assert_eq!(report.monthly["Owl"]["2026-11"], 6);
    assert_eq!(report.monthly["Owl"]["2026-09"], 5);
    assert_eq!(report.monthly["Owl"]["2025-12"], 0);
    assert!(
        !report.monthly["Owl"].contains_key("2025-11"),
        "13 months ago is out"
    );
    assert_eq!(report.overall["Owl"], 18);
    assert_eq!(report.overall["Bee"], 5);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn of_two_staff_claiming_at_once_exactly_one_wins(#[case] backend: Backend) {
    use accounts::{Email, NewUser, Role, UserName, UserStore};
    let (db, store) = store(backend).await;
    let mut staff = vec![];
    for name in ["ann", "bob"] {
        let user = store
            .upsert_user(
                NewUser {
                    name: UserName::parse(name).unwrap(),
                    email: Email::parse(&format!("{name}@example.com")).unwrap(),
                    role: Role::Admin,
                    password_hash: accounts::PasswordHash::new("x".into()),
                    language: None,
                },
                None,
            )
            .await
            .unwrap();
        store
            .seed_private_server_url(user.id.get(), "https://www.roblox.com/share?code=1")
            .await
            .unwrap();
        staff.push(user.id);
    }
    // whole seconds: PostgreSQL keeps microseconds
    let now = Utc::now().trunc_subsecs(0);
    let older = seed_order(
        &db.connection,
        &SeedOrder::paid(1, "Owl", 1, now - Duration::hours(2)),
    )
    .await;
    let newer = seed_order(
        &db.connection,
        &SeedOrder::paid(2, "Bee", 2, now - Duration::hours(1)),
    )
    .await;
    let queue = Arc::new(DeliveryQueue::new(store.clone(), FixedClock(now)));

    let (first, second) = (staff_actor(staff[0]), staff_actor(staff[1]));
    for _ in 0..5 {
        let (a, b) = tokio::join!(
            queue.claim(OrderId::new(older), staff[0], &first),
            queue.claim(OrderId::new(older), staff[1], &second)
        );
        let winners = [a.is_ok(), b.is_ok()].iter().filter(|won| **won).count();
        assert_eq!(winners, 1);
        let loser = if a.is_ok() { b } else { a }.unwrap_err();
        assert!(
            matches!(loser, QueueError::AlreadyClaimed { .. }),
            "{loser:?}"
        );
        let holder = store
            .queued_order(OrderId::new(older))
            .await
            .unwrap()
            .claimed_by
            .unwrap();
        queue
            .release(
                OrderId::new(older),
                holder.id,
                delivery::ReleaseReason::parse("My game crashed.").unwrap(),
                &staff_actor(holder.id),
            )
            .await
            .unwrap();
    }

    let claimed = queue
        .claim(OrderId::new(older), staff[0], &staff_actor(staff[0]))
        .await
        .unwrap();
    assert_eq!(claimed.claimed_by.as_ref().unwrap().name, "ann");
    let refused = queue
        .deliver(OrderId::new(older), staff[1], None, &staff_actor(staff[1]))
        .await
        .unwrap_err();
    assert_eq!(refused.to_string(), "Already claimed by ann.");
    let refused = queue
        .release(
            OrderId::new(older),
            staff[1],
            delivery::ReleaseReason::parse("Not mine.").unwrap(),
            &staff_actor(staff[1]),
        )
        .await
        .unwrap_err();
    assert_eq!(refused.to_string(), "Only ann can release this order.");

    let paid = queue.list(QueueFilter::Paid).await.unwrap();
    let ids: Vec<i64> = paid.iter().map(|(o, _)| o.id.get()).collect();
    assert_eq!(ids, vec![older, newer], "oldest first");
    assert_eq!(paid[1].0.items[0].name, "Bee");
    assert_eq!(paid[1].0.items[0].quantity, 2);

    let delivered = queue
        .deliver(OrderId::new(older), staff[0], None, &staff_actor(staff[0]))
        .await
        .unwrap();
    assert_eq!(delivered.status, OrderStatus::Delivered);
    assert_eq!(delivered.delivered_at, Some(now));
    // refunds go through the provider first (aftersale::AfterSale); the store records them
    let refunded = aftersale::AfterSaleRepository::mark_refunded(
        &store,
        OrderId::new(newer),
        now,
        Some("re_1".into()),
        None,
        Some(staff_actor(staff[0])),
    )
    .await
    .unwrap();
    assert_eq!(refunded, orders::Applied::Changed);
    assert!(queue.list(QueueFilter::Paid).await.unwrap().is_empty());
    assert_eq!(queue.list(QueueFilter::Delivered).await.unwrap().len(), 1);
    assert_eq!(queue.list(QueueFilter::All).await.unwrap().len(), 2);
    assert!(matches!(
        queue
            .deliver(
                OrderId::new(older),
                staff[0],
                Some(12345),
                &staff_actor(staff[0])
            )
            .await,
        Err(QueueError::UnknownProof(12345))
    ));
    assert!(matches!(
        queue
            .claim(OrderId::new(999), staff[0], &staff_actor(staff[0]))
            .await,
        Err(QueueError::NotFound(_))
    ));
}

/// A member of staff acting from the test's address (the audit log's actor).
fn staff_actor(id: shared::UserId) -> shared::Actor {
    shared::Actor::staff(id, format!("staff {id}"), "127.0.0.1")
}

fn warning(id: &str) -> orders::ProviderEvent {
    orders::ProviderEvent {
        provider: orders::PaymentProvider::Stripe,
        id: id.into(),
    }
}

fn hold(reason: orders::HoldReason, detail: &str) -> Option<orders::NewHold> {
    Some(orders::NewHold {
        reason,
        detail: Some(detail.into()),
    })
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_fraud_warning_holds_a_paid_order_once_until_its_release(#[case] backend: Backend) {
    use aftersale::{AfterSaleRepository, Warned};
    use orders::HoldReason::{FraudWarning, RiskLevel};
    let (db, store) = store(backend).await;
    let now = Utc::now().trunc_subsecs(0);
    let paid = seed_order(&db.connection, &SeedOrder::paid(1, "Owl", 1, now)).await;
    let delivered = seed_order(
        &db.connection,
        &SeedOrder {
            status: "delivered",
            ..SeedOrder::paid(1, "Owl", 1, now)
        },
    )
    .await;
    let warn = |order: i64, event: &str, hold: Option<orders::NewHold>| {
        let store = store.clone();
        let event = warning(event);
        async move {
            store
                .record_fraud_warning(OrderId::new(order), event, Some("misc".into()), hold, now)
                .await
                .unwrap()
        }
    };
    assert_eq!(
        warn(paid, "evt_1", hold(FraudWarning, "misc")).await,
        Warned::Held
    );
    assert_eq!(
        warn(paid, "evt_1", hold(FraudWarning, "misc")).await,
        Warned::Replayed
    );
    // a second warning finds it held for this reason already
    assert_eq!(
        warn(paid, "evt_2", hold(FraudWarning, "misc")).await,
        Warned::Noted
    );
    assert_eq!(warn(delivered, "evt_3", None).await, Warned::Noted);

    let held = store.queued_order(OrderId::new(paid)).await.unwrap();
    assert_eq!(
        held.held().map(|hold| (hold.reason, hold.since)),
        Some((FraudWarning, now))
    );
    let ids = |orders: Vec<delivery::QueuedOrder>| -> Vec<i64> {
        orders.iter().map(|order| order.id.get()).collect()
    };
    assert!(store.queue(QueueFilter::Paid).await.unwrap().is_empty());
    assert_eq!(ids(store.queue(QueueFilter::Held).await.unwrap()), [paid]);
    let counts = store.shop_counts().await.unwrap();
    assert_eq!(counts.held, [("fraud_warning".to_owned(), 1)]);
    assert_eq!(counts.paid_waiting, 0);

    // out of the queue: neither claimed nor delivered nor readied
    let staff = shared::UserId::new(1);
    let actor = staff_actor(staff);
    assert!(!store
        .claim(OrderId::new(paid), staff, now, &actor)
        .await
        .unwrap());
    assert!(!store
        .mark_ready(OrderId::new(paid), now, None)
        .await
        .unwrap());

    // released once: back in the queue, its release the order's step
    assert!(store
        .release_hold(OrderId::new(paid), now, &actor)
        .await
        .unwrap());
    assert!(!store
        .release_hold(OrderId::new(paid), now, &actor)
        .await
        .unwrap());
    assert_eq!(ids(store.queue(QueueFilter::Paid).await.unwrap()), [paid]);
    assert!(store.queue(QueueFilter::Held).await.unwrap().is_empty());

    // a payment held for its risk takes a later warning's reason, keeping its time
    let risky = seed_order(&db.connection, &SeedOrder::paid(1, "Owl", 1, now)).await;
    let since = now - Duration::hours(1);
    {
        use sea_orm::{ConnectionTrait, Statement};
        let backend = db.connection.get_database_backend();
        let sql = match backend {
            sea_orm::DatabaseBackend::Postgres => {
                "UPDATE orders SET hold_reason = $1, held_at = $2 WHERE id = $3"
            }
            _ => "UPDATE orders SET hold_reason = ?, held_at = ? WHERE id = ?",
        };
        db.connection
            .execute(Statement::from_sql_and_values(
                backend,
                sql,
                [RiskLevel.as_str().into(), since.into(), risky.into()],
            ))
            .await
            .unwrap();
    }
    assert_eq!(
        warn(risky, "evt_4", hold(FraudWarning, "misc")).await,
        Warned::Held
    );
    let taken = store.queued_order(OrderId::new(risky)).await.unwrap();
    assert_eq!(
        taken.held().map(|hold| (hold.reason, hold.since)),
        Some((FraudWarning, since))
    );
}
