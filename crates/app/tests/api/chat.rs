//! The help chat's calls over HTTP: shoppers by session id, staff by role, the state machine,
//! the poll cache (no database work for a poll that finds nothing new) and the staff
//! notification of a live-chat request.

use std::sync::atomic::Ordering;
use std::time::Duration;

use accounts::Role;
use reqwest::StatusCode;
use rstest::rstest;
use serde_json::{json, Value};
use store::testing::TestDatabase;
use store::Backend;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::helpers::{eventually, Options, TestApp};

fn new_session() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// A started chat: (chat id, session id).
pub(crate) async fn start_ai(app: &TestApp, client: &reqwest::Client) -> (String, String, Value) {
    let session = new_session();
    let response = app
        .post_json(
            client,
            "/api/chat/start-ai",
            &json!({ "session_id": session }),
        )
        .await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    let id = body["chat_id"].as_str().unwrap().to_owned();
    (id, session, body)
}

async fn send(
    app: &TestApp,
    client: &reqwest::Client,
    chat: &str,
    session: &str,
    text: &str,
) -> reqwest::Response {
    app.post_json(
        client,
        "/api/chat/send",
        &json!({ "chat_id": chat, "session_id": session, "message": text }),
    )
    .await
}

async fn ask(app: &TestApp, chat: &str, session: &str, text: &str) -> Value {
    let response = send(app, &app.client, chat, session, text).await;
    assert_eq!(response.status(), 200, "send {text:?}");
    response.json().await.unwrap()
}

async fn status(app: &TestApp, chat: &str, session: &str) -> reqwest::Response {
    app.get(&format!(
        "/api/chat/status?chat_id={chat}&session_id={session}"
    ))
    .await
}

async fn history(app: &TestApp, chat: &str, session: &str) -> reqwest::Response {
    app.get(&format!(
        "/api/chat/history?chat_id={chat}&session_id={session}"
    ))
    .await
}

pub(crate) async fn start_live(app: &TestApp, chat: &str, session: &str) -> Value {
    let response = app
        .post_json(
            &app.client,
            "/api/chat/start-live",
            &json!({ "session_id": session, "chat_id": chat }),
        )
        .await;
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

async fn staff_post(app: &TestApp, staff: &reqwest::Client, path: &str) -> reqwest::Response {
    staff.post(app.url(path)).send().await.unwrap()
}

async fn staff_get(app: &TestApp, staff: &reqwest::Client, path: &str) -> reqwest::Response {
    staff.get(app.url(path)).send().await.unwrap()
}

async fn assert_not_found(response: reqwest::Response) {
    assert_eq!(response.status(), 404);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["message"], "Chat not found.");
}

fn texts(messages: &Value) -> Vec<String> {
    messages
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["message"].as_str().unwrap().to_owned())
        .collect()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_bot_answers_from_the_live_catalog(#[case] backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (chat, session, started) = start_ai(&app, &app.client).await;
    assert_eq!(started["chat"]["status"], "ai");
    assert_eq!(started["chat"]["id"], chat.as_str());
    assert_eq!(started["chat"]["user"], Value::Null);
    let greeting = &started["chat"]["messages"][0];
    assert_eq!(greeting["sender_type"], "bot");
    assert!(greeting["message"].as_str().unwrap().starts_with("Hi!"));

    let price = ask(&app, &chat, &session, "how much is the Raccoon").await;
    assert_eq!(price["message"]["sender_type"], "guest");
    assert_eq!(price["message"]["message"], "how much is the Raccoon");
    let answer = price["reply"]["message"].as_str().unwrap();
    assert!(answer.contains("$24.99"), "{answer}");
    assert_eq!(price["reply"]["sender_type"], "bot");
    assert_eq!(price["offer_live_agent"], false);

    let stock = ask(&app, &chat, &session, "is T-Rex in stock").await;
    let answer = stock["reply"]["message"].as_str().unwrap().to_lowercase();
    assert!(answer.contains("out of stock"), "{answer}");

    let bundles = ask(&app, &chat, &session, "what bundles do you have").await;
    let answer = bundles["reply"]["message"].as_str().unwrap();
    assert!(answer.contains("Starter Pet Bundle"), "{answer}");

    // the assistant follows the catalog as it changes
    let db = app.store.connection();
    use sea_orm::ConnectionTrait;
    db.execute_unprepared("UPDATE products SET price_cents = 1950 WHERE id = 3")
        .await
        .unwrap();
    // the assistant reads the product snapshot, which the list is served from: once the list
    // shows the new price, the next answer gives it (asking in a loop would meet the chat's
    // own rate limit)
    eventually("the new price reaches the product snapshot", || async {
        let list: Vec<Value> = app
            .client
            .get(format!("{}/api/products", app.address))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let raccoon = list.into_iter().find(|p| p["id"] == 3).unwrap();
        (raccoon["price"] == 19.5).then_some(()).ok_or(raccoon)
    })
    .await;
    let again = ask(&app, &chat, &session, "how much is the Raccoon").await;
    let answer = again["reply"]["message"].as_str().unwrap();
    assert!(answer.contains("$19.50"), "{answer}");

    let unsure = ask(
        &app,
        &chat,
        &session,
        "my order never arrived and I was charged twice",
    )
    .await;
    assert_eq!(unsure["offer_live_agent"], true, "{unsure}");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_guest_is_handed_to_staff_and_the_chat_moves_ai_pending_connected_closed(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    let (chat, session, _) = start_ai(&app, &app.client).await;
    ask(&app, &chat, &session, "Where is my order?").await;

    let live = start_live(&app, &chat, &session).await;
    assert_eq!(live["chat_id"], chat.as_str(), "the AI chat moves on");
    assert_eq!(live["chat"]["status"], "pending");
    assert_eq!(live["chat"]["accepted_by"], Value::Null);
    let again = start_live(&app, &chat, &session).await;
    assert_eq!(
        again["chat_id"],
        chat.as_str(),
        "a second click changes nothing"
    );

    let admin = app.client_with_role(Role::Admin).await;
    let list: Value = staff_get(&app, &admin, "/api/admin/chats")
        .await
        .json()
        .await
        .unwrap();
    let listed = &list[0];
    assert_eq!(listed["id"], chat.as_str());
    assert_eq!(listed["status"], "pending");
    assert_eq!(listed["has_unread_messages"], true);
    assert!(listed.get("messages").is_none());
    assert!(listed["last_message"]["message"].is_string());

    let messages: Value = staff_get(&app, &admin, &format!("/api/admin/chats/{chat}/messages"))
        .await
        .json()
        .await
        .unwrap();
    assert!(texts(&messages).contains(&"Where is my order?".to_owned()));

    // staff cannot reply before joining
    let early = admin
        .post(app.url("/api/chat/admin-reply"))
        .json(&json!({ "chat_id": chat, "message": "hello?" }))
        .send()
        .await
        .unwrap();
    assert_eq!(early.status(), 409);

    let accepted = staff_post(&app, &admin, &format!("/api/admin/chats/{chat}/accept")).await;
    assert_eq!(accepted.status(), 200);
    let accepted: Value = accepted.json().await.unwrap();
    assert_eq!(accepted["status"], "connected");
    assert!(accepted["accepted_by"].is_i64());
    assert!(accepted["accepted_by_name"]
        .as_str()
        .unwrap()
        .starts_with("admin-"));

    let second = app.client_with_role(Role::SuperAdmin).await;
    let late = staff_post(&app, &second, &format!("/api/admin/chats/{chat}/accept")).await;
    assert_eq!(late.status(), 409);
    let late: Value = late.json().await.unwrap();
    assert_eq!(
        late["message"],
        "Another agent has already joined this chat."
    );

    let shopper_view: Value = status(&app, &chat, &session).await.json().await.unwrap();
    assert_eq!(shopper_view["status"], "connected");
    // the shopper sees who joined by name, never the staff user id
    assert_eq!(shopper_view["accepted_by"], accepted["accepted_by_name"]);
    assert!(shopper_view.get("messages").is_none());
    assert_eq!(shopper_view["has_unread_messages"], true);

    let reply = admin
        .post(app.url("/api/chat/admin-reply"))
        .json(&json!({ "chat_id": chat, "message": "  Joining your server now!  " }))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    let reply: Value = reply.json().await.unwrap();
    assert_eq!(reply["message"]["message"], "Joining your server now!");
    assert_eq!(reply["message"]["sender_type"], "admin");

    let seen: Value = history(&app, &chat, &session).await.json().await.unwrap();
    let messages = &seen["chat"]["messages"];
    let all = texts(messages);
    assert!(all.contains(&"You are now connected to a live agent.".to_owned()));
    assert_eq!(all.last().unwrap(), "Joining your server now!");
    let after_read: Value = status(&app, &chat, &session).await.json().await.unwrap();
    assert_eq!(
        after_read["has_unread_messages"], false,
        "history marks the staff's messages read"
    );

    let sent = ask(&app, &chat, &session, "Thanks, I'm in!").await;
    assert_eq!(sent["reply"], Value::Null, "no bot once a person is here");
    assert_eq!(sent["offer_live_agent"], false);
    let staff_chat: Value = staff_get(&app, &admin, &format!("/api/admin/chats/{chat}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(staff_chat["has_unread_messages"], true);
    assert_eq!(
        texts(&staff_chat["messages"]).last().unwrap(),
        "Thanks, I'm in!"
    );
    let read = staff_post(&app, &admin, &format!("/api/admin/chats/{chat}/mark-read")).await;
    assert_eq!(read.status(), 200);
    assert_eq!(read.json::<Value>().await.unwrap()["message"], "ok");
    let list: Value = staff_get(&app, &admin, "/api/admin/chats")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(list[0]["has_unread_messages"], false);

    // the shopper ends it: closed, and nothing more can be written
    let ended = app
        .client
        .delete(app.url(&format!("/api/chat/{chat}?session_id={session}")))
        .send()
        .await
        .unwrap();
    assert_eq!(ended.status(), 200);
    assert_eq!(
        ended.json::<Value>().await.unwrap()["message"],
        "Chat ended."
    );
    let closed: Value = status(&app, &chat, &session).await.json().await.unwrap();
    assert_eq!(closed["status"], "closed");
    assert_eq!(
        send(&app, &app.client, &chat, &session, "hello?")
            .await
            .status(),
        409
    );

    // staff delete it by the CHAT's id: gone for everyone
    let deleted = admin
        .delete(app.url(&format!("/api/admin/chats/{chat}")))
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 200);
    assert_eq!(
        deleted.json::<Value>().await.unwrap()["message"],
        "Conversation deleted."
    );
    assert_not_found(status(&app, &chat, &session).await).await;
    assert_not_found(history(&app, &chat, &session).await).await;
    let list: Value = staff_get(&app, &admin, "/api/admin/chats")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(list, json!([]));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn start_live_without_an_ai_chat_makes_a_pending_one_and_a_signed_in_shopper_is_named(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    let customer = app.client_with_role(Role::Customer).await;
    let session = new_session();
    let response = app
        .post_json(
            &customer,
            "/api/chat/start-live",
            &json!({ "session_id": session }),
        )
        .await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["chat"]["status"], "pending");
    assert!(body["chat"]["user"]["name"]
        .as_str()
        .unwrap()
        .starts_with("customer-"));
    let chat = body["chat_id"].as_str().unwrap();
    let sent = send(&app, &customer, chat, &session, "hi").await;
    let sent: Value = sent.json().await.unwrap();
    assert_eq!(sent["message"]["sender_type"], "user");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn another_sessions_chat_and_a_guessed_id_are_not_found(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (chat, session, _) = start_ai(&app, &app.client).await;
    let other = new_session();
    let guessed = uuid::Uuid::new_v4().to_string();

    // before and after the owner's own poll filled the cache
    for _ in 0..2 {
        assert_not_found(status(&app, &chat, &other).await).await;
        assert_not_found(history(&app, &chat, &other).await).await;
        assert_not_found(send(&app, &app.client, &chat, &other, "hi").await).await;
        assert_eq!(status(&app, &chat, &session).await.status(), 200);
        assert_eq!(history(&app, &chat, &session).await.status(), 200);
    }
    let end = app
        .client
        .delete(app.url(&format!("/api/chat/{chat}?session_id={other}")))
        .send()
        .await
        .unwrap();
    assert_not_found(end).await;
    assert_eq!(
        status(&app, &chat, &session).await.status(),
        200,
        "still there"
    );

    assert_not_found(status(&app, &guessed, &session).await).await;
    assert_not_found(history(&app, &guessed, &session).await).await;
    assert_not_found(send(&app, &app.client, &guessed, &session, "hi").await).await;
    assert_not_found(status(&app, "42", &session).await).await;
    assert_not_found(status(&app, &chat, "").await).await;
    let admin = app.client_with_role(Role::Admin).await;
    assert_not_found(staff_get(&app, &admin, &format!("/api/admin/chats/{guessed}")).await).await;
    assert_not_found(staff_post(&app, &admin, &format!("/api/admin/chats/{guessed}/accept")).await)
        .await;
    let delete = admin
        .delete(app.url(&format!("/api/admin/chats/{guessed}")))
        .send()
        .await
        .unwrap();
    assert_not_found(delete).await;
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn staff_calls_need_admin_or_super_admin(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (chat, session, _) = start_ai(&app, &app.client).await;
    start_live(&app, &chat, &session).await;
    let guest = app.new_client();
    let customer = app.client_with_role(Role::Customer).await;
    let super_admin = app.client_with_role(Role::SuperAdmin).await;

    for (client, expected) in [
        (&guest, StatusCode::UNAUTHORIZED),
        (&customer, StatusCode::FORBIDDEN),
    ] {
        let calls = [
            client.get(app.url("/api/admin/chats")),
            client.get(app.url(&format!("/api/admin/chats/{chat}"))),
            client.get(app.url(&format!("/api/admin/chats/{chat}/messages"))),
            client.post(app.url(&format!("/api/admin/chats/{chat}/mark-read"))),
            client.post(app.url(&format!("/api/admin/chats/{chat}/accept"))),
            client
                .post(app.url("/api/chat/admin-reply"))
                .json(&json!({ "chat_id": chat, "message": "hi" })),
            client.delete(app.url(&format!("/api/admin/chats/{chat}"))),
        ];
        for call in calls {
            let response = call.send().await.unwrap();
            let url = response.url().to_string();
            assert_eq!(response.status(), expected, "{url}");
            let body: Value = response.json().await.unwrap();
            assert!(body["message"].is_string(), "{url}: {body}");
        }
    }
    // nothing happened to the chat
    let list: Value = staff_get(&app, &super_admin, "/api/admin/chats")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(list[0]["status"], "pending");
    let accepted = staff_post(
        &app,
        &super_admin,
        &format!("/api/admin/chats/{chat}/accept"),
    )
    .await;
    assert_eq!(accepted.status(), 200);
    let reply = super_admin
        .post(app.url("/api/chat/admin-reply"))
        .json(&json!({ "chat_id": chat, "message": "hi" }))
        .send()
        .await
        .unwrap();
    let reply: Value = reply.json().await.unwrap();
    assert_eq!(reply["message"]["sender_type"], "super_admin");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn of_two_staff_accepting_at_once_one_wins(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (chat, session, _) = start_ai(&app, &app.client).await;
    start_live(&app, &chat, &session).await;
    let first = app.client_with_role(Role::Admin).await;
    let second = app.client_with_role(Role::Admin).await;
    let path = format!("/api/admin/chats/{chat}/accept");
    let (a, b) = tokio::join!(
        staff_post(&app, &first, &path),
        staff_post(&app, &second, &path)
    );
    let mut statuses = [a.status().as_u16(), b.status().as_u16()];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409]);
    let seen: Value = history(&app, &chat, &session).await.json().await.unwrap();
    let joined = texts(&seen["chat"]["messages"])
        .iter()
        .filter(|t| *t == "You are now connected to a live agent.")
        .count();
    assert_eq!(joined, 1, "one notice, from the winner");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn messages_are_trimmed_and_capped_at_2000_characters(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (chat, session, _) = start_ai(&app, &app.client).await;
    let too_long = send(&app, &app.client, &chat, &session, &"a".repeat(2001)).await;
    assert_eq!(too_long.status(), 422);
    let body: Value = too_long.json().await.unwrap();
    assert_eq!(
        body["errors"]["message"][0],
        "The message may be at most 2000 characters long."
    );
    let empty = send(&app, &app.client, &chat, &session, "   ").await;
    assert_eq!(empty.status(), 422);
    let longest = send(&app, &app.client, &chat, &session, &"é".repeat(2000)).await;
    assert_eq!(longest.status(), 200);
    let bad_session = app
        .post_json(
            &app.client,
            "/api/chat/start-ai",
            &json!({ "session_id": "../x" }),
        )
        .await;
    assert_eq!(bad_session.status(), 422);
    let body: Value = bad_session.json().await.unwrap();
    assert!(body["errors"]["session_id"][0].is_string());
    let seen: Value = history(&app, &chat, &session).await.json().await.unwrap();
    assert_eq!(
        seen["chat"]["messages"].as_array().unwrap().len(),
        3,
        "greeting, the 2000-character message and the bot's answer; nothing of the refused ones"
    );
}

/// The instance's database statement count, read after the answers are complete.
fn queries(app: &TestApp) -> u64 {
    app.db_queries.load(Ordering::SeqCst)
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_poll_that_finds_nothing_new_does_no_database_work(#[case] backend: Backend) {
    // the background re-reads for other instances' writes (chats, catalog) and the buyer-mail
    // loop are pushed far out,
    // so every statement counted below comes from the polls themselves
    let app = TestApp::spawn_with(
        TestDatabase::create(backend).await,
        Options::demo_data(false),
        |settings| {
            settings.chat.version_refresh_ms = 3_600_000;
            settings.catalog.refresh_seconds = 3_600;
            settings.mail.queue_poll_ms = 3_600_000;
        },
    )
    .await;
    let (chat, session, _) = start_ai(&app, &app.client).await;
    start_live(&app, &chat, &session).await;
    let first_status = status(&app, &chat, &session).await;
    let etag = first_status.headers()["etag"].to_str().unwrap().to_owned();
    let first_status: Value = first_status.json().await.unwrap();
    let first_history: Value = history(&app, &chat, &session).await.json().await.unwrap();
    // the history marked the notice read: the status changed once
    let status_now: Value = status(&app, &chat, &session).await.json().await.unwrap();
    assert_eq!(status_now["status"], first_status["status"]);

    let before = queries(&app);
    let other = new_session();
    for _ in 0..25 {
        let polled: Value = status(&app, &chat, &session).await.json().await.unwrap();
        assert_eq!(polled, status_now);
        let polled: Value = history(&app, &chat, &session).await.json().await.unwrap();
        assert_eq!(polled, first_history);
        // another session is refused from memory too
        assert_eq!(status(&app, &chat, &other).await.status(), 404);
    }
    assert_eq!(queries(&app), before, "75 idle polls sent no statement");

    // a client that keeps the ETag gets 304 without a body
    let status_etag = app
        .client
        .get(app.url(&format!(
            "/api/chat/status?chat_id={chat}&session_id={session}"
        )))
        .send()
        .await
        .unwrap()
        .headers()["etag"]
        .to_str()
        .unwrap()
        .to_owned();
    let revalidated = app
        .client
        .get(app.url(&format!(
            "/api/chat/status?chat_id={chat}&session_id={session}"
        )))
        .header("If-None-Match", &status_etag)
        .send()
        .await
        .unwrap();
    assert_eq!(revalidated.status(), 304);
    assert_eq!(queries(&app), before);
    let _ = etag;

    // a write ends the idle spell at once: the next poll shows it
    let admin = app.client_with_role(Role::Admin).await;
    // the staff stream hears the accept only after this instance has handled its event (on
    // PostgreSQL it comes back through LISTEN): nothing of it is left to count below
    let mut stream = admin
        .get(app.url("/api/events?staff=1"))
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), 200);
    let mut heard = String::new();
    while !heard.contains("event: ready") {
        heard.push_str(&String::from_utf8_lossy(
            &stream.chunk().await.unwrap().unwrap(),
        ));
    }
    let accepted = staff_post(&app, &admin, &format!("/api/admin/chats/{chat}/accept")).await;
    assert_eq!(accepted.status(), 200);
    while !heard.contains("event: chat\n") {
        let chunk = tokio::time::timeout(std::time::Duration::from_secs(10), stream.chunk())
            .await
            .expect("the accept reaches the staff stream")
            .unwrap()
            .unwrap();
        heard.push_str(&String::from_utf8_lossy(&chunk));
    }
    drop(stream);
    let after: Value = status(&app, &chat, &session).await.json().await.unwrap();
    assert_eq!(after["status"], "connected");
    let changed = app
        .client
        .get(app.url(&format!(
            "/api/chat/status?chat_id={chat}&session_id={session}"
        )))
        .header("If-None-Match", &status_etag)
        .send()
        .await
        .unwrap();
    assert_eq!(changed.status(), 200);

    // staff's polls: the chat data comes from memory too (the role check still reads the
    // session's user, one statement per poll)
    let list = staff_get(&app, &admin, "/api/admin/chats").await;
    assert_eq!(list.status(), 200);
    let messages = staff_get(&app, &admin, &format!("/api/admin/chats/{chat}/messages")).await;
    assert_eq!(messages.status(), 200);
    let before = queries(&app);
    for _ in 0..10 {
        assert_eq!(
            staff_get(&app, &admin, "/api/admin/chats").await.status(),
            200
        );
        let path = format!("/api/admin/chats/{chat}/messages");
        assert_eq!(staff_get(&app, &admin, &path).await.status(), 200);
    }
    let per_poll = (queries(&app) - before) as f64 / 20.0;
    assert!(
        per_poll <= 2.0,
        "a staff poll costs the session and user lookups only, not the chats: {per_poll}"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn another_instances_write_shows_in_this_instances_polls_within_seconds(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    let other = app.start_another_instance().await;
    let (chat, session, _) = start_ai(&app, &app.client).await;
    start_live(&app, &chat, &session).await;
    let polled: Value = status(&app, &chat, &session).await.json().await.unwrap();
    assert_eq!(polled["status"], "pending", "cached here now");

    // a member of staff on the other instance joins and replies
    let email = format!("admin-{}@example.com", uuid::Uuid::new_v4().simple());
    app.create_user(&email, crate::helpers::TEST_PASSWORD, Role::Admin)
        .await;
    let admin = app.new_client();
    let login = admin
        .post(format!("{other}/api/login"))
        .json(&json!({ "email": email, "password": crate::helpers::TEST_PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), 200);
    let accepted = admin
        .post(format!("{other}/api/admin/chats/{chat}/accept"))
        .send()
        .await
        .unwrap();
    assert_eq!(accepted.status(), 200);

    eventually("this instance sees the other's write", || async {
        let polled: Value = status(&app, &chat, &session).await.json().await.unwrap();
        if polled["status"] == "connected" {
            Ok(())
        } else {
            Err(polled)
        }
    })
    .await;

    // and a delete there is a 404 here
    let deleted = admin
        .delete(format!("{other}/api/admin/chats/{chat}"))
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 200);
    eventually("this instance sees the delete", || async {
        (status(&app, &chat, &session).await.status() == 404).then_some(())
    })
    .await;
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_live_chat_request_notifies_staff_on_discord(#[case] backend: Backend) {
    let discord = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/webhooks/1/token"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&discord)
        .await;
    let app = TestApp::spawn_with(
        TestDatabase::create(backend).await,
        Options::demo_data(false),
        |settings| {
            settings.discord.notify_webhook_url =
                format!("{}/api/webhooks/1/token", discord.uri()).into();
            settings.site.public_url = "https://shop.example".into();
        },
    )
    .await;
    let (chat, session, _) = start_ai(&app, &app.client).await;
    ask(&app, &chat, &session, "Can a person help me?").await;
    start_live(&app, &chat, &session).await;
    start_live(&app, &chat, &session).await;

    let requests = pings_before_a_last_one(&app, &discord).await;
    assert_eq!(requests.len(), 1, "one request, one notification");
    let body: Value = serde_json::from_slice(&requests[0].body).unwrap();
    let content = body["content"].as_str().unwrap();
    assert!(content.contains("live agent"), "{content}");
    assert!(content.contains("https://shop.example/"), "{content}");
    assert_eq!(body["embeds"][0]["fields"][0]["value"], chat.as_str());
    assert_eq!(
        body["embeds"][0]["fields"][1]["value"],
        "Can a person help me?"
    );
}

/// How many staff pings the fake Discord webhook received.
async fn discord_pings(app: &TestApp, discord: &MockServer) -> usize {
    pings_before_a_last_one(app, discord).await.len()
}

/// The staff pings queued so far, as the fake webhook received them: the notices go out of one
/// queue in order, so once a last notice queued now has arrived, every one before it has (and
/// none is still to come).
async fn pings_before_a_last_one(app: &TestApp, discord: &MockServer) -> Vec<wiremock::Request> {
    use orders::gateways::StaffNotifications as _;
    const LAST: &str = "the test's last notice";
    app.staff_notifier.notify(orders::gateways::StaffMessage {
        text: LAST.to_owned(),
        link: None,
        fields: Vec::new(),
    });
    let is_last =
        |request: &wiremock::Request| String::from_utf8_lossy(&request.body).contains(LAST);
    eventually("the last notice arrives", || async {
        let requests = discord.received_requests().await.unwrap();
        requests
            .iter()
            .any(is_last)
            .then(|| requests.into_iter().filter(|r| !is_last(r)).collect())
    })
    .await
}

async fn app_with_discord(
    backend: Backend,
    configure: impl FnOnce(&mut garden_app::Settings),
) -> (TestApp, MockServer) {
    let discord = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/webhooks/1/token"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&discord)
        .await;
    let uri = discord.uri();
    let app = TestApp::spawn_with(
        TestDatabase::create(backend).await,
        Options::demo_data(false),
        move |settings| {
            settings.discord.notify_webhook_url = format!("{uri}/api/webhooks/1/token").into();
            configure(settings);
        },
    )
    .await;
    (app, discord)
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn fifteen_start_ai_calls_for_one_session_at_once_open_one_chat(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let session = new_session();
    let body = json!({ "session_id": session });
    let calls = (0..15).map(|_| app.post_json(&app.client, "/api/chat/start-ai", &body));
    let mut ids = std::collections::HashSet::new();
    for response in futures::future::join_all(calls).await {
        assert_eq!(response.status(), 200);
        let body: Value = response.json().await.unwrap();
        ids.insert(body["chat_id"].as_str().unwrap().to_owned());
    }
    assert_eq!(ids.len(), 1, "one chat for the session, not {}", ids.len());
    let chat = ids.into_iter().next().unwrap();
    ask(&app, &chat, &session, "how do I pay?").await;
    // opened again later: the same conversation, with what was said
    let again: Value = app
        .post_json(
            &app.client,
            "/api/chat/start-ai",
            &json!({ "session_id": session }),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(again["chat_id"], chat.as_str());
    assert_eq!(again["chat"]["messages"].as_array().unwrap().len(), 3);
    use sea_orm::ConnectionTrait;
    let db = app.store.connection();
    let count = db
        .query_one(sea_orm::Statement::from_string(
            db.get_database_backend(),
            "SELECT COUNT(*) AS n FROM chats",
        ))
        .await
        .unwrap()
        .unwrap()
        .try_get::<i64>("", "n")
        .unwrap();
    assert_eq!(count, 1);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn parallel_live_requests_of_one_session_make_one_chat_and_one_staff_ping(
    #[case] backend: Backend,
) {
    // racing calls all count against the address's limit: raised here, this is about the chat
    let (app, discord) = app_with_discord(backend, |settings| {
        settings.chat.max_live_per_ip_per_hour = 100;
    })
    .await;
    let session = new_session();
    let body = json!({ "session_id": session });
    let calls = (0..10).map(|_| app.post_json(&app.client, "/api/chat/start-live", &body));
    let mut ids = std::collections::HashSet::new();
    for response in futures::future::join_all(calls).await {
        assert_eq!(response.status(), 200);
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["chat"]["status"], "pending");
        ids.insert(body["chat_id"].as_str().unwrap().to_owned());
    }
    assert_eq!(ids.len(), 1);
    let chat = ids.into_iter().next().unwrap();
    // and the AI chat a start-ai then opens is that live chat, not a new one
    let opened: Value = app
        .post_json(
            &app.client,
            "/api/chat/start-ai",
            &json!({ "session_id": session }),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(opened["chat_id"], chat.as_str());
    assert_eq!(opened["chat"]["status"], "pending");
    assert_eq!(
        discord_pings(&app, &discord).await,
        1,
        "one staff ping per chat"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn forty_live_requests_from_one_address_let_five_through(#[case] backend: Backend) {
    let (app, discord) = app_with_discord(backend, |_| {}).await;
    // live requests are counted per address in fixed hours: start at the beginning of one
    app.to_the_start_of_a_window(Duration::from_secs(3600));
    // random session ids, and X-Forwarded-For the shop does not believe (no trusted proxy)
    let calls = (0..40).map(|i| {
        app.client
            .post(app.url("/api/chat/start-live"))
            .header("X-Forwarded-For", format!("203.0.113.{i}"))
            .json(&json!({ "session_id": new_session() }))
            .send()
    });
    let responses = futures::future::join_all(calls).await;
    let mut through = 0;
    for response in responses {
        let response = response.unwrap();
        match response.status().as_u16() {
            200 => through += 1,
            429 => {
                let retry: u64 = response.headers()["retry-after"]
                    .to_str()
                    .unwrap()
                    .parse()
                    .unwrap();
                assert!(retry > 0 && retry <= 3600);
                let body: Value = response.json().await.unwrap();
                assert!(body["message"]
                    .as_str()
                    .unwrap()
                    .starts_with("Too many attempts."));
            }
            other => panic!("unexpected {other}"),
        }
    }
    assert_eq!(through, 5, "{through} live chats let through out of 40");
    let admin = app.client_with_role(Role::Admin).await;
    let list: Value = staff_get(&app, &admin, "/api/admin/chats")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(list.as_array().unwrap().len(), 5, "five staff chats");
    assert_eq!(discord_pings(&app, &discord).await, 5, "five staff pings");
    // an hour later the address may ask again
    app.clock.advance(Duration::from_secs(3600));
    let later = app
        .post_json(
            &app.client,
            "/api/chat/start-live",
            &json!({ "session_id": new_session() }),
        )
        .await;
    assert_eq!(later.status(), 200);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn thirty_sends_at_once_in_one_session_let_twenty_through(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    // sends are counted per session in fixed minutes: start at the beginning of one
    app.to_the_start_of_a_window(Duration::from_secs(60));
    let (chat, session, _) = start_ai(&app, &app.client).await;
    let texts: Vec<String> = (0..30).map(|i| format!("message {i}")).collect();
    let sends = texts
        .iter()
        .map(|text| send(&app, &app.client, &chat, &session, text));
    let mut through = 0;
    for response in futures::future::join_all(sends).await {
        match response.status().as_u16() {
            200 => through += 1,
            429 => assert!(response.headers().contains_key("retry-after")),
            other => panic!("unexpected {other}"),
        }
    }
    assert_eq!(through, 20, "{through} sends let through out of 30");
    let seen: Value = history(&app, &chat, &session).await.json().await.unwrap();
    let guest = seen["chat"]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["sender_type"] == "guest")
        .count();
    assert_eq!(guest, 20, "nothing of the refused sends was stored");
    // the next minute the session may write again
    app.clock.advance(Duration::from_secs(60));
    assert_eq!(
        send(&app, &app.client, &chat, &session, "again")
            .await
            .status(),
        200
    );
}

/// Inserts `count` chats straight into the database, `status` for all, one second of
/// activity apart going back from `newest`; returns nothing (the list is read back).
async fn insert_chats(
    app: &TestApp,
    count: usize,
    status: &str,
    newest: chrono::DateTime<chrono::Utc>,
) {
    use sea_orm::sea_query::{Alias, Query};
    use sea_orm::ConnectionTrait;
    let db = app.store.connection();
    for chunk in (0..count).collect::<Vec<_>>().chunks(400) {
        let mut insert = Query::insert();
        insert.into_table(Alias::new("chats")).columns([
            Alias::new("id"),
            Alias::new("session_id"),
            Alias::new("status"),
            Alias::new("version"),
            Alias::new("created_at"),
            Alias::new("updated_at"),
            Alias::new("staff_notified_at"),
        ]);
        for i in chunk {
            // groups of three share a moment: the id orders them
            let at = newest - chrono::Duration::seconds((*i / 3) as i64);
            insert.values_panic([
                uuid::Uuid::new_v4().to_string().into(),
                new_session().into(),
                status.into(),
                1i64.into(),
                at.into(),
                at.into(),
                at.into(),
            ]);
        }
        db.execute(db.get_database_backend().build(&insert))
            .await
            .unwrap();
    }
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_staff_list_pages_through_thousands_of_chats_fifty_at_a_time(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let now = chrono::Utc::now();
    insert_chats(&app, 2400, "pending", now).await;
    insert_chats(&app, 600, "closed", now - chrono::Duration::minutes(5)).await;
    insert_chats(&app, 300, "ai", now).await;
    let admin = app.client_with_role(Role::Admin).await;

    let mut seen = std::collections::HashSet::new();
    let mut last: Option<(String, String)> = None;
    let mut before: Option<String> = None;
    let mut pages = 0;
    loop {
        let path = match &before {
            None => "/api/admin/chats".to_owned(),
            Some(cursor) => format!("/api/admin/chats?before={}", urlencode(cursor)),
        };
        let response = staff_get(&app, &admin, &path).await;
        assert_eq!(response.status(), 200, "{path}");
        let page: Value = response.json().await.unwrap();
        let page = page.as_array().unwrap().clone();
        if page.is_empty() {
            break;
        }
        pages += 1;
        assert!(page.len() <= 50);
        if pages == 1 {
            assert_eq!(page.len(), 50, "a page of 50");
        }
        for chat in &page {
            assert_eq!(chat["status"], "pending", "closed chats only on request");
            assert!(
                seen.insert(chat["id"].as_str().unwrap().to_owned()),
                "overlap"
            );
            // newest activity first; ties by id, descending
            let key = (
                chat["cursor"]
                    .as_str()
                    .unwrap()
                    .split('_')
                    .next()
                    .unwrap()
                    .to_owned(),
                chat["id"].as_str().unwrap().to_owned(),
            );
            if let Some(previous) = &last {
                let earlier = chrono::DateTime::parse_from_rfc3339(&key.0).unwrap();
                let prev = chrono::DateTime::parse_from_rfc3339(&previous.0).unwrap();
                assert!(earlier < prev || (earlier == prev && key.1 < previous.1));
            }
            last = Some(key);
        }
        before = Some(page.last().unwrap()["cursor"].as_str().unwrap().to_owned());
    }
    assert_eq!(seen.len(), 2400, "every open chat once");
    assert_eq!(pages, 48);

    let closed: Value = staff_get(&app, &admin, "/api/admin/chats?status=closed")
        .await
        .json()
        .await
        .unwrap();
    let closed = closed.as_array().unwrap();
    assert_eq!(closed.len(), 50);
    assert!(closed.iter().all(|c| c["status"] == "closed"));
    let all: Value = staff_get(&app, &admin, "/api/admin/chats?status=all")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(all.as_array().unwrap().len(), 50);

    let bad = staff_get(&app, &admin, "/api/admin/chats?status=ai").await;
    assert_eq!(bad.status(), 422);
    let bad = staff_get(&app, &admin, "/api/admin/chats?before=yesterday").await;
    assert_eq!(bad.status(), 422);
    let body: Value = bad.json().await.unwrap();
    assert!(body["errors"]["before"][0].is_string());
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_purge_loop_deletes_idle_bot_chats_after_a_day_and_closed_ones_after_thirty(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn_with(
        TestDatabase::create(backend).await,
        Options::demo_data(false),
        |settings| settings.chat.purge_every_seconds = 1,
    )
    .await;
    let (idle, idle_session, _) = start_ai(&app, &app.client).await;
    ask(&app, &idle, &idle_session, "hello").await;
    let (live, live_session, _) = start_ai(&app, &app.client).await;
    start_live(&app, &live, &live_session).await;
    let (ended, ended_session, _) = start_live_fresh(&app).await;
    let end = app
        .client
        .delete(app.url(&format!("/api/chat/{ended}?session_id={ended_session}")))
        .send()
        .await
        .unwrap();
    assert_eq!(end.status(), 200);
    // cached here, so the purge must reach the poll cache too
    assert_eq!(status(&app, &idle, &idle_session).await.status(), 200);

    let gone = |what: &'static str, chat: String, session: String| {
        let app = &app;
        async move {
            eventually(what, || async {
                (status(app, &chat, &session).await.status() == 404).then_some(())
            })
            .await;
        }
    };
    app.clock.advance(Duration::from_secs(23 * 3600));
    app.rounds.whole_round(garden_app::Loop::ChatPurge).await;
    assert_eq!(
        status(&app, &idle, &idle_session).await.status(),
        200,
        "kept for a day"
    );

    app.clock.advance(Duration::from_secs(2 * 3600));
    gone("idle bot chat purged", idle.clone(), idle_session.clone()).await;
    assert_eq!(
        status(&app, &live, &live_session).await.status(),
        200,
        "waiting chats stay"
    );
    assert_eq!(
        status(&app, &ended, &ended_session).await.status(),
        200,
        "closed: 30 days"
    );

    app.clock.advance(Duration::from_secs(30 * 24 * 3600));
    gone(
        "old closed chat purged",
        ended.clone(),
        ended_session.clone(),
    )
    .await;
    assert_eq!(status(&app, &live, &live_session).await.status(), 200);
}

async fn start_live_fresh(app: &TestApp) -> (String, String, Value) {
    let session = new_session();
    let body: Value = app
        .post_json(
            &app.client,
            "/api/chat/start-live",
            &json!({ "session_id": session }),
        )
        .await
        .json()
        .await
        .unwrap();
    (body["chat_id"].as_str().unwrap().to_owned(), session, body)
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_shopper_sees_the_agents_name_and_never_a_staff_user_id(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (chat, session, _) = start_ai(&app, &app.client).await;
    start_live(&app, &chat, &session).await;
    let admin = app.client_with_role(Role::Admin).await;
    let accepted: Value = staff_post(&app, &admin, &format!("/api/admin/chats/{chat}/accept"))
        .await
        .json()
        .await
        .unwrap();
    let staff_id = accepted["accepted_by"].as_i64().expect("staff see the id");
    let name = accepted["accepted_by_name"].as_str().unwrap().to_owned();

    let shopper_answers: Vec<Value> = vec![
        status(&app, &chat, &session).await.json().await.unwrap(),
        history(&app, &chat, &session)
            .await
            .json::<Value>()
            .await
            .unwrap()["chat"]
            .clone(),
        start_live(&app, &chat, &session).await["chat"].clone(),
        app.post_json(
            &app.client,
            "/api/chat/start-ai",
            &json!({ "session_id": session }),
        )
        .await
        .json::<Value>()
        .await
        .unwrap()["chat"]
            .clone(),
    ];
    for chat_json in shopper_answers {
        assert_eq!(chat_json["status"], "connected");
        assert_eq!(chat_json["accepted_by"], name.as_str(), "{chat_json}");
        assert_eq!(chat_json["accepted_by_name"], name.as_str());
        assert!(
            !carries_number(&chat_json, staff_id),
            "no staff id in {chat_json}"
        );
    }
}

/// Whether any field but a message's own `id` holds `number`.
fn carries_number(value: &Value, number: i64) -> bool {
    match value {
        Value::Object(fields) => fields.iter().any(|(key, field)| match field {
            Value::Number(n) => key != "id" && n.as_i64() == Some(number),
            other => carries_number(other, number),
        }),
        Value::Array(items) => items.iter().any(|item| carries_number(item, number)),
        _ => false,
    }
}

/// Issue 34 item 8: asked where the order is, the bot links the order this browser placed (its
/// page, which this browser opens without a key) and says where to find it to a browser
/// without orders; never another buyer's.
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn asked_where_the_order_is_the_bot_links_this_browsers_own_open_order(
    #[case] backend: Backend,
) {
    use crate::checkout_support::{browser, checkout, link_discord, payload, product, shop};

    let app = shop(backend, vec![(1, product("Golden Owl", "10.00", Some(5)))]).await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let placed = checkout(&app, &buyer, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(placed.status(), 200);
    let order = placed.json::<Value>().await.unwrap()["order_id"]
        .as_i64()
        .unwrap();
    let paid = buyer
        .post(app.url(&format!("/dev/pay/{order}/pay")))
        .header("Origin", &app.address)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .send()
        .await
        .unwrap();
    assert_eq!(paid.status(), 303);

    let (chat, session, _) = start_ai(&app, &buyer).await;
    let response = send(&app, &buyer, &chat, &session, "where is my order?").await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    let reply = body["reply"]["message"].as_str().unwrap();
    let link = format!("http://localhost:8080/orders/{order}");
    assert!(
        reply.contains(&format!("order #{order} (Paid): {link}")),
        "{reply}"
    );
    assert!(
        !reply.contains("key="),
        "the key stays out of the chat: {reply}"
    );
    assert!(reply.contains("I'm in the game"), "the script: {reply}");
    assert_eq!(body["offer_live_agent"], false, "not a hand-off");
    // the link opens the order in this browser, as it is
    let page = buyer
        .get(app.url(&format!("/api/orders/{order}")))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);

    // another browser's chat: no order of the first buyer, the way to one's own instead
    let stranger = browser();
    let (chat, session, _) = start_ai(&app, &stranger).await;
    let response = send(&app, &stranger, &chat, &session, "where is my order?").await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    let reply = body["reply"]["message"].as_str().unwrap();
    assert!(!reply.contains("/orders/"), "{reply}");
    assert!(reply.contains("receipt e-mail"), "{reply}");
    // nor does the link open it there
    let page = stranger
        .get(app.url(&format!("/api/orders/{order}")))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 404);
}

/// Posts to the chat with the language headers a browser sends (`Cookie` with the widget's
/// `lang`, or only `Accept-Language`).
async fn post_in(
    app: &TestApp,
    (name, value): (reqwest::header::HeaderName, &str),
    path: &str,
    body: &Value,
) -> Value {
    let response = reqwest::Client::new()
        .post(app.url(path))
        .header(name, value)
        .json(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{path}");
    response.json().await.unwrap()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_chat_answers_in_the_lang_cookies_language_else_the_browsers(#[case] backend: Backend) {
    use reqwest::header::{ACCEPT_LANGUAGE, COOKIE};
    let app = TestApp::spawn_with_demo(backend).await;

    // the widget's page sends its `lang` cookie: it wins over the browser's languages
    let portuguese = (COOKIE, "lang=pt-BR");
    let session = new_session();
    let started = post_in(
        &app,
        portuguese.clone(),
        "/api/chat/start-ai",
        &json!({ "session_id": session }),
    )
    .await;
    let chat = started["chat_id"].as_str().unwrap();
    let greeting = started["chat"]["messages"][0]["message"].as_str().unwrap();
    assert!(
        greeting.starts_with("Oi! Eu sou o assistente da Garden Shop"),
        "{greeting}"
    );
    let send = |text: &str| json!({ "chat_id": chat, "session_id": session, "message": text });
    let price = post_in(
        &app,
        portuguese.clone(),
        "/api/chat/send",
        &send("quanto custa o raccoon?"),
    )
    .await;
    let answer = price["reply"]["message"].as_str().unwrap();
    assert!(answer.contains("Raccoon custa $24.99"), "{answer}");
    assert!(answer.contains("temos 6 em estoque"), "{answer}");
    let unsure = post_in(&app, portuguese, "/api/chat/send", &send("xyzzy plugh")).await;
    assert_eq!(unsure["offer_live_agent"], true);
    let answer = unsure["reply"]["message"].as_str().unwrap();
    assert!(answer.contains("Falar com um atendente"), "{answer}");

    // without the cookie, the browser's language
    let german = (ACCEPT_LANGUAGE, "de-AT,de;q=0.9,en;q=0.5");
    let session = new_session();
    let started = post_in(
        &app,
        german.clone(),
        "/api/chat/start-ai",
        &json!({ "session_id": session }),
    )
    .await;
    let chat = started["chat_id"].as_str().unwrap();
    let greeting = started["chat"]["messages"][0]["message"].as_str().unwrap();
    assert!(
        greeting.starts_with("Hi! Ich bin der Assistent von Garden Shop"),
        "{greeting}"
    );
    let body = json!({ "chat_id": chat, "session_id": session, "message": "wie lange dauert die Lieferung?" });
    let delivery = post_in(&app, german.clone(), "/api/chat/send", &body).await;
    let answer = delivery["reply"]["message"].as_str().unwrap();
    assert!(
        answer.starts_with("Die Lieferung dauert meist weniger als"),
        "{answer}"
    );
    assert!(answer.contains("Bestellseite"), "{answer}");
    let live = post_in(
        &app,
        german,
        "/api/chat/start-live",
        &json!({ "session_id": session, "chat_id": chat }),
    )
    .await;
    let notice = texts(&live["chat"]["messages"]).pop().unwrap();
    assert_eq!(notice, chat::ChatSentences::GERMAN.live_agent_requested);
}
