//! Discord account linking against a local fake Discord (wiremock).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;

use garden_discord::{DiscordGuildDoor, DiscordOAuth, DiscordSettings};
use orders::gateways::{DiscordIdentityProvider, DiscordLinkError};
use orders::{AccessToken, DiscordId, GuildAccess, GuildDoor, GuildJoinError};
use secrecy::SecretString;
use serde_json::json;
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn settings(api_base: &str) -> DiscordSettings {
    DiscordSettings {
        client_id: "1234567890".into(),
        client_secret: SecretString::from("client-secret"),
        redirect_url: "http://shop.test/discord/callback".into(),
        authorize_url: "https://discord.com/oauth2/authorize".into(),
        api_base: format!("{api_base}/api"),
        bot_token: SecretString::from(""),
        guild_id: String::new(),
        notify_webhook_url: SecretString::from(""),
        ticket_channel_id: String::new(),
        staff_role_id: String::new(),
        request_timeout_ms: 10_000,
        invalid_request_budget: 1_000,
    }
}

fn with_guild(mut settings: DiscordSettings) -> DiscordSettings {
    settings.bot_token = SecretString::from("bot-token-1");
    settings.guild_id = "555000".into();
    settings
}

async fn mount_token(server: &MockServer) {
    Mock::given(method("POST"))
        .and(path("/api/oauth2/token"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "access_token": "user-access-token",
            "token_type": "Bearer",
            "expires_in": 604800,
            "refresh_token": "refresh",
            "scope": "identify guilds.join"
        })))
        .expect(1)
        .mount(server)
        .await;
}

async fn mount_user(server: &MockServer, user: serde_json::Value) {
    Mock::given(method("GET"))
        .and(path("/api/users/@me"))
        .and(header("authorization", "Bearer user-access-token"))
        .respond_with(ResponseTemplate::new(200).set_body_json(user))
        .expect(1)
        .mount(server)
        .await;
}

fn nelly() -> serde_json::Value {
    json!({
        "id": "80351110224678912",
        "username": "nelly",
        "global_name": "Nelly",
        "discriminator": "0",
        "avatar": "8342729096ea3675442027381ff50dfe",
        "verified": true
    })
}

#[tokio::test]
async fn a_code_is_exchanged_and_the_user_fetched() {
    let server = MockServer::start().await;
    mount_token(&server).await;
    mount_user(&server, nelly()).await;
    let discord = DiscordOAuth::new(&settings(&server.uri())).unwrap();

    let linked = discord.exchange_code("the-code".into()).await.unwrap();

    let identity = linked.identity;
    assert_eq!(identity.discord_id.as_str(), "80351110224678912");
    assert_eq!(identity.username, "nelly");
    assert_eq!(
        identity.avatar_url.as_deref(),
        Some("https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png")
    );
    let requests = server.received_requests().await.unwrap();
    let token_request = &requests[0];
    let form: HashMap<String, String> = form_urlencoded::parse(&token_request.body)
        .into_owned()
        .collect();
    assert_eq!(form["grant_type"], "authorization_code");
    assert_eq!(form["code"], "the-code");
    assert_eq!(form["redirect_uri"], "http://shop.test/discord/callback");
    // Client credentials go as HTTP basic auth: "1234567890:client-secret".
    assert_eq!(
        token_request.headers.get("authorization").unwrap(),
        "Basic MTIzNDU2Nzg5MDpjbGllbnQtc2VjcmV0"
    );
    // No guild configured: no token handed on, no join attempted.
    assert_eq!(linked.guild_access, None);
    assert_eq!(requests.len(), 2);
}

#[tokio::test]
async fn a_user_without_an_avatar_has_none() {
    let server = MockServer::start().await;
    mount_token(&server).await;
    let mut user = nelly();
    user["avatar"] = serde_json::Value::Null;
    mount_user(&server, user).await;
    let discord = DiscordOAuth::new(&settings(&server.uri())).unwrap();

    let linked = discord.exchange_code("the-code".into()).await.unwrap();

    assert_eq!(linked.identity.avatar_url, None);
}

#[tokio::test]
async fn a_refused_code_is_an_invalid_code() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/oauth2/token"))
        .respond_with(ResponseTemplate::new(400).set_body_json(json!({
            "error": "invalid_grant",
            "error_description": "Invalid \"code\" in request."
        })))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/users/@me"))
        .respond_with(ResponseTemplate::new(200).set_body_json(nelly()))
        .expect(0)
        .mount(&server)
        .await;
    let discord = DiscordOAuth::new(&settings(&server.uri())).unwrap();

    let err = discord.exchange_code("stale".into()).await.unwrap_err();

    assert!(matches!(err, DiscordLinkError::InvalidCode), "{err:?}");
}

#[tokio::test]
async fn a_wrong_client_secret_is_an_unknown_error_not_the_shoppers_fault() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/oauth2/token"))
        .respond_with(
            ResponseTemplate::new(401).set_body_json(json!({ "error": "invalid_client" })),
        )
        .mount(&server)
        .await;
    let discord = DiscordOAuth::new(&settings(&server.uri())).unwrap();

    let err = discord.exchange_code("c".into()).await.unwrap_err();

    assert!(matches!(err, DiscordLinkError::Unknown(_)), "{err:?}");
}

#[tokio::test]
async fn an_unreachable_discord_is_unavailable() {
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let discord = DiscordOAuth::new(&settings(&format!("http://{addr}"))).unwrap();

    let err = discord.exchange_code("c".into()).await.unwrap_err();

    assert!(matches!(err, DiscordLinkError::Unavailable(_)), "{err:?}");
}

#[tokio::test]
async fn a_user_without_an_id_is_refused() {
    let server = MockServer::start().await;
    mount_token(&server).await;
    mount_user(&server, json!({ "username": "ghost" })).await;
    let discord = DiscordOAuth::new(&settings(&server.uri())).unwrap();

    let err = discord.exchange_code("c".into()).await.unwrap_err();

    assert!(matches!(err, DiscordLinkError::MissingUserId), "{err:?}");
}

#[tokio::test]
async fn a_discord_outage_on_the_user_call_is_unavailable() {
    let server = MockServer::start().await;
    mount_token(&server).await;
    Mock::given(method("GET"))
        .and(path("/api/users/@me"))
        .respond_with(ResponseTemplate::new(502))
        .mount(&server)
        .await;
    let discord = DiscordOAuth::new(&settings(&server.uri())).unwrap();

    let err = discord.exchange_code("c".into()).await.unwrap_err();

    assert!(matches!(err, DiscordLinkError::Unavailable(_)), "{err:?}");
}

#[tokio::test]
async fn with_a_bot_token_and_guild_the_exchange_hands_the_token_on_and_joins_nothing() {
    let server = MockServer::start().await;
    mount_token(&server).await;
    mount_user(&server, nelly()).await;
    Mock::given(method("PUT"))
        .respond_with(ResponseTemplate::new(201))
        .expect(0)
        .mount(&server)
        .await;
    let discord = DiscordOAuth::new(&with_guild(settings(&server.uri()))).unwrap();

    let linked = discord.exchange_code("c".into()).await.unwrap();

    assert_eq!(linked.identity.username, "nelly");
    let access = linked.guild_access.unwrap();
    assert_eq!(access.token.expose(), "user-access-token");
    assert_eq!(access.lasts, chrono::Duration::seconds(604_800));
    assert!(!format!("{access:?}").contains("user-access-token"));
}

#[tokio::test]
async fn a_token_answer_without_expires_in_lasts_seven_days() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/oauth2/token"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "access_token": "user-access-token",
            "token_type": "Bearer",
            "scope": "identify guilds.join"
        })))
        .mount(&server)
        .await;
    mount_user(&server, nelly()).await;
    let discord = DiscordOAuth::new(&with_guild(settings(&server.uri()))).unwrap();

    let linked = discord.exchange_code("c".into()).await.unwrap();

    assert_eq!(
        linked.guild_access.unwrap().lasts,
        GuildAccess::DEFAULT_LIFETIME
    );
}

/// The door of the shop's server at a fake Discord whose member PUT answers `status`.
async fn door_answering(status: u16, body: serde_json::Value) -> (MockServer, DiscordGuildDoor) {
    let server = MockServer::start().await;
    Mock::given(method("PUT"))
        .and(path("/api/guilds/555000/members/80351110224678912"))
        .and(header("authorization", "Bot bot-token-1"))
        .respond_with(ResponseTemplate::new(status).set_body_json(body))
        .expect(1)
        .mount(&server)
        .await;
    let door = DiscordGuildDoor::from_settings(&with_guild(settings(&server.uri())))
        .unwrap()
        .unwrap();
    (server, door)
}

async fn join(door: &DiscordGuildDoor) -> Result<(), GuildJoinError> {
    door.join(
        &DiscordId::parse("80351110224678912").unwrap(),
        &AccessToken::new("user-access-token"),
    )
    .await
}

#[tokio::test]
async fn the_door_puts_the_member_with_the_users_token() {
    let (server, door) = door_answering(201, json!({ "user": nelly() })).await;

    join(&door).await.unwrap();

    let requests = server.received_requests().await.unwrap();
    let body: serde_json::Value = serde_json::from_slice(&requests[0].body).unwrap();
    assert_eq!(body, json!({ "access_token": "user-access-token" }));
}

#[tokio::test]
async fn a_member_already_in_the_server_is_joined() {
    let server = MockServer::start().await;
    Mock::given(method("PUT"))
        .and(path("/api/guilds/555000/members/80351110224678912"))
        .respond_with(ResponseTemplate::new(204))
        .expect(1)
        .mount(&server)
        .await;
    let door = DiscordGuildDoor::from_settings(&with_guild(settings(&server.uri())))
        .unwrap()
        .unwrap();

    join(&door).await.unwrap();
}

#[tokio::test]
async fn a_missing_permission_is_not_worth_retrying() {
    let (_server, door) = door_answering(
        403,
        json!({ "message": "Missing Permissions", "code": 50013 }),
    )
    .await;

    let err = join(&door).await.unwrap_err();

    assert!(
        matches!(err, GuildJoinError::MissingPermission(_)),
        "{err:?}"
    );
    assert!(!err.retry_helps());
    assert!(err.to_string().contains("Missing Permissions"), "{err}");
}

#[tokio::test]
async fn an_invalid_or_revoked_token_is_not_worth_retrying() {
    for status in [401, 400] {
        let (_server, door) =
            door_answering(status, json!({ "message": "401: Unauthorized", "code": 0 })).await;

        let err = join(&door).await.unwrap_err();

        assert!(
            matches!(err, GuildJoinError::InvalidToken(_)),
            "{status}: {err:?}"
        );
        assert!(!err.retry_helps());
    }
}

#[tokio::test]
async fn a_discord_failure_is_worth_retrying() {
    let (_server, door) = door_answering(500, json!({ "message": "oops" })).await;
    let err = join(&door).await.unwrap_err();
    assert!(matches!(err, GuildJoinError::Unavailable(_)), "{err:?}");
    assert!(err.retry_helps());
}

#[tokio::test]
async fn a_rate_limit_says_how_long_to_wait_and_whether_it_is_global() {
    let (_server, door) = door_answering(
        429,
        json!({ "message": "slow down", "retry_after": 2.5, "global": true }),
    )
    .await;
    let err = join(&door).await.unwrap_err();
    let GuildJoinError::RateLimited(limit) = err else {
        panic!("{err:?}");
    };
    assert_eq!(limit.retry_after, chrono::Duration::milliseconds(2500));
    assert!(limit.global);
}

#[tokio::test]
async fn an_unreachable_discord_is_worth_retrying() {
    let door = DiscordGuildDoor::from_settings(&with_guild(settings("http://127.0.0.1:9")))
        .unwrap()
        .unwrap();

    let err = join(&door).await.unwrap_err();

    assert!(err.retry_helps(), "{err:?}");
}

#[test]
fn without_a_bot_token_and_guild_there_is_no_door() {
    assert!(
        DiscordGuildDoor::from_settings(&settings("https://discord.com"))
            .unwrap()
            .is_none()
    );
}

#[test]
fn the_authorize_url_asks_for_identify_and_guilds_join_and_carries_the_state() {
    let discord = DiscordOAuth::new(&settings("https://discord.com")).unwrap();

    let url = reqwest::Url::parse(&discord.authorize_url("state-xyz")).unwrap();

    assert_eq!(url.origin().ascii_serialization(), "https://discord.com");
    assert_eq!(url.path(), "/oauth2/authorize");
    let query: HashMap<String, String> = url.query_pairs().into_owned().collect();
    assert_eq!(query["client_id"], "1234567890");
    assert_eq!(query["redirect_uri"], "http://shop.test/discord/callback");
    assert_eq!(query["response_type"], "code");
    assert_eq!(query["scope"], "identify guilds.join");
    assert_eq!(query["state"], "state-xyz");
}

#[test]
fn settings_without_a_client_id_cannot_build_the_real_adapter() {
    let mut s = settings("https://discord.com");
    s.client_id = " ".into();
    assert!(!s.oauth_configured());
    assert!(DiscordOAuth::new(&s).is_err());
}

#[test]
fn guild_join_needs_both_the_bot_token_and_the_guild() {
    let s = settings("https://discord.com");
    assert!(s.guild_join().is_none());
    let mut half = with_guild(s.clone());
    half.guild_id = String::new();
    assert!(half.guild_join().is_none());
    assert!(with_guild(s).guild_join().is_some());
}
