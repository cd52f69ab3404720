//! The staff audit log: each staff action appends exactly one entry (who, what, before and
//! after, when, from where) in the same transaction as the change; a refused action appends
//! nothing; `GET /api/admin/audit` filters and pages it, for super_admins only, read only.

use accounts::Role;
use reqwest::Method;
use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;

use crate::audit_support::{assert_entry, Audited, Staff};

const BOUNDARY: &str = "garden-audit-test-boundary-7f1e";

fn multipart(fields: &[(&str, &str)]) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    body
}

fn product_form<'a>(name: &'a str, extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut fields = vec![
        ("name", name),
        ("price", "9.50"),
        ("category", "Pets"),
        ("description", "A wise bird"),
        ("stock", "4"),
    ];
    for (key, value) in extra {
        fields.retain(|(k, _)| k != key);
        fields.push((key, value));
    }
    fields
}

async fn send_form(
    audited: &Audited,
    staff: &Staff,
    method: Method,
    path: &str,
    fields: &[(&str, &str)],
) -> reqwest::Response {
    staff
        .client
        .request(method, audited.app.url(path))
        .header(
            "Content-Type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(multipart(fields))
        .send()
        .await
        .unwrap()
}

/// Creates a product through the API; its id.
async fn create_product(audited: &Audited, staff: &Staff, name: &str) -> i64 {
    let response = send_form(
        audited,
        staff,
        Method::POST,
        "/api/admin/products",
        &product_form(name, &[]),
    )
    .await;
    assert_eq!(response.status(), 201);
    response.json::<Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap()
}

async fn post(audited: &Audited, staff: &Staff, path: &str, body: Value) -> reqwest::Response {
    staff
        .client
        .post(audited.app.url(path))
        .json(&body)
        .send()
        .await
        .unwrap()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_stock_set_appends_one_entry_and_a_refused_one_appends_nothing(#[case] backend: Backend) {
    let audited = Audited::spawn(backend).await;
    let ada = audited.staff(Role::SuperAdmin).await;
    let id = create_product(&audited, &ada, "Owl").await;
    let seen = audited.count().await;

    let set = post(
        &audited,
        &ada,
        &format!("/api/admin/products/{id}/inventory"),
        json!({"inventory": 12}),
    )
    .await;
    assert_eq!(set.status(), 200);
    let entry = audited.one_new_entry(seen).await;
    assert_entry(&entry, &ada, "stock.set", &format!("product:{id}"));
    assert_eq!(entry["before"], json!({"name": "Owl", "stock": 4}));
    assert_eq!(entry["after"], json!({"name": "Owl", "stock": 12}));

    // refused: a bad count (422) and an unknown product (404)
    let seen = seen + 1;
    let bad = post(
        &audited,
        &ada,
        &format!("/api/admin/products/{id}/inventory"),
        json!({"inventory": -1}),
    )
    .await;
    assert_eq!(bad.status(), 422);
    let unknown = post(
        &audited,
        &ada,
        "/api/admin/products/99999/inventory",
        json!({"inventory": 3}),
    )
    .await;
    assert_eq!(unknown.status(), 404);
    let unknown_change = post(
        &audited,
        &ada,
        "/api/admin/products/99999/change",
        json!({"type": "plus", "inventory": 3}),
    )
    .await;
    assert_eq!(unknown_change.status(), 404);
    audited.nothing_new(seen, "a refused stock change").await;
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn minus_on_unlimited_stock_is_refused_and_appends_nothing(#[case] backend: Backend) {
    let audited = Audited::spawn(backend).await;
    let ada = audited.staff(Role::SuperAdmin).await;
    let response = send_form(
        &audited,
        &ada,
        Method::POST,
        "/api/admin/products",
        &product_form("Seed Pack", &[("stock", "")]),
    )
    .await;
    assert_eq!(response.status(), 201);
    let created: Value = response.json().await.unwrap();
    assert_eq!(created["stock"], Value::Null, "unlimited");
    let id = created["id"].as_i64().unwrap();
    let seen = audited.count().await;

    let minus = post(
        &audited,
        &ada,
        &format!("/api/admin/products/{id}/change"),
        json!({"type": "minus", "inventory": 1}),
    )
    .await;
    assert_eq!(minus.status(), 422);
    let body: Value = minus.json().await.unwrap();
    assert!(
        body["errors"]["type"][0]
            .as_str()
            .unwrap()
            .contains("unlimited"),
        "{body:#}"
    );
    audited
        .nothing_new(seen, "a minus on unlimited stock")
        .await;
    let products: Value = audited
        .auditor
        .get(audited.app.url("/api/admin/products"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let product = products
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id)
        .unwrap();
    assert_eq!(product["stock"], Value::Null, "still unlimited");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn only_super_admins_read_the_log_and_nobody_changes_it(#[case] backend: Backend) {
    let audited = Audited::spawn(backend).await;
    let app = &audited.app;
    let guest = app.new_client();
    let customer = app.client_with_role(Role::Customer).await;
    let admin = app.client_with_role(Role::Admin).await;
    for (who, client, status) in [
        ("guest", &guest, 401),
        ("customer", &customer, 403),
        ("admin", &admin, 403),
        ("super_admin", &audited.auditor, 200),
    ] {
        let response = client
            .get(app.url("/api/admin/audit"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), status, "{who}");
        if status != 200 {
            let body: Value = response.json().await.unwrap();
            assert!(body["message"].is_string(), "{who}: {body}");
        }
    }
    for method in [Method::POST, Method::PUT, Method::DELETE, Method::PATCH] {
        for path in ["/api/admin/audit", "/api/admin/audit/1"] {
            let response = audited
                .auditor
                .request(method.clone(), app.url(path))
                .json(&json!({}))
                .send()
                .await
                .unwrap();
            let expected = if path == "/api/admin/audit" { 405 } else { 404 };
            assert_eq!(response.status(), expected, "{method} {path}");
        }
    }
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_database_refuses_to_change_or_delete_an_entry(#[case] backend: Backend) {
    use sea_orm::{ConnectionTrait, Statement};
    let audited = Audited::spawn(backend).await;
    let ada = audited.staff(Role::SuperAdmin).await;
    create_product(&audited, &ada, "Owl").await;
    let db = audited.app.store.connection();
    let sql = |text: &str| Statement::from_string(db.get_database_backend(), text.to_owned());
    assert!(db
        .execute(sql("UPDATE audit_log SET actor_name = 'someone else'"))
        .await
        .is_err());
    assert!(db.execute(sql("DELETE FROM audit_log")).await.is_err());
    let entries = audited.entries("").await;
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0]["actor"]["name"], ada.name.as_str());
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_log_filters_by_staff_member_kind_and_time_and_pages_newest_first(
    #[case] backend: Backend,
) {
    let audited = Audited::spawn(backend).await;
    let ada = audited.staff(Role::SuperAdmin).await;
    let bob = audited.staff(Role::SuperAdmin).await;
    let owl = create_product(&audited, &ada, "Owl").await;
    let bee = create_product(&audited, &bob, "Bee").await;
    for (staff, id, count) in [(&ada, owl, 1), (&bob, bee, 2), (&ada, bee, 3)] {
        let response = post(
            &audited,
            staff,
            &format!("/api/admin/products/{id}/inventory"),
            json!({"inventory": count}),
        )
        .await;
        assert_eq!(response.status(), 200);
    }
    let change = post(
        &audited,
        &bob,
        &format!("/api/admin/products/{owl}/change"),
        json!({"type": "minus", "inventory": 5}),
    )
    .await;
    assert_eq!(change.status(), 200);

    let all = audited.entries("").await;
    let kinds: Vec<&str> = all.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        vec![
            "stock.change",
            "stock.set",
            "stock.set",
            "stock.set",
            "product.create",
            "product.create"
        ],
        "newest first"
    );
    let ids: Vec<i64> = all.iter().map(|e| e["id"].as_i64().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] > w[1]));
    // minus 5 of 1 stops at zero; the entry says what was asked and what it came to
    assert_eq!(all[0]["before"], json!({"name": "Owl", "stock": 1}));
    assert_eq!(
        all[0]["after"],
        json!({"name": "Owl", "stock": 0, "change": "-5"})
    );

    let by_ada = audited.entries(&format!("actor_id={}", ada.id)).await;
    assert_eq!(by_ada.len(), 3);
    assert!(by_ada.iter().all(|e| e["actor"]["id"] == ada.id));
    let sets = audited.entries("kind=stock.set").await;
    assert_eq!(sets.len(), 3);
    let bobs_sets = audited
        .entries(&format!("kind=stock.set&actor_id={}", bob.id))
        .await;
    assert_eq!(bobs_sets.len(), 1);
    assert_eq!(bobs_sets[0]["target"], format!("product:{bee}"));

    // time: everything is from today; nothing before yesterday or from tomorrow on
    let today = chrono::Utc::now().date_naive();
    let day = |days: i64| (today + chrono::Duration::days(days)).to_string();
    assert_eq!(
        audited
            .entries(&format!("since={}&before={}", day(0), day(1)))
            .await
            .len(),
        6
    );
    assert!(audited
        .entries(&format!("before={}", day(-1)))
        .await
        .is_empty());
    assert!(audited
        .entries(&format!("since={}", day(1)))
        .await
        .is_empty());
    // an exact time: since the third-newest entry's time, that one and every later one
    let time = |entry: &Value| {
        chrono::DateTime::parse_from_rfc3339(entry["at"].as_str().unwrap()).unwrap()
    };
    let at = all[2]["at"].as_str().unwrap();
    let since = audited.entries(&format!("since={}", urlencode(at))).await;
    assert!(since.len() >= 3, "{}", since.len());
    assert!(since.iter().all(|e| time(e) >= time(&all[2])));
    let before = audited.entries(&format!("before={}", urlencode(at))).await;
    assert!(before.iter().all(|e| time(e) < time(&all[2])));
    assert_eq!(
        since.len() + before.len(),
        6,
        "the two halves are the whole log"
    );

    // pages of two, newest first, with the cursor
    let first = audited.page("limit=2").await;
    let first_ids: Vec<i64> = first["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_i64().unwrap())
        .collect();
    assert_eq!(first_ids, ids[..2]);
    assert_eq!(first["next_cursor"], ids[1]);
    let last = audited.page(&format!("limit=2&cursor={}", ids[3])).await;
    let last_ids: Vec<i64> = last["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_i64().unwrap())
        .collect();
    assert_eq!(last_ids, ids[4..]);
    assert_eq!(last["next_cursor"], Value::Null, "the last page");

    // the filters' choices: who acted, and every kind
    let actors = first["actors"].as_array().unwrap();
    let names: Vec<&str> = actors.iter().map(|a| a["name"].as_str().unwrap()).collect();
    let mut expected = vec![ada.name.as_str(), bob.name.as_str()];
    expected.sort_by_key(|n| n.to_lowercase());
    assert_eq!(names, expected);
    let kinds = first["kinds"].as_array().unwrap();
    assert!(kinds.contains(&json!("stock.set")) && kinds.contains(&json!("user.password")));
}

fn urlencode(text: &str) -> String {
    text.replace('+', "%2B").replace(':', "%3A")
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[tokio::test]
async fn bad_filters_answer_422_per_field(#[case] backend: Backend) {
    let audited = Audited::spawn(backend).await;
    for (query, field) in [
        ("actor_id=abc", "actor_id"),
        ("actor_id=-3", "actor_id"),
        ("kind=stock.steal", "kind"),
        ("since=yesterday", "since"),
        ("before=2026-02-30", "before"),
        ("since=2026-11-25&before=2026-11-24", "before"),
        ("cursor=0", "cursor"),
        ("limit=101", "limit"),
        ("limit=0", "limit"),
    ] {
        let response = audited
            .auditor
            .get(audited.app.url(&format!("/api/admin/audit?{query}")))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 422, "{query}");
        let body: Value = response.json().await.unwrap();
        assert!(body["message"].is_string(), "{query}");
        assert!(body["errors"][field][0].is_string(), "{query}: {body}");
    }
    // empty filters are no filters
    let page = audited.page("actor_id=&kind=&since=&before=").await;
    assert!(page["entries"].as_array().unwrap().is_empty());
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn every_catalog_write_appends_one_entry_with_before_and_after(#[case] backend: Backend) {
    let audited = Audited::spawn(backend).await;
    let ada = audited.staff(Role::SuperAdmin).await;
    let app = &audited.app;

    // create: no before, the whole product after
    let owl = create_product(&audited, &ada, "Owl").await;
    let entry = audited.one_new_entry(0).await;
    assert_entry(&entry, &ada, "product.create", &format!("product:{owl}"));
    assert_eq!(entry["before"], Value::Null);
    assert_eq!(entry["after"]["name"], "Owl");
    assert_eq!(entry["after"]["price"], "9.50");
    assert_eq!(entry["after"]["stock"], 4);
    assert_eq!(entry["after"]["related_ids"], json!([]));

    // update: the old values before, the new ones after
    let edited = send_form(
        &audited,
        &ada,
        Method::PUT,
        &format!("/api/admin/products/{owl}"),
        &product_form("Snowy Owl", &[("price", "11.25")]),
    )
    .await;
    assert_eq!(edited.status(), 200);
    let entry = audited.one_new_entry(1).await;
    assert_entry(&entry, &ada, "product.update", &format!("product:{owl}"));
    assert_eq!(
        (&entry["before"]["name"], &entry["before"]["price"]),
        (&json!("Owl"), &json!("9.50"))
    );
    assert_eq!(
        (&entry["after"]["name"], &entry["after"]["price"]),
        (&json!("Snowy Owl"), &json!("11.25"))
    );

    // a refused edit (422) and an edit of an unknown product (404) write nothing
    let refused = send_form(
        &audited,
        &ada,
        Method::PUT,
        &format!("/api/admin/products/{owl}"),
        &product_form("Owl", &[("price", "free")]),
    )
    .await;
    assert_eq!(refused.status(), 422);
    let unknown = send_form(
        &audited,
        &ada,
        Method::PUT,
        "/api/admin/products/99999",
        &product_form("Owl", &[]),
    )
    .await;
    assert_eq!(unknown.status(), 404);
    audited.nothing_new(2, "a refused product edit").await;

    // stock plus: before and after, and what was asked
    let bee = create_product(&audited, &ada, "Bee").await;
    let plus = post(
        &audited,
        &ada,
        &format!("/api/admin/products/{bee}/change"),
        json!({"type": "plus", "inventory": 3}),
    )
    .await;
    assert_eq!(plus.status(), 200);
    let entry = audited.one_new_entry(3).await;
    assert_entry(&entry, &ada, "stock.change", &format!("product:{bee}"));
    assert_eq!(entry["before"], json!({"name": "Bee", "stock": 4}));
    assert_eq!(
        entry["after"],
        json!({"name": "Bee", "stock": 7, "change": "+3"})
    );

    // reorder: the products that moved, under their name and id
    let moved = post(
        &audited,
        &ada,
        "/api/admin/products/reorder",
        json!({"updates": [{"id": bee, "sort_order": 0}, {"id": owl, "sort_order": 1}]}),
    )
    .await;
    assert_eq!(moved.status(), 200);
    let entry = audited.one_new_entry(4).await;
    assert_entry(&entry, &ada, "product.reorder", "products");
    let (bee_key, owl_key) = (format!("Bee (#{bee})"), format!("Snowy Owl (#{owl})"));
    assert_eq!(entry["before"], json!({ &bee_key: null, &owl_key: null }));
    assert_eq!(entry["after"], json!({ &bee_key: 0, &owl_key: 1 }));
    let refused = post(
        &audited,
        &ada,
        "/api/admin/products/reorder",
        json!({"updates": [{"id": bee, "sort_order": 2}, {"id": 99999, "sort_order": 3}]}),
    )
    .await;
    assert_eq!(refused.status(), 422);
    audited.nothing_new(5, "a refused reorder").await;

    // delete: the product before, nothing after; unknown: 404 and nothing
    let deleted = ada
        .client
        .delete(app.url(&format!("/api/admin/products/{bee}")))
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 200);
    let entry = audited.one_new_entry(5).await;
    assert_entry(&entry, &ada, "product.delete", &format!("product:{bee}"));
    assert_eq!(entry["before"]["name"], "Bee");
    assert_eq!(entry["before"]["stock"], 7);
    assert_eq!(entry["after"], Value::Null);
    let gone = ada
        .client
        .delete(app.url(&format!("/api/admin/products/{bee}")))
        .send()
        .await
        .unwrap();
    assert_eq!(gone.status(), 404);
    audited.nothing_new(6, "deleting an unknown product").await;
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn archiving_a_product_with_orders_records_it_archived(#[case] backend: Backend) {
    use store::testing::{seed_order, SeedOrder};
    let audited = Audited::spawn(backend).await;
    let ada = audited.staff(Role::SuperAdmin).await;
    let owl = create_product(&audited, &ada, "Owl").await;
    seed_order(
        audited.app.store.connection(),
        &SeedOrder::paid(owl, "Owl", 1, chrono::Utc::now()),
    )
    .await;
    let archived = ada
        .client
        .delete(audited.app.url(&format!("/api/admin/products/{owl}")))
        .send()
        .await
        .unwrap();
    assert_eq!(archived.status(), 200);
    let entry = audited.one_new_entry(1).await;
    assert_entry(&entry, &ada, "product.delete", &format!("product:{owl}"));
    assert_eq!(entry["before"]["archived"], false);
    assert_eq!(entry["after"]["archived"], true);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn promo_codes_blocklist_changes_and_hidden_reviews_are_audited(#[case] backend: Backend) {
    use sea_orm::{ConnectionTrait, Statement};
    use store::testing::{seed_order, SeedOrder};
    let audited = Audited::spawn(backend).await;
    let app = &audited.app;
    let ada = audited.staff(Role::SuperAdmin).await;
    let eve = audited.staff(Role::Admin).await;

    // promo code: created; a duplicate and a bad one (422 each) write nothing
    let promo = json!({"code": "spring10", "discount_percent": 10, "max_uses": 5});
    let created = post(&audited, &ada, "/api/admin/promo-codes", promo.clone()).await;
    assert_eq!(created.status(), 201);
    let entry = audited.one_new_entry(0).await;
    assert!(entry["target"].as_str().unwrap().starts_with("promo:"));
    assert_entry(
        &entry,
        &ada,
        "promo.create",
        entry["target"].as_str().unwrap(),
    );
    assert_eq!(entry["before"], Value::Null);
    assert_eq!(
        entry["after"],
        json!({"code": "SPRING10", "discount_percent": 10, "expires_at": null, "max_uses": 5,
               "active": true})
    );
    let again = post(&audited, &ada, "/api/admin/promo-codes", promo).await;
    assert_eq!(again.status(), 422);
    let bad = post(
        &audited,
        &ada,
        "/api/admin/promo-codes",
        json!({"code": "x y", "discount_percent": 0}),
    )
    .await;
    assert_eq!(bad.status(), 422);
    audited.nothing_new(1, "a refused promo code").await;

    // blocklist: added, a duplicate (409) and a bad one (422) write nothing, removed, 404
    let block = json!({"kind": "email", "value": "Cheat@Example.com", "reason": "chargebacks"});
    let added = post(&audited, &ada, "/api/admin/blocklist", block.clone()).await;
    assert_eq!(added.status(), 201);
    let block_id = added.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let entry = audited.one_new_entry(1).await;
    assert_entry(
        &entry,
        &ada,
        "blocklist.add",
        &format!("blocklist:{block_id}"),
    );
    assert_eq!(
        entry["after"],
        json!({"kind": "email", "value": "cheat@example.com", "reason": "chargebacks", "status": "active", "expires_at": null})
    );
    assert_eq!(
        post(&audited, &ada, "/api/admin/blocklist", block)
            .await
            .status(),
        409
    );
    assert_eq!(
        post(
            &audited,
            &ada,
            "/api/admin/blocklist",
            json!({"kind": "phone", "value": "1", "reason": "x"})
        )
        .await
        .status(),
        422
    );
    audited.nothing_new(2, "a refused blocklist entry").await;
    let remove = |id: i64| {
        ada.client
            .delete(app.url(&format!("/api/admin/blocklist/{id}")))
            .send()
    };
    assert_eq!(remove(block_id).await.unwrap().status(), 204);
    let entry = audited.one_new_entry(2).await;
    assert_entry(
        &entry,
        &ada,
        "blocklist.remove",
        &format!("blocklist:{block_id}"),
    );
    assert_eq!(
        entry["before"],
        json!({"kind": "email", "value": "cheat@example.com", "reason": "chargebacks", "status": "active", "expires_at": null})
    );
    assert_eq!(entry["after"], Value::Null);
    assert_eq!(remove(block_id).await.unwrap().status(), 404);
    audited
        .nothing_new(3, "removing an entry that is gone")
        .await;

    // a review hidden by an admin (staff), with the reason; an unknown one is 404
    let order = seed_order(
        app.store.connection(),
        &SeedOrder {
            status: "delivered",
            ..SeedOrder::paid(1, "Owl", 1, chrono::Utc::now())
        },
    )
    .await;
    let db = app.store.connection();
    db.execute(Statement::from_sql_and_values(
        db.get_database_backend(),
        match db.get_database_backend() {
            sea_orm::DatabaseBackend::Postgres => {
                "INSERT INTO reviews (order_id, rating, text, name, created_at) \
                 VALUES ($1, 2, 'meh', 'Ki***', $2)"
            }
            _ => {
                "INSERT INTO reviews (order_id, rating, text, name, created_at) \
                 VALUES (?, 2, 'meh', 'Ki***', ?)"
            }
        },
        [order.into(), chrono::Utc::now().into()],
    ))
    .await
    .unwrap();
    let review_id = app.get_json("/api/reviews").await["reviews"][0]["id"]
        .as_i64()
        .unwrap();
    let hidden = post(
        &audited,
        &eve,
        &format!("/api/admin/reviews/{review_id}/hide"),
        json!({"reason": "abusive"}),
    )
    .await;
    assert_eq!(hidden.status(), 200);
    let entry = audited.one_new_entry(3).await;
    assert_entry(&entry, &eve, "review.hide", &format!("review:{review_id}"));
    assert_eq!(
        entry["before"],
        json!({"order_id": order, "rating": 2, "hidden": false, "hidden_reason": null})
    );
    assert_eq!(
        entry["after"],
        json!({"order_id": order, "rating": 2, "hidden": true, "hidden_reason": "abusive"})
    );
    let unknown = post(
        &audited,
        &eve,
        "/api/admin/reviews/99999/hide",
        json!({"reason": "abusive"}),
    )
    .await;
    assert_eq!(unknown.status(), 404);
    let no_reason = post(
        &audited,
        &eve,
        &format!("/api/admin/reviews/{review_id}/hide"),
        json!({"reason": " "}),
    )
    .await;
    assert_eq!(no_reason.status(), 422);
    audited.nothing_new(4, "a refused hide").await;
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_command_line_records_new_accounts_role_name_and_password_changes(
    #[case] backend: Backend,
) {
    use clap::Parser;
    use garden_app::{run_cli, Cli};
    let audited = Audited::spawn(backend).await;
    let app = &audited.app;
    let run = |role: &'static str, name: &'static str, password: &'static str| {
        let cli = Cli::try_parse_from([
            "garden-shop",
            "users",
            "create",
            "Boss@Example.com",
            "--role",
            role,
            "--name",
            name,
        ])
        .unwrap();
        run_cli(
            cli.command.unwrap(),
            app.settings.clone(),
            std::io::Cursor::new(format!("{password}\n")),
        )
    };
    let from_cli = |entry: &Value| {
        assert_eq!(entry["actor"], json!({"id": null, "name": "command line"}));
        assert_eq!(entry["ip"], Value::Null);
    };

    run("admin", "Boss", "first password 1").await.unwrap();
    let entries = audited.entries("").await;
    assert_eq!(entries.len(), 1);
    let user_id = entries[0]["target"].as_str().unwrap().to_owned();
    assert!(user_id.starts_with("user:"));
    from_cli(&entries[0]);
    assert_eq!(entries[0]["kind"], "user.create");
    assert_eq!(
        entries[0]["after"],
        json!({"email": "boss@example.com", "name": "Boss", "role": "admin"})
    );

    // same role and name, new password: only that the password changed, never the hash
    run("admin", "Boss", "second password 2").await.unwrap();
    let entries = audited.entries("").await;
    assert_eq!(entries.len(), 2);
    from_cli(&entries[0]);
    assert_eq!(entries[0]["kind"], "user.password");
    assert_eq!(entries[0]["target"], user_id.as_str());
    assert_eq!(entries[0]["before"], Value::Null);
    assert_eq!(
        entries[0]["after"],
        json!({"email": "boss@example.com", "password": "changed"})
    );

    // a new role and name: one entry each, and the password again
    run("super_admin", "Big Boss", "third password 3")
        .await
        .unwrap();
    let entries = audited.entries("").await;
    assert_eq!(entries.len(), 5);
    let mut kinds: Vec<&str> = entries[..3]
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    kinds.sort_unstable();
    assert_eq!(kinds, vec!["user.name", "user.password", "user.role"]);
    let role = entries.iter().find(|e| e["kind"] == "user.role").unwrap();
    from_cli(role);
    assert_eq!(role["before"]["role"], "admin");
    assert_eq!(role["after"]["role"], "super_admin");
    let name = entries.iter().find(|e| e["kind"] == "user.name").unwrap();
    assert_eq!(
        (&name["before"]["name"], &name["after"]["name"]),
        (&json!("Boss"), &json!("Big Boss"))
    );
    let text = serde_json::to_string(&entries).unwrap();
    assert!(
        !text.contains("password 3") && !text.contains("argon2"),
        "{text}"
    );

    // the filter finds the command line's entries
    assert_eq!(audited.entries("actor_id=cli").await.len(), 5);
    let actors = audited.page("").await["actors"].clone();
    assert_eq!(actors, json!([{"id": null, "name": "command line"}]));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_change_whose_entry_cannot_be_written_does_not_happen(#[case] backend: Backend) {
    use sea_orm::{ConnectionTrait, DatabaseBackend, Statement};
    let audited = Audited::spawn(backend).await;
    let ada = audited.staff(Role::SuperAdmin).await;
    let id = create_product(&audited, &ada, "Owl").await;
    // from now on the log refuses every entry
    let db = audited.app.store.connection();
    let refuse = match db.get_database_backend() {
        DatabaseBackend::Postgres => vec![
            "CREATE FUNCTION refuse_audit() RETURNS trigger AS $$ \
             BEGIN RAISE EXCEPTION 'no more entries'; END $$ LANGUAGE plpgsql",
            "CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log \
             FOR EACH ROW EXECUTE FUNCTION refuse_audit()",
        ],
        _ => vec![
            "CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log \
             BEGIN SELECT RAISE(ABORT, 'no more entries'); END",
        ],
    };
    for sql in refuse {
        db.execute(Statement::from_string(db.get_database_backend(), sql))
            .await
            .unwrap();
    }

    let set = post(
        &audited,
        &ada,
        &format!("/api/admin/products/{id}/inventory"),
        json!({"inventory": 12}),
    )
    .await;
    assert_eq!(set.status(), 500);
    let edit = send_form(
        &audited,
        &ada,
        Method::PUT,
        &format!("/api/admin/products/{id}"),
        &product_form("Renamed", &[]),
    )
    .await;
    assert_eq!(edit.status(), 500);
    let promo = post(
        &audited,
        &ada,
        "/api/admin/promo-codes",
        json!({"code": "NEVER", "discount_percent": 10}),
    )
    .await;
    assert_eq!(promo.status(), 500);

    // read from the database (not the storefront's snapshot)
    let products: Vec<Value> = ada
        .client
        .get(audited.app.url("/api/admin/products"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        (&products[0]["name"], &products[0]["stock"]),
        (&json!("Owl"), &json!(4)),
        "nothing changed without its entry"
    );
    assert_eq!(audited.app.count_rows("promo_codes").await, 0);
    assert_eq!(audited.count().await, 1);
}
