//! Accounts under attack (issue 11): parallel floods against the login, sign-up code and reset
//! limits, enumeration at sign-up, taking over a pending sign-up, sessions that outlive a
//! password reset or their lifetime.

use std::time::Duration;

use accounts::Role;
use futures::future::join_all;
use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;

use crate::helpers::{assert_alike_in_time, Options, TestApp};

const PASSWORD: &str = "correct horse";

async fn spawn(backend: Backend, redis: bool) -> TestApp {
    TestApp::spawn_with(
        store::testing::TestDatabase::create(backend).await,
        Options::demo_data(false),
        |settings| {
            if redis {
                settings.session.redis_url = Some(
                    std::env::var("TEST_REDIS_URL")
                        .unwrap_or_else(|_| "redis://127.0.0.1:6379".to_owned()),
                );
            }
        },
    )
    .await
}

fn signup(email: &str, name: &str, password: &str) -> Value {
    json!({
        "name": name,
        "email": email,
        "password": password,
        "password_confirmation": password,
    })
}

/// The 6-digit code in a verification mail.
fn code_in(eml: &str) -> String {
    let at =
        eml.find("verification code is ").expect("a code mail") + "verification code is ".len();
    eml[at..at + 6].to_owned()
}

/// The token of the reset link in a mail.
fn token_in(eml: &str) -> String {
    let at =
        eml.find("/reset-password?token=").expect("a reset link") + "/reset-password?token=".len();
    eml[at..]
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect()
}

/// How many of these answers had each status.
fn count(statuses: &[u16], status: u16) -> usize {
    statuses.iter().filter(|s| **s == status).count()
}

async fn statuses(responses: Vec<reqwest::Response>) -> Vec<u16> {
    responses.iter().map(|r| r.status().as_u16()).collect()
}

/// A POST that owns what it sends, so many can be in flight at once.
fn post(
    app: &TestApp,
    client: &reqwest::Client,
    path: &str,
    body: Value,
) -> impl std::future::Future<Output = reqwest::Response> {
    let request = client.post(app.url(path)).json(&body);
    async move { request.send().await.unwrap() }
}

async fn me_status(app: &TestApp, client: &reqwest::Client) -> u16 {
    client
        .get(app.url("/api/me"))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// One office behind one address (or a proxy not in trusted_proxies): successful logins do not
/// use up the per-address limit of 30, failures still do.
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn successful_logins_from_one_address_never_lock_it(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.to_the_start_of_a_window(Duration::from_secs(15 * 60));
    for n in 0..4 {
        app.create_user(&format!("staff{n}@example.com"), PASSWORD, Role::Customer)
            .await;
    }
    for round in 0..40 {
        let client = app.new_client();
        let email = format!("staff{}@example.com", round % 4);
        let answer = post(
            &app,
            &client,
            "/api/login",
            json!({ "email": email, "password": PASSWORD }),
        )
        .await;
        assert_eq!(answer.status(), 200, "login {round}");
    }
    // 30 failures from that address still lock it
    let client = app.new_client();
    let mut codes = Vec::new();
    for n in 0..31 {
        let email = format!("nobody{n}@example.com");
        let answer = post(
            &app,
            &client,
            "/api/login",
            json!({ "email": email, "password": "wrong password" }),
        )
        .await;
        codes.push(answer.status().as_u16());
    }
    assert_eq!(count(&codes, 401), 30, "{codes:?}");
    assert_eq!(codes[30], 429);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn sixty_parallel_wrong_passwords_for_one_address_get_five_password_checks(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    app.create_user("ann@example.com", PASSWORD, Role::Customer)
        .await;
    app.to_the_start_of_a_window(Duration::from_secs(15 * 60));
    let client = app.new_client();
    let guesses = (0..60).map(|n| {
        post(
            &app,
            &client,
            "/api/login",
            json!({ "email": "ann@example.com", "password": format!("guess number {n}") }),
        )
    });
    let answers = join_all(guesses).await;
    let mut bodies = Vec::new();
    let mut codes = Vec::new();
    for answer in answers {
        let status = answer.status().as_u16();
        if status == 429 {
            assert!(answer.headers().contains_key("retry-after"));
        }
        codes.push(status);
        bodies.push((status, answer.json::<Value>().await.unwrap()));
    }
    println!(
        "login: {} let through to the password check out of 60",
        count(&codes, 401)
    );
    assert_eq!(count(&codes, 401), 5, "{codes:?}");
    assert_eq!(count(&codes, 429), 55, "{codes:?}");
    for (status, body) in bodies {
        let expected = if status == 401 {
            "Invalid email or password."
        } else {
            "Too many attempts. Try again in 15 minutes."
        };
        assert_eq!(body["message"], expected);
    }
    // the right password waits too
    let right = app
        .post_json(
            &client,
            "/api/login",
            &json!({ "email": "ann@example.com", "password": PASSWORD }),
        )
        .await;
    assert_eq!(right.status(), 429);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn twenty_five_parallel_code_requests_for_one_address_send_one_mail(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    app.to_the_start_of_a_window(Duration::from_secs(15 * 60));
    let client = app.new_client();
    let form = signup("ann@example.com", "Ann", PASSWORD);
    let requests = (0..25).map(|_| app.post_json(&client, "/api/send-verification-code", &form));
    // the code's mail is written before the answer: every mail there will be is here
    let codes = statuses(join_all(requests).await).await;
    let mails = app.outbox_messages();
    println!(
        "sign-up codes: {} mail(s) sent out of 25 requests",
        mails.len()
    );
    assert_eq!(mails.len(), 1, "{codes:?}");
    assert_eq!(count(&codes, 200), 1, "{codes:?}");
    assert_eq!(count(&codes, 429), 24, "{codes:?}");
    // and the one code that went out works
    let mut verify = form.clone();
    verify["code"] = json!(code_in(&mails[0]));
    assert_eq!(
        app.post_json(&client, "/api/verify-code", &verify)
            .await
            .status(),
        200
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn forty_parallel_code_checks_from_one_ip_get_thirty_answers(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.to_the_start_of_a_window(Duration::from_secs(15 * 60));
    let client = app.new_client();
    let checks = (0..40).map(|n| {
        let mut body = signup(&format!("guess{n}@example.com"), "Ann", PASSWORD);
        body["code"] = json!("123456");
        let client = client.clone();
        let url = app.url("/api/verify-code");
        async move { client.post(url).json(&body).send().await.unwrap() }
    });
    let codes = statuses(join_all(checks).await).await;
    println!("code checks: {} let through out of 40", count(&codes, 422));
    assert_eq!(count(&codes, 422), 30, "{codes:?}");
    assert_eq!(count(&codes, 429), 10, "{codes:?}");
}

/// Unused reset tokens in the database.
async fn live_tokens(app: &TestApp) -> i64 {
    use sea_orm::{ConnectionTrait, Statement};
    let db = app.store.connection();
    db.query_one(Statement::from_string(
        db.get_database_backend(),
        "SELECT COUNT(*) FROM password_reset_tokens WHERE used_at IS NULL",
    ))
    .await
    .unwrap()
    .unwrap()
    .try_get_by_index::<i64>(0)
    .unwrap()
}

async fn reset(app: &TestApp, token: &str, password: &str) -> reqwest::Response {
    app.post_json(
        &app.new_client(),
        "/api/reset-password",
        &json!({
            "token": token, "email": "ann@example.com",
            "password": password, "password_confirmation": password,
        }),
    )
    .await
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn ten_forgot_password_requests_send_one_mail_and_a_new_link_voids_the_old(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    app.create_user("ann@example.com", PASSWORD, Role::Customer)
        .await;
    let client = app.new_client();
    let ask = || {
        post(
            &app,
            &client,
            "/api/forgot-password",
            json!({ "email": "ann@example.com" }),
        )
    };
    let answers = join_all((0..10).map(|_| ask())).await;
    let mut bodies = Vec::new();
    for answer in answers {
        assert_eq!(answer.status(), 200);
        bodies.push(answer.json::<Value>().await.unwrap());
    }
    assert!(
        bodies.windows(2).all(|w| w[0] == w[1]),
        "one answer for all"
    );
    // the mail goes out after the answer: wait until all ten requests' work has ended
    app.rounds.detached_idle().await;
    println!(
        "reset links: {} mail(s) and {} valid token(s) out of 10 requests",
        app.outbox_messages().len(),
        live_tokens(&app).await
    );
    assert_eq!(app.outbox_messages().len(), 1);
    assert_eq!(live_tokens(&app).await, 1);
    let first = token_in(&app.outbox_messages()[0]);

    // a minute later a new link goes out, and the old one is void
    app.clock.advance(Duration::from_secs(61));
    assert_eq!(ask().await.status(), 200);
    let mails = app.wait_for_outbox(2).await;
    let second = token_in(&mails[1]);
    assert_eq!(live_tokens(&app).await, 1);
    assert_eq!(
        reset(&app, &first, "first new password").await.status(),
        422
    );
    assert_eq!(
        reset(&app, &second, "second new password").await.status(),
        200
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn reset_links_are_limited_to_five_an_hour_per_account_and_twenty_requests_per_ip(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    app.create_user("ann@example.com", PASSWORD, Role::Customer)
        .await;
    app.to_the_start_of_a_window(Duration::from_secs(3600));
    let client = app.new_client();
    let ask = |email: &str| {
        post(
            &app,
            &client,
            "/api/forgot-password",
            json!({ "email": email }),
        )
    };
    // seven requests a minute apart for one account: five links, the same answer for all
    for _ in 0..7 {
        assert_eq!(ask("ann@example.com").await.status(), 200);
        // its mail goes out after the answer, on the clock of this minute
        app.rounds.detached_idle().await;
        app.clock.advance(Duration::from_secs(61));
    }
    println!(
        "reset links per account: {} sent out of 7 requests a minute apart",
        app.outbox_messages().len()
    );
    assert_eq!(app.outbox_messages().len(), 5);

    // the client address: 20 requests an hour, whatever the address asked about
    let mut codes = vec![];
    for n in 0..13 {
        codes.push(
            ask(&format!("someone{n}@example.com"))
                .await
                .status()
                .as_u16(),
        );
    }
    assert!(codes.iter().all(|c| *c == 200), "{codes:?}");
    let refused = ask("ann@example.com").await;
    assert_eq!(refused.status(), 429);
    assert!(refused.headers().contains_key("retry-after"));
    assert!(refused.json::<Value>().await.unwrap()["message"]
        .as_str()
        .unwrap()
        .starts_with("Too many attempts. Try again in "));
    // another client address is not affected
    let other = app
        .client
        .post(app.url("/api/forgot-password"))
        .header("x-forwarded-for", "203.0.113.9")
        .json(&json!({ "email": "ann@example.com" }))
        .send()
        .await
        .unwrap();
    assert_eq!(
        other.status(),
        429,
        "X-Forwarded-For is not trusted by default"
    );
}

#[rstest]
#[case::sqlite_database_sessions(Backend::Sqlite, false)]
#[case::postgres_database_sessions(Backend::Postgres, false)]
#[case::sqlite_redis_sessions(Backend::Sqlite, true)]
#[case::postgres_redis_sessions(Backend::Postgres, true)]
#[tokio::test]
async fn a_password_reset_logs_out_every_session_of_the_user(
    #[case] backend: Backend,
    #[case] redis: bool,
) {
    let app = spawn(backend, redis).await;
    app.create_user("ann@example.com", PASSWORD, Role::SuperAdmin)
        .await;
    app.create_user("bob@example.com", PASSWORD, Role::Admin)
        .await;
    let (laptop, phone, bob) = (app.new_client(), app.new_client(), app.new_client());
    app.login(&laptop, "ann@example.com", PASSWORD).await;
    app.login(&phone, "ann@example.com", PASSWORD).await;
    app.login(&bob, "bob@example.com", PASSWORD).await;
    assert_eq!(me_status(&app, &laptop).await, 200);
    assert_eq!(me_status(&app, &phone).await, 200);

    app.post_json(
        &app.new_client(),
        "/api/forgot-password",
        &json!({ "email": "ann@example.com" }),
    )
    .await;
    let token = token_in(&app.wait_for_outbox(1).await[0]);
    assert_eq!(
        reset(&app, &token, "a brand new password").await.status(),
        200
    );

    assert_eq!(me_status(&app, &laptop).await, 401);
    assert_eq!(me_status(&app, &phone).await, 401);
    assert_eq!(
        me_status(&app, &bob).await,
        200,
        "other users stay logged in"
    );
    // a request on an ended session does not bring it back
    app.post_json(&laptop, "/api/logout", &json!({})).await;
    assert_eq!(me_status(&app, &laptop).await, 401);
    app.login(&laptop, "ann@example.com", "a brand new password")
        .await;
    assert_eq!(me_status(&app, &laptop).await, 200);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn sign_up_answers_a_registered_address_as_a_new_one_and_tells_its_owner(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    app.create_user("ann@example.com", PASSWORD, Role::Customer)
        .await;
    const ROUNDS: usize = 9;
    let mut registered_times = Vec::new();
    let mut new_times = Vec::new();
    // many samples, in turn first and second, an hour apart (the code limits)
    for round in 0..ROUNDS {
        let mut pair = [
            ("ann@example.com".to_owned(), &mut registered_times),
            (format!("new{round}@example.com"), &mut new_times),
        ];
        if round % 2 == 1 {
            pair.reverse();
        }
        for (email, times) in pair {
            let started = std::time::Instant::now();
            let answer = app
                .post_json(
                    &app.new_client(),
                    "/api/send-verification-code",
                    &signup(&email, "Mallory", "attacker password"),
                )
                .await;
            times.push(started.elapsed());
            assert_eq!(answer.status(), 200);
            assert_eq!(
                answer.json::<Value>().await.unwrap(),
                json!({ "message": format!("We sent a 6-digit code to {email}."), "resend_after": 60 })
            );
        }
        app.clock.advance(Duration::from_secs(3601));
    }
    // a new address's code costs a password hash: a registered one must cost the same
    assert_alike_in_time(
        "a registered address vs a new one",
        registered_times,
        new_times,
    );
    let mails = app.outbox_messages();
    let to_ann: Vec<&String> = mails
        .iter()
        .filter(|m| m.contains("To: ann@example.com"))
        .collect();
    assert_eq!(to_ann.len(), ROUNDS);
    assert!(to_ann
        .iter()
        .all(|m| m.contains("Someone tried to register") && !m.contains("verification code is")));
    // and the account is as it was
    app.login(&app.new_client(), "ann@example.com", PASSWORD)
        .await;
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn re_registering_a_pending_address_does_not_choose_its_password(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let owner = app.new_client();
    let owners = signup("ann@example.com", "Ann", "owners password");
    assert_eq!(
        app.post_json(&owner, "/api/send-verification-code", &owners)
            .await
            .status(),
        200
    );
    // someone who knows the address starts it again with their own password
    app.clock.advance(Duration::from_secs(61));
    let attacker = app.new_client();
    let attackers = signup("ann@example.com", "Mallory", "attacker password");
    assert_eq!(
        app.post_json(&attacker, "/api/send-verification-code", &attackers)
            .await
            .status(),
        200
    );
    // the owner types the newest code with their own password
    let newest = code_in(app.outbox_messages().last().unwrap());
    let mut verify = owners.clone();
    verify["code"] = json!(newest);
    let verified = app.post_json(&owner, "/api/verify-code", &verify).await;
    assert_eq!(verified.status(), 200);
    assert_eq!(
        verified.json::<Value>().await.unwrap()["user"]["name"],
        "Ann"
    );

    app.login(&app.new_client(), "ann@example.com", "owners password")
        .await;
    let taken = app
        .post_json(
            &app.new_client(),
            "/api/login",
            &json!({ "email": "ann@example.com", "password": "attacker password" }),
        )
        .await;
    assert_eq!(taken.status(), 401);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn staff_sessions_end_after_12_hours_and_customers_after_30_days(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let admin = app.client_with_role(Role::Admin).await;
    let super_admin = app.client_with_role(Role::SuperAdmin).await;
    let customer = app.client_with_role(Role::Customer).await;

    app.clock.advance(Duration::from_secs(11 * 3600 + 59 * 60));
    for client in [&admin, &super_admin, &customer] {
        assert_eq!(me_status(&app, client).await, 200);
    }
    app.clock.advance(Duration::from_secs(2 * 60));
    assert_eq!(me_status(&app, &admin).await, 401, "12 hours after login");
    assert_eq!(me_status(&app, &super_admin).await, 401);
    assert_eq!(me_status(&app, &customer).await, 200);
    // the ended session stays ended
    assert_eq!(me_status(&app, &admin).await, 401);

    app.clock.advance(Duration::from_secs(30 * 24 * 3600));
    assert_eq!(me_status(&app, &customer).await, 401, "30 days after login");
}

/// The `i`-th address of one IPv6 /64 (2001:db8:32:4::/64): a client rotating through the
/// addresses of its own network, as any IPv6 subscriber may.
fn in_one_64(i: usize) -> String {
    format!("2001:db8:32:4:{:x}:{:x}:{:x}:1", i + 1, i * 31 + 7, i + 100)
}

/// Issue 32 item 4: sign-up codes, code checks and password resets count an IPv6 client by its
/// /64 (through a trusted proxy), refused at the same count as one IPv4 address.
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn codes_code_checks_and_resets_count_an_ipv6_client_by_its_64(#[case] backend: Backend) {
    let app = TestApp::spawn_with(
        store::testing::TestDatabase::create(backend).await,
        Options::demo_data(false),
        |s| s.server.trusted_proxies = vec!["127.0.0.1/32".into()],
    )
    .await;
    // every window (15 minutes, an hour) starts now
    app.to_the_start_of_a_window(Duration::from_secs(60 * 60));
    let client = app.new_client();
    let from = |path: &str, body: Value, address: String| {
        let request = client
            .post(app.url(path))
            .header("X-Forwarded-For", address)
            .json(&body);
        async move { request.send().await.unwrap().status().as_u16() }
    };
    let limits = &app.settings.accounts;
    let cases = [
        ("/api/send-verification-code", limits.code_per_ip, 200),
        ("/api/verify-code", limits.code_checks_per_ip, 422),
        ("/api/forgot-password", limits.reset_per_ip_per_hour, 200),
    ];
    // the shipped limits (config/default.toml)
    assert_eq!(cases.map(|(_, limit, _)| limit), [20, 30, 20]);
    for (path, limit, answer) in cases {
        let limit = limit as usize;
        let body = |n: usize| {
            let mut body = signup(&format!("v6-{n}@example.com"), "Ann", PASSWORD);
            body["code"] = json!("123456");
            body
        };
        for n in 0..limit {
            assert_eq!(
                from(path, body(n), in_one_64(n)).await,
                answer,
                "{path} {n}"
            );
        }
        assert_eq!(
            from(path, body(limit), in_one_64(limit)).await,
            429,
            "{path}: one too many from the /64"
        );
        // the next /64 is someone else
        assert_eq!(
            from(path, body(limit + 1), "2001:db8:32:5::1".to_owned()).await,
            answer,
            "{path}: another /64"
        );
    }
}
