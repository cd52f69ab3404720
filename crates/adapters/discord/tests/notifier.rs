//! The staff notifier against fake webhook servers: one that works, one that fails, one that
//! hangs. Runs on a current-thread runtime so the background task logs into the test's
//! subscriber.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use garden_discord::{render_webhook_body, RetryPolicy, StaffNotifier};
use orders::gateways::{StaffMessage, StaffNotifications};
use secrecy::SecretString;
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// Log lines written by the code under test.
#[derive(Clone, Default)]
struct Logs(Arc<Mutex<Vec<u8>>>);

impl Logs {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

impl Write for Logs {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn capture_logs() -> (Logs, tracing::subscriber::DefaultGuard) {
    let logs = Logs::default();
    let writer = logs.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .with_max_level(tracing::Level::DEBUG)
        .finish();
    (logs, tracing::subscriber::set_default(subscriber))
}

fn quick_policy() -> RetryPolicy {
    RetryPolicy {
        attempts: 3,
        first_backoff: Duration::from_millis(20),
        request_timeout: Duration::from_millis(300),
    }
}

fn paid_order() -> StaffMessage {
    StaffMessage {
        text: "Order #42 paid: $43.17".into(),
        link: Some("http://shop.test/admin/orders".into()),
        fields: vec![
            ("Items".into(), "2 x Golden Watering Can".into()),
            ("Roblox".into(), "Builderman".into()),
        ],
    }
}

async fn wait_for(mut done: impl FnMut() -> bool, within: Duration) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < within, "timed out waiting");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn webhook(server: &MockServer) -> Option<SecretString> {
    Some(SecretString::from(format!(
        "{}/api/webhooks/1/tok",
        server.uri()
    )))
}

#[tokio::test]
async fn a_message_is_posted_to_the_webhook_with_mentions_off() {
    let (logs, _guard) = capture_logs();
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/webhooks/1/tok"))
        .respond_with(ResponseTemplate::new(204))
        .expect(1)
        .mount(&server)
        .await;
    let notifier = StaffNotifier::start(webhook(&server), quick_policy());

    notifier.notify(paid_order());

    wait_for(
        || logs.text().contains("staff notification delivered"),
        Duration::from_secs(5),
    )
    .await;
    let requests = server.received_requests().await.unwrap();
    let body: serde_json::Value = serde_json::from_slice(&requests[0].body).unwrap();
    assert_eq!(
        body,
        json!({
            "content": "Order #42 paid: $43.17\nhttp://shop.test/admin/orders",
            "allowed_mentions": { "parse": [] },
            "embeds": [{ "fields": [
                { "name": "Items", "value": "2 x Golden Watering Can", "inline": true },
                { "name": "Roblox", "value": "Builderman", "inline": true }
            ]}]
        })
    );
}

#[tokio::test]
async fn a_passing_failure_is_retried_until_it_gets_through() {
    let (logs, _guard) = capture_logs();
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    let notifier = StaffNotifier::start(webhook(&server), quick_policy());

    notifier.notify(paid_order());

    wait_for(
        || logs.text().contains("staff notification delivered"),
        Duration::from_secs(5),
    )
    .await;
    assert_eq!(server.received_requests().await.unwrap().len(), 2);
    assert!(logs.text().contains("webhook answered 500"));
}

#[tokio::test]
async fn a_webhook_that_keeps_failing_is_retried_with_backoff_then_given_up_and_logged() {
    let (logs, _guard) = capture_logs();
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500))
        .mount(&server)
        .await;
    let notifier = StaffNotifier::start(webhook(&server), quick_policy());

    let started = Instant::now();
    notifier.notify(paid_order());
    assert!(
        started.elapsed() < Duration::from_millis(50),
        "notify blocked"
    );

    wait_for(
        || logs.text().contains("staff notification given up"),
        Duration::from_secs(5),
    )
    .await;
    // Three attempts and no more, with the backoff (20 ms, then 40 ms) between them.
    assert_eq!(server.received_requests().await.unwrap().len(), 3);
    assert!(started.elapsed() >= Duration::from_millis(60));
    let text = logs.text();
    assert_eq!(
        text.matches("staff notification failed, retrying").count(),
        2
    );
    // The webhook URL holds a token: it never appears in the logs.
    assert!(!text.contains("/api/webhooks/1/tok"), "{text}");
    // ... and the metrics count both retries and the message given up.
    assert_eq!(
        notifier.failures(),
        garden_discord::NotifierFailures {
            retried: 2,
            given_up: 1,
            dropped: 0
        }
    );
}

#[tokio::test]
async fn a_webhook_that_hangs_times_out_and_never_blocks_the_caller() {
    let (logs, _guard) = capture_logs();
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(204).set_delay(Duration::from_secs(30)))
        .mount(&server)
        .await;
    let notifier = StaffNotifier::start(webhook(&server), quick_policy());

    let started = Instant::now();
    for _ in 0..5 {
        notifier.notify(paid_order());
    }
    assert!(
        started.elapsed() < Duration::from_millis(50),
        "notify blocked"
    );

    wait_for(
        || logs.text().contains("staff notification given up"),
        Duration::from_secs(5),
    )
    .await;
    let text = logs.text();
    assert!(text.contains("webhook timed out"), "{text}");
    // Three attempts of 300 ms each plus the backoff, far from the server's 30 s.
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[tokio::test]
async fn a_flood_of_messages_is_dropped_beyond_the_queue_not_waited_for() {
    let (logs, _guard) = capture_logs();
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(204).set_delay(Duration::from_secs(30)))
        .mount(&server)
        .await;
    let notifier = StaffNotifier::start(webhook(&server), quick_policy());

    let started = Instant::now();
    for _ in 0..1000 {
        notifier.notify(paid_order());
    }

    assert!(
        started.elapsed() < Duration::from_millis(500),
        "notify blocked"
    );
    assert!(logs.text().contains("staff notification dropped"));
}

#[tokio::test]
async fn without_a_webhook_nothing_is_sent() {
    let notifier = StaffNotifier::start(None, quick_policy());
    assert!(!notifier.is_enabled());
    notifier.notify(paid_order());
}

#[test]
fn long_texts_are_cut_to_discords_limits() {
    let message = StaffMessage {
        text: "x".repeat(5000),
        link: None,
        fields: vec![("n".repeat(300), "v".repeat(2000))],
    };
    let body = render_webhook_body(&message);
    assert_eq!(body["content"].as_str().unwrap().chars().count(), 2000);
    assert_eq!(
        body["embeds"][0]["fields"][0]["name"]
            .as_str()
            .unwrap()
            .chars()
            .count(),
        256
    );
    assert_eq!(
        body["embeds"][0]["fields"][0]["value"]
            .as_str()
            .unwrap()
            .chars()
            .count(),
        1024
    );
    assert!(render_webhook_body(&StaffMessage {
        text: "hi".into(),
        ..Default::default()
    })
    .get("embeds")
    .is_none());
}
