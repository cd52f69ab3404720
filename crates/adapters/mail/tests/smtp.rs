//! The SMTP adapter against a real SMTP server on a local port.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use accounts::{AccountMail, Email, Mailer, ResetToken, UserName, VerificationCode};
use garden_mail::testing::SmtpTestServer;
use garden_mail::{Composer, ShopMailer, SmtpConfig, SmtpMailer, SmtpTls};

fn composer() -> Composer {
    Composer::new(
        "Garden Shop",
        "http://shop.test:8080",
        "Garden Shop <no-reply@shop.test>",
    )
    .unwrap()
}

fn mailer(port: u16, tls: SmtpTls) -> ShopMailer {
    ShopMailer::Smtp(
        SmtpMailer::new(
            &SmtpConfig {
                host: "127.0.0.1".into(),
                port,
                tls,
                username: String::new(),
                password: String::new().into(),
                timeout: Duration::from_secs(5),
            },
            composer(),
        )
        .unwrap(),
    )
}

fn code_mail() -> AccountMail {
    AccountMail::SignupCode {
        to: Email::parse("ann@example.com").unwrap(),
        name: UserName::parse("Ann").unwrap(),
        code: VerificationCode::parse("493817").unwrap(),
        language: shared::Language::English,
    }
}

#[tokio::test]
async fn a_code_mail_reaches_a_plain_smtp_server_with_starttls_off() {
    let server = SmtpTestServer::start().await.unwrap();
    mailer(server.port, SmtpTls::None)
        .send(code_mail())
        .await
        .unwrap();
    let received = server.received();
    assert_eq!(received.len(), 1);
    let mail = &received[0];
    assert_eq!(mail.from, "no-reply@shop.test");
    assert_eq!(mail.to, vec!["ann@example.com".to_owned()]);
    assert!(mail
        .data
        .contains("Subject: Your Garden Shop verification code"));
    assert!(mail.data.contains("493817"));
    assert!(mail.data.contains("text/plain") && mail.data.contains("text/html"));
}

#[tokio::test]
async fn a_reset_mail_carries_the_link_from_the_public_url() {
    let server = SmtpTestServer::start().await.unwrap();
    let token = ResetToken::from_bytes([5; 32]);
    mailer(server.port, SmtpTls::None)
        .send(AccountMail::PasswordReset {
            to: Email::parse("ann@example.com").unwrap(),
            name: UserName::parse("Ann").unwrap(),
            token: token.clone(),
            language: shared::Language::English,
        })
        .await
        .unwrap();
    let data = &server.received()[0].data;
    assert!(data.contains(&format!(
        "http://shop.test:8080/reset-password?token={}&email=ann%40example.com",
        token.expose()
    )));
}

#[tokio::test]
async fn required_starttls_is_not_skipped_when_the_server_lacks_it() {
    let server = SmtpTestServer::start().await.unwrap();
    let error = mailer(server.port, SmtpTls::StartTls)
        .send(code_mail())
        .await
        .unwrap_err();
    assert!(
        server.received().is_empty(),
        "nothing went out in plain text"
    );
    let message = format!("{:#}", anyhow::Error::new(error));
    assert!(
        message.contains(&format!("127.0.0.1:{}", server.port)),
        "{message}"
    );
}

#[tokio::test]
async fn a_refused_connection_is_a_clear_error() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let error = mailer(port, SmtpTls::None)
        .send(code_mail())
        .await
        .unwrap_err();
    let message = format!("{:#}", anyhow::Error::new(error));
    assert!(
        message.contains(&format!(
            "the SMTP server at 127.0.0.1:{port} did not take the message"
        )),
        "{message}"
    );
}
