//! The Roblox adapter against local fakes of the users and thumbnails APIs (wiremock).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use garden_roblox::{RobloxApi, RobloxSettings};
use orders::gateways::{RobloxDirectory, RobloxLookupError, RobloxUsername};
use serde_json::json;
use wiremock::matchers::{body_json, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

const HEADSHOT: &str =
    "https://tr.rbxcdn.com/30DAY-AvatarHeadshot-ABCDEF/150/150/AvatarHeadshot/Png/noFilter";

fn name(text: &str) -> RobloxUsername {
    RobloxUsername::parse(text).unwrap()
}

fn api(server: &MockServer) -> RobloxApi {
    RobloxApi::new(&RobloxSettings {
        users_api_base: format!("{}/users", server.uri()),
        thumbnails_api_base: format!("{}/thumbs/", server.uri()),
    })
    .unwrap()
}

async fn mount_user(server: &MockServer, asked: &str, times: u64) {
    Mock::given(method("POST"))
        .and(path("/users/v1/usernames/users"))
        .and(body_json(
            json!({ "usernames": [asked], "excludeBannedUsers": true }),
        ))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "data": [{
                "requestedUsername": asked,
                "hasVerifiedBadge": false,
                "id": 156,
                "name": "builderman",
                "displayName": "Builderman"
            }]
        })))
        .expect(times)
        .mount(server)
        .await;
}

async fn mount_headshot(server: &MockServer, response: ResponseTemplate, times: u64) {
    Mock::given(method("GET"))
        .and(path("/thumbs/v1/users/avatar-headshot"))
        .and(query_param("userIds", "156"))
        .and(query_param("size", "150x150"))
        .and(query_param("format", "Png"))
        .and(query_param("isCircular", "false"))
        .respond_with(response)
        .expect(times)
        .mount(server)
        .await;
}

fn completed_headshot() -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "data": [{ "targetId": 156, "state": "Completed", "imageUrl": HEADSHOT, "version": "TN3" }]
    }))
}

#[tokio::test]
async fn a_user_is_found_with_the_canonical_name_and_headshot() {
    let server = MockServer::start().await;
    mount_user(&server, "BuilderMan", 1).await;
    mount_headshot(&server, completed_headshot(), 1).await;

    let profile = api(&server)
        .lookup(name("BuilderMan"))
        .await
        .unwrap()
        .unwrap();

    assert_eq!(profile.username.as_str(), "builderman");
    assert_eq!(profile.user_id, 156);
    assert_eq!(profile.avatar_url.as_deref(), Some(HEADSHOT));
}

#[tokio::test]
async fn an_unknown_user_is_none() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/users/v1/usernames/users"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "data": [] })))
        .expect(1)
        .mount(&server)
        .await;
    mount_headshot(&server, completed_headshot(), 0).await;

    assert_eq!(
        api(&server).lookup(name("nobody_here")).await.unwrap(),
        None
    );
}

#[tokio::test]
async fn answers_are_reused_for_any_spelling_of_the_name() {
    let server = MockServer::start().await;
    mount_user(&server, "BuilderMan", 1).await;
    mount_headshot(&server, completed_headshot(), 1).await;
    let roblox = api(&server);

    let first = roblox.lookup(name("BuilderMan")).await.unwrap();
    let second = roblox.lookup(name("builderman")).await.unwrap();

    assert_eq!(first, second);
}

#[tokio::test]
async fn not_found_is_remembered_too() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/users/v1/usernames/users"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "data": [] })))
        .expect(1)
        .mount(&server)
        .await;
    let roblox = api(&server);

    assert_eq!(roblox.lookup(name("ghost")).await.unwrap(), None);
    assert_eq!(roblox.lookup(name("ghost")).await.unwrap(), None);
}

#[tokio::test]
async fn a_pending_headshot_gives_no_avatar() {
    let server = MockServer::start().await;
    mount_user(&server, "BuilderMan", 1).await;
    mount_headshot(
        &server,
        ResponseTemplate::new(200).set_body_json(json!({
            "data": [{ "targetId": 156, "state": "Pending", "imageUrl": null, "version": "" }]
        })),
        1,
    )
    .await;

    let profile = api(&server)
        .lookup(name("BuilderMan"))
        .await
        .unwrap()
        .unwrap();

    assert_eq!(profile.avatar_url, None);
}

#[tokio::test]
async fn a_thumbnails_outage_answers_without_avatar_and_is_not_remembered() {
    let server = MockServer::start().await;
    mount_user(&server, "BuilderMan", 2).await;
    Mock::given(method("GET"))
        .and(path("/thumbs/v1/users/avatar-headshot"))
        .respond_with(ResponseTemplate::new(503))
        .up_to_n_times(1)
        .expect(1)
        .mount(&server)
        .await;
    mount_headshot(&server, completed_headshot(), 1).await;
    let roblox = api(&server);

    let during = roblox.lookup(name("BuilderMan")).await.unwrap().unwrap();
    let after = roblox.lookup(name("BuilderMan")).await.unwrap().unwrap();

    assert_eq!(during.avatar_url, None);
    assert_eq!(after.avatar_url.as_deref(), Some(HEADSHOT));
}

#[tokio::test]
async fn a_users_api_outage_or_rate_limit_is_unavailable_and_not_remembered() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/users/v1/usernames/users"))
        .respond_with(ResponseTemplate::new(429))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/users/v1/usernames/users"))
        .respond_with(ResponseTemplate::new(500))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    mount_user(&server, "BuilderMan", 1).await;
    mount_headshot(&server, completed_headshot(), 1).await;
    let roblox = api(&server);

    for _ in 0..2 {
        let err = roblox.lookup(name("BuilderMan")).await.unwrap_err();
        assert!(matches!(err, RobloxLookupError::Unavailable(_)), "{err:?}");
    }
    assert!(roblox.lookup(name("BuilderMan")).await.unwrap().is_some());
}

#[tokio::test]
async fn an_unreadable_answer_is_unknown() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/users/v1/usernames/users"))
        .respond_with(ResponseTemplate::new(200).set_body_string("<html>oops</html>"))
        .mount(&server)
        .await;

    let err = api(&server).lookup(name("BuilderMan")).await.unwrap_err();

    assert!(matches!(err, RobloxLookupError::Unknown(_)), "{err:?}");
}
