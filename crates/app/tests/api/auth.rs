//! Accounts over HTTP: registration with the code from the outbox, login and its limits,
//! logout, password reset, sessions shared by instances, the Origin check and the guards.

use std::time::Duration;

use accounts::Role;
use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;

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

    // the address is taken now
    let again = app
        .post_json(
            &app.new_client(),
            "/api/send-verification-code",
            &signup("ann@example.com"),
        )
        .await;
    assert_eq!(again.status(), 422);
    assert_eq!(
        body(again).await["errors"]["email"][0],
        "This e-mail is already registered."
    );
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
    let _ = TEST_PASSWORD;
    let _ = Duration::ZERO;
}
