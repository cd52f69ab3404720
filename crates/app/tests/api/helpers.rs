use std::path::PathBuf;

use garden_app::{Application, Environment, Settings};
use store::testing::TestDatabase;
use store::{Backend, Store};

pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub store: Store,
    pub static_dir: PathBuf,
    _database: TestDatabase,
    _dirs: Vec<tempfile::TempDir>,
}

pub struct Options {
    pub demo_data: bool,
    pub environment: Environment,
}

impl Options {
    pub fn demo_data(demo_data: bool) -> Self {
        Options {
            demo_data,
            environment: Environment::Test,
        }
    }
}

impl TestApp {
    /// A fresh, empty shop.
    pub async fn spawn(backend: Backend) -> TestApp {
        Self::spawn_on(
            TestDatabase::create(backend).await,
            Options::demo_data(false),
        )
        .await
    }

    /// A fresh shop with the demo catalog.
    pub async fn spawn_with_demo(backend: Backend) -> TestApp {
        Self::spawn_on(
            TestDatabase::create(backend).await,
            Options::demo_data(true),
        )
        .await
    }

    /// The app on a database the test has prepared.
    pub async fn spawn_on(database: TestDatabase, options: Options) -> TestApp {
        let media = tempfile::tempdir().unwrap();
        let frontend = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(frontend.path().join("assets")).unwrap();
        std::fs::write(
            frontend.path().join("index.html"),
            "<!doctype html><title>Garden Shop</title>",
        )
        .unwrap();
        std::fs::write(
            frontend.path().join("assets/index-4f3a9c.js"),
            "console.log('shop')",
        )
        .unwrap();
        std::fs::write(
            frontend.path().join("favicon.svg"),
            "<svg xmlns='http://www.w3.org/2000/svg'/>",
        )
        .unwrap();

        let settings = Settings {
            environment: options.environment,
            server: garden_app::ServerSettings {
                host: "127.0.0.1".into(),
                port: 0,
                static_dir: frontend.path().to_path_buf(),
            },
            database: garden_app::DatabaseSettings {
                url: database.url.clone(),
                max_connections: 5,
            },
            media: garden_app::MediaSettings {
                root: media.path().to_path_buf(),
            },
            seed: garden_app::SeedSettings {
                demo_data: options.demo_data,
            },
            site: garden_app::SiteSettings {
                name: "Garden Shop".into(),
                reviews_url: "https://reviews.example/garden-shop".into(),
            },
            catalog: garden_app::CatalogSettings { refresh_seconds: 1 },
        };
        let app = Application::build(settings).await.expect("the app starts");
        let address = format!("http://127.0.0.1:{}", app.port());
        tokio::spawn(app.run_until_stopped());
        TestApp {
            address,
            client: reqwest::Client::builder().build().unwrap(),
            store: Store::new(database.connection.clone()),
            static_dir: frontend.path().to_path_buf(),
            _database: database,
            _dirs: vec![media, frontend],
        }
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.address))
            .send()
            .await
            .expect("the request is answered")
    }

    pub async fn get_json(&self, path: &str) -> serde_json::Value {
        let response = self.get(path).await;
        assert_eq!(response.status(), 200, "GET {path}");
        response.json().await.unwrap()
    }

    pub async fn products(&self) -> Vec<serde_json::Value> {
        self.get_json("/api/products")
            .await
            .as_array()
            .unwrap()
            .clone()
    }
}

pub fn ids(products: &[serde_json::Value]) -> Vec<i64> {
    products.iter().map(|p| p["id"].as_i64().unwrap()).collect()
}
