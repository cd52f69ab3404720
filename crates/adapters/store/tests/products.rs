//! The product repository on both databases, each test on a fresh one.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cart_pricing::Money;
use catalog::{CatalogError, ProductDraft, ProductId, ProductRepository, Stock};
use garden_store::testing::TestDatabase;
use garden_store::{Backend, Store};
use rstest::rstest;

fn draft(name: &str, price: &str) -> ProductDraft {
    ProductDraft {
        max_per_account: None,
        release_at: None,
        name: name.into(),
        description: format!("{name} for your garden"),
        price: Money::parse(price).unwrap(),
        category: "Pets".into(),
        image: Some("/media/products/abc.png".into()),
        stock: Stock::Finite(3),
        weight: Some(2.75),
        mutation: Some("Rainbow".into()),
        savings: Some(Money::parse("19.99").unwrap()),
        sort_order: Some(4),
        delete_after_out_of_stock: true,
        related_ids: vec![],
        dupe_warning: true,
    }
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
async fn a_product_comes_back_exactly_as_it_was_stored(#[case] backend: Backend) {
    let (_db, store) = store(backend).await;
    store
        .insert_with_ids(vec![(ProductId::new(3), draft("Raccoon", "12.49"))])
        .await
        .unwrap();

    let product = store.product(ProductId::new(3)).await.unwrap();
    assert_eq!(product.name, "Raccoon");
    assert_eq!(product.price, Money::parse("12.49").unwrap());
    assert_eq!(product.savings, Some(Money::parse("19.99").unwrap()));
    assert_eq!(product.stock, Stock::Finite(3));
    assert_eq!(product.weight, Some(2.75));
    assert_eq!(product.mutation.as_deref(), Some("Rainbow"));
    assert_eq!(product.sort_order, Some(4));
    assert!(product.delete_after_out_of_stock);
    assert!(product.dupe_warning);
    assert!(!product.archived);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn unlimited_stock_and_empty_optionals_round_trip(#[case] backend: Backend) {
    let (_db, store) = store(backend).await;
    let sheckles = ProductDraft {
        stock: Stock::Unlimited,
        weight: None,
        mutation: None,
        savings: None,
        sort_order: None,
        image: None,
        ..draft("1T Sheckles", "3.00")
    };
    store
        .insert_with_ids(vec![(ProductId::new(1), sheckles)])
        .await
        .unwrap();
    let product = store.product(ProductId::new(1)).await.unwrap();
    assert_eq!(product.stock, Stock::Unlimited);
    assert_eq!(
        (product.weight, product.savings, product.image),
        (None, None, None)
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_bundle_keeps_its_components_in_order(#[case] backend: Backend) {
    let (_db, store) = store(backend).await;
    let bundle = ProductDraft {
        related_ids: vec![ProductId::new(2), ProductId::new(1)],
        ..draft("Starter Bundle", "20.00")
    };
    store
        .insert_with_ids(vec![
            (ProductId::new(1), draft("Bunny", "1.00")),
            (ProductId::new(2), draft("Owl", "2.00")),
            (ProductId::new(10), bundle),
        ])
        .await
        .unwrap();

    let one = store.product(ProductId::new(10)).await.unwrap();
    assert_eq!(one.related_ids, vec![ProductId::new(2), ProductId::new(1)]);
    let all = store.all_products().await.unwrap();
    let listed = all.iter().find(|p| p.id == ProductId::new(10)).unwrap();
    assert_eq!(
        listed.related_ids,
        vec![ProductId::new(2), ProductId::new(1)]
    );
    assert!(all
        .iter()
        .filter(|p| p.id != ProductId::new(10))
        .all(|p| p.related_ids.is_empty()));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_unknown_product_is_not_found(#[case] backend: Backend) {
    let (_db, store) = store(backend).await;
    let result = store.product(ProductId::new(99)).await;
    assert!(matches!(result, Err(CatalogError::NotFound(id)) if id == ProductId::new(99)));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_failed_insert_leaves_nothing_behind(#[case] backend: Backend) {
    let (_db, store) = store(backend).await;
    // the bundle names a component that does not exist: the foreign key refuses it
    let broken = ProductDraft {
        related_ids: vec![ProductId::new(404)],
        ..draft("Broken", "1.00")
    };
    let result = store
        .insert_with_ids(vec![
            (ProductId::new(1), draft("Owl", "2.00")),
            (ProductId::new(2), broken),
        ])
        .await;
    assert!(matches!(result, Err(CatalogError::Unknown(_))));
    assert_eq!(store.count_products().await.unwrap(), 0);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn explicit_ids_do_not_break_later_inserts(#[case] backend: Backend) {
    let (db, store) = store(backend).await;
    store
        .insert_with_ids(vec![(ProductId::new(57), draft("Disco Bee", "9.00"))])
        .await
        .unwrap();
    // a product created without an id afterwards gets a fresh one, past the largest
    use sea_orm::{ConnectionTrait, Statement};
    let sql = "INSERT INTO products (name, description, price_cents, category, delete_after_out_of_stock, \
               dupe_warning, archived, created_at, updated_at) \
               VALUES ('Snail', '', 100, 'Pets', false, false, false, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)";
    db.connection
        .execute(Statement::from_string(
            db.connection.get_database_backend(),
            sql,
        ))
        .await
        .unwrap();
    let ids: Vec<i64> = store
        .all_products()
        .await
        .unwrap()
        .iter()
        .map(|p| p.id.get())
        .collect();
    assert!(ids.contains(&57));
    assert!(
        ids.iter().any(|id| *id > 57),
        "new id after 57, got {ids:?}"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_release_is_claimed_for_its_announcement_once_and_again_when_it_moves(
    #[case] backend: Backend,
) {
    use chrono::{Duration, TimeZone, Utc};
    let (_db, store) = store(backend).await;
    let at = Utc.with_ymd_and_hms(2026, 11, 27, 3, 0, 0).unwrap();
    store
        .insert_with_ids(vec![
            (
                ProductId::new(1),
                ProductDraft {
                    release_at: Some(at),
                    max_per_account: Some(2),
                    ..draft("Dragon", "10.00")
                },
            ),
            (ProductId::new(2), draft("Owl", "1.00")),
        ])
        .await
        .unwrap();
    let dragon = store.product(ProductId::new(1)).await.unwrap();
    assert_eq!(dragon.release_at, Some(at));
    assert_eq!(dragon.max_per_account, Some(2));

    // not yet: nothing to announce
    let before = at - Duration::milliseconds(1);
    assert_eq!(store.claim_release_announcements(before).await.unwrap(), 0);
    // the first instance that comes claims it; every later one gets nothing
    assert_eq!(store.claim_release_announcements(at).await.unwrap(), 1);
    assert_eq!(store.claim_release_announcements(at).await.unwrap(), 0);
    let later = at + Duration::seconds(5);
    assert_eq!(store.claim_release_announcements(later).await.unwrap(), 0);

    // moved to a new time: announced again once that comes
    use sea_orm::{ConnectionTrait, Statement};
    let db = store.connection();
    let moved = at + Duration::minutes(10);
    db.execute(Statement::from_sql_and_values(
        db.get_database_backend(),
        match db.get_database_backend() {
            sea_orm::DatabaseBackend::Postgres => {
                "UPDATE products SET release_at = $1 WHERE id = 1"
            }
            _ => "UPDATE products SET release_at = ? WHERE id = 1",
        },
        [moved.into()],
    ))
    .await
    .unwrap();
    assert_eq!(store.claim_release_announcements(later).await.unwrap(), 0);
    assert_eq!(store.claim_release_announcements(moved).await.unwrap(), 1);
    assert_eq!(store.claim_release_announcements(moved).await.unwrap(), 0);
}
