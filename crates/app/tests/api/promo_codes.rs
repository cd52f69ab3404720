//! Staff promo codes after creation (issue 23 item 8): the list with uses so far, changes that
//! apply to later orders only, switching a code off (refused at validation and checkout, kept
//! for the order history), deleting a code no order used, and the audit entries; on SQLite and
//! PostgreSQL.

use accounts::Role;
use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;

use crate::audit_support::{assert_entry, Audited};
use crate::checkout_support::*;
use crate::helpers::TestApp;

async fn create(app: &TestApp, boss: &reqwest::Client, body: Value) -> Value {
    let response = app.post_json(boss, "/api/admin/promo-codes", &body).await;
    assert_eq!(response.status(), 201, "{body}");
    response.json().await.unwrap()
}

async fn list(app: &TestApp, client: &reqwest::Client) -> Vec<Value> {
    let response = client
        .get(app.url("/api/admin/promo-codes"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

fn by_code<'a>(codes: &'a [Value], code: &str) -> &'a Value {
    codes
        .iter()
        .find(|c| c["code"] == code)
        .unwrap_or_else(|| panic!("{code} is listed: {codes:#?}"))
}

/// An id as it goes in the path: a number, or text as it is.
fn in_path(id: &Value) -> String {
    id.as_str().map_or_else(|| id.to_string(), str::to_owned)
}

async fn patch(
    app: &TestApp,
    client: &reqwest::Client,
    id: &Value,
    body: Value,
) -> reqwest::Response {
    client
        .patch(app.url(&format!("/api/admin/promo-codes/{}", in_path(id))))
        .json(&body)
        .send()
        .await
        .unwrap()
}

async fn delete(app: &TestApp, client: &reqwest::Client, id: &Value) -> reqwest::Response {
    client
        .delete(app.url(&format!("/api/admin/promo-codes/{}", in_path(id))))
        .send()
        .await
        .unwrap()
}

/// What `/api/validate-promo` says for this client: (status, body).
async fn validate(app: &TestApp, client: &reqwest::Client, code: &str) -> (u16, Value) {
    let response = app
        .post_json(client, "/api/validate-promo", &json!({"promo_code": code}))
        .await;
    (
        response.status().as_u16(),
        response.json::<Value>().await.unwrap(),
    )
}

/// Places an order for one Owl (10.00) with `code` at `percent` off.
async fn order_with(
    app: &TestApp,
    client: &reqwest::Client,
    code: &str,
    percent: f64,
) -> reqwest::Response {
    let mut body = payload(&[(1, 1)], 10.0 * (100.0 - percent) / 100.0);
    body["promo_code"] = json!(code);
    checkout(app, client, &body).await
}

async fn order_id(response: reqwest::Response) -> i64 {
    assert_eq!(response.status(), 200);
    response.json::<Value>().await.unwrap()["order_id"]
        .as_i64()
        .unwrap()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn only_a_super_admin_lists_changes_and_deletes_promo_codes(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let boss = app.client_with_role(Role::SuperAdmin).await;
    let spring = create(
        &app,
        &boss,
        json!({"code": "spring", "discount_percent": 15}),
    )
    .await;
    let codes = list(&app, &boss).await;
    let id = codes[0]["id"].clone();
    assert_eq!(spring["code"], "SPRING");

    let anonymous = browser();
    let listed = anonymous
        .get(app.url("/api/admin/promo-codes"))
        .send()
        .await
        .unwrap();
    assert_eq!(listed.status(), 401);
    for role in [Role::Customer, Role::Admin] {
        let client = app.client_with_role(role).await;
        let listed = client
            .get(app.url("/api/admin/promo-codes"))
            .send()
            .await
            .unwrap();
        assert_eq!(listed.status(), 403, "{role}");
        let changed = patch(&app, &client, &id, json!({"active": false})).await;
        assert_eq!(changed.status(), 403, "{role}");
        assert_eq!(delete(&app, &client, &id).await.status(), 403, "{role}");
    }
    assert_eq!(
        list(&app, &boss).await[0]["active"],
        true,
        "nothing changed"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn staff_see_change_switch_off_and_delete_promo_codes(#[case] backend: Backend) {
    let app = uncapped_shop(backend, vec![(1, product("Owl", "10.00", Some(50)))]).await;
    let boss = app.client_with_role(Role::SuperAdmin).await;
    create(
        &app,
        &boss,
        json!({"code": "SPRING", "discount_percent": 15, "max_uses": 5,
               "expires_at": "2099-01-01T00:00:00Z"}),
    )
    .await;
    create(
        &app,
        &boss,
        json!({"code": "SPARE", "discount_percent": 10}),
    )
    .await;

    // the list: newest first, every field
    let codes = list(&app, &boss).await;
    assert_eq!(
        codes.iter().map(|c| c["code"].clone()).collect::<Vec<_>>(),
        [json!("SPARE"), json!("SPRING")]
    );
    let spring = by_code(&codes, "SPRING").clone();
    let spare = by_code(&codes, "SPARE").clone();
    assert!(spring["id"].as_i64().unwrap() > 0);
    assert!(chrono::DateTime::parse_from_rfc3339(spring["created_at"].as_str().unwrap()).is_ok());
    let mut fields = spring.as_object().unwrap().clone();
    fields.remove("id");
    fields.remove("created_at");
    assert_eq!(
        Value::Object(fields),
        json!({"code": "SPRING", "discount_percent": 15,
               "expires_at": "2099-01-01T00:00:00+00:00", "max_uses": 5, "uses": 0,
               "active": true})
    );
    assert_eq!(
        (spare["expires_at"].clone(), spare["max_uses"].clone()),
        (Value::Null, Value::Null)
    );

    // two shoppers use SPRING: uses so far 2
    let ann = browser();
    link_discord(&app, &ann, 0).await;
    let anns_order = order_id(order_with(&app, &ann, "SPRING", 15.0).await).await;
    let ben = browser();
    link_discord(&app, &ben, 1).await;
    order_id(order_with(&app, &ben, "spring", 15.0).await).await;
    assert_eq!(by_code(&list(&app, &boss).await, "SPRING")["uses"], 2);

    // validation like creation, every problem at once, and nothing changes
    let bad = patch(
        &app,
        &boss,
        &spring["id"],
        json!({"discount_percent": 0, "expires_at": "soon", "max_uses": 0,
               "active": "no", "code": "AUTUMN"}),
    )
    .await;
    assert_eq!(bad.status(), 422);
    let body: Value = bad.json().await.unwrap();
    for field in [
        "discount_percent",
        "expires_at",
        "max_uses",
        "active",
        "code",
    ] {
        assert!(body["errors"][field][0].is_string(), "{field}: {body:#}");
    }
    // the limit cannot go below the uses so far
    let below = patch(&app, &boss, &spring["id"], json!({"max_uses": 1})).await;
    assert_eq!(below.status(), 422);
    let body: Value = below.json().await.unwrap();
    assert_eq!(
        body["errors"]["max_uses"][0],
        "This code has been used 2 times already: the usage limit cannot be lower."
    );
    assert_eq!(by_code(&list(&app, &boss).await, "SPRING"), &{
        let mut same = spring.clone();
        same["uses"] = json!(2);
        same
    });

    // a change: the answer is the code as it is now; later orders only
    let changed = patch(
        &app,
        &boss,
        &spring["id"],
        json!({"discount_percent": "20", "max_uses": 2, "expires_at": ""}),
    )
    .await;
    assert_eq!(changed.status(), 200);
    let changed: Value = changed.json().await.unwrap();
    assert_eq!(
        (
            changed["discount_percent"].clone(),
            changed["max_uses"].clone(),
            changed["expires_at"].clone(),
            changed["uses"].clone(),
            changed["active"].clone(),
        ),
        (json!(20), json!(2), Value::Null, json!(2), json!(true))
    );
    let anns: Value = ann
        .get(app.url(&format!("/api/orders/{anns_order}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(anns["discount"], 1.5, "Ann's order keeps its 15%");
    let limit = patch(&app, &boss, &spring["id"], json!({"max_uses": null})).await;
    assert_eq!(limit.status(), 200);

    // switched off: refused like an expired code, by validation and by checkout
    let cara = browser();
    link_discord(&app, &cara, 2).await;
    assert_eq!(
        validate(&app, &cara, "SPRING").await,
        (200, json!({"discount": 20}))
    );
    let off = patch(&app, &boss, &spring["id"], json!({"active": false})).await;
    assert_eq!(off.status(), 200);
    assert_eq!(off.json::<Value>().await.unwrap()["active"], false);
    let (status, body) = validate(&app, &cara, "SPRING").await;
    assert_eq!(status, 422);
    assert_eq!(body["reason"], "This promo code is no longer active.");
    let refused = order_with(&app, &cara, "SPRING", 20.0).await;
    assert_eq!(refused.status(), 422);
    assert_eq!(
        refused.json::<Value>().await.unwrap()["reason"],
        "This promo code is no longer active."
    );
    assert_eq!(
        by_code(&list(&app, &boss).await, "SPRING")["uses"],
        2,
        "the refused order took no use"
    );
    // and on again
    patch(&app, &boss, &spring["id"], json!({"active": true})).await;
    order_id(order_with(&app, &cara, "SPRING", 20.0).await).await;

    // a used code stays for the order history (409); a never-used one goes (204)
    let used = delete(&app, &boss, &spring["id"]).await;
    assert_eq!(used.status(), 409);
    assert!(used.json::<Value>().await.unwrap()["message"]
        .as_str()
        .unwrap()
        .contains("Deactivate it instead"));
    assert_eq!(delete(&app, &boss, &spare["id"]).await.status(), 204);
    let left = list(&app, &boss).await;
    assert_eq!(left.len(), 1);
    assert_eq!(left[0]["code"], "SPRING");

    // a code whose only order was cancelled has no uses, and still stays
    let once = create(&app, &boss, json!({"code": "ONCE", "discount_percent": 10})).await;
    assert_eq!(once["code"], "ONCE");
    let dan = browser();
    link_discord(&app, &dan, 0).await;
    let dans_order = order_id(order_with(&app, &dan, "ONCE", 10.0).await).await;
    let cancelled = dan
        .post(app.url(&format!("/api/orders/{dans_order}/cancel")))
        .send()
        .await
        .unwrap();
    assert_eq!(cancelled.status(), 200);
    let once = by_code(&list(&app, &boss).await, "ONCE").clone();
    assert_eq!(once["uses"], 0);
    assert_eq!(delete(&app, &boss, &once["id"]).await.status(), 409);

    // unknown ids
    for id in [json!(999_999), json!("abc"), json!(0)] {
        assert_eq!(delete(&app, &boss, &id).await.status(), 404, "{id}");
        assert_eq!(
            patch(&app, &boss, &id, json!({"active": false}))
                .await
                .status(),
            404,
            "{id}"
        );
    }
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn promo_code_changes_and_deletions_are_audited(#[case] backend: Backend) {
    let audited = Audited::spawn(backend).await;
    let ada = audited.staff(Role::SuperAdmin).await;
    let created = ada
        .client
        .post(audited.app.url("/api/admin/promo-codes"))
        .json(&json!({"code": "AUDIT", "discount_percent": 10, "max_uses": 3}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    let id = list(&audited.app, &ada.client).await[0]["id"].clone();
    let seen = audited.count().await;

    let changed = patch(
        &audited.app,
        &ada.client,
        &id,
        json!({"discount_percent": 25, "active": false}),
    )
    .await;
    assert_eq!(changed.status(), 200);
    let entry = audited.one_new_entry(seen).await;
    assert_entry(&entry, &ada, "promo.update", &format!("promo:{id}"));
    assert_eq!(
        entry["before"],
        json!({"code": "AUDIT", "discount_percent": 10, "expires_at": null, "max_uses": 3,
               "active": true})
    );
    assert_eq!(
        entry["after"],
        json!({"code": "AUDIT", "discount_percent": 25, "expires_at": null, "max_uses": 3,
               "active": false})
    );

    // refused or changing nothing: no entry
    let seen = seen + 1;
    let bad = patch(
        &audited.app,
        &ada.client,
        &id,
        json!({"discount_percent": 101}),
    )
    .await;
    assert_eq!(bad.status(), 422);
    let same = patch(&audited.app, &ada.client, &id, json!({"active": false})).await;
    assert_eq!(same.status(), 200);
    assert_eq!(
        delete(&audited.app, &ada.client, &json!(999_999))
            .await
            .status(),
        404
    );
    audited
        .nothing_new(seen, "a refused or empty promo change")
        .await;

    assert_eq!(delete(&audited.app, &ada.client, &id).await.status(), 204);
    let entry = audited.one_new_entry(seen).await;
    assert_entry(&entry, &ada, "promo.delete", &format!("promo:{id}"));
    assert_eq!(entry["before"]["code"], "AUDIT");
    assert!(entry["after"].is_null());
    assert_eq!(audited.app.count_rows("promo_codes").await, 0);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_promo_change_tells_left_out_null_empty_and_a_value_apart_and_names_every_problem(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    let boss = app.client_with_role(Role::SuperAdmin).await;
    let body = json!({"code": "EDGE", "discount_percent": 10, "max_uses": 4,
                      "expires_at": "2099-01-01T00:00:00Z"});
    create(&app, &boss, body).await;
    let id = list(&app, &boss).await[0]["id"].clone();
    let refused = |body: Value| {
        let (app, boss, id) = (&app, &boss, &id);
        async move {
            let response = patch(app, boss, id, body.clone()).await;
            assert_eq!(response.status(), 422, "{body}");
            response.json::<Value>().await.unwrap()
        }
    };

    // a body that is not an object, whatever it is
    for body in [
        json!([]),
        json!([{"active": false}]),
        json!(7),
        json!("x"),
        Value::Null,
    ] {
        let answer = refused(body).await;
        let words = "Send the fields to change as a JSON object.";
        assert_eq!(
            answer,
            json!({"message": words, "code": "invalid_fields", "errors": {"promo": [words]}})
        );
    }
    // null and empty are not a discount or a switch; a code given at all is refused by name
    let answer = refused(json!({"discount_percent": null, "active": "", "code": null})).await;
    assert_eq!(
        answer["errors"],
        json!({
            "code": ["A code cannot be renamed: create a new one and switch this one off."],
            "discount_percent": ["The discount is a whole percent from 1 to 100."],
            "active": ["Active is true or false."],
        })
    );
    let answer = refused(json!({"discount_percent": 1.5, "max_uses": [3], "expires_at": 7})).await;
    assert_eq!(
        answer["errors"],
        json!({
            "discount_percent": ["The discount is a whole percent from 1 to 100."],
            "max_uses": ["The usage limit is a whole number of at least 1."],
            "expires_at": ["Enter the expiry as a date and time, or none."],
        })
    );
    let unchanged = by_code(&list(&app, &boss).await, "EDGE").clone();
    assert_eq!(
        (
            unchanged["discount_percent"].clone(),
            unchanged["max_uses"].clone()
        ),
        (json!(10), json!(4))
    );

    // left out (or unknown) stays; whole numbers as numbers or digits; a date is its day's end
    let changed = patch(
        &app,
        &boss,
        &id,
        json!({"discount_percent": 15.0, "max_uses": " 3 ", "expires_at": "2099-02-01",
               "other": true}),
    )
    .await;
    assert_eq!(changed.status(), 200);
    let changed: Value = changed.json().await.unwrap();
    assert_eq!(
        (
            &changed["discount_percent"],
            &changed["max_uses"],
            &changed["expires_at"],
            &changed["active"]
        ),
        (
            &json!(15),
            &json!(3),
            &json!("2099-02-01T23:59:59+00:00"),
            &json!(true)
        )
    );
    // null or empty clears the limit and the expiry
    let cleared = patch(
        &app,
        &boss,
        &id,
        json!({"max_uses": "", "expires_at": null}),
    )
    .await;
    let cleared: Value = cleared.json().await.unwrap();
    assert_eq!(
        (
            &cleared["discount_percent"],
            &cleared["max_uses"],
            &cleared["expires_at"]
        ),
        (&json!(15), &Value::Null, &Value::Null)
    );
    assert_eq!(patch(&app, &boss, &id, json!({})).await.status(), 200);
    assert_eq!(
        by_code(&list(&app, &boss).await, "EDGE")["discount_percent"],
        15
    );
}
