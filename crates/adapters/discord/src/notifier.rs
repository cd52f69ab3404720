//! Staff notifications to a Discord channel webhook, delivered by a background task.
use std::sync::{
    atomic::{AtomicU64, Ordering},
    Arc,
};
use std::time::Duration;

use orders::gateways::{StaffMessage, StaffNotifications};
use secrecy::{ExposeSecret, SecretString};
use serde_json::json;
use shared::discord_text;
use tokio::sync::mpsc;

/// Messages waiting for delivery beyond this are dropped (and logged), never waited for.
const QUEUE_CAPACITY: usize = 256;
/// Discord's limits on a message and on an embed field.
const MAX_CONTENT: usize = 2000;
const MAX_FIELD_NAME: usize = 256;
const MAX_FIELD_VALUE: usize = 1024;
const MAX_FIELDS: usize = 25;

/// How hard the notifier tries before it gives a message up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts per message, the first included.
    pub attempts: u32,
    /// The wait after the first failure; doubled after each further failure.
    pub first_backoff: Duration,
    /// How long one attempt may take.
    pub request_timeout: Duration,
}

impl Default for RetryPolicy {
    /// Four attempts, waiting 1 s, 2 s and 4 s in between, 5 s per attempt.
    fn default() -> Self {
        Self {
            attempts: 4,
            first_backoff: Duration::from_secs(1),
            request_timeout: Duration::from_secs(5),
        }
    }
}

/// Posts staff messages to a Discord channel webhook. Cloning is cheap; every clone feeds the
/// same background task, which ends when the last clone is dropped.
#[derive(Debug, Clone)]
pub struct StaffNotifier {
    queue: Option<mpsc::Sender<StaffMessage>>,
    /// The webhook for one attempt at a time (`StaffPost`: the outbox retries).
    direct: Option<(reqwest::Client, SecretString)>,
    failures: Arc<FailureCounts>,
}

/// How often delivery went wrong since the notifier started (for the metrics).
#[derive(Debug, Default)]
struct FailureCounts {
    retried: AtomicU64,
    given_up: AtomicU64,
    dropped: AtomicU64,
}

/// The notifier's failures so far: attempts that failed and were retried, messages given up
/// after the last attempt, and messages dropped because the queue was full or stopped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NotifierFailures {
    pub retried: u64,
    pub given_up: u64,
    pub dropped: u64,
}

impl StaffNotifier {
    /// Starts the delivery task on the current tokio runtime. `None` (no webhook configured)
    /// gives a notifier that only logs.
    pub fn start(webhook_url: Option<SecretString>, policy: RetryPolicy) -> Self {
        let Some(url) = webhook_url else {
            return Self::disabled();
        };
        let http = match reqwest::Client::builder()
            .timeout(policy.request_timeout)
            .build()
        {
            Ok(http) => http,
            Err(err) => {
                tracing::error!(error = %err, "staff notifications are off: no HTTP client");
                return Self::disabled();
            }
        };
        let (sender, receiver) = mpsc::channel(QUEUE_CAPACITY);
        let failures = Arc::new(FailureCounts::default());
        tokio::spawn(deliver_all(
            receiver,
            http.clone(),
            url.clone(),
            policy,
            Arc::clone(&failures),
        ));
        Self {
            queue: Some(sender),
            direct: Some((http, url)),
            failures,
        }
    }

    /// A notifier with nowhere to post: messages are logged at debug level and dropped.
    pub fn disabled() -> Self {
        Self {
            queue: None,
            direct: None,
            failures: Arc::default(),
        }
    }

    /// What went wrong so far, counted by every clone.
    pub fn failures(&self) -> NotifierFailures {
        NotifierFailures {
            retried: self.failures.retried.load(Ordering::Relaxed),
            given_up: self.failures.given_up.load(Ordering::Relaxed),
            dropped: self.failures.dropped.load(Ordering::Relaxed),
        }
    }

    pub fn is_enabled(&self) -> bool {
        self.queue.is_some()
    }
}

impl StaffNotifications for StaffNotifier {
    fn notify(&self, message: StaffMessage) {
        let Some(queue) = &self.queue else {
            tracing::debug!(text = %message.text, "staff notification not sent: no webhook configured");
            return;
        };
        if let Err(err) = queue.try_send(message) {
            let reason = match err {
                mpsc::error::TrySendError::Full(_) => "queue full",
                mpsc::error::TrySendError::Closed(_) => "delivery task stopped",
            };
            self.failures.dropped.fetch_add(1, Ordering::Relaxed);
            tracing::warn!(reason, "staff notification dropped");
        }
    }
}

/// One attempt: the outbox (`orders::lifecycle`) keeps the job and tries again later when it
/// fails. Without a webhook there is nowhere to post, which is not a failure.
impl orders::StaffPost for StaffNotifier {
    async fn post(&self, message: StaffMessage) -> Result<(), orders::SendFailed> {
        let Some((http, url)) = &self.direct else {
            tracing::debug!(text = %message.text, "staff notification not sent: no webhook configured");
            return Ok(());
        };
        let body = render_webhook_body(&message);
        match http.post(url.expose_secret()).json(&body).send().await {
            Ok(response) if response.status().is_success() => Ok(()),
            Ok(response) => {
                let status = response.status();
                let headers = response.headers().clone();
                let answer = response.bytes().await.unwrap_or_default();
                let said = anyhow::anyhow!("webhook answered {status}");
                Err(orders::SendFailed(match status.as_u16() {
                    // the outbox puts the job off by Discord's wait, its attempts not counted
                    429 => anyhow::Error::new(crate::answers::rate_limited(&headers, &answer))
                        .context("webhook answered 429"),
                    401 | 403 => anyhow::Error::new(orders::InvalidRequest {
                        status: status.as_u16(),
                    })
                    .context("the webhook was refused"),
                    _ => said,
                }))
            }
            // Only the error's kind: its text would carry the URL and so the webhook token.
            Err(err) => Err(orders::SendFailed(anyhow::anyhow!(
                "webhook unreachable (timeout: {}, connect: {})",
                err.is_timeout(),
                err.is_connect()
            ))),
        }
    }
}

fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// The JSON Discord's webhook endpoint receives for a message. Mentions are switched off so a
/// name typed by a shopper can never ping `@everyone`, and every text goes through
/// [`discord_text`] (no bidi or zero-width characters).
pub fn render_webhook_body(message: &StaffMessage) -> serde_json::Value {
    let content = discord_text(&match &message.link {
        Some(link) => format!("{}\n{}", message.text, link),
        None => message.text.clone(),
    });
    let mut body = json!({
        "content": truncate(&content, MAX_CONTENT),
        "allowed_mentions": { "parse": [] },
    });
    if !message.fields.is_empty() {
        let fields: Vec<serde_json::Value> = message
            .fields
            .iter()
            .take(MAX_FIELDS)
            .map(|(name, value)| {
                json!({
                    "name": truncate(&discord_text(name), MAX_FIELD_NAME),
                    "value": truncate(&discord_text(value), MAX_FIELD_VALUE),
                    "inline": true,
                })
            })
            .collect();
        body["embeds"] = json!([{ "fields": fields }]);
    }
    body
}

async fn deliver_all(
    mut queue: mpsc::Receiver<StaffMessage>,
    http: reqwest::Client,
    url: SecretString,
    policy: RetryPolicy,
    failures: Arc<FailureCounts>,
) {
    while let Some(message) = queue.recv().await {
        deliver(&http, &url, policy, &message, &failures).await;
    }
    tracing::debug!("staff notifier stopped");
}

async fn deliver(
    http: &reqwest::Client,
    url: &SecretString,
    policy: RetryPolicy,
    message: &StaffMessage,
    failures: &FailureCounts,
) {
    let body = render_webhook_body(message);
    let mut backoff = policy.first_backoff;
    for attempt in 1..=policy.attempts.max(1) {
        let failure = match http.post(url.expose_secret()).json(&body).send().await {
            Ok(response) if response.status().is_success() => {
                tracing::debug!(attempt, "staff notification delivered");
                return;
            }
            Ok(response) => format!("webhook answered {}", response.status()),
            Err(err) if err.is_timeout() => "webhook timed out".to_owned(),
            // Only the error's kind: its text would carry the URL and so the webhook token.
            Err(err) => format!("webhook unreachable (connect: {})", err.is_connect()),
        };
        if attempt == policy.attempts.max(1) {
            failures.given_up.fetch_add(1, Ordering::Relaxed);
            tracing::error!(attempt, failure = %failure, text = %message.text, "staff notification given up");
            return;
        }
        failures.retried.fetch_add(1, Ordering::Relaxed);
        tracing::warn!(attempt, failure = %failure, retry_in = ?backoff, "staff notification failed, retrying");
        tokio::time::sleep(backoff).await;
        backoff = backoff.saturating_mul(2);
    }
}
