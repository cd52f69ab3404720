use std::path::{Path, PathBuf};
use std::sync::Arc;

use accounts::{AccountMail, Clock, MailError};
use anyhow::Context;
use delivery::BuyerMail;
use orders::SendFailed;

use crate::Composer;

/// The local mail adapter: each message becomes one `.eml` file in a directory, named so that
/// they sort oldest first (by the shop's clock). The log line names the file, never the
/// recipient, code or token.
#[derive(Debug, Clone)]
pub struct Outbox {
    dir: Arc<PathBuf>,
    composer: Composer,
    clock: Arc<dyn Clock>,
}

impl Outbox {
    pub fn new(dir: impl Into<PathBuf>, composer: Composer, clock: impl Clock) -> Self {
        Outbox {
            dir: Arc::new(dir.into()),
            composer,
            clock: Arc::new(clock),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    #[tracing::instrument(skip_all)]
    pub async fn send(&self, mail: AccountMail) -> Result<(), MailError> {
        self.write(&mail).await.map_err(MailError)
    }

    #[tracing::instrument(skip_all)]
    pub async fn send_buyer(&self, mail: BuyerMail) -> Result<(), SendFailed> {
        let message = self.composer.buyer_message(&mail).map_err(SendFailed)?;
        self.write_message(message, self.composer.buyer_subject(&mail))
            .await
            .map_err(SendFailed)
    }

    async fn write(&self, mail: &AccountMail) -> anyhow::Result<()> {
        let message = self.composer.message(mail)?;
        self.write_message(message, self.composer.subject(mail))
            .await
    }

    async fn write_message(&self, message: lettre::Message, subject: String) -> anyhow::Result<()> {
        let eml = message.formatted();
        tokio::fs::create_dir_all(self.dir.as_path())
            .await
            .with_context(|| format!("failed to create the outbox {}", self.dir.display()))?;
        let name = format!(
            "{}-{}.eml",
            self.clock.now().format("%Y%m%dT%H%M%S%.6fZ"),
            uuid::Uuid::new_v4().simple()
        );
        let path = self.dir.join(&name);
        // Written aside and renamed, so a reader never sees half a message.
        let partial = self.dir.join(format!(".{name}.partial"));
        tokio::fs::write(&partial, eml)
            .await
            .with_context(|| format!("failed to write {}", partial.display()))?;
        tokio::fs::rename(&partial, &path)
            .await
            .with_context(|| format!("failed to move the message to {}", path.display()))?;
        tracing::info!(
            file = %path.display(),
            subject = %subject,
            "mail written to the outbox"
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use accounts::{Email, UserName, VerificationCode};

    use super::*;

    #[tokio::test]
    async fn each_message_becomes_one_eml_file_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let outbox = Outbox::new(
            dir.path().join("outbox"),
            Composer::new(
                "Garden Shop",
                "http://localhost:8080",
                "shop@localhost.localdomain",
            )
            .unwrap(),
            shared::clock::SystemClock,
        );
        for code in ["111111", "222222"] {
            outbox
                .send(AccountMail::SignupCode {
                    to: Email::parse("ann@example.com").unwrap(),
                    name: UserName::parse("Ann").unwrap(),
                    code: VerificationCode::parse(code).unwrap(),
                    language: shared::Language::English,
                })
                .await
                .unwrap();
        }
        let mut files: Vec<_> = std::fs::read_dir(dir.path().join("outbox"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert_eq!(files.len(), 2);
        assert!(files.iter().all(|f| f.extension().unwrap() == "eml"));
        assert!(std::fs::read_to_string(&files[0])
            .unwrap()
            .contains("111111"));
        assert!(std::fs::read_to_string(&files[1])
            .unwrap()
            .contains("222222"));
    }
}
