//! The Discord ticket of a paid order, end to end through the app against a local fake of
//! Discord's REST API, on SQLite (one instance) and PostgreSQL (two instances sharing it):
//! a hundred replays of the paid webhook make one thread and one post per step; a 429 puts the
//! job off by Discord's wait; a 403 leaves the order paid with the reason on the queue card;
//! a buyer outside the server is added by "I joined, add me to my ticket". Issue 32: a stalled
//! ticket holds no buyer's mail, a global 429 holds every Discord job, a thread made without a
//! readable answer is adopted, no format character reaches Discord, a claim post loses its
//! private server link, and an erased account's tickets are deleted.

use accounts::Role;
use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

use crate::checkout_support::*;
use crate::helpers::{eventually, TestApp};

const CHANNEL: &str = "700000000000000001";
const THREAD: &str = "1100000000000000001";
const GUILD: &str = "555000";
const ROLE: &str = "990000000000000009";
/// The first demo identity of the dev Discord sign-in.
const BUYER: &str = "100000000000000001";

fn thread_json() -> Value {
    json!({
        "id": THREAD, "type": 12, "guild_id": GUILD, "parent_id": CHANNEL, "name": "order-1",
        "thread_metadata": {
            "archived": false, "auto_archive_duration": 10080,
            "archive_timestamp": "2026-11-26T12:00:00.000000+00:00",
            "locked": false, "invitable": false
        }
    })
}

fn message_json() -> Value {
    json!({
        "id": "1200000000000000001", "channel_id": THREAD, "type": 0, "content": "",
        "author": { "id": "1", "username": "shop", "discriminator": "0", "avatar": null },
        "timestamp": "2026-11-26T12:00:00.000000+00:00", "edited_timestamp": null, "tts": false,
        "mention_everyone": false, "mentions": [], "mention_roles": [], "attachments": [],
        "embeds": [], "pinned": false
    })
}

fn discord_error(status: u16, code: u64) -> ResponseTemplate {
    ResponseTemplate::new(status).set_body_json(json!({ "message": "refused", "code": code }))
}

async fn mount(discord: &MockServer, verb: &str, at: String, answer: ResponseTemplate) {
    Mock::given(method(verb))
        .and(path(at))
        .respond_with(answer)
        .mount(discord)
        .await;
}

fn thread_path() -> String {
    format!("/api/v10/channels/{CHANNEL}/threads")
}

fn member_path() -> String {
    format!("/api/v10/channels/{THREAD}/thread-members/{BUYER}")
}

fn messages_path() -> String {
    format!("/api/v10/channels/{THREAD}/messages")
}

/// The post the fake answers every message with (`message_json`).
fn post_path() -> String {
    format!("/api/v10/channels/{THREAD}/messages/1200000000000000001")
}

async fn ticket_shop(backend: Backend, discord: &MockServer, stripe: &MockServer) -> TestApp {
    ticket_shop_with(backend, discord, stripe, |_| {}).await
}

/// The ticket shop with settings of the test's own on top.
async fn ticket_shop_with(
    backend: Backend,
    discord: &MockServer,
    stripe: &MockServer,
    configure: impl FnOnce(&mut garden_app::Settings),
) -> TestApp {
    Mock::given(method("POST"))
        .and(path("/v1/checkout/sessions"))
        .respond_with(Sessions(0.into()))
        .mount(stripe)
        .await;
    let (discord_uri, stripe_uri) = (discord.uri(), stripe.uri());
    shop_with(backend, vec![(1, product("Raccoon", "10.00", None))], |s| {
        s.stripe.secret_key = "sk_test_fake".to_owned().into();
        s.stripe.webhook_secret = WEBHOOK_SECRET.to_owned().into();
        s.stripe.api_base = stripe_uri;
        s.discord.api_base = format!("{discord_uri}/api");
        s.discord.bot_token = "bot-token-1".to_owned().into();
        s.discord.guild_id = GUILD.into();
        s.discord.ticket_channel_id = CHANNEL.into();
        s.discord.staff_role_id = ROLE.into();
        s.mail.queue_poll_ms = 50;
        configure(s);
    })
    .await
}

/// Places an order in `buyer`'s session (Stripe's fake page); answers its id and session.
async fn placed(app: &TestApp, buyer: &reqwest::Client) -> (i64, String) {
    let response = checkout(app, buyer, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(response.status(), 200);
    let id = response.json::<Value>().await.unwrap()["order_id"]
        .as_i64()
        .unwrap();
    (id, reference(app, id).await)
}

/// The requests Discord received at `at` with `verb`.
async fn received(discord: &MockServer, verb: &str, at: &str) -> Vec<Request> {
    discord
        .received_requests()
        .await
        .unwrap()
        .into_iter()
        .filter(|r| r.method.as_str() == verb && r.url.path() == at)
        .collect()
}

/// Waits until Discord received `count` requests at `at`.
async fn wait_for(discord: &MockServer, verb: &str, at: &str, count: usize) -> Vec<Request> {
    eventually(
        &format!("Discord receives {count} × {verb} {at}"),
        || async {
            let seen = received(discord, verb, at).await;
            if seen.len() >= count {
                Ok(seen)
            } else {
                Err(seen.len())
            }
        },
    )
    .await
}

async fn staff_action(app: &TestApp, staff: &reqwest::Client, order: i64, action: &str) {
    let body = if action == "release" {
        json!({ "reason": "My game crashed." })
    } else {
        json!({})
    };
    let answer = app
        .post_json(staff, &format!("/api/admin/orders/{order}/{action}"), &body)
        .await;
    assert_eq!(answer.status(), 200, "{action}");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres_two_instances(Backend::Postgres)]
#[tokio::test]
async fn a_hundred_replays_of_the_payment_make_one_ticket_and_one_post_per_step(
    #[case] backend: Backend,
) {
    let (discord, stripe) = (MockServer::start().await, MockServer::start().await);
    // the first post meets Discord's rate limit: the job is put off by its wait, then the post is
    // sent again as it was
    Mock::given(method("POST"))
        .and(path(messages_path()))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("x-ratelimit-scope", "user")
                .insert_header("x-ratelimit-bucket", "messages")
                .insert_header("x-ratelimit-limit", "5")
                .insert_header("x-ratelimit-remaining", "0")
                .insert_header("x-ratelimit-reset-after", "0.300")
                .insert_header("retry-after", "1")
                .set_body_json(json!({
                    "message": "You are being rate limited.", "retry_after": 0.3, "global": false
                })),
        )
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&discord)
        .await;
    mount(
        &discord,
        "POST",
        thread_path(),
        ResponseTemplate::new(201).set_body_json(thread_json()),
    )
    .await;
    mount(&discord, "PUT", member_path(), ResponseTemplate::new(204)).await;
    mount(
        &discord,
        "POST",
        messages_path(),
        ResponseTemplate::new(200).set_body_json(message_json()),
    )
    .await;
    mount(
        &discord,
        "PATCH",
        format!("/api/v10/channels/{THREAD}"),
        ResponseTemplate::new(200).set_body_json(thread_json()),
    )
    .await;
    mount(
        &discord,
        "PATCH",
        post_path(),
        ResponseTemplate::new(200).set_body_json(message_json()),
    )
    .await;
    let app = ticket_shop(backend, &discord, &stripe).await;
    // PostgreSQL: a second instance on the same database takes half the replays and runs its
    // own outbox loop
    let other = match backend {
        Backend::Postgres => Some(app.start_another_instance().await),
        Backend::Sqlite => None,
    };
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let (order, session) = placed(&app, &buyer).await;

    let replays = (0..100).map(|n| {
        let event = stripe_event(
            &format!("evt_paid_{}", n % 7),
            "checkout.session.completed",
            &session,
            order,
        );
        let body = serde_json::to_vec(&event).unwrap();
        let signature = stripe_adapter::signature_header(WEBHOOK_SECRET, now(&app), &body);
        let address = match (&other, n % 2) {
            (Some(other), 1) => other.clone(),
            _ => app.address.clone(),
        };
        let client = app.client.clone();
        async move {
            client
                .post(format!("{address}/api/stripe/webhook"))
                .header("Stripe-Signature", signature)
                .header("Content-Type", "application/json")
                .body(body)
                .send()
                .await
                .unwrap()
                .status()
        }
    });
    for status in futures::future::join_all(replays).await {
        assert_eq!(status, 200);
    }
    wait_for(&discord, "POST", &messages_path(), 2).await; // the 429, then the order's post

    let staff = app.client_with_role(Role::Admin).await;
    staff_action(&app, &staff, order, "claim").await;
    let key = {
        let marker = format!("/orders/{order}?key=");
        let mail = app
            .wait_for_outbox(1)
            .await
            .into_iter()
            .find(|m| m.contains(&marker))
            .unwrap();
        let start = mail.find(&marker).unwrap() + marker.len();
        mail[start..start + 32].to_owned()
    };
    let ready = browser()
        .post(app.url(&format!("/api/orders/{order}/ready?key={key}")))
        .header("Origin", &app.address)
        .send()
        .await
        .unwrap();
    assert_eq!(ready.status(), 200);
    staff_action(&app, &staff, order, "deliver").await;

    let jobs = app.settled_jobs(order, "ticket").await;
    assert_eq!(
        jobs,
        [
            ("paid".to_owned(), "sent".to_owned()),
            ("claimed".to_owned(), "sent".to_owned()),
            ("ready".to_owned(), "sent".to_owned()),
            ("delivered".to_owned(), "sent".to_owned()),
        ]
    );
    assert_eq!(
        received(&discord, "POST", &thread_path()).await.len(),
        1,
        "one thread"
    );
    let thread: Value =
        serde_json::from_slice(&received(&discord, "POST", &thread_path()).await[0].body).unwrap();
    assert_eq!(thread["type"], 12);
    assert_eq!(thread["name"], format!("order-{order}"));
    assert_eq!(
        received(&discord, "PUT", &member_path()).await.len(),
        2,
        "one member add per attempt of the paid job: the one whose post met the rate limit, \
         put off by Discord's wait, and the next (the add is idempotent)"
    );
    let posts: Vec<Value> = received(&discord, "POST", &messages_path())
        .await
        .iter()
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .collect();
    // the rate-limited first attempt, then one post per step
    assert_eq!(posts.len(), 5, "{posts:#?}");
    assert_eq!(
        posts[0], posts[1],
        "the post refused by the limit is sent again as it was"
    );
    let first = &posts[1];
    let content = first["content"].as_str().unwrap();
    assert!(content.contains(&format!("<@&{ROLE}>")), "{content}");
    assert_eq!(content.matches("<@&").count(), 1, "one mention of staff");
    assert!(
        content.contains("Builder\\_Bob"),
        "the Roblox name, escaped: {content}"
    );
    assert_eq!(first["allowed_mentions"]["roles"], json!([ROLE]));
    assert_eq!(first["allowed_mentions"]["users"], json!([BUYER]));
    // two instances send the later steps' posts in whichever order their loops come round
    let claimed: Vec<&str> = posts[2..]
        .iter()
        .filter_map(|post| post["content"].as_str())
        .filter(|content| content.contains("Claimed by"))
        .collect();
    assert_eq!(claimed.len(), 1, "{posts:#?}");
    assert!(
        claimed[0].contains("https://www.roblox.com/share?code=test"),
        "the claim names the private server: {}",
        claimed[0]
    );
    assert_eq!(
        received(&discord, "PATCH", &format!("/api/v10/channels/{THREAD}"))
            .await
            .len(),
        1,
        "archived and locked once, after delivery"
    );
    // delivered: the claim post no longer shows the private server link
    let edits = received(&discord, "PATCH", &post_path()).await;
    assert_eq!(edits.len(), 1, "the claim post edited once");
    let edit: Value = serde_json::from_slice(&edits[0].body).unwrap();
    let edited = edit["content"].as_str().unwrap();
    assert!(edited.contains("Claimed by"), "{edited}");
    assert!(!edited.contains("roblox.com"), "{edited}");
    let page: Value = app
        .client
        .get(app.url(&format!("/api/orders/{order}?key={key}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        page["delivery"]["ticket_url"],
        format!("https://discord.com/channels/{GUILD}/{THREAD}")
    );
    assert_eq!(page["delivery"]["ticket_problem"], Value::Null);
    assert_eq!(
        app.count_rows("mail_jobs").await,
        3,
        "receipt, claim, delivered: once each"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_bot_without_permission_leaves_the_order_paid_with_the_reason_on_the_queue(
    #[case] backend: Backend,
) {
    let (discord, stripe) = (MockServer::start().await, MockServer::start().await);
    mount(&discord, "POST", thread_path(), discord_error(403, 50013)).await;
    let app = ticket_shop(backend, &discord, &stripe).await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let (order, session) = placed(&app, &buyer).await;
    let event = stripe_event("evt_paid", "checkout.session.completed", &session, order);
    assert_eq!(
        deliver(&app, &event, WEBHOOK_SECRET, now(&app))
            .await
            .status(),
        200
    );

    let jobs = app.settled_jobs(order, "ticket").await;
    assert_eq!(
        jobs,
        [("paid".to_owned(), "failed".to_owned())],
        "given up: retrying cannot help"
    );
    assert_eq!(status(&app, order).await, "paid");
    let staff = app.client_with_role(Role::Admin).await;
    let queue: Vec<Value> = staff
        .get(app.url("/api/admin/orders"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let card = queue.iter().find(|o| o["id"] == order).unwrap();
    assert_eq!(card["ticket_url"], Value::Null);
    let problem = card["ticket_problem"].as_str().unwrap();
    assert!(problem.starts_with("Ticket not opened"), "{problem}");
    let metrics = app.client.get(app.url("/metrics")).send().await.unwrap();
    // metrics are off in this shop: the count is read through the ticket service's failures
    assert_eq!(metrics.status(), 404);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_buyer_outside_the_server_is_added_once_they_joined(#[case] backend: Backend) {
    let (discord, stripe) = (MockServer::start().await, MockServer::start().await);
    mount(
        &discord,
        "POST",
        thread_path(),
        ResponseTemplate::new(201).set_body_json(thread_json()),
    )
    .await;
    mount(
        &discord,
        "POST",
        messages_path(),
        ResponseTemplate::new(200).set_body_json(message_json()),
    )
    .await;
    Mock::given(method("PUT"))
        .and(path(member_path()))
        .respond_with(discord_error(404, 10007))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&discord)
        .await;
    mount(&discord, "PUT", member_path(), ResponseTemplate::new(204)).await;
    let app = ticket_shop(backend, &discord, &stripe).await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let (order, session) = placed(&app, &buyer).await;
    let event = stripe_event("evt_paid", "checkout.session.completed", &session, order);
    assert_eq!(
        deliver(&app, &event, WEBHOOK_SECRET, now(&app))
            .await
            .status(),
        200
    );
    app.settled_jobs(order, "ticket").await;

    let page: Value = buyer
        .get(app.url(&format!("/api/orders/{order}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let problem = page["delivery"]["ticket_problem"].as_str().unwrap();
    assert!(problem.contains("not in the Discord server"), "{problem}");

    let stranger = browser()
        .post(app.url(&format!("/api/orders/{order}/ticket/join")))
        .header("Origin", &app.address)
        .send()
        .await
        .unwrap();
    assert_eq!(stranger.status(), 404, "only the order's viewers");
    let joined = buyer
        .post(app.url(&format!("/api/orders/{order}/ticket/join")))
        .header("Origin", &app.address)
        .send()
        .await
        .unwrap();
    assert_eq!(joined.status(), 200);
    let page: Value = joined.json().await.unwrap();
    assert_eq!(page["delivery"]["ticket_problem"], Value::Null);
    assert_eq!(received(&discord, "PUT", &member_path()).await.len(), 2);
}

#[tokio::test]
async fn without_discord_tickets_the_join_button_has_nothing_to_join() {
    let app = shop(
        Backend::Sqlite,
        vec![(1, product("Raccoon", "10.00", None))],
    )
    .await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let response = checkout(&app, &buyer, &payload(&[(1, 1)], 10.0)).await;
    let order = response.json::<Value>().await.unwrap()["order_id"]
        .as_i64()
        .unwrap();
    let joined = buyer
        .post(app.url(&format!("/api/orders/{order}/ticket/join")))
        .header("Origin", &app.address)
        .send()
        .await
        .unwrap();
    assert_eq!(joined.status(), 409);
    assert_eq!(
        joined.json::<Value>().await.unwrap()["message"],
        "This order has no Discord ticket."
    );
}

// Issue 32: one kind of Discord job waiting never holds another; a 429 is honoured by putting
// the job off (its attempts not counted), a global one holds every Discord job of every
// instance; a thread made without an answer is adopted; no format characters reach Discord;
// an erased account's tickets are deleted.

/// How the fake Discord holds up the opening of a ticket.
#[derive(Debug, Clone, Copy)]
enum Stall {
    /// 429 for this route, for 30 s.
    RateLimited,
    /// 429 for a resource shared with other bots (`X-RateLimit-Scope: shared`), for 30 s.
    SharedLimit,
    /// An answer long after the shop's deadline.
    Slow,
}

/// Places and pays an order in `buyer`'s session; answers its id.
async fn paid(app: &TestApp, buyer: &reqwest::Client) -> i64 {
    let (order, session) = placed(app, buyer).await;
    let event = stripe_event(
        &format!("evt_paid_{order}"),
        "checkout.session.completed",
        &session,
        order,
    );
    assert_eq!(
        deliver(app, &event, WEBHOOK_SECRET, now(app))
            .await
            .status(),
        200
    );
    order
}

/// Waits for a mail holding `needle` in the outbox.
async fn wait_for_mail(app: &TestApp, needle: &str) {
    eventually(&format!("a mail holding {needle:?} is sent"), || async {
        app.outbox_messages()
            .iter()
            .any(|m| m.contains(needle))
            .then_some(())
    })
    .await;
}

async fn one_value<T: sea_orm::TryGetable>(app: &TestApp, sql: String) -> Option<T> {
    use sea_orm::{ConnectionTrait, Statement};
    let db = app.store.connection();
    db.query_one(Statement::from_string(db.get_database_backend(), sql))
        .await
        .unwrap()
        .map(|row| row.try_get_by_index::<T>(0).unwrap())
}

/// The attempts and status of an order's ticket job of `step` (`None`: not dispatched yet).
async fn ticket_job(app: &TestApp, order: i64, step: &str) -> Option<(i32, String)> {
    use sea_orm::{ConnectionTrait, Statement};
    let db = app.store.connection();
    db.query_one(Statement::from_string(
        db.get_database_backend(),
        format!(
            "SELECT j.attempts, j.status FROM outbox_jobs j JOIN order_events e \
             ON e.id = j.event_id \
             WHERE j.order_id = {order} AND j.channel = 'ticket' AND e.step = '{step}'"
        ),
    ))
    .await
    .unwrap()
    .map(|row| {
        (
            row.try_get::<i32>("", "attempts").unwrap(),
            row.try_get::<String>("", "status").unwrap(),
        )
    })
}

/// Waits until the order's ticket job of `step` is there and `check` holds of it.
async fn wait_for_job(app: &TestApp, order: i64, step: &str, check: impl Fn(i32, &str) -> bool) {
    eventually(
        &format!("the {step} job of order {order} gets there"),
        || async {
            match ticket_job(app, order, step).await {
                Some((attempts, status)) if check(attempts, &status) => Ok(()),
                other => Err(other),
            }
        },
    )
    .await;
}

#[rstest]
#[case::sqlite_rate_limited(Backend::Sqlite, Stall::RateLimited)]
#[case::postgres_rate_limited(Backend::Postgres, Stall::RateLimited)]
#[case::sqlite_shared_limit(Backend::Sqlite, Stall::SharedLimit)]
#[case::sqlite_slow(Backend::Sqlite, Stall::Slow)]
#[case::postgres_slow(Backend::Postgres, Stall::Slow)]
#[tokio::test]
async fn a_stalled_ticket_holds_no_other_buyers_mail(
    #[case] backend: Backend,
    #[case] stall: Stall,
) {
    let (discord, stripe) = (MockServer::start().await, MockServer::start().await);
    let answer = match stall {
        Stall::RateLimited => ResponseTemplate::new(429)
            .insert_header("x-ratelimit-scope", "user")
            .insert_header("retry-after", "30")
            .set_body_json(json!({
                "message": "You are being rate limited.", "retry_after": 30.0, "global": false
            })),
        Stall::SharedLimit => ResponseTemplate::new(429)
            .insert_header("x-ratelimit-scope", "shared")
            .insert_header("retry-after", "30")
            .set_body_string("garbage, not Discord's JSON"),
        Stall::Slow => ResponseTemplate::new(201)
            .set_body_json(thread_json())
            .set_delay(std::time::Duration::from_secs(3600)),
    };
    mount(&discord, "POST", thread_path(), answer).await;
    let app = ticket_shop_with(backend, &discord, &stripe, |s| {
        s.discord.request_timeout_ms = 300;
    })
    .await;
    let first = browser();
    link_discord(&app, &first, 0).await;
    let first_order = paid(&app, &first).await;
    wait_for(&discord, "POST", &thread_path(), 1).await;

    // while the first ticket waits on Discord, the next buyer's receipt goes out
    let second = browser();
    link_discord(&app, &second, 1).await;
    let second_order = paid(&app, &second).await;
    wait_for_mail(
        &app,
        &format!("Subject: Your Garden Shop receipt for order #{second_order}"),
    )
    .await;

    match stall {
        Stall::RateLimited | Stall::SharedLimit => {
            // put off by Discord's 30 s, not retried in a loop, and no attempt counted
            wait_for_job(&app, first_order, "paid", |_, status| status == "pending").await;
            app.rounds.whole_round(garden_app::Loop::Tickets).await;
            assert_eq!(
                ticket_job(&app, first_order, "paid").await,
                Some((0, "pending".to_owned()))
            );
            assert!(
                received(&discord, "POST", &thread_path()).await.len() <= 2,
                "one creation per order until the wait is over"
            );
        }
        Stall::Slow => {
            // the deadline ended the attempt: a failure counted, tried again later
            wait_for_job(&app, first_order, "paid", |attempts, _| attempts == 1).await;
        }
    }
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_global_rate_limit_holds_every_discord_job_until_its_time(#[case] backend: Backend) {
    let (discord, stripe) = (MockServer::start().await, MockServer::start().await);
    Mock::given(method("POST"))
        .and(path(thread_path()))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("x-ratelimit-scope", "global")
                .insert_header("x-ratelimit-global", "true")
                .insert_header("retry-after", "60")
                .set_body_json(json!({
                    "message": "You are being rate limited.", "retry_after": 60.0, "global": true
                })),
        )
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&discord)
        .await;
    mount(
        &discord,
        "POST",
        thread_path(),
        ResponseTemplate::new(201).set_body_json(thread_json()),
    )
    .await;
    Mock::given(method("PUT"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&discord)
        .await;
    mount(
        &discord,
        "POST",
        messages_path(),
        ResponseTemplate::new(200).set_body_json(message_json()),
    )
    .await;
    let app = ticket_shop(backend, &discord, &stripe).await;
    // PostgreSQL: a second instance on the same database is held as well
    if backend == Backend::Postgres {
        app.start_another_instance().await;
    }
    let first = browser();
    link_discord(&app, &first, 0).await;
    let first_order = paid(&app, &first).await;
    wait_for(&discord, "POST", &thread_path(), 1).await;
    // the pause is kept in the database, for every instance
    eventually("the global limit is kept", || async {
        one_value::<Option<chrono::DateTime<chrono::Utc>>>(
            &app,
            "SELECT paused_until FROM discord_limits".to_owned(),
        )
        .await
        .flatten()
    })
    .await;
    let before = discord.received_requests().await.unwrap().len();

    // the buyer's mail goes on; nothing goes to Discord
    let second = browser();
    link_discord(&app, &second, 1).await;
    let second_order = paid(&app, &second).await;
    wait_for_mail(
        &app,
        &format!("Subject: Your Garden Shop receipt for order #{second_order}"),
    )
    .await;
    for _ in 0..5 {
        app.rounds.whole_round(garden_app::Loop::Tickets).await;
        app.rounds.whole_round(garden_app::Loop::GuildJoins).await;
    }
    let requests = discord.received_requests().await.unwrap();
    assert_eq!(
        requests.len(),
        before,
        "nothing sent to Discord during the pause: {:?}",
        requests
            .iter()
            .map(|r| r.url.path().to_owned())
            .collect::<Vec<_>>()
    );
    assert_eq!(received(&discord, "POST", &thread_path()).await.len(), 1);
    assert_eq!(
        ticket_job(&app, first_order, "paid").await,
        Some((0, "pending".to_owned()))
    );
    assert_eq!(
        ticket_job(&app, second_order, "paid").await,
        Some((0, "pending".to_owned()))
    );

    // past Retry-After: both tickets open
    app.clock.advance(std::time::Duration::from_secs(61));
    for order in [first_order, second_order] {
        assert_eq!(
            app.settled_jobs(order, "ticket").await,
            [("paid".to_owned(), "sent".to_owned())]
        );
    }
    assert_eq!(received(&discord, "POST", &thread_path()).await.len(), 3);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_thread_made_without_a_readable_answer_is_adopted_not_made_again(
    #[case] backend: Backend,
) {
    let (discord, stripe) = (MockServer::start().await, MockServer::start().await);
    // Discord makes the thread, but its answer is garbage
    mount(
        &discord,
        "POST",
        thread_path(),
        ResponseTemplate::new(201).set_body_string("<html>502 upstream</html>"),
    )
    .await;
    mount(&discord, "PUT", member_path(), ResponseTemplate::new(204)).await;
    mount(
        &discord,
        "POST",
        messages_path(),
        ResponseTemplate::new(200).set_body_json(message_json()),
    )
    .await;
    let app = ticket_shop(backend, &discord, &stripe).await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let (order, session) = placed(&app, &buyer).await;
    mount(
        &discord,
        "GET",
        format!("/api/v10/guilds/{GUILD}/threads/active"),
        ResponseTemplate::new(200).set_body_json(json!({
            "threads": [
                { "id": "1100000000000000007", "parent_id": "700000000000000002",
                  "name": format!("order-{order}") },
                { "id": THREAD, "parent_id": CHANNEL, "name": format!("order-{order}") }
            ],
            "members": []
        })),
    )
    .await;
    let event = stripe_event("evt_paid", "checkout.session.completed", &session, order);
    assert_eq!(
        deliver(&app, &event, WEBHOOK_SECRET, now(&app))
            .await
            .status(),
        200
    );
    wait_for_job(&app, order, "paid", |attempts, _| attempts == 1).await;
    app.clock.advance(std::time::Duration::from_secs(31));

    assert_eq!(
        app.settled_jobs(order, "ticket").await,
        [("paid".to_owned(), "sent".to_owned())]
    );
    assert_eq!(
        received(&discord, "POST", &thread_path()).await.len(),
        1,
        "one thread made"
    );
    assert_eq!(
        received(
            &discord,
            "GET",
            &format!("/api/v10/guilds/{GUILD}/threads/active")
        )
        .await
        .len(),
        1
    );
    assert_eq!(
        one_value::<String>(
            &app,
            format!("SELECT ticket_thread_id FROM orders WHERE id = {order}")
        )
        .await
        .as_deref(),
        Some(THREAD),
        "the thread Discord made is the order's"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn bidi_and_zero_width_characters_in_a_discord_name_never_reach_discord(
    #[case] backend: Backend,
) {
    let (discord, stripe) = (MockServer::start().await, MockServer::start().await);
    mount(
        &discord,
        "POST",
        thread_path(),
        ResponseTemplate::new(201).set_body_json(thread_json()),
    )
    .await;
    mount(&discord, "PUT", member_path(), ResponseTemplate::new(204)).await;
    mount(
        &discord,
        "POST",
        messages_path(),
        ResponseTemplate::new(200).set_body_json(message_json()),
    )
    .await;
    mount(
        &discord,
        "POST",
        "/api/webhooks/1/token".to_owned(),
        ResponseTemplate::new(204),
    )
    .await;
    let hook = format!("{}/api/webhooks/1/token", discord.uri());
    let app = ticket_shop_with(backend, &discord, &stripe, |s| {
        s.discord.notify_webhook_url = hook.into();
    })
    .await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let (order, session) = placed(&app, &buyer).await;
    {
        use sea_orm::{ConnectionTrait, Statement};
        let db = app.store.connection();
        let sql = match db.get_database_backend() {
            sea_orm::DatabaseBackend::Postgres => {
                "UPDATE orders SET discord_username = $1 WHERE id = $2"
            }
            _ => "UPDATE orders SET discord_username = ? WHERE id = ?",
        };
        db.execute(Statement::from_sql_and_values(
            db.get_database_backend(),
            sql,
            [
                "Ann\u{202E}nimda\u{202C}\u{200B}\u{2066}\u{FEFF}".into(),
                order.into(),
            ],
        ))
        .await
        .unwrap();
    }
    let event = stripe_event("evt_paid", "checkout.session.completed", &session, order);
    assert_eq!(
        deliver(&app, &event, WEBHOOK_SECRET, now(&app))
            .await
            .status(),
        200
    );
    let post = wait_for(&discord, "POST", &messages_path(), 1).await;
    let alert = wait_for(&discord, "POST", "/api/webhooks/1/token", 1).await;
    for body in [&post[0].body, &alert[0].body] {
        let body: Value = serde_json::from_slice(body).unwrap();
        let text = body.to_string();
        assert!(text.contains("Annnimda"), "{text}");
        assert!(
            !text.chars().any(shared::is_format_char),
            "a format character reached Discord: {text:?}"
        );
    }
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_released_claim_no_longer_shows_the_private_server_link(#[case] backend: Backend) {
    let (discord, stripe) = (MockServer::start().await, MockServer::start().await);
    mount(
        &discord,
        "POST",
        thread_path(),
        ResponseTemplate::new(201).set_body_json(thread_json()),
    )
    .await;
    mount(&discord, "PUT", member_path(), ResponseTemplate::new(204)).await;
    mount(
        &discord,
        "POST",
        messages_path(),
        ResponseTemplate::new(200).set_body_json(message_json()),
    )
    .await;
    mount(
        &discord,
        "PATCH",
        post_path(),
        ResponseTemplate::new(200).set_body_json(message_json()),
    )
    .await;
    let app = ticket_shop(backend, &discord, &stripe).await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let order = paid(&app, &buyer).await;
    let staff = app.client_with_role(Role::Admin).await;
    staff_action(&app, &staff, order, "claim").await;
    let posts = wait_for(&discord, "POST", &messages_path(), 2).await;
    let claim: Value = serde_json::from_slice(&posts[1].body).unwrap();
    assert!(claim["content"].as_str().unwrap().contains("roblox.com"));
    staff_action(&app, &staff, order, "release").await;

    let edits = wait_for(&discord, "PATCH", &post_path(), 1).await;
    let edit: Value = serde_json::from_slice(&edits[0].body).unwrap();
    let edited = edit["content"].as_str().unwrap();
    assert!(edited.contains("Claimed by"), "{edited}");
    assert!(!edited.contains("roblox.com"), "{edited}");
    assert_eq!(edit["allowed_mentions"], json!({ "parse": [] }));
}

/// Issue 34 item 5: a message on the order page, either side's, is posted in the order's
/// ticket by the shop, every mention neutralised, without holding the request up.
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_message_on_the_order_page_is_mirrored_into_its_ticket(#[case] backend: Backend) {
    let (discord, stripe) = (MockServer::start().await, MockServer::start().await);
    mount(
        &discord,
        "POST",
        thread_path(),
        ResponseTemplate::new(201).set_body_json(thread_json()),
    )
    .await;
    mount(&discord, "PUT", member_path(), ResponseTemplate::new(204)).await;
    mount(
        &discord,
        "POST",
        messages_path(),
        ResponseTemplate::new(200).set_body_json(message_json()),
    )
    .await;
    let app = ticket_shop(backend, &discord, &stripe).await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let order = paid(&app, &buyer).await;
    wait_for(&discord, "POST", &messages_path(), 1).await;

    let said = app
        .post_json(
            &buyer,
            &format!("/api/orders/{order}/messages"),
            &json!({ "text": "@everyone I can't join <@&990000000000000009>" }),
        )
        .await;
    assert_eq!(said.status(), 201, "{}", said.text().await.unwrap());
    let posts = wait_for(&discord, "POST", &messages_path(), 2).await;
    let post: Value = serde_json::from_slice(&posts[1].body).unwrap();
    let content = post["content"].as_str().unwrap();
    assert!(
        content.contains("Builder\\_Bob"),
        "the buyer's Roblox name: {content}"
    );
    assert!(
        content.contains("\\@everyone I can't join \\<\\@&990000000000000009\\>"),
        "{content}"
    );
    assert_eq!(
        post["allowed_mentions"],
        json!({ "parse": [], "roles": [], "users": [] })
    );

    let staff = app.client_with_role(Role::Admin).await;
    let answered = app
        .post_json(
            &staff,
            &format!("/api/admin/orders/{order}/messages"),
            &json!({ "text": "Try the link again" }),
        )
        .await;
    assert_eq!(answered.status(), 201);
    let posts = wait_for(&discord, "POST", &messages_path(), 3).await;
    let post: Value = serde_json::from_slice(&posts[2].body).unwrap();
    let content = post["content"].as_str().unwrap();
    assert!(
        content.ends_with("(staff) wrote on the order page: Try the link again"),
        "{content}"
    );
    // each message posted once
    assert_eq!(app.settled_jobs(order, "ticket").await.len(), 3);
}

#[rstest]
#[case::sqlite_delivered(Backend::Sqlite, "delivered")]
#[case::postgres_delivered(Backend::Postgres, "delivered")]
#[case::sqlite_disputed(Backend::Sqlite, "disputed")]
#[tokio::test]
async fn an_erased_account_has_its_tickets_deleted_but_a_disputed_one(
    #[case] backend: Backend,
    #[case] status: &str,
) {
    let (discord, stripe) = (MockServer::start().await, MockServer::start().await);
    mount(
        &discord,
        "POST",
        thread_path(),
        ResponseTemplate::new(201).set_body_json(thread_json()),
    )
    .await;
    mount(&discord, "PUT", member_path(), ResponseTemplate::new(204)).await;
    mount(
        &discord,
        "POST",
        messages_path(),
        ResponseTemplate::new(200).set_body_json(message_json()),
    )
    .await;
    let thread = format!("/api/v10/channels/{THREAD}");
    mount(
        &discord,
        "DELETE",
        thread.clone(),
        ResponseTemplate::new(204),
    )
    .await;
    let app = ticket_shop(backend, &discord, &stripe).await;
    let email = "erin@example.com";
    app.create_user(email, crate::helpers::TEST_PASSWORD, Role::Customer)
        .await;
    let buyer = browser();
    app.login(&buyer, email, crate::helpers::TEST_PASSWORD)
        .await;
    link_discord(&app, &buyer, 0).await;
    let order = paid(&app, &buyer).await;
    app.settled_jobs(order, "ticket").await;
    assert_eq!(
        one_value::<String>(
            &app,
            format!("SELECT ticket_thread_id FROM orders WHERE id = {order}")
        )
        .await
        .as_deref(),
        Some(THREAD)
    );
    {
        use sea_orm::{ConnectionTrait, Statement};
        let db = app.store.connection();
        db.execute(Statement::from_string(
            db.get_database_backend(),
            format!("UPDATE orders SET status = '{status}' WHERE id = {order}"),
        ))
        .await
        .unwrap();
    }

    let deleted = buyer
        .delete(app.url("/api/profile"))
        .header("Origin", &app.address)
        .json(&json!({ "password": crate::helpers::TEST_PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 204);

    if status == "disputed" {
        for _ in 0..3 {
            app.rounds.whole_round(garden_app::Loop::Tickets).await;
        }
        assert!(received(&discord, "DELETE", &thread).await.is_empty());
        assert_eq!(
            one_value::<String>(
                &app,
                format!("SELECT ticket_thread_id FROM orders WHERE id = {order}")
            )
            .await
            .as_deref(),
            Some(THREAD),
            "the dispute keeps its ticket"
        );
        return;
    }
    wait_for_job(&app, order, "erased", |_, status| status == "sent").await;
    for _ in 0..3 {
        app.rounds.whole_round(garden_app::Loop::Tickets).await;
    }
    assert_eq!(
        received(&discord, "DELETE", &thread).await.len(),
        1,
        "deleted once"
    );
    assert_eq!(
        app.count_where("outbox_jobs", "thread_id IS NOT NULL")
            .await,
        0,
        "the thread is forgotten once deleted"
    );
    assert_eq!(
        app.count_where("orders", "ticket_thread_id IS NOT NULL")
            .await,
        0
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn refusals_stop_every_discord_job_before_discords_invalid_request_budget(
    #[case] backend: Backend,
) {
    let (discord, stripe) = (MockServer::start().await, MockServer::start().await);
    mount(&discord, "POST", thread_path(), discord_error(403, 50013)).await;
    let app = ticket_shop_with(backend, &discord, &stripe, |s| {
        s.discord.invalid_request_budget = 2;
    })
    .await;
    let mut orders = Vec::new();
    for which in 0..3 {
        let buyer = browser();
        link_discord(&app, &buyer, which).await;
        orders.push(placed(&app, &buyer).await);
    }
    // every order paid before the tickets' lane comes round to them
    for (order, session) in &orders {
        let event = stripe_event(
            &format!("evt_paid_{order}"),
            "checkout.session.completed",
            session,
            *order,
        );
        assert_eq!(
            deliver(&app, &event, WEBHOOK_SECRET, now(&app))
                .await
                .status(),
            200
        );
    }
    wait_for(&discord, "POST", &thread_path(), 2).await;
    for (order, _) in &orders {
        wait_for_job(&app, *order, "paid", |_, _| true).await;
    }
    for _ in 0..5 {
        app.rounds.whole_round(garden_app::Loop::Tickets).await;
    }
    assert_eq!(
        received(&discord, "POST", &thread_path()).await.len(),
        2,
        "the budget is spent: no third refusal"
    );
    assert_eq!(
        one_value::<i32>(&app, "SELECT invalid_count FROM discord_limits".to_owned()).await,
        Some(2)
    );
    let untried = futures::future::join_all(
        orders
            .iter()
            .map(|(order, _)| ticket_job(&app, *order, "paid")),
    )
    .await
    .into_iter()
    .filter(|job| *job == Some((0, "pending".to_owned())))
    .count();
    assert_eq!(untried, 1, "one order waits for the window to end");
}
