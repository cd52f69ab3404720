//! Orders, stock reservation, payment events and promo codes on both databases, each test on a
//! fresh one. The concurrency tests run real parallel transactions: no retries.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use shared::clock::SystemClock;
use std::sync::Arc;

use cart_pricing::{Decimal, DiscountPercent, Money, PaymentMethod, Quantity};
use catalog::{ProductDraft, ProductId, ProductRepository, Stock};
use chrono::{DateTime, Duration, Utc};
use garden_store::testing::TestDatabase;
use garden_store::{Backend, Store};
use orders::{
    Amounts, Applied, Buyer, Checkout, CheckoutError, CheckoutRequest, CheckoutService, Closing,
    DiscordId, DiscordIdentity, Email, HeldBy, NewOrder, OrderHolder, OrderId, OrderLine,
    OrderPromo, OrderRepository, OrderStatus, PaymentProvider, PendingCaps, PlaceError,
    ProviderEvent, RequestedItem, Reservation, RobloxUsername,
};
use promo::{CreatePromoError, MaxUses, NewPromo, PromoCode, PromoRepository, Rejection};
use rstest::rstest;
use sea_orm::{ConnectionTrait, Statement};

fn money(text: &str) -> Money {
    Money::parse(text).unwrap()
}

fn draft(name: &str, price: &str, stock: Stock) -> ProductDraft {
    ProductDraft {
        max_per_account: None,
        release_at: None,
        name: name.into(),
        description: String::new(),
        price: money(price),
        category: "Pets".into(),
        image: None,
        stock,
        weight: None,
        mutation: None,
        savings: None,
        sort_order: None,
        delete_after_out_of_stock: false,
        related_ids: vec![],
        dupe_warning: false,
    }
}

async fn store(backend: Backend, products: Vec<(i64, ProductDraft)>) -> (TestDatabase, Store) {
    let db = TestDatabase::create(backend).await;
    let store = Store::new(db.connection.clone(), SystemClock);
    store
        .insert_with_ids(
            products
                .into_iter()
                .map(|(id, draft)| (ProductId::new(id), draft))
                .collect(),
        )
        .await
        .unwrap();
    (db, store)
}

async fn stock(store: &Store, id: i64) -> Stock {
    store.product(ProductId::new(id)).await.unwrap().stock
}

fn buyer(discord: &str) -> Buyer {
    Buyer {
        discord: Some(DiscordIdentity {
            discord_id: DiscordId::parse(discord).unwrap(),
            username: format!("user{discord}"),
            avatar_url: Some(format!(
                "https://cdn.discordapp.com/avatars/{discord}/a1b2c3.png"
            )),
        }),
        roblox_username: RobloxUsername::parse("Builder_Bob").unwrap(),
        email: Email::parse("kid@example.com").unwrap(),
        user_id: Some(shared::UserId::new(42)),
        language: shared::Language::English,
    }
}

fn now() -> DateTime<Utc> {
    // whole microseconds: what both databases keep
    DateTime::from_timestamp_micros(Utc::now().timestamp_micros()).unwrap()
}

fn new_order(lines: &[(i64, &str, i64)], promo: Option<OrderPromo>, discord: &str) -> NewOrder {
    let lines: Vec<OrderLine> = lines
        .iter()
        .map(|(id, price, qty)| OrderLine {
            product_id: ProductId::new(*id),
            name: format!("Pet {id}"),
            unit_price: money(price),
            unit_price_paid: money(price).cents(),
            quantity: Quantity::new(*qty).unwrap(),
            components: Vec::new(),
        })
        .collect();
    let subtotal: Money = lines.iter().map(OrderLine::total).sum();
    NewOrder {
        account_caps: vec![],
        refund_policy_version: None,
        pay_by: None,
        lines,
        buyer: buyer(discord),
        amounts: Amounts {
            subtotal,
            discount: Money::ZERO,
            fee: PaymentMethod::Card
                .grand_total(subtotal)
                .checked_sub(subtotal)
                .unwrap(),
            total: PaymentMethod::Card.grand_total(subtotal),
            paid: orders::Paid::in_base(
                cart_pricing::CurrencyCode::USD,
                PaymentMethod::Card.grand_total(subtotal),
            ),
        },
        promo,
        method: PaymentMethod::Card,
        provider: PaymentProvider::Stripe,
        created_at: now(),
        holder: OrderHolder::default(),
        idempotency: None,
    }
}

/// No cap on unpaid orders: the tests of other rules place as many as they like.
const NO_CAPS: PendingCaps = PendingCaps {
    per_account: u32::MAX,
    per_session: u32::MAX,
    per_address: u32::MAX,
};

fn reservation(entries: &[(i64, u32)]) -> Reservation {
    use std::collections::HashMap;
    // build it the way checkout does: from cart items with finite stock
    let known: HashMap<ProductId, catalog::Product> = HashMap::new();
    let items: Vec<orders::CartItem> = entries
        .iter()
        .map(|(id, qty)| orders::CartItem {
            product: catalog::Product {
                max_per_account: None,
                release_at: None,
                id: ProductId::new(*id),
                name: String::new(),
                description: String::new(),
                price: Money::ZERO,
                category: String::new(),
                image: None,
                stock: Stock::Finite(u32::MAX),
                weight: None,
                mutation: None,
                savings: None,
                sort_order: None,
                delete_after_out_of_stock: false,
                related_ids: vec![],
                dupe_warning: false,
                archived: false,
            },
            quantity: Quantity::new(i64::from(*qty)).unwrap(),
        })
        .collect();
    Reservation::for_items(&items, &known)
}

fn event(id: &str) -> Option<ProviderEvent> {
    Some(ProviderEvent {
        provider: PaymentProvider::Stripe,
        id: id.into(),
    })
}

async fn count(db: &TestDatabase, sql: &str) -> i64 {
    let row = db
        .connection
        .query_one(Statement::from_string(
            db.connection.get_database_backend(),
            sql,
        ))
        .await
        .unwrap()
        .unwrap();
    row.try_get_by_index::<i64>(0).unwrap()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_placed_order_takes_its_stock_and_comes_back_as_stored(#[case] backend: Backend) {
    let (_db, store) = store(
        backend,
        vec![
            (1, draft("Owl", "4.99", Stock::Finite(5))),
            (2, draft("Sheckles", "1.00", Stock::Unlimited)),
        ],
    )
    .await;
    let new = new_order(&[(1, "4.99", 2), (2, "1.00", 3)], None, "111");
    let placed = store
        .place(new.clone(), reservation(&[(1, 2)]), NO_CAPS)
        .await
        .unwrap();
    assert_eq!(placed.status(), OrderStatus::Pending);
    assert_eq!(stock(&store, 1).await, Stock::Finite(3));
    assert_eq!(stock(&store, 2).await, Stock::Unlimited);

    let loaded = store.order(placed.id).await.unwrap();
    assert_eq!(loaded, placed);
    assert_eq!(loaded.lines, new.lines);
    assert_eq!(loaded.buyer, new.buyer);
    assert_eq!(loaded.amounts, new.amounts);
    assert_eq!(loaded.created_at, new.created_at);

    store
        .attach_payment_reference(
            placed.id,
            "cs_test_1".into(),
            "https://pay/cs_test_1".into(),
        )
        .await
        .unwrap();
    let mine = store.orders_of_user(shared::UserId::new(42)).await.unwrap();
    assert_eq!(mine.len(), 1);
    assert_eq!(mine[0].payment.reference.as_deref(), Some("cs_test_1"));
    assert!(store
        .orders_of_user(shared::UserId::new(7))
        .await
        .unwrap()
        .is_empty());
    // a reference is recorded once
    assert!(store
        .attach_payment_reference(
            placed.id,
            "cs_test_2".into(),
            "https://pay/cs_test_2".into()
        )
        .await
        .is_err());
}

/// The order keeps the language it was placed in (its mails are written in it).
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_order_keeps_the_language_it_was_placed_in(#[case] backend: Backend) {
    let (db, store) = store(backend, vec![(1, draft("Owl", "4.99", Stock::Finite(5)))]).await;
    let mut portuguese = new_order(&[(1, "4.99", 1)], None, "111");
    portuguese.buyer.language = shared::Language::BrazilianPortuguese;
    let english = new_order(&[(1, "4.99", 1)], None, "222");
    let placed = store
        .place(portuguese, reservation(&[(1, 1)]), NO_CAPS)
        .await
        .unwrap();
    let other = store
        .place(english, reservation(&[(1, 1)]), NO_CAPS)
        .await
        .unwrap();
    let loaded = store.order(placed.id).await.unwrap();
    assert_eq!(loaded.buyer.language, shared::Language::BrazilianPortuguese);
    let loaded = store.order(other.id).await.unwrap();
    assert_eq!(loaded.buyer.language, shared::Language::English);
    let sql = "SELECT COUNT(*) FROM orders WHERE language = 'pt-BR'";
    assert_eq!(count(&db, sql).await, 1);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_short_line_rolls_the_whole_placement_back(#[case] backend: Backend) {
    let (db, store) = store(
        backend,
        vec![
            (1, draft("Owl", "1.00", Stock::Finite(5))),
            (2, draft("Bee", "1.00", Stock::Finite(1))),
        ],
    )
    .await;
    let result = store
        .place(
            new_order(&[(1, "1.00", 2), (2, "1.00", 2)], None, "111"),
            reservation(&[(1, 2), (2, 2)]),
            NO_CAPS,
        )
        .await;
    assert!(matches!(result, Err(PlaceError::OutOfStock(id)) if id == ProductId::new(2)));
    assert_eq!(stock(&store, 1).await, Stock::Finite(5));
    assert_eq!(stock(&store, 2).await, Stock::Finite(1));
    assert_eq!(count(&db, "SELECT COUNT(*) FROM orders").await, 0);
    assert_eq!(count(&db, "SELECT COUNT(*) FROM order_lines").await, 0);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn stock_can_never_go_below_zero_even_by_hand(#[case] backend: Backend) {
    let (db, store) = store(backend, vec![(1, draft("Owl", "1.00", Stock::Finite(1)))]).await;
    let result = db
        .connection
        .execute(Statement::from_string(
            db.connection.get_database_backend(),
            "UPDATE products SET stock = stock - 2 WHERE id = 1",
        ))
        .await;
    assert!(result.is_err(), "the CHECK constraint refuses it");
    assert_eq!(stock(&store, 1).await, Stock::Finite(1));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn expiry_and_cancellation_give_stock_back_exactly_once(#[case] backend: Backend) {
    let (_db, store) = store(backend, vec![(1, draft("Owl", "1.00", Stock::Finite(5)))]).await;
    for closing in [Closing::Expired, Closing::Cancelled] {
        let placed = store
            .place(
                new_order(&[(1, "1.00", 2)], None, "111"),
                reservation(&[(1, 2)]),
                NO_CAPS,
            )
            .await
            .unwrap();
        assert_eq!(stock(&store, 1).await, Stock::Finite(3));
        let first = store
            .release(placed.id, closing, now(), None)
            .await
            .unwrap();
        assert_eq!(first, Applied::Changed);
        assert_eq!(stock(&store, 1).await, Stock::Finite(5));
        let again = store
            .release(placed.id, closing, now(), None)
            .await
            .unwrap();
        assert_eq!(again, Applied::NotPending(closing.status()));
        let other = match closing {
            Closing::Expired => Closing::Cancelled,
            Closing::Cancelled => Closing::Expired,
        };
        let other_way = store.release(placed.id, other, now(), None).await.unwrap();
        assert_eq!(other_way, Applied::NotPending(closing.status()));
        assert_eq!(stock(&store, 1).await, Stock::Finite(5));
        assert_eq!(
            store.order(placed.id).await.unwrap().status(),
            closing.status()
        );
    }
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn expired_then_completed_stays_expired_and_completed_then_expired_stays_paid(
    #[case] backend: Backend,
) {
    let (_db, store) = store(backend, vec![(1, draft("Owl", "1.00", Stock::Finite(5)))]).await;

    let first = store
        .place(
            new_order(&[(1, "1.00", 1)], None, "111"),
            reservation(&[(1, 1)]),
            NO_CAPS,
        )
        .await
        .unwrap();
    let expired = store
        .release(first.id, Closing::Expired, now(), event("evt_expired_1"))
        .await
        .unwrap();
    assert_eq!(expired, Applied::Changed);
    let completed = store
        .mark_paid(first.id, now(), event("evt_completed_1"), None)
        .await
        .unwrap();
    assert_eq!(completed, Applied::NotPending(OrderStatus::Expired));
    assert_eq!(stock(&store, 1).await, Stock::Finite(5));

    let second = store
        .place(
            new_order(&[(1, "1.00", 1)], None, "111"),
            reservation(&[(1, 1)]),
            NO_CAPS,
        )
        .await
        .unwrap();
    let paid_at = now();
    assert_eq!(
        store
            .mark_paid(second.id, paid_at, event("evt_completed_2"), None)
            .await
            .unwrap(),
        Applied::Changed
    );
    assert_eq!(
        store
            .release(second.id, Closing::Expired, now(), event("evt_expired_2"))
            .await
            .unwrap(),
        Applied::NotPending(OrderStatus::Paid)
    );
    assert_eq!(stock(&store, 1).await, Stock::Finite(4));
    let paid = store.order(second.id).await.unwrap();
    assert_eq!(paid.status(), OrderStatus::Paid);
    assert_eq!(paid.paid_at(), Some(paid_at));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_same_event_applied_100_times_changes_the_order_once(#[case] backend: Backend) {
    let (db, store) = store(backend, vec![(1, draft("Owl", "1.00", Stock::Finite(5)))]).await;
    let placed = store
        .place(
            new_order(&[(1, "1.00", 1)], None, "111"),
            reservation(&[(1, 1)]),
            NO_CAPS,
        )
        .await
        .unwrap();
    let tasks: Vec<_> = (0..100)
        .map(|_| {
            let store = store.clone();
            tokio::spawn(async move {
                store
                    .mark_paid(placed.id, now(), event("evt_same"), None)
                    .await
                    .unwrap()
            })
        })
        .collect();
    let mut outcomes = Vec::new();
    for task in tasks {
        outcomes.push(task.await.unwrap());
    }
    let changed = outcomes.iter().filter(|o| **o == Applied::Changed).count();
    let replayed = outcomes.iter().filter(|o| **o == Applied::Replayed).count();
    assert_eq!((changed, replayed), (1, 99), "{outcomes:?}");
    assert_eq!(count(&db, "SELECT COUNT(*) FROM processed_events").await, 1);
    assert_eq!(
        store.order(placed.id).await.unwrap().status(),
        OrderStatus::Paid
    );

    // the same id from another provider is another event
    let other = store
        .mark_paid(
            placed.id,
            now(),
            Some(ProviderEvent {
                provider: PaymentProvider::Paypal,
                id: "evt_same".into(),
            }),
            None,
        )
        .await
        .unwrap();
    assert_eq!(other, Applied::NotPending(OrderStatus::Paid));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_unknown_order_is_not_found_and_records_no_event(#[case] backend: Backend) {
    let (db, store) = store(backend, vec![]).await;
    let result = store
        .mark_paid(OrderId::new(404), now(), event("evt_x"), None)
        .await;
    assert!(matches!(result, Err(orders::OrderError::NotFound(_))));
    assert_eq!(count(&db, "SELECT COUNT(*) FROM processed_events").await, 0);
    assert!(matches!(
        store.order(OrderId::new(404)).await,
        Err(orders::OrderError::NotFound(_))
    ));
}

async fn promo(store: &Store, code: &str, max_uses: Option<i64>) -> OrderPromo {
    let created = store
        .create(
            NewPromo {
                code: PromoCode::parse(code).unwrap(),
                discount: DiscountPercent::new(10).unwrap(),
                expires_at: Some(now() + Duration::days(1)),
                max_uses: max_uses.and_then(MaxUses::new),
            },
            &shared::Actor::command_line(),
        )
        .await
        .unwrap();
    OrderPromo {
        id: created.id,
        code: created.code,
        discount: created.discount,
    }
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_promo_code_is_claimed_when_the_order_is_placed_and_given_back_when_it_ends(
    #[case] backend: Backend,
) {
    let (db, store) = store(backend, vec![(1, draft("Owl", "1.00", Stock::Unlimited))]).await;
    let spring = promo(&store, "spring", Some(5)).await;
    let code = PromoCode::parse("SPRING").unwrap();
    let alice = promo::DiscordId::parse("111").unwrap();
    let bob = promo::DiscordId::parse("222").unwrap();
    let place = |discord: &'static str| {
        let store = store.clone();
        let spring = spring.clone();
        async move {
            store
                .place(
                    new_order(&[(1, "1.00", 1)], Some(spring), discord),
                    Reservation::default(),
                    NO_CAPS,
                )
                .await
        }
    };

    // placing claims the account's redemption and one use at once
    let first = place("111").await.unwrap();
    assert_eq!(
        store.order(first.id).await.unwrap().promo,
        Some(spring.clone())
    );
    let claimed = store.usage(&code, &alice).await.unwrap().unwrap();
    assert_eq!((claimed.uses, claimed.used_by_account), (1, true));
    let for_bob = store.usage(&code, &bob).await.unwrap().unwrap();
    assert_eq!((for_bob.uses, for_bob.used_by_account), (1, false));
    assert_eq!(for_bob.promo.max_uses.map(|m| m.get()), Some(5));

    // a second order by the same account while the first is unpaid: refused, nothing written
    assert!(matches!(
        place("111").await,
        Err(PlaceError::Promo(Rejection::AlreadyUsed))
    ));
    assert_eq!(count(&db, "SELECT COUNT(*) FROM orders").await, 1);

    // paying counts nothing more
    store.mark_paid(first.id, now(), None, None).await.unwrap();
    let paid = store.usage(&code, &alice).await.unwrap().unwrap();
    assert_eq!((paid.uses, paid.used_by_account), (1, true));
    assert_eq!(
        count(&db, "SELECT COUNT(*) FROM promo_redemptions").await,
        1
    );

    // an order that expires gives its claim back; the account may use the code again
    let bobs = place("222").await.unwrap();
    assert_eq!(store.usage(&code, &bob).await.unwrap().unwrap().uses, 2);
    store
        .release(bobs.id, Closing::Expired, now(), None)
        .await
        .unwrap();
    let released = store.usage(&code, &bob).await.unwrap().unwrap();
    assert_eq!((released.uses, released.used_by_account), (1, false));
    place("222").await.unwrap();

    // the database refuses a second redemption by the same account outright
    let duplicate = db
        .connection
        .execute(Statement::from_string(
            db.connection.get_database_backend(),
            format!(
                "INSERT INTO promo_redemptions (promo_code_id, discord_id, order_id, redeemed_at) \
                 VALUES ({}, '111', {}, CURRENT_TIMESTAMP)",
                spring.id, bobs.id
            ),
        ))
        .await;
    assert!(duplicate.is_err());
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn twenty_accounts_racing_for_the_last_use_of_a_code_leave_one_winner(
    #[case] backend: Backend,
) {
    let (db, store) = store(backend, vec![(1, draft("Owl", "1.00", Stock::Unlimited))]).await;
    let last = promo(&store, "LAST", Some(1)).await;
    let tasks: Vec<_> = (0..20)
        .map(|i| {
            let store = store.clone();
            let order = new_order(
                &[(1, "1.00", 1)],
                Some(last.clone()),
                &format!("{}", 500 + i),
            );
            tokio::spawn(async move { store.place(order, Reservation::default(), NO_CAPS).await })
        })
        .collect();
    let mut won = 0;
    for task in tasks {
        match task.await.unwrap() {
            Ok(_) => won += 1,
            Err(PlaceError::Promo(Rejection::UsedUp)) => {}
            Err(other) => panic!("only the code's limit may refuse: {other:?}"),
        }
    }
    assert_eq!(won, 1);
    assert_eq!(count(&db, "SELECT COUNT(*) FROM orders").await, 1);
    assert_eq!(
        count(&db, "SELECT COUNT(*) FROM promo_redemptions").await,
        1
    );
    assert_eq!(
        count(&db, "SELECT CAST(uses AS BIGINT) FROM promo_codes").await,
        1
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sixty_parallel_placements_by_one_account_leave_it_at_its_cap(#[case] backend: Backend) {
    let (db, store) = store(backend, vec![(1, draft("Owl", "1.00", Stock::Unlimited))]).await;
    let caps = PendingCaps {
        per_account: 2,
        per_session: 2,
        per_address: 20,
    };
    let tasks: Vec<_> = (0..60)
        .map(|i| {
            let store = store.clone();
            // each from its own session and address: only the account is shared
            let mut order = new_order(&[(1, "1.00", 1)], None, "777");
            order.holder = OrderHolder {
                buyer_token: Some(format!("token-{i}")),
                client_ip: Some(format!("10.0.0.{i}")),
                client_net: Some(format!("10.0.0.{i}")),
            };
            tokio::spawn(async move { store.place(order, Reservation::default(), caps).await })
        })
        .collect();
    let mut placed = 0;
    for task in tasks {
        match task.await.unwrap() {
            Ok(_) => placed += 1,
            Err(PlaceError::TooManyPending(reached)) => {
                assert_eq!((reached.by, reached.max), (HeldBy::Account, 2));
            }
            Err(other) => panic!("only the cap may refuse: {other:?}"),
        }
    }
    assert_eq!(placed, 2);
    assert_eq!(count(&db, "SELECT COUNT(*) FROM orders").await, 2);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn promo_codes_are_unique_and_unknown_ones_are_none(#[case] backend: Backend) {
    let (_db, store) = store(backend, vec![]).await;
    let created = promo(&store, "SUMMER-25", None).await;
    assert_eq!(created.code.as_str(), "SUMMER-25");
    let again = store
        .create(
            NewPromo {
                code: PromoCode::parse("summer-25").unwrap(),
                discount: DiscountPercent::new(50).unwrap(),
                expires_at: None,
                max_uses: None,
            },
            &shared::Actor::command_line(),
        )
        .await;
    assert!(
        matches!(again, Err(CreatePromoError::Duplicate(code)) if code.as_str() == "SUMMER-25")
    );
    let unknown = store
        .usage(
            &PromoCode::parse("WINTER").unwrap(),
            &promo::DiscordId::parse("1").unwrap(),
        )
        .await
        .unwrap();
    assert!(unknown.is_none());
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_sale_that_empties_a_delete_after_out_of_stock_product_archives_it(
    #[case] backend: Backend,
) {
    let limited = ProductDraft {
        delete_after_out_of_stock: true,
        ..draft("Disco Bee", "9.00", Stock::Finite(2))
    };
    let (_db, store) = store(
        backend,
        vec![(1, limited), (2, draft("Owl", "1.00", Stock::Finite(1)))],
    )
    .await;
    let first = store
        .place(
            new_order(&[(1, "9.00", 1)], None, "111"),
            reservation(&[(1, 1)]),
            NO_CAPS,
        )
        .await
        .unwrap();
    let second = store
        .place(
            new_order(&[(1, "9.00", 1), (2, "1.00", 1)], None, "222"),
            reservation(&[(1, 1), (2, 1)]),
            NO_CAPS,
        )
        .await
        .unwrap();
    assert_eq!(stock(&store, 1).await, Stock::Finite(0));

    // stock 0, but the second order still holds one: not sold out yet
    store.mark_paid(first.id, now(), None, None).await.unwrap();
    assert!(!store.product(ProductId::new(1)).await.unwrap().archived);

    store.mark_paid(second.id, now(), None, None).await.unwrap();
    assert!(store.product(ProductId::new(1)).await.unwrap().archived);
    // a product without the flag stays, even at 0
    assert!(!store.product(ProductId::new(2)).await.unwrap().archived);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn stale_pending_orders_are_listed_oldest_first(#[case] backend: Backend) {
    let (_db, store) = store(backend, vec![(1, draft("Owl", "1.00", Stock::Unlimited))]).await;
    let mut old = new_order(&[(1, "1.00", 1)], None, "111");
    old.created_at = now() - Duration::minutes(40);
    let mut older = old.clone();
    older.created_at = now() - Duration::minutes(50);
    let old = store
        .place(old, Reservation::default(), NO_CAPS)
        .await
        .unwrap();
    let older = store
        .place(older, Reservation::default(), NO_CAPS)
        .await
        .unwrap();
    let fresh = store
        .place(
            new_order(&[(1, "1.00", 1)], None, "111"),
            Reservation::default(),
            NO_CAPS,
        )
        .await
        .unwrap();
    let paid_old = {
        let mut o = new_order(&[(1, "1.00", 1)], None, "111");
        o.created_at = now() - Duration::minutes(45);
        store
            .place(o, Reservation::default(), NO_CAPS)
            .await
            .unwrap()
    };
    store
        .mark_paid(paid_old.id, now(), None, None)
        .await
        .unwrap();

    let stale = store
        .pending_past_deadline(now() - Duration::minutes(35), now())
        .await
        .unwrap();
    assert_eq!(stale, [older.id, old.id]);
    assert!(!stale.contains(&fresh.id));
}

// ---- checkout under concurrency, through the service, on the real store ----

/// Checkout on the store, the system clock and no blocklist.
struct StorePorts;

impl orders::CheckoutPorts for StorePorts {
    type Orders = Store;
    type Products = Store;
    type Promos = Store;
    type Clock = SystemClock;
    type Blocklist = orders::NoBlocklist;
}

type StoreCheckout = Checkout<StorePorts>;

fn checkout(store: &Store) -> Arc<StoreCheckout> {
    let service = StoreCheckout::new(
        store.clone(),
        store.clone(),
        store.clone(),
        SystemClock,
        orders::NoBlocklist,
    );
    Arc::new(service)
}

fn request(product: i64, client_total: Decimal, discord: &str) -> CheckoutRequest {
    CheckoutRequest {
        items: vec![RequestedItem {
            product_id: ProductId::new(product),
            quantity: Quantity::new(1).unwrap(),
        }],
        promo_code: None,
        buyer: buyer(discord),
        method: PaymentMethod::Card,
        provider: PaymentProvider::Dev,
        client_total,
        currency: cart_pricing::Conversion::base(cart_pricing::CurrencyCode::USD),
        holder: OrderHolder::default(),
        idempotency: None,
    }
}

/// Runs the requests all at once; returns (placed, refused for stock).
async fn run_concurrently(
    service: Arc<StoreCheckout>,
    requests: Vec<CheckoutRequest>,
) -> (usize, usize) {
    let tasks: Vec<_> = requests
        .into_iter()
        .map(|request| {
            let service = Arc::clone(&service);
            tokio::spawn(async move { service.place_order(request).await })
        })
        .collect();
    let (mut placed, mut refused) = (0, 0);
    for task in tasks {
        match task.await.unwrap() {
            Ok(_) => placed += 1,
            Err(CheckoutError::OutOfStock(problems)) => {
                assert!(!problems.is_empty());
                refused += 1;
            }
            Err(other) => panic!("only stock may refuse a checkout here: {other:?}"),
        }
    }
    (placed, refused)
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_hundred_concurrent_checkouts_for_ten_in_stock_sell_exactly_ten(
    #[case] backend: Backend,
) {
    let (db, store) = store(
        backend,
        vec![(1, draft("Raccoon", "12.49", Stock::Finite(10)))],
    )
    .await;
    let requests = (0..200)
        .map(|i| request(1, Decimal::new(1249, 2), &format!("{}", 1000 + i)))
        .collect();
    let (placed, refused) = run_concurrently(checkout(&store), requests).await;
    assert_eq!((placed, refused), (10, 190));
    assert_eq!(stock(&store, 1).await, Stock::Finite(0));
    assert_eq!(count(&db, "SELECT COUNT(*) FROM orders").await, 10);
    assert_eq!(
        count(
            &db,
            "SELECT CAST(COALESCE(SUM(quantity), 0) AS BIGINT) FROM order_reservations"
        )
        .await,
        10
    );
    assert_eq!(
        count(&db, "SELECT COUNT(*) FROM products WHERE stock < 0").await,
        0
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_bundle_and_its_components_sold_concurrently_never_oversell_a_component(
    #[case] backend: Backend,
) {
    let bundle = ProductDraft {
        related_ids: vec![ProductId::new(1), ProductId::new(2)],
        ..draft("Starter Bundle", "5.00", Stock::Finite(20))
    };
    let (db, store) = store(
        backend,
        vec![
            (1, draft("Owl", "2.00", Stock::Finite(6))),
            (2, draft("Sheckles", "1.00", Stock::Unlimited)),
            (10, bundle),
        ],
    )
    .await;
    let mut requests = Vec::new();
    for i in 0..30 {
        requests.push(request(10, Decimal::new(500, 2), &format!("{}", 2000 + i)));
        requests.push(request(1, Decimal::new(200, 2), &format!("{}", 3000 + i)));
    }
    let (placed, refused) = run_concurrently(checkout(&store), requests).await;
    assert_eq!((placed, refused), (6, 54), "six owls, alone or in bundles");
    assert_eq!(stock(&store, 1).await, Stock::Finite(0));
    let bundles_sold = count(
        &db,
        "SELECT COALESCE(SUM(quantity), 0) FROM order_lines WHERE product_id = 10",
    )
    .await;
    let owls_sold = count(
        &db,
        "SELECT COALESCE(SUM(quantity), 0) FROM order_lines WHERE product_id = 1",
    )
    .await;
    assert_eq!(bundles_sold + owls_sold, 6);
    let Stock::Finite(bundles_left) = stock(&store, 10).await else {
        panic!("the bundle's stock is finite");
    };
    assert_eq!(i64::from(bundles_left), 20 - bundles_sold);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_expiries_and_payments_of_one_order_apply_exactly_one(#[case] backend: Backend) {
    let (_db, store) = store(backend, vec![(1, draft("Owl", "1.00", Stock::Finite(3)))]).await;
    let placed = store
        .place(
            new_order(&[(1, "1.00", 2)], None, "111"),
            reservation(&[(1, 2)]),
            NO_CAPS,
        )
        .await
        .unwrap();
    let tasks: Vec<_> = (0..40)
        .map(|i| {
            let store = store.clone();
            tokio::spawn(async move {
                if i % 2 == 0 {
                    store
                        .release(
                            placed.id,
                            Closing::Expired,
                            now(),
                            event(&format!("evt_exp_{i}")),
                        )
                        .await
                        .unwrap()
                } else {
                    store
                        .mark_paid(placed.id, now(), event(&format!("evt_paid_{i}")), None)
                        .await
                        .unwrap()
                }
            })
        })
        .collect();
    let mut changed = 0;
    for task in tasks {
        if task.await.unwrap() == Applied::Changed {
            changed += 1;
        }
    }
    assert_eq!(changed, 1);
    let status = store.order(placed.id).await.unwrap().status();
    let expected_stock = match status {
        OrderStatus::Expired => 3,
        OrderStatus::Paid => 1,
        other => panic!("unexpected status {other}"),
    };
    assert_eq!(stock(&store, 1).await, Stock::Finite(expected_stock));
}

/// Migration 000030 fills `orders.client_net` for the orders there are: an IPv4 address as
/// itself, an IPv6 one as its /64, an unreadable one as nothing.
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_client_networks_migration_fills_the_key_of_every_order(#[case] backend: Backend) {
    use garden_store::testing::{seed_order, SeedOrder};
    use migration::{Migrator, MigratorTrait};

    let (db, _store) = store(backend, vec![(1, draft("Owl", "1.00", Stock::Unlimited))]).await;
    let conn = &db.connection;
    let mut ids = Vec::new();
    for address in [
        Some("203.0.113.7"),
        Some("2001:db8:1:2:aaaa::1"),
        Some("not:an:address"),
        None,
    ] {
        let id = seed_order(conn, &SeedOrder::paid(1, "Owl", 1, Utc::now())).await;
        conn.execute(Statement::from_sql_and_values(
            conn.get_database_backend(),
            match backend {
                Backend::Postgres => "UPDATE orders SET client_ip = $1 WHERE id = $2",
                Backend::Sqlite => "UPDATE orders SET client_ip = ? WHERE id = ?",
            },
            [address.map(str::to_owned).into(), id.into()],
        ))
        .await
        .unwrap();
        ids.push(id);
    }
    // back to before the migration (and the ones after it), and forward again: it runs on
    // these rows
    let after: u32 = Migrator::migrations()
        .iter()
        .rev()
        .take_while(|m| m.name() != "m20261128_000030_client_networks")
        .count()
        .try_into()
        .unwrap();
    Migrator::down(conn, Some(after + 1)).await.unwrap();
    Migrator::up(conn, None).await.unwrap();
    let mut keys = Vec::new();
    for id in ids {
        let row = conn
            .query_one(Statement::from_string(
                conn.get_database_backend(),
                format!("SELECT client_net FROM orders WHERE id = {id}"),
            ))
            .await
            .unwrap()
            .unwrap();
        keys.push(row.try_get_by_index::<Option<String>>(0).unwrap());
    }
    assert_eq!(
        keys,
        [
            Some("203.0.113.7".to_owned()),
            Some("2001:db8:1:2::/64".to_owned()),
            None,
            None,
        ]
    );
}
