//! The accounts' mail: the real SMTP adapter (lettre) and the local outbox, which writes each
//! message as one `.eml` file so the shop runs fully offline.
//!
//! Both implement the accounts domain's `Mailer` port and word the messages the same way.

mod buyer;
mod compose;
mod outbox;
mod smtp;
/// A real SMTP server on a local port, for tests of the SMTP adapter and of the app: only with
/// the `testing` feature, which the crates whose tests use it enable from their dev-dependencies.
#[cfg(any(test, feature = "testing"))]
pub mod testing;

use accounts::{AccountMail, MailError, Mailer};
use delivery::{BuyerMail, BuyerMailer};
use orders::SendFailed;

pub use compose::Composer;
pub use outbox::Outbox;
pub use smtp::{SmtpConfig, SmtpMailer, SmtpTls};

/// Whichever mail adapter the configuration chose.
#[derive(Clone)]
pub enum ShopMailer {
    Smtp(SmtpMailer),
    Outbox(Outbox),
}

impl Mailer for ShopMailer {
    async fn send(&self, mail: AccountMail) -> Result<(), MailError> {
        match self {
            ShopMailer::Smtp(smtp) => smtp.send(mail).await,
            ShopMailer::Outbox(outbox) => outbox.send(mail).await,
        }
    }
}

impl BuyerMailer for ShopMailer {
    async fn send_buyer_mail(&self, mail: BuyerMail) -> Result<(), SendFailed> {
        match self {
            ShopMailer::Smtp(smtp) => smtp.send_buyer(mail).await,
            ShopMailer::Outbox(outbox) => outbox.send_buyer(mail).await,
        }
    }
}
