//! A shopper's data on SQLite and PostgreSQL: the export (profile, orders, chats) and the
//! deletion of their own account, which keeps the orders without the e-mail and names.

use accounts::Role;
use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;

use crate::checkout_support::*;
use crate::helpers::{TestApp, TEST_PASSWORD};

async fn delete_account(
    app: &TestApp,
    client: &reqwest::Client,
    password: &str,
) -> reqwest::Response {
    client
        .delete(app.url("/api/profile"))
        .json(&json!({ "password": password }))
        .send()
        .await
        .unwrap()
}

async fn count(app: &TestApp, sql: &str) -> i64 {
    use sea_orm::{ConnectionTrait, Statement};
    let db = app.store.connection();
    let row = db
        .query_one(Statement::from_string(db.get_database_backend(), sql))
        .await
        .unwrap()
        .unwrap();
    row.try_get_by_index::<i64>(0).unwrap()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_shopper_downloads_their_data_and_deletes_the_account_keeping_anonymous_orders(
    #[case] backend: Backend,
) {
    let app = shop(backend, vec![(1, product("Raccoon", "10.00", Some(5)))]).await;
    let ann_id = app
        .create_user("ann@example.com", TEST_PASSWORD, Role::Customer)
        .await;
    let ann = browser();
    app.login(&ann, "ann@example.com", TEST_PASSWORD).await;
    link_discord(&app, &ann, 0).await;
    let placed = checkout(&app, &ann, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(placed.status(), 200);
    let order_id = placed.json::<Value>().await.unwrap()["order_id"]
        .as_i64()
        .unwrap();
    let session = uuid::Uuid::new_v4().to_string();
    let chat: Value = app
        .post_json(
            &ann,
            "/api/chat/start-ai",
            &json!({ "session_id": session }),
        )
        .await
        .json()
        .await
        .unwrap();
    let chat_id = chat["chat_id"].as_str().unwrap().to_owned();
    let sent = app
        .post_json(
            &ann,
            "/api/chat/send",
            &json!({ "session_id": session, "chat_id": chat_id, "message": "Is the raccoon shy?" }),
        )
        .await;
    assert_eq!(sent.status(), 200);

    // the download
    let export = ann
        .get(app.url("/api/profile/export"))
        .send()
        .await
        .unwrap();
    assert_eq!(export.status(), 200);
    assert!(export.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment;"));
    let data: Value = export.json().await.unwrap();
    assert_eq!(data["profile"]["email"], "ann@example.com");
    assert_eq!(data["profile"]["id"], ann_id);
    assert_eq!(data["orders"][0]["id"], order_id);
    assert_eq!(data["chats"][0]["id"], chat_id.as_str());
    assert!(
        data["chats"][0]["messages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["message"] == "Is the raccoon shy?" && m["sender"] == "user"),
        "{data}"
    );
    assert_eq!(
        app.get("/api/profile/export").await.status(),
        401,
        "a guest has no data to download"
    );

    // a wrong password, then an order still waiting for payment: nothing changes
    let wrong = delete_account(&app, &ann, "not my password").await;
    assert_eq!(wrong.status(), 422);
    let body: Value = wrong.json().await.unwrap();
    assert!(body["errors"]["password"][0].is_string(), "{body}");
    let open = delete_account(&app, &ann, TEST_PASSWORD).await;
    assert_eq!(open.status(), 409);
    let body: Value = open.json().await.unwrap();
    assert!(
        body["message"].as_str().unwrap().contains("1 order"),
        "{body}"
    );
    assert_eq!(
        ann.get(app.url("/api/profile"))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );

    // once the order is closed the account goes
    let cancelled = ann
        .post(app.url(&format!("/dev/pay/{order_id}/cancel")))
        .header("Origin", &app.address)
        .send()
        .await
        .unwrap();
    assert_eq!(cancelled.status(), 303);
    let deleted = delete_account(&app, &ann, TEST_PASSWORD).await;
    assert_eq!(deleted.status(), 204);
    assert_eq!(
        ann.get(app.url("/api/profile"))
            .send()
            .await
            .unwrap()
            .status(),
        401
    );
    let login = app
        .post_json(
            &app.new_client(),
            "/api/login",
            &json!({ "email": "ann@example.com", "password": TEST_PASSWORD }),
        )
        .await;
    assert_eq!(login.status(), 401);
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM users WHERE email = 'ann@example.com'"
        )
        .await,
        0
    );
    // the order is kept for the books, naming no one
    assert_eq!(
        count(
            &app,
            &format!(
                "SELECT COUNT(*) FROM orders WHERE id = {order_id} AND user_id IS NULL \
                 AND email = 'deleted-{ann_id}@deleted.invalid' AND discord_username = 'deleted' \
                 AND roblox_username = 'deleted' AND total_cents > 0"
            )
        )
        .await,
        1
    );
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM orders WHERE email LIKE '%ann@example.com%'"
        )
        .await,
        0
    );
    // the chats are gone with their messages
    assert_eq!(
        count(
            &app,
            &format!("SELECT COUNT(*) FROM chats WHERE id = '{chat_id}'")
        )
        .await,
        0
    );
    assert_eq!(
        count(
            &app,
            &format!("SELECT COUNT(*) FROM chat_messages WHERE chat_id = '{chat_id}'")
        )
        .await,
        0
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn staff_and_guests_cannot_delete_an_account_here(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let admin = app.client_with_role(Role::Admin).await;
    let refused = delete_account(&app, &admin, TEST_PASSWORD).await;
    assert_eq!(refused.status(), 403);
    assert_eq!(
        admin.get(app.url("/api/me")).send().await.unwrap().status(),
        200
    );
    let guest = delete_account(&app, &app.client, TEST_PASSWORD).await;
    assert_eq!(guest.status(), 401);
    let customer = app.client_with_role(Role::Customer).await;
    let empty = delete_account(&app, &customer, "").await;
    assert_eq!(empty.status(), 422);
}

async fn login_status(app: &TestApp, email: &str, password: &str) -> u16 {
    app.post_json(
        &app.new_client(),
        "/api/login",
        &json!({ "email": email, "password": password }),
    )
    .await
    .status()
    .as_u16()
}

/// Issue 22, item 2: `DELETE /api/profile` checked passwords without counting them. Every
/// password check counts in the login's counters (the e-mail address, the client address):
/// wrong passwords on delete lock the login, and wrong logins lock the delete.
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn wrong_passwords_on_delete_and_on_login_share_one_limit(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.to_the_start_of_a_window(std::time::Duration::from_secs(15 * 60));
    let per_address = app.settings.accounts.login_per_address;

    // wrong passwords on delete, then the login is locked, the right password too
    app.create_user("ann@example.com", TEST_PASSWORD, Role::Customer)
        .await;
    let ann = app.new_client();
    app.login(&ann, "ann@example.com", TEST_PASSWORD).await;
    for n in 0..per_address {
        let wrong = delete_account(&app, &ann, "not my password").await;
        assert_eq!(wrong.status(), 422, "delete {n}");
    }
    let locked = delete_account(&app, &ann, TEST_PASSWORD).await;
    assert_eq!(locked.status(), 429);
    assert!(locked.headers().contains_key("retry-after"));
    let body: Value = locked.json().await.unwrap();
    assert!(body["message"].is_string());
    assert_eq!(
        login_status(&app, "ann@example.com", TEST_PASSWORD).await,
        429
    );
    assert_eq!(
        ann.get(app.url("/api/me")).send().await.unwrap().status(),
        200,
        "the account is still there"
    );

    // the reverse: wrong logins, then the delete is locked and erases nothing
    app.create_user("bob@example.com", TEST_PASSWORD, Role::Customer)
        .await;
    let bob = app.new_client();
    app.login(&bob, "bob@example.com", TEST_PASSWORD).await;
    for n in 0..per_address {
        assert_eq!(
            login_status(&app, "bob@example.com", "not my password").await,
            401,
            "login {n}"
        );
    }
    let locked = delete_account(&app, &bob, TEST_PASSWORD).await;
    assert_eq!(locked.status(), 429);
    assert!(locked.headers().contains_key("retry-after"));
    assert_eq!(
        bob.get(app.url("/api/me")).send().await.unwrap().status(),
        200,
        "nothing was erased"
    );

    // once the window has passed, the right password deletes the account
    app.clock.advance(std::time::Duration::from_secs(15 * 60));
    let deleted = delete_account(&app, &bob, TEST_PASSWORD).await;
    assert_eq!(deleted.status(), 204);
}
