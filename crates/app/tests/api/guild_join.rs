//! Joining a buyer to the shop's Discord server, end to end: linking Discord through the real
//! route against a local fake of Discord (OAuth, the user, the guild member PUT) queues the
//! join, which the outbox loop makes and retries while the token lasts, on SQLite and
//! PostgreSQL. Linking never fails for the join, and the token is gone once the join is made
//! or given up.

use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

use crate::checkout_support::{browser, shop_with};
use crate::helpers::{eventually, TestApp};

const GUILD: &str = "555000";
const BUYER: &str = "80351110224678912";

fn member_path() -> String {
    format!("/api/guilds/{GUILD}/members/{BUYER}")
}

/// A fake Discord: the token and the user answer; the member PUT answers `answers` in turn
/// (the last one for good).
async fn fake_discord(answers: &[u16]) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/oauth2/token"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "access_token": "user-access-token", "token_type": "Bearer",
            "expires_in": 604800, "refresh_token": "r", "scope": "identify guilds.join"
        })))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/users/@me"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({"id": BUYER, "username": "nelly"})),
        )
        .mount(&server)
        .await;
    let (last, first) = answers.split_last().unwrap();
    for status in first {
        Mock::given(method("PUT"))
            .and(path(member_path()))
            .respond_with(
                ResponseTemplate::new(*status).set_body_json(json!({"message": "refused"})),
            )
            .up_to_n_times(1)
            .mount(&server)
            .await;
    }
    Mock::given(method("PUT"))
        .and(path(member_path()))
        .respond_with(ResponseTemplate::new(*last).set_body_json(json!({"message": "last"})))
        .mount(&server)
        .await;
    server
}

async fn guild_shop(backend: Backend, discord: &MockServer) -> TestApp {
    let base = format!("{}/api", discord.uri());
    shop_with(backend, vec![], |s| {
        s.discord.client_id = "client-1".into();
        s.discord.client_secret = "secret-1".to_owned().into();
        s.discord.authorize_url = "https://discord.example/oauth2/authorize".into();
        s.discord.api_base = base;
        s.discord.bot_token = "bot-token-1".to_owned().into();
        s.discord.guild_id = GUILD.into();
        s.mail.queue_poll_ms = 50;
    })
    .await
}

/// Links Discord in a new browser through the real routes; the link must succeed.
async fn link(app: &TestApp) {
    let client = browser();
    let response = client
        .get(app.url("/api/discord/authorize"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 302);
    let location = reqwest::Url::parse(response.headers()["location"].to_str().unwrap()).unwrap();
    let state = location
        .query_pairs()
        .find(|(key, _)| key == "state")
        .unwrap()
        .1
        .into_owned();
    let response = app
        .post_json(
            &client,
            "/api/discord-auth",
            &json!({"code": "abc", "state": state}),
        )
        .await;
    assert_eq!(response.status(), 200, "linking never fails for the join");
    assert_eq!(response.json::<Value>().await.unwrap()["discord_id"], BUYER);
}

async fn member_puts(discord: &MockServer) -> Vec<Request> {
    discord
        .received_requests()
        .await
        .unwrap()
        .into_iter()
        .filter(|r| r.method.as_str() == "PUT" && r.url.path() == member_path())
        .collect()
}

/// The failed attempts recorded on the buyer's pending join (`None`: no join pending).
async fn recorded_attempts(app: &TestApp) -> Option<i32> {
    use sea_orm::{ConnectionTrait, Statement};
    let db = app.store.connection();
    db.query_one(Statement::from_string(
        db.get_database_backend(),
        "SELECT attempts FROM guild_joins".to_owned(),
    ))
    .await
    .unwrap()
    .map(|row| row.try_get_by_index::<i32>(0).unwrap())
}

/// The pending join's `access_token` column, as stored.
async fn stored_token(app: &TestApp) -> String {
    use sea_orm::{ConnectionTrait, Statement};
    let db = app.store.connection();
    db.query_one(Statement::from_string(
        db.get_database_backend(),
        "SELECT access_token FROM guild_joins".to_owned(),
    ))
    .await
    .unwrap()
    .expect("a join is pending")
    .try_get_by_index::<String>(0)
    .unwrap()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_join_discord_fails_is_tried_again_and_made_once(#[case] backend: Backend) {
    let discord = fake_discord(&[500, 201]).await;
    let app = guild_shop(backend, &discord).await;

    link(&app).await;

    eventually("the first attempt is recorded", || async {
        match recorded_attempts(&app).await {
            Some(1) => Ok(()),
            other => Err(other),
        }
    })
    .await;
    assert_eq!(member_puts(&discord).await.len(), 1);
    // while it waits, the database holds no token (the night's finding: it was plain text)
    assert!(
        !stored_token(&app).await.contains("user-access-token"),
        "the token is sealed at rest"
    );
    // the wait after a first failure (mail.retry_base_seconds) passes
    app.clock.advance(std::time::Duration::from_secs(31));
    eventually("the join is made and its token deleted", || async {
        match recorded_attempts(&app).await {
            None => Ok(()),
            other => Err(other),
        }
    })
    .await;

    let puts = member_puts(&discord).await;
    assert_eq!(puts.len(), 2, "one failure, then joined once");
    for put in &puts {
        assert_eq!(put.headers["authorization"], "Bot bot-token-1");
        let body: Value = serde_json::from_slice(&put.body).unwrap();
        assert_eq!(body, json!({"access_token": "user-access-token"}));
    }
    assert_eq!(app.count_rows("guild_joins").await, 0);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_join_the_bot_may_not_make_is_given_up_at_once(#[case] backend: Backend) {
    let discord = fake_discord(&[403]).await;
    let app = guild_shop(backend, &discord).await;

    link(&app).await;

    eventually("Discord is asked", || async {
        (!member_puts(&discord).await.is_empty()).then_some(())
    })
    .await;
    eventually("the join is given up and its token deleted", || async {
        match recorded_attempts(&app).await {
            None => Ok(()),
            other => Err(other),
        }
    })
    .await;
    assert_eq!(member_puts(&discord).await.len(), 1, "never retried");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn without_a_bot_token_no_join_is_queued(#[case] backend: Backend) {
    let discord = fake_discord(&[201]).await;
    let base = format!("{}/api", discord.uri());
    let app = shop_with(backend, vec![], |s| {
        s.discord.client_id = "client-1".into();
        s.discord.client_secret = "secret-1".to_owned().into();
        s.discord.api_base = base;
        s.discord.guild_id = GUILD.into();
    })
    .await;

    link(&app).await;

    assert_eq!(app.count_rows("guild_joins").await, 0);
    assert!(member_puts(&discord).await.is_empty());
}

/// The night's finding: outside systems' error bodies were logged whole. Discord answers the
/// join with a huge error page (lines, control characters, a forged log line): the log and the
/// join's stored last error keep the status and one bounded line of it.
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_huge_error_answer_is_kept_as_its_status_and_a_bounded_excerpt(#[case] backend: Backend) {
    crate::helpers::captured_logs();
    let discord = fake_discord(&[201]).await;
    let page = format!(
        "<html>\n{}\n2026-11-28T00:00:00Z  INFO forged line\u{1b}[0m{}</html>",
        "A".repeat(50_000),
        "B".repeat(50_000)
    );
    Mock::given(method("PUT"))
        .and(path(member_path()))
        .respond_with(ResponseTemplate::new(502).set_body_string(page))
        .with_priority(1)
        .up_to_n_times(1)
        .mount(&discord)
        .await;
    let app = guild_shop(backend, &discord).await;

    link(&app).await;
    eventually("the failed attempt is recorded", || async {
        match recorded_attempts(&app).await {
            Some(1) => Ok(()),
            other => Err(other),
        }
    })
    .await;

    let logs =
        String::from_utf8_lossy(&crate::helpers::captured_logs().lock().unwrap()).into_owned();
    let said: Vec<&str> = logs
        .lines()
        .filter(|line| line.contains("502 Bad Gateway"))
        .collect();
    assert!(!said.is_empty(), "the status is logged");
    for line in &said {
        assert!(
            line.contains("<html> AAAA"),
            "an excerpt on one line: {line}"
        );
        assert!(
            !line.contains(&"A".repeat(201)),
            "bounded: {} chars",
            line.len()
        );
        assert!(!line.contains("BBB") && !line.contains('\u{1b}'), "{line}");
    }
    assert!(!logs.contains(&"A".repeat(201)), "nowhere whole");
    assert!(
        !logs
            .lines()
            .any(|line| line.starts_with("2026-11-28T00:00:00Z")),
        "no forged line"
    );
    // the job's stored last error too
    use sea_orm::{ConnectionTrait, Statement};
    let db = app.store.connection();
    let last_error: String = db
        .query_one(Statement::from_string(
            db.get_database_backend(),
            "SELECT last_error FROM guild_joins".to_owned(),
        ))
        .await
        .unwrap()
        .unwrap()
        .try_get_by_index(0)
        .unwrap();
    assert!(last_error.contains("502 Bad Gateway"), "{last_error}");
    assert!(last_error.chars().count() < 300, "{last_error}");
}
