use cart_pricing::Money;
use catalog::{ProductDraft, ProductId, ProductRepository, Stock};
use rstest::rstest;
use sea_orm::{ConnectionTrait, Statement};
use store::testing::TestDatabase;
use store::Backend;

use crate::helpers::{eventually, ids, Options, TestApp};

fn draft(name: &str, price: &str) -> ProductDraft {
    ProductDraft {
        max_per_account: None,
        release_at: None,
        name: name.into(),
        description: String::new(),
        price: Money::parse(price).unwrap(),
        category: "Pets".into(),
        image: None,
        stock: Stock::Finite(2),
        weight: None,
        mutation: None,
        savings: None,
        sort_order: None,
        delete_after_out_of_stock: false,
        related_ids: vec![],
        dupe_warning: false,
    }
}

async fn execute(app: &TestApp, sql: &str) {
    let db = app.store.connection();
    db.execute(Statement::from_string(db.get_database_backend(), sql))
        .await
        .unwrap();
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_new_shop_serves_the_demo_catalog_in_storefront_order(#[case] backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let products = app.products().await;

    assert_eq!(products.len(), 30);
    // sort_order first (Raccoon 1, Disco Bee 2, Kitsune 3), then by price
    assert_eq!(&ids(&products)[..3], &[3, 22, 7]);
    let rest: Vec<f64> = products[3..]
        .iter()
        .map(|p| p["price"].as_f64().unwrap())
        .collect();
    assert!(
        rest.windows(2).all(|w| w[0] <= w[1]),
        "prices ascend after the sorted ones: {rest:?}"
    );

    let flagged: Vec<i64> = products
        .iter()
        .filter(|p| p["dupe_warning"] == true)
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    let mut flagged_sorted = flagged.clone();
    flagged_sorted.sort_unstable();
    assert_eq!(flagged_sorted, vec![3, 22, 25, 26, 28, 57]);
    assert_eq!(
        products.iter().filter(|p| p["stock"] == 0).count(),
        1,
        "one product is out of stock"
    );
    assert!(
        products.iter().any(|p| p["stock"].is_null()),
        "some stock is unlimited"
    );
    for category in ["Pets", "Sheckles", "Bundles", "Exclusives"] {
        assert!(
            products
                .iter()
                .any(|p| p["category"].as_str().unwrap().contains(category)),
            "the demo has {category}"
        );
    }
    let bundle = products.iter().find(|p| p["id"] == 24).unwrap();
    assert_eq!(bundle["related_ids"], serde_json::json!([1, 2, 12, 16]));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_product_has_every_field_of_the_spec(#[case] backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let raccoon = app.get_json("/api/products/3").await;
    assert_eq!(raccoon["name"], "Raccoon");
    assert_eq!(raccoon["price"], 24.99);
    assert_eq!(raccoon["savings"], 34.99);
    assert_eq!(raccoon["stock"], 6);
    assert_eq!(raccoon["weight"], 2.8);
    assert_eq!(raccoon["sort_order"], 1);
    assert_eq!(raccoon["dupe_warning"], true);
    assert_eq!(raccoon["delete_after_out_of_stock"], false);
    assert_eq!(raccoon["inventory"], 6);
    assert!(raccoon["mutation"].is_null());
    assert!(raccoon["image"]
        .as_str()
        .unwrap()
        .starts_with("/media/products/"));
    for field in ["id", "description", "category", "related_ids"] {
        assert!(!raccoon[field].is_null(), "{field} is present");
    }
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_demo_catalog_is_not_seeded_into_a_shop_that_has_products(#[case] backend: Backend) {
    let database = TestDatabase::create(backend).await;
    let store = store::Store::new(database.connection.clone(), shared::clock::SystemClock);
    store
        .insert_with_ids(vec![(ProductId::new(1), draft("Our Own Owl", "3.00"))])
        .await
        .unwrap();

    let app = TestApp::spawn_on(database, Options::demo_data(true)).await;
    let products = app.products().await;
    assert_eq!(ids(&products), vec![1]);
    assert_eq!(products[0]["name"], "Our Own Owl");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn production_never_seeds_demo_data(#[case] backend: Backend) {
    let database = TestDatabase::create(backend).await;
    let options = Options {
        demo_data: true,
        environment: garden_app::Environment::Production,
    };
    let app = TestApp::spawn_on(database, options).await;
    assert!(app.products().await.is_empty());
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_empty_shop_without_demo_data_lists_nothing(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    assert!(app.products().await.is_empty());
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn archived_products_are_hidden_from_the_storefront(#[case] backend: Backend) {
    let database = TestDatabase::create(backend).await;
    let store = store::Store::new(database.connection.clone(), shared::clock::SystemClock);
    store
        .insert_with_ids(vec![
            (ProductId::new(1), draft("Owl", "3.00")),
            (ProductId::new(2), draft("Bee", "4.00")),
        ])
        .await
        .unwrap();
    let app = TestApp::spawn_on(database, Options::demo_data(false)).await;
    execute(&app, "UPDATE products SET archived = true WHERE id = 2").await;
    eventually("the archived product leaves the list", || async {
        let listed = ids(&app.products().await);
        if listed == vec![1] {
            Ok(())
        } else {
            Err(listed)
        }
    })
    .await;

    assert_eq!(app.get("/api/products/2").await.status(), 404);
    assert_eq!(app.get("/api/products/2/related-ids").await.status(), 404);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_list_has_a_strong_etag_and_answers_304_while_unchanged(#[case] backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let first = app.get("/api/products").await;
    assert_eq!(first.headers()["cache-control"], "no-cache");
    let etag = first.headers()["etag"].to_str().unwrap().to_owned();
    assert!(
        etag.starts_with('"') && !etag.starts_with("W/"),
        "strong etag: {etag}"
    );

    let revalidated = app
        .client
        .get(format!("{}/api/products", app.address))
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(revalidated.status(), 304);
    assert_eq!(revalidated.headers()["etag"], etag.as_str());
    assert!(revalidated.bytes().await.unwrap().is_empty());

    let stale = app
        .client
        .get(format!("{}/api/products", app.address))
        .header("If-None-Match", "\"something-else\"")
        .send()
        .await
        .unwrap();
    assert_eq!(stale.status(), 200);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_change_in_the_database_reaches_the_list_with_a_new_etag(#[case] backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let before = app.get("/api/products").await.headers()["etag"]
        .to_str()
        .unwrap()
        .to_owned();
    // as another instance would: a write this instance did not make
    execute(&app, "UPDATE products SET stock = 1 WHERE id = 3").await;
    eventually("the list shows the write it did not make", || async {
        let raccoon = app
            .products()
            .await
            .into_iter()
            .find(|p| p["id"] == 3)
            .unwrap();
        if raccoon["stock"] == 1 {
            Ok(())
        } else {
            Err(raccoon)
        }
    })
    .await;
    let after = app.get("/api/products").await.headers()["etag"]
        .to_str()
        .unwrap()
        .to_owned();
    assert_ne!(before, after);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_unknown_product_is_a_404_with_the_spec_message(#[case] backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    for path in [
        "/api/products/999",
        "/api/products/abc",
        "/api/products/-1",
        "/api/products/%FF",
        "/api/products/1.5",
        "/api/products/999/related-ids",
        "/api/products/abc/related-ids",
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 404, "{path}");
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["message"], "Product not found.", "{path}");
        assert_eq!(body["errors"], serde_json::json!({}), "{path}");
    }
}

/// The extractors' own failures answer in the error shape: a query parameter given twice is a
/// 422 naming it, a path that is no route a JSON 404.
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn malformed_query_strings_and_paths_answer_in_the_error_shape(#[case] backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let twice = app.get("/api/orders/1?key=a&key=b").await;
    assert_eq!(twice.status(), 422);
    let body: serde_json::Value = twice.json().await.unwrap();
    assert_eq!(
        body,
        serde_json::json!({
            "message": "The key field is given more than once.",
            "code": "invalid_fields",
            "errors": {"key": ["The key field is given more than once."]},
        })
    );
    for path in [
        "/api/products/1/related-ids/",
        "/api//products",
        "/api/nothing%FF",
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 404, "{path}");
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(
            body,
            serde_json::json!({"message": "Not found.", "code": "not_found", "errors": {}}),
            "{path}"
        );
    }
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn related_ids_list_a_bundles_components(#[case] backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    assert_eq!(
        app.get_json("/api/products/29/related-ids").await,
        serde_json::json!([3, 7, 22])
    );
    assert_eq!(
        app.get_json("/api/products/1/related-ids").await,
        serde_json::json!([])
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn site_settings_and_health_are_served(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let site = app.get_json("/api/site").await;
    assert_eq!(site["reviews_url"], "https://reviews.example/garden-shop");
    assert_eq!(site["name"], "Garden Shop");
    assert_eq!(app.get_json("/api/health").await["status"], "ok");
    // the refund policy's one source: its version, its sections in order
    let policy = app.get_json("/api/refund-policy").await;
    assert_eq!(policy["version"], "2026-11-01");
    let headings: Vec<&str> = policy["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|section| section["heading"].as_str().unwrap())
        .collect();
    assert_eq!(headings[0], "Completed purchases");
    assert!(
        headings.contains(&"How to ask for a refund"),
        "{headings:?}"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_bundle_whose_component_sells_out_shows_out_of_stock(#[case] backend: Backend) {
    use crate::checkout_support::{browser, checkout, link_discord, payload, product, shop};

    let mut owl = product("Owl", "4.00", Some(1));
    // a one-off: the sale that empties it archives it, so the storefront no longer lists it
    owl.delete_after_out_of_stock = true;
    let mut bundle = product("Night Bundle", "9.00", Some(4));
    bundle.related_ids = vec![ProductId::new(1), ProductId::new(2)];
    let app = shop(
        backend,
        vec![(1, owl), (2, product("Bee", "6.00", Some(5))), (3, bundle)],
    )
    .await;
    let listed = |products: &[serde_json::Value], id: i64| {
        products.iter().find(|p| p["id"] == id).cloned().unwrap()
    };

    // the smallest of its own (4) and its components' stock (1 and 5)
    let before = app.products().await;
    assert_eq!(listed(&before, 3)["stock"], 1);
    assert_eq!(listed(&before, 3)["inventory"], 1);
    assert_eq!(app.get_json("/api/products/3").await["stock"], 1);

    // the last owl is sold
    let client = browser();
    link_discord(&app, &client, 0).await;
    let response = checkout(&app, &client, &payload(&[(1, 1)], 4.0)).await;
    assert_eq!(response.status(), 200);
    let order: serde_json::Value = response.json().await.unwrap();
    let id = order["order_id"].as_i64().unwrap();
    let paid = client
        .post(app.url(&format!("/dev/pay/{id}/pay")))
        .header("Origin", &app.address)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .send()
        .await
        .unwrap();
    assert_eq!(paid.status(), 303);

    let after = app.products().await;
    assert!(
        !after.iter().any(|p| p["id"] == 1),
        "the sold-out one-off is archived"
    );
    let shown = listed(&after, 3);
    assert_eq!(
        shown["stock"], 0,
        "the storefront shows the bundle Out of Stock"
    );
    assert_eq!(shown["inventory"], 0);
    let page = app.get_json("/api/products/3").await;
    assert_eq!(page["stock"], 0);
    assert_eq!(page["inventory"], 0);
    // the bundle's own count is untouched: it comes back when the component does
    assert_eq!(
        app.store.product(ProductId::new(3)).await.unwrap().stock,
        Stock::Finite(4)
    );
}
