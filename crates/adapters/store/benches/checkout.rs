//! 200 shoppers checking out the same product at once (stock 10), through the checkout
//! service on the real store, as the app runs it: `cargo bench -p garden-store --bench checkout`.
//! Prints the latency of each checkout (placed or refused for stock) at p50, p90, p99 and max,
//! on PostgreSQL (`TEST_POSTGRES_URL`) and SQLite, with the app's default pool of 10 connections.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use shared::clock::SystemClock;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cart_pricing::{Decimal, Money, PaymentMethod, Quantity};
use catalog::{ProductDraft, ProductId, ProductRepository, Stock};
use garden_store::testing::TestDatabase;
use garden_store::{connect, Backend, Store};
use orders::{
    Buyer, Checkout, CheckoutError, CheckoutRequest, CheckoutService, DiscordId, DiscordIdentity,
    Email, OrderHolder, PaymentProvider, RequestedItem, RobloxUsername,
};

const SHOPPERS: usize = 200;
const STOCK: u32 = 10;
const ROUNDS: usize = 5;
const POOL: u32 = 10;

/// The store behind every port of checkout, without a blocklist.
struct StorePorts;

impl orders::CheckoutPorts for StorePorts {
    type Orders = Store;
    type Products = Store;
    type Promos = Store;
    type Clock = SystemClock;
    type Blocklist = orders::NoBlocklist;
}

fn request(shopper: usize) -> CheckoutRequest {
    CheckoutRequest {
        items: vec![RequestedItem {
            product_id: ProductId::new(1),
            quantity: Quantity::new(1).unwrap(),
        }],
        promo_code: None,
        buyer: Buyer {
            discord: Some(DiscordIdentity {
                discord_id: DiscordId::parse(&format!("{}", 10_000 + shopper)).unwrap(),
                username: format!("shopper{shopper}"),
                avatar_url: None,
            }),
            roblox_username: RobloxUsername::parse("Builder_Bob").unwrap(),
            email: Email::parse("kid@example.com").unwrap(),
            user_id: None,
            language: shared::Language::English,
        },
        method: PaymentMethod::Card,
        provider: PaymentProvider::Dev,
        client_total: Decimal::new(1249, 2),
        currency: cart_pricing::Conversion::base(cart_pricing::CurrencyCode::USD),
        holder: OrderHolder::default(),
        idempotency: None,
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

async fn round(backend: Backend) -> (Vec<Duration>, usize) {
    let db = TestDatabase::create(backend).await;
    let pool = connect(&db.url, POOL).await.unwrap();
    let store = Store::new(pool, SystemClock);
    store
        .insert_with_ids(vec![(
            ProductId::new(1),
            ProductDraft {
                max_per_account: None,
                release_at: None,
                name: "Raccoon".into(),
                description: String::new(),
                price: Money::parse("12.49").unwrap(),
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
            },
        )])
        .await
        .unwrap();
    let service = Arc::new(Checkout::<StorePorts>::new(
        store.clone(),
        store.clone(),
        store.clone(),
        SystemClock,
        orders::NoBlocklist,
    ));
    let tasks: Vec<_> = (0..SHOPPERS)
        .map(|shopper| {
            let service = Arc::clone(&service);
            tokio::spawn(async move {
                let started = Instant::now();
                let result = service.place_order(request(shopper)).await;
                (started.elapsed(), result)
            })
        })
        .collect();
    let mut latencies = Vec::with_capacity(SHOPPERS);
    let mut placed = 0;
    for task in tasks {
        let (elapsed, result) = task.await.unwrap();
        match result {
            Ok(_) => placed += 1,
            Err(CheckoutError::OutOfStock(_)) => {}
            Err(other) => panic!("unexpected checkout error: {other:?}"),
        }
        latencies.push(elapsed);
    }
    assert_eq!(
        store.product(ProductId::new(1)).await.unwrap().stock,
        Stock::Finite(0)
    );
    (latencies, placed)
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        for backend in [Backend::Postgres, Backend::Sqlite] {
            let mut all = Vec::new();
            for _ in 0..ROUNDS {
                let (latencies, placed) = round(backend).await;
                assert_eq!(placed, STOCK as usize, "exactly the stock is sold");
                all.extend(latencies);
            }
            all.sort();
            println!(
                "{backend:?}: {ROUNDS} rounds of {SHOPPERS} concurrent checkouts (stock {STOCK}, pool {POOL}): \
                 p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
                percentile(&all, 50.0).as_secs_f64() * 1e3,
                percentile(&all, 90.0).as_secs_f64() * 1e3,
                percentile(&all, 99.0).as_secs_f64() * 1e3,
                all.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
            );
        }
    });
}
