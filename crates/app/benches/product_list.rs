//! The storefront's hottest path: every open tab polls `GET /api/products` every 5 s.
//! Measured through real HTTP against the app on the demo catalog (SQLite): a full answer, and
//! the revalidation that most polls are (304 from the in-memory snapshot, no database work).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use garden_app::{
    Application, CatalogSettings, DatabaseSettings, Environment, MediaSettings, SeedSettings,
    ServerSettings, Settings, SiteSettings,
};

fn product_list(c: &mut Criterion) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let address = runtime.block_on(async {
        let settings = Settings {
            environment: Environment::Test,
            server: ServerSettings {
                host: "127.0.0.1".into(),
                port: 0,
                static_dir: dir.path().into(),
            },
            database: DatabaseSettings {
                url: format!("sqlite://{}/bench.db?mode=rwc", dir.path().display()),
                max_connections: 5,
            },
            media: MediaSettings {
                root: dir.path().join("media"),
            },
            seed: SeedSettings { demo_data: true },
            site: SiteSettings {
                name: "Garden Shop".into(),
                reviews_url: "https://example.com".into(),
            },
            catalog: CatalogSettings { refresh_seconds: 5 },
        };
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
