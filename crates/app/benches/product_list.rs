//! The storefront's hottest path: every open tab polls `GET /api/products` every 5 s.
//! Measured through real HTTP against the app on the demo catalog (SQLite): a full answer, and
//! the revalidation that most polls are (304 from the in-memory snapshot, no database work).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use garden_app::{Application, Settings};

fn product_list(c: &mut Criterion) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let address = runtime.block_on(async {
        // The test environment's config files plus this run's paths: new settings sections
        // need no change here.
        let root = dir.path().display().to_string();
        std::env::set_var("SHOP_ENV", "test");
        std::env::set_var("DATABASE_URL", format!("sqlite://{root}/bench.db?mode=rwc"));
        std::env::set_var("SHOP__SERVER__STATIC_DIR", &root);
        std::env::set_var("SHOP__MEDIA__ROOT", format!("{root}/media"));
        std::env::set_var("SHOP__MAIL__OUTBOX_DIR", format!("{root}/outbox"));
        std::env::set_var("SHOP__SEED__DEMO_DATA", "true");
        let settings = Settings::load().unwrap();
        let app = Application::build(settings).await.unwrap();
        let address = format!("http://127.0.0.1:{}/api/products", app.port());
        tokio::spawn(app.run_until_stopped());
        address
    });
    let client = reqwest::Client::new();
    let etag = runtime.block_on(async {
        client.get(&address).send().await.unwrap().headers()["etag"]
            .to_str()
            .unwrap()
            .to_owned()
    });

    let mut group = c.benchmark_group("GET /api/products");
    group.throughput(Throughput::Elements(1));
    group.bench_function("200 with the 30-product list", |b| {
        b.to_async(&runtime).iter(|| async {
            let response = client.get(&address).send().await.unwrap();
            assert_eq!(response.status(), 200);
            response.bytes().await.unwrap()
        })
    });
    group.bench_function("304 revalidation", |b| {
        b.to_async(&runtime).iter(|| async {
            let response = client
                .get(&address)
                .header("If-None-Match", &etag)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 304);
        })
    });
    group.finish();
}

criterion_group!(benches, product_list);
criterion_main!(benches);
