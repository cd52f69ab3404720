//! Two checkout rushes against the real app on PostgreSQL (a fresh database on
//! `TEST_POSTGRES_URL`, default the local server), each five measured rounds after one
//! unmeasured round on a product of its own (the server has served checkouts before a rush: its
//! pooled connections have prepared the statements checkout uses):
//! - one account: 200 shoppers, one Discord account from one address, press "Complete Payment"
//!   at once for a product with 10 in stock;
//! - own accounts: 200 buyers, each with a Discord account of its own (linked through the real
//!   OAuth flow against a fake Discord) and its own address (`X-Forwarded-For` from a trusted
//!   proxy), press at once for a product with 25 in stock.
//!
//! Each round must sell exactly the stock and refuse the rest with 409, else the bench fails;
//! the latency of every request is recorded and the p50, p99 and max over the rounds printed.
//! `just bench` runs it (`cargo bench -p garden-app --bench checkout_concurrency`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use catalog::{ProductDraft, ProductId, ProductRepository, Stock};
use futures::future::join_all;
use garden_app::{Application, Settings};
use serde_json::{json, Value};
use store::testing::TestDatabase;
use store::Backend;
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

const SHOPPERS: usize = 200;
const ROUNDS: i64 = 5;

/// One rush: how many in stock, and whether every buyer has an account and address of its own.
#[derive(Clone, Copy)]
struct Rush {
    name: &'static str,
    stock: u32,
    own_accounts: bool,
}

const RUSHES: [Rush; 2] = [
    Rush {
        name: "one account",
        stock: 10,
        own_accounts: false,
    },
    Rush {
        name: "own accounts",
        stock: 25,
        own_accounts: true,
    },
];

fn draft(id: i64, stock: u32) -> ProductDraft {
    ProductDraft {
        max_per_account: None,
        release_at: None,
        name: format!("Bench Raccoon {id}"),
        description: String::new(),
        price: cart_pricing::Money::parse("10.00").unwrap(),
        category: "Pets".into(),
        image: None,
        stock: Stock::Finite(stock),
        weight: None,
        mutation: None,
        savings: None,
        sort_order: None,
        delete_after_out_of_stock: false,
        related_ids: vec![],
        dupe_warning: false,
    }
}

/// A fake Discord where the code `user-{id}` signs in as the account `{id}`.
struct DiscordAccounts;

impl Respond for DiscordAccounts {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        if request.url.path().ends_with("/oauth2/token") {
            let body = String::from_utf8_lossy(&request.body).into_owned();
            let code = body
                .split('&')
                .find_map(|pair| pair.strip_prefix("code="))
                .unwrap_or_default()
                .to_owned();
            return ResponseTemplate::new(200).set_body_json(json!({
                "access_token": code, "token_type": "Bearer", "expires_in": 604800,
                "scope": "identify"
            }));
        }
        let token = request.headers["authorization"].to_str().unwrap();
        let id = token.trim_start_matches("Bearer user-");
        ResponseTemplate::new(200)
            .set_body_json(json!({"id": id, "username": format!("buyer{id}"), "avatar": null}))
    }
}

/// Links a Discord account to the client's session: the demo identity through the dev sign-in,
/// or `Some(id)` through the fake Discord.
async fn link(address: &str, client: &reqwest::Client, account: Option<u64>) {
    let response = client
        .get(format!("{address}/api/discord/authorize"))
        .send()
        .await
        .unwrap();
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    let url = reqwest::Url::parse(&location)
        .or_else(|_| reqwest::Url::parse(&format!("http://x{location}")))
        .unwrap();
    let state = url
        .query_pairs()
        .find(|(key, _)| key == "state")
        .map(|(_, value)| value.into_owned())
        .unwrap();
    let code = match account {
        Some(id) => format!("user-{id}"),
        None => "dev-100000000000000001".to_owned(),
    };
    let linked = client
        .post(format!("{address}/api/discord-auth"))
        .json(&json!({ "code": code, "state": state }))
        .send()
        .await
        .unwrap();
    assert_eq!(linked.status(), 200, "{}", linked.text().await.unwrap());
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
    for rush in RUSHES {
        runtime.block_on(run(rush));
    }
}

async fn run(rush: Rush) {
    let stock = rush.stock;
    let database = TestDatabase::create(Backend::Postgres).await;
    let store = store::Store::new(database.connection.clone(), shared::clock::SystemClock);
    store
        .insert_with_ids(
            (1..=ROUNDS + 1)
                .map(|id| (ProductId::new(id), draft(id, stock)))
                .collect(),
        )
        .await
        .unwrap();
    let discord = MockServer::start().await;
    Mock::given(any())
        .respond_with(DiscordAccounts)
        .mount(&discord)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let mut settings = Settings::load().expect("config/ is readable");
    settings.database.url = database.url.clone();
    settings.database.max_connections = 10;
    settings.server.port = 0;
    settings.server.static_dir = dir.path().into();
    settings.media.root = dir.path().join("media");
    settings.mail.outbox_dir = dir.path().join("outbox");
    settings.seed.demo_data = false;
    if rush.own_accounts {
        // the buyers come through a proxy on this machine, each from its own address
        settings.server.trusted_proxies = vec!["127.0.0.1/32".to_owned()];
        settings.discord.client_id = "bench-client".into();
        settings.discord.client_secret = "bench-secret".to_owned().into();
        settings.discord.authorize_url = "https://discord.example/oauth2/authorize".into();
        settings.discord.api_base = format!("{}/api", discord.uri());
    }
    // lift the caps on unpaid orders (still counted and locked on every checkout): one account
    // from one address would meet them at once, and a buyer of its own after two winning rounds
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
    for (start, chunk) in clients.chunks(20).enumerate() {
        join_all(chunk.iter().enumerate().map(|(i, c)| {
            let account = rush
                .own_accounts
                .then(|| 500_000_000_000_000_000 + (start * 20 + i) as u64);
            link(&address, c, account)
        }))
        .await;
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
        let answers = join_all(clients.iter().enumerate().map(|(index, client)| {
            let body = &body;
            let address = &address;
            async move {
                let mut request = client
                    .post(format!("{address}/api/stripe/checkout"))
                    .json(body);
                if rush.own_accounts {
                    let forwarded = format!("10.{}.{}.{}", product, index / 250, index % 250 + 1);
                    request = request.header("X-Forwarded-For", forwarded);
                }
                let sent = Instant::now();
                let response = request.send().await.unwrap();
                let status = response.status().as_u16();
                let _: Value = response.json().await.unwrap();
                (status, sent.elapsed())
            }
        }))
        .await;
        let wall = started.elapsed();
        let sold = answers.iter().filter(|(s, _)| *s == 200).count();
        let refused = answers.iter().filter(|(s, _)| *s == 409).count();
        assert_eq!(
            (sold, refused),
            (stock as usize, SHOPPERS - stock as usize),
            "{}: the answers were {:?}",
            rush.name,
            answers.iter().map(|(s, _)| *s).collect::<Vec<_>>()
        );
        let left = store.product(ProductId::new(product)).await.unwrap().stock;
        assert_eq!(left, Stock::Finite(0));
        if product <= ROUNDS {
            walls.push(wall);
            latencies.extend(answers.into_iter().map(|(_, latency)| latency));
        }
    }
    latencies.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let who = if rush.own_accounts {
        "each buyer its own Discord account and address"
    } else {
        "one Discord account from one address"
    };
    println!(
        "checkout ({}): {ROUNDS} rounds of {SHOPPERS} concurrent POST /api/stripe/checkout for {stock} in stock, {who} (PostgreSQL, dev payment provider, after one unmeasured round)",
        rush.name
    );
    println!(
        "  every round sold exactly {stock}, refused {} with 409, stock ended at 0",
        SHOPPERS - stock as usize
    );
    println!(
        "  latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; a whole round took {:.0}-{:.0} ms",
        ms(percentile(&latencies, 50.0)),
        ms(percentile(&latencies, 99.0)),
        ms(*latencies.last().unwrap()),
        ms(*walls.iter().min().unwrap()),
        ms(*walls.iter().max().unwrap()),
    );
}
