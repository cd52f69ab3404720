//! The accounts service as the app wires it: the store, the mail adapter the settings ask for,
//! the shop's clock, the OS's randomness, argon2 and the session store.

use super::{clock::AppClock, random::OsRandom, session::ShopSessionStore, Argon2Hasher};

/// The accounts service as the app wires it.
pub type AccountsService = accounts::Accounts<ShopAccountPorts>;

/// The ports of the app's accounts service.
pub struct ShopAccountPorts;

impl accounts::AccountPorts for ShopAccountPorts {
    type Store = store::Store;
    type Limiter = store::Store;
    type Mailer = CountingMailer;
    type Clock = AppClock;
    type Random = OsRandom;
    type Hasher = Argon2Hasher;
    type Sessions = ShopSessionStore;
}

/// How many mail sends have failed on this instance (the metrics' `shop_mail_failures_total`).
pub type MailFailures = std::sync::Arc<std::sync::atomic::AtomicU64>;

/// The configured mailer, counting the sends that fail. Nothing is queued for a later try: the
/// shopper is told to try again (503), so every failure is a retry someone has to make.
#[derive(Clone)]
pub struct CountingMailer {
    inner: mail::ShopMailer,
    failures: MailFailures,
}

impl accounts::Mailer for CountingMailer {
    async fn send(&self, mail: accounts::AccountMail) -> Result<(), accounts::MailError> {
        let sent = self.inner.send(mail).await;
        if sent.is_err() {
            self.failures
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        sent
    }
}

impl CountingMailer {
    /// The mailer, counting its failed sends in `failures`.
    pub fn new(inner: mail::ShopMailer, failures: MailFailures) -> Self {
        CountingMailer { inner, failures }
    }
}

/// The buyer's mail (receipt, delivered, refunded): each failed attempt counts (the metrics'
/// `shop_buyer_mail_failures_total`); the job is tried again until `mail.retry_max_attempts`,
/// then stays failed in `mail_jobs` (`shop_jobs{kind="mail",state="failed"}`).
impl delivery::BuyerMailer for CountingMailer {
    async fn send_buyer_mail(&self, mail: delivery::BuyerMail) -> Result<(), orders::SendFailed> {
        let sent = self.inner.send_buyer_mail(mail).await;
        if sent.is_err() {
            self.failures
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        sent
    }
}

/// The mail adapter the settings ask for: SMTP when `mail.smtp_host` is set, else the outbox.
/// Production refuses the outbox: its mail would never reach anyone.
pub fn build_mailer(
    settings: &crate::settings::Settings,
    clock: &AppClock,
) -> anyhow::Result<mail::ShopMailer> {
    use anyhow::Context;
    let composer = mail::Composer::new(
        &settings.site.name,
        &settings.site.public_url,
        &settings.mail.from,
    )?
    .with_base_currency(&settings.currency.base);
    let config = &settings.mail;
    if config.smtp_host.trim().is_empty() {
        if settings.environment == crate::settings::Environment::Production {
            anyhow::bail!("mail.smtp_host is not set: production does not start with the outbox");
        }
        return Ok(mail::ShopMailer::Outbox(mail::Outbox::new(
            config.outbox_dir.clone(),
            composer,
            clock.clone(),
        )));
    }
    let smtp = mail::SmtpMailer::new(
        &mail::SmtpConfig {
            host: config.smtp_host.trim().to_owned(),
            port: config.smtp_port,
            tls: match config.smtp_tls {
                crate::settings::SmtpTls::None => mail::SmtpTls::None,
                crate::settings::SmtpTls::Starttls => mail::SmtpTls::StartTls,
                crate::settings::SmtpTls::Tls => mail::SmtpTls::Tls,
            },
            username: config.smtp_username.clone(),
            password: config.smtp_password.clone(),
            timeout: std::time::Duration::from_secs(15),
        },
        composer,
    )
    .context("the SMTP settings (mail.*) are not usable")?;
    Ok(mail::ShopMailer::Smtp(smtp))
}

/// The account rules' numbers from the `accounts` and `session` settings.
pub fn limits(settings: &crate::settings::Settings) -> accounts::Limits {
    use shared::Rule;
    use std::time::Duration;
    let config = &settings.accounts;
    let minutes = |n: u64| Duration::from_secs(n.max(1) * 60);
    let login_window = minutes(config.login_window_minutes);
    let code_window = minutes(config.code_window_minutes);
    accounts::Limits {
        resend_after: Duration::from_secs(config.code_resend_seconds),
        logins_per_address: Rule::new(config.login_per_address, login_window),
        logins_per_ip: Rule::new(config.login_per_ip, login_window),
        codes_per_address: Rule::new(config.code_per_address, code_window),
        codes_per_ip: Rule::new(config.code_per_ip, code_window),
        code_checks_per_ip: Rule::new(config.code_checks_per_ip, code_window),
        reset_resend_after: Duration::from_secs(config.reset_resend_seconds),
        resets_per_address: Rule::per_hour(config.reset_per_address_per_hour),
        resets_per_ip: Rule::per_hour(config.reset_per_ip_per_hour),
        staff_session_max_age: Duration::from_secs(settings.session.staff_max_age_hours * 3600),
        customer_session_max_age: Duration::from_secs(
            settings.session.customer_max_age_days * 24 * 3600,
        ),
        evidence_retention: Duration::from_secs(
            u64::from(settings.disputes.evidence_retention_days) * 24 * 3600,
        ),
        ..accounts::Limits::default()
    }
}

/// The accounts service on the shop's store (which also keeps the rate limit counts), mail,
/// clock, argon2 and session store.
pub async fn build_accounts(
    settings: &crate::settings::Settings,
    store: store::Store,
    clock: AppClock,
    sessions: ShopSessionStore,
    mail_failures: MailFailures,
) -> anyhow::Result<AccountsService> {
    Ok(AccountsService::new(
        store.clone(),
        store,
        CountingMailer {
            inner: build_mailer(settings, &clock)?,
            failures: mail_failures,
        },
        clock,
        OsRandom,
        Argon2Hasher::new().await?,
        sessions,
    )
    .with_limits(limits(settings)))
}
