//! Accounts over HTTP: registration with the code from the outbox, login and its limits,
//! logout, password reset, sessions shared by instances, the Origin check and the guards.

use std::time::Duration;

use accounts::Role;
use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;

use crate::helpers::{assert_alike_in_time, captured_logs, logs_caught_up};
use crate::helpers::{TestApp, TEST_PASSWORD};

const PASSWORD: &str = "correct horse";

fn signup(email: &str) -> Value {
    json!({
        "name": "Ann",
        "email": email,
        "password": PASSWORD,
        "password_confirmation": PASSWORD,
    })
}

/// The 6-digit code in a verification mail.
fn code_in(eml: &str) -> String {
    let at =
        eml.find("verification code is ").expect("a code mail") + "verification code is ".len();
    eml[at..at + 6].to_owned()
}

/// The token and e-mail of the reset link in a mail.
fn reset_link_in(eml: &str) -> (String, String) {
    let at =
        eml.find("/reset-password?token=").expect("a reset link") + "/reset-password?token=".len();
    let rest = &eml[at..];
    let token: String = rest.chars().take_while(char::is_ascii_hexdigit).collect();
    let email_at = rest.find("&email=").unwrap() + "&email=".len();
    let email: String = rest[email_at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || "%.-_".contains(*c))
        .collect();
    (token, email.replace("%40", "@"))
}

async fn body(response: reqwest::Response) -> Value {
    response.json().await.unwrap()
}

async fn me(app: &TestApp, client: &reqwest::Client) -> reqwest::Response {
    client.get(app.url("/api/me")).send().await.unwrap()
}

/// Registers `email` through the code from the outbox; returns the logged-in client.
#[allow(dead_code)]
async fn register(app: &TestApp, email: &str) -> reqwest::Client {
    let client = app.new_client();
    let sent = app
        .post_json(&client, "/api/send-verification-code", &signup(email))
        .await;
    assert_eq!(sent.status(), 200);
    let mails = app.outbox_messages();
    let code = code_in(mails.last().unwrap());
    let mut verify = signup(email);
    verify["code"] = json!(code);
    let verified = app.post_json(&client, "/api/verify-code", &verify).await;
    assert_eq!(verified.status(), 200);
    client
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_newcomer_registers_with_the_code_from_the_outbox_and_is_logged_in(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    let client = app.new_client();
    let check = body(client.get(app.url("/api/auth/check")).send().await.unwrap()).await;
    assert_eq!(check, json!({ "loggedIn": false, "user": null }));

    let sent = app
        .post_json(
            &client,
            "/api/send-verification-code",
            &signup("Ann@Example.com"),
        )
        .await;
    assert_eq!(sent.status(), 200);
    assert_eq!(
        body(sent).await,
        json!({ "message": "We sent a 6-digit code to ann@example.com.", "resend_after": 60 })
    );
    let mails = app.outbox_messages();
    assert_eq!(mails.len(), 1);
    assert!(mails[0].contains("To: ann@example.com"));
    assert!(mails[0].contains("Garden Shop"));
    let code = code_in(&mails[0]);
    assert!(code.chars().all(|c| c.is_ascii_digit()));
    assert_eq!(
        me(&app, &client).await.status(),
        401,
        "no account before the code is verified"
    );

    let mut verify = signup("ann@example.com");
    verify["code"] = json!(code);
    let verified = app.post_json(&client, "/api/verify-code", &verify).await;
    assert_eq!(verified.status(), 200);
    let verified = body(verified).await;
    assert_eq!(verified["message"], "Verified and logged in!");
    assert_eq!(verified["user"]["email"], "ann@example.com");
    assert_eq!(verified["user"]["name"], "Ann");
    assert_eq!(verified["user"]["account_type"], "customer");

    let me = body(me(&app, &client).await).await;
    assert_eq!(me["email"], "ann@example.com");
    let check = body(client.get(app.url("/api/auth/check")).send().await.unwrap()).await;
    assert_eq!(check["loggedIn"], true);
    assert_eq!(check["user"]["account_type"], "customer");
    let profile = body(client.get(app.url("/api/profile")).send().await.unwrap()).await;
    assert_eq!(profile["user"]["email"], "ann@example.com");
    assert_eq!(profile["user"]["orders"], json!([]));

    // the address is taken now: asking again is answered as for a new address (no
    // enumeration), and the owner hears of it instead of getting a code
    let again = app
        .post_json(
            &app.new_client(),
            "/api/send-verification-code",
            &signup("ann@example.com"),
        )
        .await;
    assert_eq!(again.status(), 200);
    assert_eq!(
        body(again).await,
        json!({ "message": "We sent a 6-digit code to ann@example.com.", "resend_after": 60 })
    );
    let mails = app.outbox_messages();
    assert_eq!(mails.len(), 2);
    assert!(mails[1].contains("Subject: Someone tried to register at Garden Shop"));
    assert!(mails[1].contains("http://localhost:8080/forgot-password"));
    assert!(!mails[1].contains("verification code is"));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_guards_answer_401_without_a_session_and_403_with_the_wrong_role(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    let anonymous = app.new_client();
    let response = me(&app, &anonymous).await;
    assert_eq!(response.status(), 401);
    assert_eq!(body(response).await["message"], "Please log in.");
    let profile = anonymous.get(app.url("/api/profile")).send().await.unwrap();
    assert_eq!(profile.status(), 401);

    for role in [Role::Customer, Role::Admin, Role::SuperAdmin] {
        let client = app.client_with_role(role).await;
        let me = body(me(&app, &client).await).await;
        assert_eq!(me["account_type"], role.as_str());
    }
}

async fn verify_with(
    app: &TestApp,
    client: &reqwest::Client,
    email: &str,
    code: &str,
) -> reqwest::Response {
    let mut body = signup(email);
    body["code"] = json!(code);
    app.post_json(client, "/api/verify-code", &body).await
}

/// A code that is not `code`.
fn wrong(code: &str) -> String {
    let n: u32 = code.parse().unwrap();
    format!("{:06}", (n + 1) % 1_000_000)
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn wrong_and_expired_codes_are_refused_and_the_sixth_try_fails_even_with_the_right_code(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    let client = app.new_client();
    app.post_json(
        &client,
        "/api/send-verification-code",
        &signup("ann@example.com"),
    )
    .await;
    let code = code_in(&app.outbox_messages()[0]);

    for _ in 0..5 {
        let response = verify_with(&app, &client, "ann@example.com", &wrong(&code)).await;
        assert_eq!(response.status(), 422);
        assert_eq!(
            body(response).await,
            json!({
                "message": "Invalid code. Please try again.",
                "code": "invalid_fields",
                "errors": { "code": ["Invalid code. Please try again."] }
            })
        );
    }
    let sixth = verify_with(&app, &client, "ann@example.com", &code).await;
    assert_eq!(
        sixth.status(),
        429,
        "the right code is refused after five wrong ones"
    );
    assert_eq!(me(&app, &client).await.status(), 401);

    // a new code (after the 60 s wait) starts over
    app.clock.advance(Duration::from_secs(61));
    let resent = app
        .post_json(
            &client,
            "/api/send-verification-code",
            &signup("ann@example.com"),
        )
        .await;
    assert_eq!(resent.status(), 200);
    let new_code = code_in(app.outbox_messages().last().unwrap());
    // and it expires after 15 minutes
    app.clock.advance(Duration::from_secs(15 * 60 + 1));
    let expired = verify_with(&app, &client, "ann@example.com", &new_code).await;
    assert_eq!(expired.status(), 422);
    assert_eq!(
        body(expired).await["errors"]["code"][0],
        "This code has expired. Ask for a new one."
    );
    let none = verify_with(&app, &client, "nobody@example.com", "123456").await;
    assert_eq!(
        body(none).await["errors"]["code"][0],
        "This code has expired. Ask for a new one."
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_new_code_waits_a_minute_and_then_replaces_the_old_one(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let client = app.new_client();
    app.post_json(
        &client,
        "/api/send-verification-code",
        &signup("ann@example.com"),
    )
    .await;
    let first = code_in(&app.outbox_messages()[0]);

    let early = app
        .post_json(
            &client,
            "/api/send-verification-code",
            &signup("ann@example.com"),
        )
        .await;
    assert_eq!(early.status(), 429);
    assert!(early.headers().contains_key("retry-after"));
    let message = body(early).await["message"].as_str().unwrap().to_owned();
    assert!(
        message.starts_with("Please wait ")
            && message.ends_with(" seconds before asking for a new code."),
        "{message}"
    );
    assert_eq!(app.outbox_messages().len(), 1);

    app.clock.advance(Duration::from_secs(61));
    let again = app
        .post_json(
            &client,
            "/api/send-verification-code",
            &signup("ann@example.com"),
        )
        .await;
    assert_eq!(again.status(), 200);
    let mails = app.outbox_messages();
    assert_eq!(mails.len(), 2);
    let second = code_in(&mails[1]);
    if first != second {
        let old = verify_with(&app, &client, "ann@example.com", &first).await;
        assert_eq!(old.status(), 422, "the old code is replaced");
    }
    assert_eq!(
        verify_with(&app, &client, "ann@example.com", &second)
            .await
            .status(),
        200
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn sign_up_fields_are_checked_one_by_one(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let response = app
        .post_json(
            &app.new_client(),
            "/api/send-verification-code",
            &json!({ "name": "", "email": "not-an-email", "password": "short", "password_confirmation": "other" }),
        )
        .await;
    assert_eq!(response.status(), 422);
    let errors = body(response).await["errors"].clone();
    assert_eq!(errors["name"][0], "The name field is required.");
    assert_eq!(errors["email"][0], "Please enter a valid e-mail address.");
    assert_eq!(
        errors["password"][0],
        "The password must be at least 8 characters."
    );
    assert_eq!(
        errors["password_confirmation"][0],
        "The passwords do not match."
    );
    assert!(app.outbox_messages().is_empty());
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_wrong_password_and_an_unknown_address_get_the_same_answer(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_user("ann@example.com", PASSWORD, Role::Customer)
        .await;
    let client = app.new_client();
    let wrong_password = app
        .post_json(
            &client,
            "/api/login",
            &json!({ "email": "ann@example.com", "password": "wrong password" }),
        )
        .await;
    let unknown = app
        .post_json(
            &client,
            "/api/login",
            &json!({ "email": "bob@example.com", "password": PASSWORD }),
        )
        .await;
    assert_eq!(wrong_password.status(), 401);
    assert_eq!(unknown.status(), 401);
    let (a, b) = (body(wrong_password).await, body(unknown).await);
    assert_eq!(a, b);
    assert_eq!(a["message"], "Invalid email or password.");
    assert_eq!(me(&app, &client).await.status(), 401);

    let missing = app
        .post_json(&client, "/api/login", &json!({ "email": "ann@" }))
        .await;
    assert_eq!(missing.status(), 422);
    let errors = body(missing).await["errors"].clone();
    assert_eq!(errors["email"][0], "Please enter a valid e-mail address.");
    assert_eq!(errors["password"][0], "The password field is required.");

    // e-mails are compared lowercase
    app.login(&client, "ANN@example.com", PASSWORD).await;
    assert_eq!(
        body(me(&app, &client).await).await["email"],
        "ann@example.com"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn five_failed_logins_lock_the_address_for_15_minutes(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_user("ann@example.com", PASSWORD, Role::Customer)
        .await;
    // limits count in fixed 15-minute windows: start at the beginning of one
    app.to_the_start_of_a_window(Duration::from_secs(15 * 60));
    let client = app.new_client();
    let attempt = |password: &'static str| {
        client
            .post(app.url("/api/login"))
            .json(&json!({ "email": "ann@example.com", "password": password }))
            .send()
    };
    for _ in 0..5 {
        assert_eq!(attempt("wrong password").await.unwrap().status(), 401);
    }
    let locked = attempt(PASSWORD).await.unwrap();
    assert_eq!(locked.status(), 429, "even the right password waits");
    // until the window ends: 900 s less the moments the five tries took
    let retry_after: u64 = locked.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((880..=900).contains(&retry_after), "{retry_after}");
    assert_eq!(
        body(locked).await["message"],
        "Too many attempts. Try again in 15 minutes."
    );

    app.clock.advance(Duration::from_secs(10 * 60));
    let still = attempt(PASSWORD).await.unwrap();
    assert_eq!(still.status(), 429);
    assert_eq!(
        body(still).await["message"],
        "Too many attempts. Try again in 5 minutes."
    );

    app.clock.advance(Duration::from_secs(5 * 60 + 1));
    assert_eq!(
        attempt(PASSWORD).await.unwrap().status(),
        200,
        "the window has passed"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn thirty_failures_from_one_ip_lock_it_for_every_address(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    // limits count in fixed 15-minute windows: start at the beginning of one
    app.to_the_start_of_a_window(Duration::from_secs(15 * 60));
    app.create_user("ann@example.com", PASSWORD, Role::Customer)
        .await;
    let client = app.new_client();
    for n in 0..30 {
        let response = app
            .post_json(
                &client,
                "/api/login",
                &json!({ "email": format!("guess{n}@example.com"), "password": "nope nope" }),
            )
            .await;
        assert_eq!(response.status(), 401);
    }
    let blocked = app
        .post_json(
            &client,
            "/api/login",
            &json!({ "email": "ann@example.com", "password": PASSWORD }),
        )
        .await;
    assert_eq!(blocked.status(), 429);
}

/// Asks for a reset link for `email` and returns (token, email) from the mail.
async fn reset_link(app: &TestApp, email: &str, mails_before: usize) -> (String, String) {
    let response = app
        .post_json(
            &app.new_client(),
            "/api/forgot-password",
            &json!({ "email": email }),
        )
        .await;
    assert_eq!(response.status(), 200);
    let mails = app.wait_for_outbox(mails_before + 1).await;
    let mail = mails.last().unwrap();
    assert!(mail.contains("Subject: Reset your Garden Shop password"));
    assert!(mail.contains("http://localhost:8080/reset-password?token="));
    reset_link_in(mail)
}

async fn reset(app: &TestApp, token: &str, email: &str, password: &str) -> reqwest::Response {
    app.post_json(
        &app.new_client(),
        "/api/reset-password",
        &json!({ "token": token, "email": email, "password": password, "password_confirmation": password }),
    )
    .await
}

const INVALID_LINK: &str = "This reset link is invalid or has expired.";

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_reset_link_sets_a_new_password_once(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_user("ann@example.com", PASSWORD, Role::Customer)
        .await;
    let (token, email) = reset_link(&app, "ann@example.com", 0).await;
    assert_eq!(token.len(), 64);
    assert_eq!(email, "ann@example.com");

    let done = reset(&app, &token, &email, "brand new password").await;
    assert_eq!(done.status(), 200);
    assert_eq!(
        body(done).await["message"],
        "Your password has been reset. You can now log in."
    );
    let client = app.new_client();
    app.login(&client, "ann@example.com", "brand new password")
        .await;
    let old = app
        .post_json(
            &app.new_client(),
            "/api/login",
            &json!({ "email": "ann@example.com", "password": PASSWORD }),
        )
        .await;
    assert_eq!(old.status(), 401);

    let reused = reset(&app, &token, &email, "another password").await;
    assert_eq!(reused.status(), 422);
    assert_eq!(
        body(reused).await,
        json!({ "message": INVALID_LINK, "code": "invalid_fields", "errors": { "token": [INVALID_LINK] } })
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn expired_and_other_addresses_reset_links_are_refused(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_user("ann@example.com", PASSWORD, Role::Customer)
        .await;
    app.create_user("bob@example.com", PASSWORD, Role::Customer)
        .await;

    let (bobs_token, _) = reset_link(&app, "bob@example.com", 0).await;
    let other = reset(&app, &bobs_token, "ann@example.com", "taken over!").await;
    assert_eq!(other.status(), 422);
    assert_eq!(body(other).await["errors"]["token"][0], INVALID_LINK);

    let (anns_token, _) = reset_link(&app, "ann@example.com", 1).await;
    app.clock.advance(Duration::from_secs(60 * 60 + 1));
    let expired = reset(&app, &anns_token, "ann@example.com", "too late now").await;
    assert_eq!(expired.status(), 422);
    assert_eq!(body(expired).await["errors"]["token"][0], INVALID_LINK);

    let made_up = reset(&app, &"ab".repeat(32), "ann@example.com", "made up token").await;
    assert_eq!(made_up.status(), 422);
    let short = reset(&app, &anns_token, "ann@example.com", "short").await;
    assert_eq!(
        body(short).await["errors"]["password"][0],
        "The password must be at least 8 characters."
    );
    // nothing changed
    app.login(&app.new_client(), "ann@example.com", PASSWORD)
        .await;
    app.login(&app.new_client(), "bob@example.com", PASSWORD)
        .await;
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn forgot_password_answers_the_same_for_unknown_addresses_and_sends_nothing(
    #[case] backend: Backend,
) {
    const ROUNDS: usize = 9;
    let app = TestApp::spawn(backend).await;
    app.create_user("ann@example.com", PASSWORD, Role::Customer)
        .await;
    let client = app.new_client();
    let mut known_times = Vec::new();
    let mut unknown_times = Vec::new();
    let mut answers = Vec::new();
    // many samples, in turn first and second; an hour apart (one link per account per minute,
    // twenty requests per address an hour)
    for round in 0..ROUNDS {
        app.clock.advance(Duration::from_secs(3601));
        let mut pair = [
            ("ann@example.com", &mut known_times),
            ("nobody@example.com", &mut unknown_times),
        ];
        if round % 2 == 1 {
            pair.reverse();
        }
        for (email, times) in pair {
            let started = std::time::Instant::now();
            let response = app
                .post_json(&client, "/api/forgot-password", &json!({ "email": email }))
                .await;
            times.push(started.elapsed());
            assert_eq!(response.status(), 200);
            answers.push(body(response).await);
        }
        app.wait_for_outbox(round + 1).await;
    }
    assert!(answers.windows(2).all(|w| w[0] == w[1]));
    assert_eq!(
        answers[0]["message"],
        "If an account exists for that e-mail, we have sent a password reset link."
    );
    // the mail goes out after the answer: wait until every request's work has ended
    app.rounds.detached_idle().await;
    assert_eq!(
        app.outbox_messages().len(),
        ROUNDS,
        "only the known address got mail"
    );
    assert_alike_in_time(
        "a known address vs an unknown one",
        known_times,
        unknown_times,
    );
    let malformed = app
        .post_json(&client, "/api/forgot-password", &json!({ "email": "nope" }))
        .await;
    assert_eq!(malformed.status(), 422);
}

/// The `garden_session=...` pair from a response's Set-Cookie.
fn session_cookie(response: &reqwest::Response) -> String {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap())
        .find(|v| v.starts_with("garden_session="))
        .expect("a session cookie")
        .split(';')
        .next()
        .unwrap()
        .to_owned()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn logout_ends_the_session_on_the_server_not_just_in_the_browser(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_user("ann@example.com", PASSWORD, Role::Customer)
        .await;
    let plain = reqwest::Client::new();
    let login = app
        .post_json(
            &plain,
            "/api/login",
            &json!({ "email": "ann@example.com", "password": PASSWORD }),
        )
        .await;
    assert_eq!(login.status(), 200);
    let set_cookie = login.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(set_cookie.contains("HttpOnly"), "{set_cookie}");
    assert!(set_cookie.contains("SameSite=Lax"), "{set_cookie}");
    assert!(
        !set_cookie.contains("Secure"),
        "plain HTTP outside production: {set_cookie}"
    );
    let cookie = session_cookie(&login);
    let with_cookie = |path: &str| {
        plain
            .get(app.url(path))
            .header("cookie", cookie.clone())
            .send()
    };
    assert_eq!(with_cookie("/api/me").await.unwrap().status(), 200);

    let logout = plain
        .post(app.url("/api/logout"))
        .header("cookie", cookie.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(logout.status(), 200);
    assert_eq!(body(logout).await, json!({ "message": "Logged out." }));
    let replayed = with_cookie("/api/me").await.unwrap();
    assert_eq!(replayed.status(), 401, "the old cookie is worthless");
    assert_eq!(body(replayed).await["message"], "Please log in.");
    // harmless without a session
    assert_eq!(
        app.post_json(&app.new_client(), "/api/logout", &json!({}))
            .await
            .status(),
        200
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn login_gives_a_new_session_id_and_keeps_other_session_keys(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_user("ann@example.com", PASSWORD, Role::Customer)
        .await;
    let plain = reqwest::Client::new();
    let first = app
        .post_json(
            &plain,
            "/api/login",
            &json!({ "email": "ann@example.com", "password": PASSWORD }),
        )
        .await;
    let before = session_cookie(&first);
    let second = plain
        .post(app.url("/api/login"))
        .header("cookie", before.clone())
        .json(&json!({ "email": "ann@example.com", "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    let after = session_cookie(&second);
    assert_ne!(before, after, "the session id is renewed at login");
    let old = plain
        .get(app.url("/api/me"))
        .header("cookie", before)
        .send()
        .await
        .unwrap();
    assert_eq!(old.status(), 401, "the pre-login session id is gone");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_session_survives_a_restart_and_is_shared_by_instances(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let client = app.client_with_role(Role::Admin).await;
    let other = app.start_another_instance().await;
    let response = client.get(format!("{other}/api/me")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(body(response).await["account_type"], "admin");

    // logging out on one instance ends the session on the other
    let out = client
        .post(format!("{other}/api/logout"))
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), 200);
    assert_eq!(me(&app, &client).await.status(), 401);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn sessions_live_in_redis_when_a_redis_url_is_set(#[case] backend: Backend) {
    let app = TestApp::spawn_with(
        store::testing::TestDatabase::create(backend).await,
        crate::helpers::Options::demo_data(false),
        |settings| {
            settings.session.redis_url = Some(
                std::env::var("TEST_REDIS_URL")
                    .unwrap_or_else(|_| "redis://127.0.0.1:6379".to_owned()),
            )
        },
    )
    .await;
    let client = app.client_with_role(Role::SuperAdmin).await;
    let db = app.store.connection();
    use sea_orm::{ConnectionTrait, Statement};
    let rows = db
        .query_one(Statement::from_string(
            db.get_database_backend(),
            "SELECT COUNT(*) AS n FROM sessions",
        ))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        rows.try_get_by_index::<i64>(0).unwrap(),
        0,
        "nothing in the database"
    );
    let other = app.start_another_instance().await;
    let response = client.get(format!("{other}/api/me")).send().await.unwrap();
    assert_eq!(body(response).await["account_type"], "super_admin");
    client.post(app.url("/api/logout")).send().await.unwrap();
    assert_eq!(
        client
            .get(format!("{other}/api/me"))
            .send()
            .await
            .unwrap()
            .status(),
        401
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_cross_site_request_is_refused(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_user("ann@example.com", PASSWORD, Role::Customer)
        .await;
    let client = app.new_client();
    let login = json!({ "email": "ann@example.com", "password": PASSWORD });
    let evil = client
        .post(app.url("/api/login"))
        .header("origin", "https://evil.example")
        .json(&login)
        .send()
        .await
        .unwrap();
    assert_eq!(evil.status(), 403);
    assert_eq!(
        body(evil).await,
        json!({ "message": "Cross-site request refused.", "code": "forbidden", "errors": {} })
    );
    let fetch = client
        .post(app.url("/api/logout"))
        .header("sec-fetch-site", "cross-site")
        .send()
        .await
        .unwrap();
    assert_eq!(fetch.status(), 403);
    assert_eq!(
        me(&app, &client).await.status(),
        401,
        "the refused login did nothing"
    );

    let own = client
        .post(app.url("/api/login"))
        .header("origin", "http://localhost:8080")
        .header("sec-fetch-site", "same-origin")
        .json(&login)
        .send()
        .await
        .unwrap();
    assert_eq!(own.status(), 200);
}

/// Issue 22, item 6: a name with line breaks or a link went into the code mail to an address
/// the attacker does not own. Sign-up refuses both in the field error shape and mails nothing.
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn sign_up_refuses_names_with_line_breaks_or_links(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let client = app.new_client();
    for (name, message) in [
        (
            "Ann\r\nYou won! Claim it",
            "The name may not contain line breaks or other control characters.",
        ),
        (
            "Ann\u{7}",
            "The name may not contain line breaks or other control characters.",
        ),
        (
            "Claim at https://evil.example",
            "The name may not contain a web address.",
        ),
        (
            "go to www.evil.example",
            "The name may not contain a web address.",
        ),
    ] {
        for path in ["/api/send-verification-code", "/api/verify-code"] {
            let mut form = signup("victim@example.com");
            form["name"] = json!(name);
            form["code"] = json!("123456");
            let answer = app.post_json(&client, path, &form).await;
            assert_eq!(answer.status(), 422, "{path} {name:?}");
            let body = body(answer).await;
            assert!(body["message"].is_string());
            assert_eq!(body["errors"]["name"], json!([message]), "{path} {name:?}");
        }
    }
    assert!(app.outbox_messages().is_empty(), "no mail went out");
}

/// Issue 22, item 7: the forwarding headers name the request's own origin only when a trusted
/// proxy sent them; from anyone else a foreign page could call its origin the shop's.
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn forwarded_hosts_make_a_foreign_origin_ours_only_from_a_trusted_proxy(
    #[case] backend: Backend,
) {
    let database = store::testing::TestDatabase::create(backend).await;
    let direct = TestApp::spawn_on(database, crate::helpers::Options::demo_data(false)).await;
    let proxied = TestApp::spawn_with(
        store::testing::TestDatabase::create(backend).await,
        crate::helpers::Options::demo_data(false),
        |settings| settings.server.trusted_proxies = vec!["127.0.0.1".to_owned()],
    )
    .await;
    let forwarded: [&[(&str, &str)]; 3] = [
        &[
            ("x-forwarded-host", "evil.example"),
            ("x-forwarded-proto", "https"),
        ],
        &[("forwarded", "host=evil.example;proto=https")],
        &[(
            "forwarded",
            "for=203.0.113.9;host=\"evil.example\";proto=https",
        )],
    ];
    for (app, expected) in [(&direct, 403), (&proxied, 200)] {
        app.create_user("ann@example.com", PASSWORD, Role::Customer)
            .await;
        for headers in forwarded {
            let client = app.new_client();
            let mut request = client
                .post(app.url("/api/login"))
                .header("origin", "https://evil.example")
                .json(&json!({ "email": "ann@example.com", "password": PASSWORD }));
            for (name, value) in headers {
                request = request.header(*name, *value);
            }
            let answer = request.send().await.unwrap();
            assert_eq!(answer.status(), expected, "{headers:?}");
            if expected == 403 {
                assert_eq!(
                    body(answer).await,
                    json!({ "message": "Cross-site request refused.", "code": "forbidden", "errors": {} })
                );
                assert_eq!(me(app, &client).await.status(), 401, "{headers:?}");
            }
        }
    }
    // the request's own Host still counts without a proxy (a shop reached by its address)
    let own = direct
        .new_client()
        .post(direct.url("/api/login"))
        .header("origin", direct.address.as_str())
        .json(&json!({ "email": "ann@example.com", "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(own.status(), 200);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn unreadable_requests_answer_in_the_error_shape(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let client = app.new_client();
    let not_json = client
        .post(app.url("/api/login"))
        .header("content-type", "text/plain")
        .body("email=ann")
        .send()
        .await
        .unwrap();
    assert_eq!(not_json.status(), 415);
    assert!(body(not_json).await["message"]
        .as_str()
        .unwrap()
        .contains("JSON"));

    let broken = client
        .post(app.url("/api/login"))
        .header("content-type", "application/json")
        .body("{\"email\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(broken.status(), 400);
    assert_eq!(body(broken).await["errors"], json!({}));

    let mistyped = app
        .post_json(
            &client,
            "/api/login",
            &json!({ "email": 5, "password": "x" }),
        )
        .await;
    assert_eq!(mistyped.status(), 422);

    let huge = app
        .post_json(
            &client,
            "/api/login",
            &json!({ "email": "a".repeat(100_000), "password": "x" }),
        )
        .await;
    assert_eq!(huge.status(), 413);
    assert!(body(huge).await["message"]
        .as_str()
        .unwrap()
        .contains("larger than"));

    let wrong_method = client.get(app.url("/api/login")).send().await.unwrap();
    assert_eq!(wrong_method.status(), 405);
    assert_eq!(wrong_method.headers()["allow"], "POST");
    assert_eq!(
        body(wrong_method).await,
        json!({ "message": "This method is not allowed here.", "code": "method_not_allowed", "errors": {} })
    );
    let delete_products = client
        .delete(app.url("/api/products"))
        .send()
        .await
        .unwrap();
    assert_eq!(delete_products.status(), 405);
    assert_eq!(delete_products.headers()["allow"], "GET");
    // a path taken with several methods names them all; any other method (TRACE too) is a 405
    let trace_profile = client
        .request(reqwest::Method::TRACE, app.url("/api/profile"))
        .send()
        .await
        .unwrap();
    assert_eq!(trace_profile.status(), 405);
    assert_eq!(trace_profile.headers()["allow"], "GET, PATCH, DELETE");
    let put_product = client
        .put(app.url("/api/products/abc"))
        .send()
        .await
        .unwrap();
    assert_eq!(put_product.status(), 405);
    assert_eq!(put_product.headers()["allow"], "GET");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_cli_creates_staff_and_changes_an_existing_accounts_role_and_password(
    #[case] backend: Backend,
) {
    use clap::Parser;
    use garden_app::{run_cli, Cli};
    let app = TestApp::spawn(backend).await;
    let run = |role: &'static str, password: &'static str| {
        let cli = Cli::try_parse_from([
            "garden-shop",
            "users",
            "create",
            "Boss@Example.com",
            "--role",
            role,
            "--name",
            "The Boss",
        ])
        .unwrap();
        run_cli(
            cli.command.unwrap(),
            app.settings.clone(),
            std::io::Cursor::new(format!("{password}\n")),
        )
    };
    let created = run("super_admin", "boss password one").await.unwrap();
    assert!(
        created.starts_with("Created super_admin boss@example.com"),
        "{created}"
    );
    let client = app.new_client();
    app.login(&client, "boss@example.com", "boss password one")
        .await;
    let me = body(me(&app, &client).await).await;
    assert_eq!(me["account_type"], "super_admin");
    assert_eq!(me["name"], "The Boss");

    let updated = run("admin", "boss password two").await.unwrap();
    assert!(
        updated.starts_with("Updated admin boss@example.com"),
        "{updated}"
    );
    app.login(&app.new_client(), "boss@example.com", "boss password two")
        .await;
    assert_eq!(
        self::me(&app, &client).await.status(),
        401,
        "the role and password change ended the live session"
    );
    let client = app.new_client();
    app.login(&client, "boss@example.com", "boss password two")
        .await;
    let changed = body(self::me(&app, &client).await).await;
    assert_eq!(changed["account_type"], "admin");

    let short = run("admin", "short").await.unwrap_err().to_string();
    assert!(short.contains("at least 8 characters"), "{short}");
    assert!(run("root", "long enough password").await.is_err());
    let _ = TEST_PASSWORD;
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn when_the_mail_server_is_down_the_sign_up_waits_and_a_resend_works_at_once(
    #[case] backend: Backend,
) {
    let port = free_port();
    let app = TestApp::spawn_with(
        store::testing::TestDatabase::create(backend).await,
        crate::helpers::Options::demo_data(false),
        |settings| {
            settings.mail.smtp_host = "127.0.0.1".into();
            settings.mail.smtp_port = port;
            settings.mail.smtp_tls = garden_app::SmtpTls::None;
        },
    )
    .await;
    let client = app.new_client();
    let down = app
        .post_json(
            &client,
            "/api/send-verification-code",
            &signup("ann@example.com"),
        )
        .await;
    assert_eq!(down.status(), 503);
    assert_eq!(
        body(down).await["message"],
        "We could not send the e-mail right now. Please try again in a moment."
    );

    let server = mail::testing::SmtpTestServer::start_on(port).await.unwrap();
    let again = app
        .post_json(
            &client,
            "/api/send-verification-code",
            &signup("ann@example.com"),
        )
        .await;
    assert_eq!(again.status(), 200, "no 60-second wait after a failed send");
    let received = server.received();
    assert_eq!(received.len(), 1);
    assert_eq!(received[0].to, vec!["ann@example.com".to_owned()]);
    let code = code_in(&received[0].data);
    assert_eq!(
        verify_with(&app, &client, "ann@example.com", &code)
            .await
            .status(),
        200
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn no_password_code_token_or_address_reaches_a_log_line(#[case] backend: Backend) {
    let logs = captured_logs();
    let app = TestApp::spawn(backend).await;
    let client = app.new_client();
    let secret_password = "Sup3r-Secret-Passw0rd";
    let form = json!({
        "name": "Ann", "email": "ann@example.com",
        "password": secret_password, "password_confirmation": secret_password,
    });
    app.post_json(&client, "/api/send-verification-code", &form)
        .await;
    let code = code_in(&app.outbox_messages()[0]);
    let mut wrong_code = form.clone();
    wrong_code["code"] = json!(wrong(&code));
    app.post_json(&client, "/api/verify-code", &wrong_code)
        .await;
    let mut verify = form.clone();
    verify["code"] = json!(code);
    assert_eq!(
        app.post_json(&client, "/api/verify-code", &verify)
            .await
            .status(),
        200
    );
    app.post_json(&client, "/api/logout", &json!({})).await;
    let bad_login = json!({ "email": "ann@example.com", "password": "Wr0ng-Secret-Guess" });
    app.post_json(&client, "/api/login", &bad_login).await;
    let (token, _) = reset_link(&app, "ann@example.com", 1).await;
    let new_password = "An0ther-Secret-Passw0rd";
    // the page the link opens, with the token in its query string
    client
        .get(app.url(&format!(
            "/reset-password?token={token}&email=ann%40example.com"
        )))
        .send()
        .await
        .unwrap();
    assert_eq!(
        reset(&app, &token, "ann@example.com", new_password)
            .await
            .status(),
        200
    );
    assert_eq!(
        reset(&app, &token, "ann@example.com", new_password)
            .await
            .status(),
        422
    );
    app.login(&client, "ann@example.com", new_password).await;
    logs_caught_up(&app, &client).await;

    let text = String::from_utf8(logs.lock().unwrap().clone()).unwrap();
    assert!(
        text.contains("mail written to the outbox"),
        "the logs were captured"
    );
    // nor an e-mail address an info line or its spans
    let line = text
        .lines()
        .find(|line| line.contains(" INFO ") && line.contains("ann@example.com"));
    assert!(line.is_none(), "an address reached an info line: {line:?}");
    for secret in [
        secret_password,
        "Wr0ng-Secret-Guess",
        new_password,
        &code,
        &token,
    ] {
        let line = text.lines().find(|line| line.contains(secret));
        assert!(line.is_none(), "a secret reached the log: {line:?}");
    }
}
