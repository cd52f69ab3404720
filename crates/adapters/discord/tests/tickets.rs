//! The ticket client against a local fake of Discord's REST API (wiremock).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

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
        request_timeout_ms: 10_000,
        invalid_request_budget: 1_000,
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
async fn a_429_is_not_sent_again_but_answered_with_its_wait_and_scope() {
    let server = MockServer::start().await;
    Mock::given(method("PUT"))
        .and(path(members_path()))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("x-ratelimit-scope", "user")
                .insert_header("retry-after", "1")
                .set_body_json(json!({
                    "message": "You are being rate limited.",
                    "retry_after": 0.4,
                    "global": false
                })),
        )
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path(format!("/api/v10/channels/{CHANNEL}/threads")))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("x-ratelimit-scope", "global")
                .insert_header("retry-after", "30")
                .set_body_string("not json"),
        )
        .expect(1)
        .mount(&server)
        .await;
    let desk = desk(&server).await;

    let error = desk.add_member(&id(THREAD), &id(BUYER)).await.unwrap_err();
    let DeskError::RateLimited(limit) = error else {
        panic!("{error:?}");
    };
    assert_eq!(limit.retry_after, chrono::Duration::milliseconds(400));
    assert!(!limit.global);
    let error = desk.open_thread("order-7").await.unwrap_err();
    let DeskError::RateLimited(limit) = error else {
        panic!("{error:?}");
    };
    assert_eq!(limit.retry_after, chrono::Duration::seconds(30));
    assert!(limit.global);
    assert_eq!(
        server.received_requests().await.unwrap().len(),
        2,
        "each sent once"
    );
}

#[tokio::test]
async fn a_slow_answer_is_unavailable_after_the_deadline() {
    let server = MockServer::start().await;
    Mock::given(method("PUT"))
        .and(path(members_path()))
        .respond_with(ResponseTemplate::new(204).set_delay(Duration::from_secs(30)))
        .mount(&server)
        .await;
    let mut settings = settings(&server.uri());
    settings.request_timeout_ms = 200;
    let desk = DiscordTickets::from_settings(&settings).unwrap().unwrap();
    let error = desk.add_member(&id(THREAD), &id(BUYER)).await.unwrap_err();
    assert!(matches!(error, DeskError::Unavailable(_)), "{error:?}");
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

// The ticket's rules (orders::Tickets) over this client and the fake Discord, with the order
// kept in memory.

mod with_the_rules {
    use std::sync::{Arc, Mutex};

    use chrono::{TimeZone, Utc};
    use orders::tickets::{
        StoredPost, TicketItem, TicketOrder, TicketProblem, TicketRepository, TicketSettings,
        TicketStaff, Tickets,
    };
    use orders::{JobFailed, JobHandler, OrderError, OrderEvent, OrderId, OrderStep, OutboxJob};

    use super::*;

    #[derive(Clone, Default)]
    struct Memory(
        Arc<Mutex<(Option<DiscordId>, Option<String>)>>,
        Arc<Mutex<Vec<StoredPost>>>,
    );

    impl Memory {
        fn thread(&self) -> Option<DiscordId> {
            self.0.lock().unwrap().0.clone()
        }
        fn problem(&self) -> Option<String> {
            self.0.lock().unwrap().1.clone()
        }
    }

    impl TicketRepository for Memory {
        async fn ticket_order(&self, id: OrderId) -> Result<TicketOrder, OrderError> {
            let (thread, problem) = self.0.lock().unwrap().clone();
            Ok(TicketOrder {
                id,
                buyer: Some(super::id(BUYER)),
                discord_username: "kid".into(),
                roblox_username: "Builder_man".into(),
                items: vec![TicketItem {
                    name: "Seed Pack".into(),
                    quantity: 1,
                }],
                claimed_by: Some(shared::UserId::new(3)),
                proof_picture: Some("/media/proofs/a.png".into()),
                thread,
                problem,
            })
        }

        async fn ticket_message(
            &self,
            _order: OrderId,
            _message: i64,
        ) -> Result<Option<orders::tickets::TicketMessage>, OrderError> {
            Ok(None)
        }

        async fn ticket_staff(
            &self,
            _user_id: shared::UserId,
        ) -> Result<Option<TicketStaff>, OrderError> {
            Ok(Some(TicketStaff {
                name: "Ann".into(),
                private_server_url: Some("https://www.roblox.com/share?code=abc".into()),
            }))
        }

        async fn store_thread(&self, _id: OrderId, thread: &DiscordId) -> Result<bool, OrderError> {
            let mut state = self.0.lock().unwrap();
            if state.0.is_some() {
                return Ok(false);
            }
            state.0 = Some(thread.clone());
            Ok(true)
        }

        async fn set_ticket_problem(
            &self,
            _id: OrderId,
            problem: Option<String>,
        ) -> Result<(), OrderError> {
            self.0.lock().unwrap().1 = problem;
            Ok(())
        }

        async fn store_post(&self, post: StoredPost) -> Result<(), OrderError> {
            let mut posts = self.1.lock().unwrap();
            if posts.iter().all(|p| p.event != post.event) {
                posts.push(post);
            }
            Ok(())
        }

        async fn linked_posts(&self, _id: OrderId) -> Result<Vec<StoredPost>, OrderError> {
            Ok(self
                .1
                .lock()
                .unwrap()
                .iter()
                .filter(|p| p.shows_link)
                .cloned()
                .collect())
        }

        async fn link_removed(&self, message: &DiscordId) -> Result<(), OrderError> {
            for post in self.1.lock().unwrap().iter_mut() {
                if post.message == *message {
                    post.shows_link = false;
                }
            }
            Ok(())
        }
    }

    fn job(event: i64, step: OrderStep) -> OutboxJob {
        OutboxJob {
            id: event,
            event: OrderEvent {
                id: event,
                order_id: OrderId::new(7),
                step,
                staff_id: Some(shared::UserId::new(3)),
                note: None,
                at: Utc.with_ymd_and_hms(2026, 11, 26, 12, 0, 0).unwrap(),
            },
            attempts: 0,
            thread: None,
        }
    }

    async fn tickets(server: &MockServer, memory: &Memory) -> Tickets<Memory, DiscordTickets> {
        Tickets::new(
            memory.clone(),
            desk(server).await,
            TicketSettings {
                public_url: "https://shop.test".into(),
                staff_role: Some(super::id(ROLE)),
            },
        )
    }

    async fn mount(server: &MockServer, verb: &str, at: String, answer: ResponseTemplate, n: u64) {
        Mock::given(method(verb))
            .and(path(at))
            .respond_with(answer)
            .expect(n)
            .mount(server)
            .await;
    }

    fn messages(requests: &[wiremock::Request]) -> Vec<Value> {
        requests
            .iter()
            .filter(|r| r.url.path().ends_with("/messages"))
            .map(|r| serde_json::from_slice(&r.body).unwrap())
            .collect()
    }

    #[tokio::test]
    async fn an_order_from_paid_to_delivered_makes_one_thread_and_one_post_per_step() {
        let server = MockServer::start().await;
        let threads = format!("/api/v10/channels/{CHANNEL}/threads");
        mount(
            &server,
            "POST",
            threads,
            ResponseTemplate::new(201).set_body_json(thread_json()),
            1,
        )
        .await;
        mount(
            &server,
            "PUT",
            members_path(),
            ResponseTemplate::new(204),
            1,
        )
        .await;
        let posts = format!("/api/v10/channels/{THREAD}/messages");
        let posted =
            ResponseTemplate::new(200).set_body_json(json!({ "id": "1300000000000000003" }));
        mount(&server, "POST", posts, posted, 4).await;
        let closed = ResponseTemplate::new(200).set_body_json(thread_json());
        mount(
            &server,
            "PATCH",
            format!("/api/v10/channels/{THREAD}"),
            closed,
            1,
        )
        .await;
        let edited = format!("/api/v10/channels/{THREAD}/messages/1300000000000000003");
        mount(
            &server,
            "PATCH",
            edited.clone(),
            ResponseTemplate::new(200).set_body_json(json!({ "id": "1300000000000000003" })),
            1,
        )
        .await;
        let memory = Memory::default();
        let tickets = tickets(&server, &memory).await;

        for (event, step) in [
            (1, OrderStep::Paid),
            (2, OrderStep::Claimed),
            (3, OrderStep::Ready),
            (4, OrderStep::Delivered),
        ] {
            tickets.handle(&job(event, step)).await.unwrap();
        }

        assert_eq!(memory.thread(), Some(id(THREAD)));
        assert_eq!(memory.problem(), None);
        let messages = messages(&server.received_requests().await.unwrap());
        assert_eq!(
            messages
                .iter()
                .map(|m| m["nonce"].clone())
                .collect::<Vec<_>>(),
            vec![json!("e1"), json!("e2"), json!("e3"), json!("e4")]
        );
        let opening = messages[0]["content"].as_str().unwrap();
        assert!(opening.starts_with(&format!("<@&{ROLE}> New order #7 for <@{BUYER}>")));
        assert!(opening.contains("Roblox name: Builder\\_man"));
        assert_eq!(opening.matches(ROLE).count(), 1);
        assert_eq!(
            messages[0]["allowed_mentions"],
            json!({ "parse": [], "users": [BUYER], "roles": [ROLE] })
        );
        assert!(messages[1]["content"]
            .as_str()
            .unwrap()
            .ends_with("Claimed by Ann — private server: https://www.roblox.com/share?code=abc"));
        let delivered = messages[3]["content"].as_str().unwrap();
        assert!(delivered.contains("https://shop.test/media/proofs/a.png"));
        assert!(delivered.contains("https://shop.test/orders/7"));
        assert!(!delivered.contains("key="));
        // delivered: the claim post no longer shows the private server link
        let edits: Vec<Value> = server
            .received_requests()
            .await
            .unwrap()
            .iter()
            .filter(|r| r.method.as_str() == "PATCH" && r.url.path() == edited)
            .map(|r| serde_json::from_slice(&r.body).unwrap())
            .collect();
        assert_eq!(edits.len(), 1);
        let edit = edits[0]["content"].as_str().unwrap();
        assert!(edit.ends_with("Claimed by Ann"), "{edit}");
        assert!(!edit.contains("roblox.com"), "{edit}");
        assert_eq!(edits[0]["allowed_mentions"], json!({ "parse": [] }));
    }

    #[tokio::test]
    async fn a_thread_made_but_answered_with_garbage_is_found_and_adopted_not_made_again() {
        let server = MockServer::start().await;
        let threads = format!("/api/v10/channels/{CHANNEL}/threads");
        // Discord makes the thread, but its answer cannot be read
        mount(
            &server,
            "POST",
            threads,
            ResponseTemplate::new(201).set_body_string("<html>upstream hiccup"),
            1,
        )
        .await;
        mount(
            &server,
            "GET",
            "/api/v10/guilds/555000/threads/active".to_owned(),
            ResponseTemplate::new(200).set_body_json(json!({
                "threads": [
                    { "id": "1100000000000000009", "parent_id": "700000000000000002", "name": "order-7" },
                    { "id": "1100000000000000008", "parent_id": CHANNEL, "name": "order-70" },
                    { "id": THREAD, "parent_id": CHANNEL, "name": "order-7" }
                ],
                "members": []
            })),
            1,
        )
        .await;
        mount(
            &server,
            "PUT",
            members_path(),
            ResponseTemplate::new(204),
            1,
        )
        .await;
        let posts = format!("/api/v10/channels/{THREAD}/messages");
        let posted =
            ResponseTemplate::new(200).set_body_json(json!({ "id": "1300000000000000003" }));
        mount(&server, "POST", posts, posted, 1).await;
        let memory = Memory::default();
        let tickets = tickets(&server, &memory).await;

        let mut paid = job(1, OrderStep::Paid);
        let failed = tickets.handle(&paid).await.unwrap_err();
        assert!(failed.retry, "{failed}");
        assert_eq!(memory.thread(), None);
        paid.attempts = 1;
        tickets.handle(&paid).await.unwrap();

        assert_eq!(memory.thread(), Some(id(THREAD)), "the thread Discord made");
        // the mocks' expectations: one thread made, one lookup, one member add, one post
    }

    #[tokio::test]
    async fn a_job_retried_after_discord_failed_it_makes_no_second_thread() {
        let server = MockServer::start().await;
        let threads = format!("/api/v10/channels/{CHANNEL}/threads");
        mount(
            &server,
            "POST",
            threads,
            ResponseTemplate::new(201).set_body_json(thread_json()),
            1,
        )
        .await;
        Mock::given(method("PUT"))
            .and(path(members_path()))
            .respond_with(ResponseTemplate::new(502))
            .up_to_n_times(1)
            .expect(1)
            .with_priority(1)
            .mount(&server)
            .await;
        mount(
            &server,
            "PUT",
            members_path(),
            ResponseTemplate::new(204),
            1,
        )
        .await;
        let posts = format!("/api/v10/channels/{THREAD}/messages");
        let posted =
            ResponseTemplate::new(200).set_body_json(json!({ "id": "1300000000000000003" }));
        mount(&server, "POST", posts, posted, 1).await;
        let memory = Memory::default();
        let tickets = tickets(&server, &memory).await;

        let failed: JobFailed = tickets.handle(&job(1, OrderStep::Paid)).await.unwrap_err();
        assert!(failed.retry);
        assert_eq!(
            memory.problem().as_deref(),
            Some(TicketProblem::BuyerNotAddedUnavailable.sentence())
        );

        tickets.handle(&job(1, OrderStep::Paid)).await.unwrap();

        assert_eq!(memory.problem(), None);
        assert_eq!(tickets.failures().iter().map(|(_, n)| n).sum::<u64>(), 1);
    }

    #[tokio::test]
    async fn a_bot_without_permission_leaves_the_order_with_the_reason_and_gives_up() {
        let server = MockServer::start().await;
        let threads = format!("/api/v10/channels/{CHANNEL}/threads");
        mount(
            &server,
            "POST",
            threads,
            discord_error(403, 50013, "Missing Permissions"),
            1,
        )
        .await;
        let memory = Memory::default();
        let tickets = tickets(&server, &memory).await;

        let failed = tickets.handle(&job(1, OrderStep::Paid)).await.unwrap_err();

        assert!(!failed.retry);
        assert_eq!(memory.thread(), None);
        assert_eq!(
            memory.problem().as_deref(),
            Some("Ticket not opened: the bot lacks permission in the ticket channel.")
        );
        // later steps have nowhere to post, and say nothing
        tickets.handle(&job(2, OrderStep::Claimed)).await.unwrap();
        assert_eq!(server.received_requests().await.unwrap().len(), 1);
    }

    #[tokio::test]
    async fn a_buyer_who_joined_later_is_added_by_rejoin() {
        let server = MockServer::start().await;
        Mock::given(method("PUT"))
            .and(path(members_path()))
            .respond_with(discord_error(404, 10007, "Unknown Member"))
            .up_to_n_times(1)
            .expect(1)
            .with_priority(1)
            .mount(&server)
            .await;
        mount(
            &server,
            "PUT",
            members_path(),
            ResponseTemplate::new(204),
            1,
        )
        .await;
        let memory = Memory::default();
        *memory.0.lock().unwrap() = (Some(id(THREAD)), None);
        let tickets = tickets(&server, &memory).await;

        assert!(matches!(
            tickets.rejoin(OrderId::new(7)).await,
            Err(orders::tickets::RejoinError::NotInServer)
        ));
        assert_eq!(
            memory.problem().as_deref(),
            Some("Buyer not added to the ticket: they are not in the Discord server.")
        );
        tickets.rejoin(OrderId::new(7)).await.unwrap();
        assert_eq!(memory.problem(), None);
    }
}
