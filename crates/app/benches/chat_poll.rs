//! The help chat's idle poll against the product list, in the same run and the same way:
//! concurrent clients hammer one URL for a few seconds over real HTTP (app on the demo catalog,
//! SQLite), and the requests per second are printed. An idle chat poll (`GET /api/chat/status`
//! and `GET /api/chat/history` of a chat where nothing changed) is answered from the poll cache;
//! the product list from its snapshot. Statements sent to the database during each run are
//! printed as well: only the background refreshers' (catalog and chat versions, a few a second),
//! none per request.
//!
//! `cargo bench -p garden-app --bench chat_poll` (part of `just bench`). CHAT_BENCH_SECS and
//! CHAT_BENCH_CLIENTS change the length and the concurrency.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use garden_app::{Application, Settings};

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Requests per second of `clients` concurrent loops GETting `url` for `secs`.
async fn load(url: &str, clients: u64, secs: u64) -> f64 {
    let done = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(secs);
    let mut tasks = Vec::new();
    for _ in 0..clients {
        let url = url.to_owned();
        let done = Arc::clone(&done);
        tasks.push(tokio::spawn(async move {
            let client = reqwest::Client::new();
            while Instant::now() < deadline {
                let response = client.get(&url).send().await.unwrap();
                assert_eq!(response.status(), 200, "{url}");
                response.bytes().await.unwrap();
                done.fetch_add(1, Ordering::Relaxed);
            }
        }));
    }
    let started = Instant::now();
    for task in tasks {
        task.await.unwrap();
    }
    done.load(Ordering::Relaxed) as f64 / started.elapsed().as_secs_f64()
}

fn main() {
    // `cargo bench` passes --bench; a plain `cargo test` of benches passes nothing: run briefly
    let quick = !std::env::args().any(|a| a == "--bench");
    let secs = if quick {
        1
    } else {
        env_or("CHAT_BENCH_SECS", 5)
    };
    let clients = env_or("CHAT_BENCH_CLIENTS", 16);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    runtime.block_on(async {
        let root = dir.path().display().to_string();
        std::env::set_var("SHOP_ENV", "test");
        std::env::set_var("DATABASE_URL", format!("sqlite://{root}/bench.db?mode=rwc"));
        std::env::set_var("SHOP__SERVER__STATIC_DIR", &root);
        std::env::set_var("SHOP__MEDIA__ROOT", format!("{root}/media"));
        std::env::set_var("SHOP__MAIL__OUTBOX_DIR", format!("{root}/outbox"));
        std::env::set_var("SHOP__SEED__DEMO_DATA", "true");
        let settings = Settings::load().unwrap();
        let app = Application::build(settings).await.unwrap();
        let base = format!("http://127.0.0.1:{}", app.port());
        let queries = app.database_queries();
        tokio::spawn(app.run_until_stopped());

        let client = reqwest::Client::new();
        let session = uuid::Uuid::new_v4().to_string();
        let started: serde_json::Value = client
            .post(format!("{base}/api/chat/start-ai"))
            .json(&serde_json::json!({ "session_id": session }))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let chat = started["chat_id"].as_str().unwrap().to_owned();
        client
            .post(format!("{base}/api/chat/start-live"))
            .json(&serde_json::json!({ "session_id": session, "chat_id": chat }))
            .send()
            .await
            .unwrap();
        let query = format!("chat_id={chat}&session_id={session}");
        let urls = [
            (
                "GET /api/chat/status (idle)",
                format!("{base}/api/chat/status?{query}"),
            ),
            (
                "GET /api/chat/history (idle)",
                format!("{base}/api/chat/history?{query}"),
            ),
            ("GET /api/products", format!("{base}/api/products")),
        ];
        // warm up: the first poll of each fills its cache
        for (_, url) in &urls {
            client.get(url).send().await.unwrap();
        }
        println!("{clients} concurrent clients, {secs} s each, full 200 answers (no ETag):");
        for (name, url) in &urls {
            let before = queries.load(Ordering::SeqCst);
            let rate = load(url, clients, secs).await;
            let statements = queries.load(Ordering::SeqCst) - before;
            println!("  {name:<32} {rate:>9.0} req/s   {statements} database statements");
        }
    });
}
