//! Who is calling: the session's user, role guards as actix extractors, the session store and
//! middleware, the Origin check, and the accounts service's app-side ports (clock, randomness,
//! argon2).
//!
//! Handlers ask for what they need in their signature:
//! `async fn add_proof(RequireStaff(user): RequireStaff, ...)`.

mod clock;
mod guards;
mod hasher;
pub mod origin;
mod random;
pub mod session;

pub use clock::AppClock;
pub use guards::{CurrentUser, MaybeUser, RequireStaff, RequireSuperAdmin, RequireUser};
pub use hasher::Argon2Hasher;
pub use random::OsRandom;

/// The session key holding the logged-in user's id.
pub const USER_ID_KEY: &str = "user_id";

/// The accounts service as the app wires it.
pub type AccountsService = accounts::Accounts<
    store::Store,
    store::Store,
    mail::ShopMailer,
    AppClock,
    OsRandom,
    Argon2Hasher,
>;

/// The mail adapter the settings ask for: SMTP when `mail.smtp_host` is set, else the outbox.
/// Production refuses the outbox: its mail would never reach anyone.
pub fn build_mailer(settings: &crate::Settings) -> anyhow::Result<mail::ShopMailer> {
    use anyhow::Context;
    let composer = mail::Composer::new(
        &settings.site.name,
        &settings.site.public_url,
        &settings.mail.from,
    )?;
    let config = &settings.mail;
    if config.smtp_host.trim().is_empty() {
        if settings.environment == crate::Environment::Production {
            anyhow::bail!("mail.smtp_host is not set: production does not start with the outbox");
        }
        return Ok(mail::ShopMailer::Outbox(mail::Outbox::new(
            config.outbox_dir.clone(),
            composer,
        )));
    }
    let smtp = mail::SmtpMailer::new(
        &mail::SmtpConfig {
            host: config.smtp_host.trim().to_owned(),
            port: config.smtp_port,
            tls: match config.smtp_tls {
                crate::SmtpTls::None => mail::SmtpTls::None,
                crate::SmtpTls::Starttls => mail::SmtpTls::StartTls,
                crate::SmtpTls::Tls => mail::SmtpTls::Tls,
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

/// The accounts service on the shop's store, mail, clock and argon2.
pub async fn build_accounts(
    settings: &crate::Settings,
    store: store::Store,
    clock: AppClock,
) -> anyhow::Result<AccountsService> {
    Ok(accounts::Accounts::new(
        store.clone(),
        store,
        build_mailer(settings)?,
        clock,
        OsRandom,
        Argon2Hasher::new().await?,
    ))
}
