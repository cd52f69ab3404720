use std::time::Duration;

use accounts::{AccountMail, MailError};
use anyhow::{anyhow, Context};
use delivery::BuyerMail;
use lettre::{
    transport::smtp::authentication::Credentials, AsyncSmtpTransport, AsyncTransport,
    Tokio1Executor,
};
use orders::SendFailed;
use secrecy::{ExposeSecret, SecretString};

use crate::Composer;

/// How the connection to the SMTP server is secured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpTls {
    /// Plain text: only for a relay on the same host or network.
    None,
    /// Plain connect, then STARTTLS (required), usually port 587.
    StartTls,
    /// TLS from the first byte, usually port 465.
    Tls,
}

#[derive(Debug, Clone)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub tls: SmtpTls,
    /// Empty: no authentication.
    pub username: String,
    pub password: SecretString,
    pub timeout: Duration,
}

/// The real mail adapter: SMTP through lettre, one connection per message.
#[derive(Clone)]
pub struct SmtpMailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    composer: Composer,
    server: String,
}

impl SmtpMailer {
    pub fn new(config: &SmtpConfig, composer: Composer) -> anyhow::Result<Self> {
        let host = config.host.as_str();
        let mut builder = match config.tls {
            SmtpTls::None => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host),
            SmtpTls::StartTls => AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(host)
                .with_context(|| format!("cannot set up STARTTLS for {host}"))?,
            SmtpTls::Tls => AsyncSmtpTransport::<Tokio1Executor>::relay(host)
                .with_context(|| format!("cannot set up TLS for {host}"))?,
        }
        .port(config.port)
        .timeout(Some(config.timeout));
        if !config.username.is_empty() {
            builder = builder.credentials(Credentials::new(
                config.username.clone(),
                config.password.expose_secret().to_owned(),
            ));
        }
        Ok(SmtpMailer {
            transport: builder.build(),
            composer,
            server: format!("{host}:{}", config.port),
        })
    }

    #[tracing::instrument(skip(self, mail), fields(server = %self.server))]
    pub async fn send(&self, mail: AccountMail) -> Result<(), MailError> {
        let message = self.composer.message(&mail).map_err(MailError)?;
        self.deliver(message, self.composer.subject(&mail))
            .await
            .map_err(MailError)
    }

    #[tracing::instrument(skip(self, mail), fields(server = %self.server))]
    pub async fn send_buyer(&self, mail: BuyerMail) -> Result<(), SendFailed> {
        let message = self.composer.buyer_message(&mail).map_err(SendFailed)?;
        self.deliver(message, self.composer.buyer_subject(&mail))
            .await
            .map_err(SendFailed)
    }

    async fn deliver(&self, message: lettre::Message, subject: String) -> anyhow::Result<()> {
        match self.transport.send(message).await {
            Ok(response) => {
                tracing::info!(
                    code = %response.code(),
                    subject = %subject,
                    "mail accepted by the SMTP server"
                );
                Ok(())
            }
            Err(error) => Err(anyhow!(
                "the SMTP server at {} did not take the message: {error}",
                self.server
            )),
        }
    }
}
