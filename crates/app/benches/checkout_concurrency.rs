//! 200 shoppers press "Complete Payment" at the same moment for a product with 10 in stock,
//! against the real app on PostgreSQL (a fresh database on `TEST_POSTGRES_URL`, default the
//! local server). Each round: exactly 10 orders, 190 answers 409, stock 0; the latency of
//! every request is recorded and the p50, p99 and max over all rounds are printed. One round
//! before them, on a product of its own, is not measured: the server has served checkouts
//! before a rush (its pooled connections have prepared the statements checkout uses).
//! `just bench` runs it (`cargo bench -p garden-app --bench checkout_concurrency`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use catalog::{ProductDraft, ProductId, ProductRepository, Stock};
use futures::future::join_all;
use garden_app::{Application, Settings};
use serde_json::{json, Value};
use store::testing::TestDatabase;
use store::Backend;

const SHOPPERS: usize = 200;
const STOCK: u32 = 10;
const ROUNDS: i64 = 5;

fn draft(id: i64) -> ProductDraft {
    ProductDraft {
        max_per_account: None,
        release_at: None,
        name: format!("Bench Raccoon {id}"),
        description: String::new(),
        price: cart_pricing::Money::parse("10.00").unwrap(),
        category: "Pets".into(),
        image: None,
        stock: Stock::Finite(STOCK),
        weight: None,
        mutation: None,
        savings: None,
        sort_order: None,
        delete_after_out_of_stock: false,
        related_ids: vec![],
        dupe_warning: false,
    }
}

async fn link(address: &str, client: &reqwest::Client) {
    let response = client
        .get(format!("{address}/api/discord/authorize"))
        .send()
        .await
        .unwrap();
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    let state = location.split("state=").nth(1).unwrap().to_owned();
    let linked = client
        .post(format!("{address}/api/discord-auth"))
        .json(&json!({ "code": "dev-100000000000000001", "state": state }))
        .send()
        .await
        .unwrap();
    assert_eq!(linked.status(), 200);
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn main() {
    // `cargo bench` passes --bench; nothing to parse.
    std::env::set_var("SHOP_ENV", "test");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let database = TestDatabase::create(Backend::Postgres).await;
        let store = store::Store::new(database.connection.clone());
        store
            .insert_with_ids((1..=ROUNDS + 1).map(|id| (ProductId::new(id), draft(id))).collect())
            .await
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let mut settings = Settings::load().expect("config/ is readable");
        settings.database.url = database.url.clone();
        settings.database.max_connections = 10;
        settings.server.port = 0;
        settings.server.static_dir = dir.path().into();
        settings.media.root = dir.path().join("media");
        settings.mail.outbox_dir = dir.path().join("outbox");
        settings.seed.demo_data = false;
        // every shopper here is one Discord account from one address: lift the caps on unpaid
        // orders (still counted and locked on every checkout) so the round measures the stock
        settings.checkout.max_pending_orders = 10_000;
        settings.checkout.max_pending_per_ip = 10_000;
        let app = Application::build(settings).await.unwrap();
        let address = format!("http://127.0.0.1:{}", app.port());
        tokio::spawn(app.run_until_stopped());

        let clients: Vec<reqwest::Client> = (0..SHOPPERS)
            .map(|_| {
                reqwest::Client::builder()
                    .cookie_store(true)
                    .redirect(reqwest::redirect::Policy::none())
                    .pool_max_idle_per_host(1)
                    .build()
                    .unwrap()
            })
            .collect();
        for chunk in clients.chunks(20) {
            join_all(chunk.iter().map(|c| link(&address, c))).await;
        }

        let mut latencies = Vec::with_capacity(SHOPPERS * ROUNDS as usize);
        let mut walls = Vec::new();
        // the last product first: the unmeasured warm-up round
        for product in std::iter::once(ROUNDS + 1).chain(1..=ROUNDS) {
            let body = json!({
                "discord_id": "", "email": "bench@example.com", "roblox_username": "Bench_Buyer",
                "items": [{ "id": product, "qty": 1 }], "total": 10.0, "user_id": null,
            });
            let started = Instant::now();
            let answers = join_all(clients.iter().map(|client| {
                let body = &body;
                let address = &address;
                async move {
                    let sent = Instant::now();
                    let response = client
                        .post(format!("{address}/api/stripe/checkout"))
                        .json(body)
                        .send()
                        .await
                        .unwrap();
                    let status = response.status().as_u16();
                    let _: Value = response.json().await.unwrap();
                    (status, sent.elapsed())
                }
            }))
            .await;
            let wall = started.elapsed();
            let sold = answers.iter().filter(|(s, _)| *s == 200).count();
            let refused = answers.iter().filter(|(s, _)| *s == 409).count();
            assert_eq!((sold, refused), (STOCK as usize, SHOPPERS - STOCK as usize));
            let left = store.product(ProductId::new(product)).await.unwrap().stock;
            assert_eq!(left, Stock::Finite(0));
            if product <= ROUNDS {
                walls.push(wall);
                latencies.extend(answers.into_iter().map(|(_, latency)| latency));
            }
        }
        latencies.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        println!(
            "checkout: {ROUNDS} rounds of {SHOPPERS} concurrent POST /api/stripe/checkout for {STOCK} in stock (PostgreSQL, dev payment provider, after one unmeasured round)"
        );
        println!(
            "  every round sold exactly {STOCK}, refused {} with 409, stock ended at 0",
            SHOPPERS - STOCK as usize
        );
        println!(
            "  latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; a whole round took {:.0}-{:.0} ms",
            ms(percentile(&latencies, 50.0)),
            ms(percentile(&latencies, 99.0)),
            ms(*latencies.last().unwrap()),
            ms(*walls.iter().min().unwrap()),
            ms(*walls.iter().max().unwrap()),
        );
    });
}
