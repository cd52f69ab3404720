//! The ticket client against a local fake of Discord's REST API (wiremock).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use garden_discord::{DiscordSettings, DiscordTickets};
use orders::tickets::{DeskError, TicketDesk, TicketPost};
use orders::DiscordId;
use secrecy::SecretString;
use serde_json::{json, Value};
use wiremock::matchers::{body_json, header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const CHANNEL: &str = "700000000000000001";
const THREAD: &str = "1100000000000000001";
const BUYER: &str = "80351110224678912";
const ROLE: &str = "990000000000000009";

fn settings(api_base: &str) -> DiscordSettings {
    DiscordSettings {
        client_id: String::new(),
        client_secret: SecretString::from(""),
        redirect_url: String::new(),
        authorize_url: "https://discord.com/oauth2/authorize".into(),
        api_base: format!("{api_base}/api"),
        bot_token: SecretString::from("bot-token-1"),
        guild_id: "555000".into(),
        notify_webhook_url: SecretString::from(""),
        ticket_channel_id: CHANNEL.into(),
        staff_role_id: ROLE.into(),
    }
}

async fn desk(server: &MockServer) -> DiscordTickets {
    DiscordTickets::from_settings(&settings(&server.uri()))
        .unwrap()
        .expect("the ticket settings are complete")
}

fn id(text: &str) -> DiscordId {
    DiscordId::parse(text).unwrap()
}

fn thread_json() -> Value {
    json!({
        "id": THREAD,
        "type": 12,
        "guild_id": "555000",
        "parent_id": CHANNEL,
        "name": "order-7",
        "thread_metadata": {
            "archived": false,
            "auto_archive_duration": 10080,
            "archive_timestamp": "2026-11-26T12:00:00.000000+00:00",
            "locked": false,
            "invitable": false
        }
    })
}

fn discord_error(status: u16, code: u64, message: &str) -> ResponseTemplate {
    ResponseTemplate::new(status).set_body_json(json!({ "message": message, "code": code }))
}

fn members_path() -> String {
    format!("/api/v10/channels/{THREAD}/thread-members/{BUYER}")
}

#[tokio::test]
async fn without_a_ticket_channel_there_is_no_ticket_client() {
    let mut settings = settings("http://127.0.0.1:9");
    settings.ticket_channel_id = String::new();
    assert!(DiscordTickets::from_settings(&settings).unwrap().is_none());
    let mut settings = self::settings("http://127.0.0.1:9");
    settings.bot_token = SecretString::from("");
    assert!(DiscordTickets::from_settings(&settings).unwrap().is_none());
    let mut settings = self::settings("http://127.0.0.1:9");
    settings.ticket_channel_id = "tickets".into();
    assert!(DiscordTickets::from_settings(&settings).is_err());
    // the real Discord: no proxy, and building the TLS client does not panic
    let mut settings = self::settings("");
    settings.api_base = "https://discord.com/api".into();
    assert!(DiscordTickets::from_settings(&settings).unwrap().is_some());
}

#[tokio::test]
async fn a_private_thread_is_opened_in_the_ticket_channel() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(format!("/api/v10/channels/{CHANNEL}/threads")))
        .and(header("authorization", "Bot bot-token-1"))
        .and(body_json(json!({
            "name": "order-7",
            "type": 12,
            "invitable": false,
            "auto_archive_duration": 10080
        })))
        .respond_with(ResponseTemplate::new(201).set_body_json(thread_json()))
        .expect(1)
        .mount(&server)
        .await;

    let thread = desk(&server).await.open_thread("order-7").await.unwrap();

    assert_eq!(thread, id(THREAD));
}

#[tokio::test]
async fn the_buyer_is_added_to_the_thread() {
    let server = MockServer::start().await;
    Mock::given(method("PUT"))
        .and(path(members_path()))
        .and(header("authorization", "Bot bot-token-1"))
        .respond_with(ResponseTemplate::new(204))
        .expect(1)
        .mount(&server)
        .await;

    desk(&server)
        .await
        .add_member(&id(THREAD), &id(BUYER))
        .await
        .unwrap();
}

#[tokio::test]
async fn a_post_lets_through_only_its_own_mentions_and_carries_its_nonce() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(format!("/api/v10/channels/{THREAD}/messages")))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({ "id": "1300000000000000003" })),
        )
        .expect(1)
        .mount(&server)
        .await;
    let post = TicketPost {
        text: format!("<@&{ROLE}> New order #7 for <@{BUYER}> @everyone"),
        users: vec![id(BUYER)],
        roles: vec![id(ROLE)],
        nonce: "e41".into(),
    };

    desk(&server).await.post(&id(THREAD), &post).await.unwrap();

    let requests = server.received_requests().await.unwrap();
    let body: Value = serde_json::from_slice(&requests[0].body).unwrap();
    assert_eq!(
        body,
        json!({
            "content": post.text,
            "allowed_mentions": { "parse": [], "users": [BUYER], "roles": [ROLE] },
            "nonce": "e41",
            "enforce_nonce": true
        })
    );
    assert_eq!(
        requests[0].headers.get("content-type").unwrap(),
        "application/json"
    );
}

#[tokio::test]
async fn closing_archives_and_locks_the_thread() {
    let server = MockServer::start().await;
    let mut closed = thread_json();
    closed["thread_metadata"]["archived"] = json!(true);
    closed["thread_metadata"]["locked"] = json!(true);
    Mock::given(method("PATCH"))
        .and(path(format!("/api/v10/channels/{THREAD}")))
        .and(body_json(json!({ "archived": true, "locked": true })))
        .respond_with(ResponseTemplate::new(200).set_body_json(closed))
        .expect(1)
        .mount(&server)
        .await;

    desk(&server).await.close_thread(&id(THREAD)).await.unwrap();
}

#[tokio::test]
async fn a_429_is_waited_out_and_sent_again() {
    let server = MockServer::start().await;
    Mock::given(method("PUT"))
        .and(path(members_path()))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("x-ratelimit-scope", "user")
                .insert_header("x-ratelimit-bucket", "thread-members")
                .insert_header("x-ratelimit-limit", "5")
                .insert_header("x-ratelimit-remaining", "0")
                .insert_header("x-ratelimit-reset-after", "0.400")
                .insert_header("retry-after", "1")
                .set_body_json(json!({
                    "message": "You are being rate limited.",
                    "retry_after": 0.4,
                    "global": false
                })),
        )
        .up_to_n_times(1)
        .expect(1)
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("PUT"))
        .and(path(members_path()))
        .respond_with(ResponseTemplate::new(204))
        .expect(1)
        .mount(&server)
        .await;
    let desk = desk(&server).await;

    let started = Instant::now();
    desk.add_member(&id(THREAD), &id(BUYER)).await.unwrap();

    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), 2);
    assert!(
        started.elapsed() >= Duration::from_millis(350),
        "sent again after {:?}, before the limit reset",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_403_is_a_missing_permission() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(format!("/api/v10/channels/{CHANNEL}/threads")))
        .respond_with(discord_error(403, 50001, "Missing Access"))
        .expect(1)
        .mount(&server)
        .await;

    let error = desk(&server)
        .await
        .open_thread("order-7")
        .await
        .unwrap_err();

    assert!(
        matches!(error, DeskError::MissingPermission(_)),
        "{error:?}"
    );
    assert!(!error.retry_helps());
}

#[tokio::test]
async fn a_buyer_outside_the_server_is_an_unknown_member() {
    let server = MockServer::start().await;
    Mock::given(method("PUT"))
        .and(path(members_path()))
        .respond_with(discord_error(404, 10007, "Unknown Member"))
        .expect(1)
        .mount(&server)
        .await;

    let error = desk(&server)
        .await
        .add_member(&id(THREAD), &id(BUYER))
        .await
        .unwrap_err();

    assert!(matches!(error, DeskError::UnknownMember), "{error:?}");
}

#[tokio::test]
async fn a_missing_thread_is_not_found() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(format!("/api/v10/channels/{THREAD}/messages")))
        .respond_with(discord_error(404, 10003, "Unknown Channel"))
        .expect(1)
        .mount(&server)
        .await;
    let post = TicketPost {
        text: "The buyer is in the game.".into(),
        users: vec![],
        roles: vec![],
        nonce: "e42".into(),
    };

    let error = desk(&server)
        .await
        .post(&id(THREAD), &post)
        .await
        .unwrap_err();

    assert!(matches!(error, DeskError::NotFound(_)), "{error:?}");
}

#[tokio::test]
async fn a_5xx_is_unavailable_and_left_to_the_outbox_to_retry() {
    let server = MockServer::start().await;
    Mock::given(method("PATCH"))
        .and(path(format!("/api/v10/channels/{THREAD}")))
        .respond_with(discord_error(500, 0, "500: Internal Server Error"))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("PUT"))
        .and(path(members_path()))
        .respond_with(ResponseTemplate::new(502).set_body_string("<html>Bad Gateway</html>"))
        .expect(1)
        .mount(&server)
        .await;
    let desk = desk(&server).await;

    let closing = desk.close_thread(&id(THREAD)).await.unwrap_err();
    let adding = desk.add_member(&id(THREAD), &id(BUYER)).await.unwrap_err();

    assert!(matches!(closing, DeskError::Unavailable(_)), "{closing:?}");
    assert!(matches!(adding, DeskError::Unavailable(_)), "{adding:?}");
    assert!(closing.retry_helps() && adding.retry_helps());
}
