//! What one login costs and how many one server sustains: argon2id (m = 19456 KiB, t = 2,
//! p = 1) dominates. Real HTTP against the app on SQLite, successful logins of one user.
//! Prints the p50/p95 of one login, one at a time, and the logins per second of 8 clients
//! logging in at once for 5 seconds.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use garden_app::{Application, Settings};
const PASSWORD: &str = "correct horse battery";

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[index]
}

async fn login(client: &reqwest::Client, url: &str) {
    let response = client
        .post(url)
        .json(&serde_json::json!({ "email": "bench@example.com", "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
}

fn main() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    runtime.block_on(async {
        // The test environment's config files plus this run's paths: new settings sections
        // need no change here.
        let root = dir.path().display().to_string();
        std::env::set_var("SHOP_ENV", "test");
        std::env::set_var("DATABASE_URL", format!("sqlite://{root}/bench.db?mode=rwc"));
        std::env::set_var("SHOP__SERVER__STATIC_DIR", &root);
        std::env::set_var("SHOP__MEDIA__ROOT", format!("{root}/media"));
        std::env::set_var("SHOP__MAIL__OUTBOX_DIR", format!("{root}/outbox"));
        std::env::set_var("SHOP__SEED__DEMO_DATA", "false");
        // Every login counts against the per-address and per-IP limits (8 clients log in as one
        // user from one address here): this measures argon2, not the limits.
        std::env::set_var("SHOP__ACCOUNTS__LOGIN_PER_ADDRESS", "1000000");
        std::env::set_var("SHOP__ACCOUNTS__LOGIN_PER_IP", "1000000");
        let settings = Settings::load().unwrap();
        let command = <garden_app::Cli as clap::Parser>::try_parse_from([
            "garden-shop",
            "users",
            "create",
            "bench@example.com",
            "--role",
            "customer",
        ])
        .unwrap()
        .command
        .unwrap();
        garden_app::run_cli(
            command,
            settings.clone(),
            std::io::Cursor::new(format!("{PASSWORD}\n")),
        )
        .await
        .unwrap();
        let app = Application::build(settings).await.unwrap();
        let url = format!("http://127.0.0.1:{}/api/login", app.port());
        tokio::spawn(app.run_until_stopped());
        let client = reqwest::Client::new();
        for _ in 0..3 {
            login(&client, &url).await;
        }

        let mut times = Vec::new();
        for _ in 0..40 {
            let started = Instant::now();
            login(&client, &url).await;
            times.push(started.elapsed());
        }
        times.sort();
        println!(
            "login, one at a time: p50 {:.1} ms, p95 {:.1} ms ({} logins)",
            percentile(&times, 0.5).as_secs_f64() * 1000.0,
            percentile(&times, 0.95).as_secs_f64() * 1000.0,
            times.len()
        );

        let window = Duration::from_secs(5);
        let started = Instant::now();
        let mut clients = Vec::new();
        for _ in 0..8 {
            let (client, url) = (client.clone(), url.clone());
            clients.push(tokio::spawn(async move {
                let mut count = 0_u32;
                while started.elapsed() < window {
                    login(&client, &url).await;
                    count += 1;
                }
                count
            }));
        }
        let mut total = 0;
        for client in clients {
            total += client.await.unwrap();
        }
        let elapsed = started.elapsed().as_secs_f64();
        println!(
            "logins per second, 8 clients at once for {:.1} s on {} cores: {:.1} ({total} logins)",
            elapsed,
            std::thread::available_parallelism().map_or(1, |n| n.get()),
            f64::from(total) / elapsed
        );
    });
}
