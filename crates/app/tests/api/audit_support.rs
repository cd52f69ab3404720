//! Helpers for the audit log's tests: an app behind a trusted proxy, staff whose requests come
//! from a known client address, and the log read back through `GET /api/admin/audit`.
//!
//! ```ignore
//! let audited = Audited::spawn(backend).await;
//! let ada = audited.staff(Role::SuperAdmin).await;
//! let seen = audited.count().await;
//! // ... ada does something ...
//! let entry = audited.one_new_entry(seen).await;
//! assert_entry(&entry, &ada, "stock.set", "product:1");
//! ```

use accounts::Role;
use reqwest::header::{HeaderMap, HeaderValue};
use reqwest::Client;
use serde_json::Value;
use store::testing::TestDatabase;
use store::Backend;

use crate::helpers::{Options, TestApp, TEST_PASSWORD};

/// The client address every `Staff` request comes from (through the trusted proxy).
pub const STAFF_IP: &str = "203.0.113.7";

/// A staff member: their logged-in client (sending `X-Forwarded-For: STAFF_IP`), id and name.
pub struct Staff {
    pub client: Client,
    pub id: i64,
    pub name: String,
}

/// An empty shop that trusts 127.0.0.1 as its proxy, and a super_admin who reads the log.
pub struct Audited {
    pub app: TestApp,
    pub auditor: Client,
}

impl Audited {
    pub async fn spawn(backend: Backend) -> Audited {
        Self::spawn_with(backend, false).await
    }

    /// With the demo catalog when `demo_data`.
    pub async fn spawn_with(backend: Backend, demo_data: bool) -> Audited {
        let app = TestApp::spawn_with(
            TestDatabase::create(backend).await,
            Options::demo_data(demo_data),
            |settings| settings.server.trusted_proxies = vec!["127.0.0.1/32".into()],
        )
        .await;
        let auditor = app.client_with_role(Role::SuperAdmin).await;
        Audited { app, auditor }
    }

    /// A new logged-in staff member (any role) whose requests come from `STAFF_IP`.
    pub async fn staff(&self, role: Role) -> Staff {
        let local = format!("staff{}", &uuid::Uuid::new_v4().simple().to_string()[..8]);
        let email = format!("{local}@example.com");
        let id = self.app.create_user(&email, TEST_PASSWORD, role).await;
        if role.is_staff() {
            // claiming needs a private server link (set outside the audited calls)
            self.app
                .store
                .seed_private_server_url(id, "https://www.roblox.com/share?code=audit&type=Server")
                .await
                .unwrap();
        }
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", HeaderValue::from_static(STAFF_IP));
        let client = Client::builder()
            .cookie_store(true)
            .default_headers(headers)
            .build()
            .unwrap();
        self.app.login(&client, &email, TEST_PASSWORD).await;
        Staff {
            client,
            id,
            name: local,
        }
    }

    /// The whole answer of `GET /api/admin/audit?{query}` as the auditor.
    pub async fn page(&self, query: &str) -> Value {
        let response = self
            .auditor
            .get(self.app.url(&format!("/api/admin/audit?{query}")))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "GET /api/admin/audit?{query}");
        response.json().await.unwrap()
    }

    /// Every entry that matches `query`, newest first (following the pages).
    pub async fn entries(&self, query: &str) -> Vec<Value> {
        let mut all = Vec::new();
        let mut cursor: Option<i64> = None;
        loop {
            let page = match cursor {
                Some(cursor) => {
                    self.page(&format!("{query}&limit=100&cursor={cursor}"))
                        .await
                }
                None => self.page(&format!("{query}&limit=100")).await,
            };
            all.extend(page["entries"].as_array().unwrap().iter().cloned());
            match page["next_cursor"].as_i64() {
                Some(next) => cursor = Some(next),
                None => return all,
            }
        }
    }

    /// How many entries the log holds.
    pub async fn count(&self) -> usize {
        self.entries("").await.len()
    }

    /// The one entry written since the log held `seen`; fails unless there is exactly one.
    pub async fn one_new_entry(&self, seen: usize) -> Value {
        let entries = self.entries("").await;
        assert_eq!(
            entries.len(),
            seen + 1,
            "exactly one new entry; the newest are {:#?}",
            &entries[..entries.len().min(3)]
        );
        entries[0].clone()
    }

    /// Asserts that nothing was written since the log held `seen`.
    pub async fn nothing_new(&self, seen: usize, what: &str) {
        assert_eq!(self.count().await, seen, "{what} writes no audit entry");
    }
}

/// Asserts an entry's actor (id, name), address, kind and target.
pub fn assert_entry(entry: &Value, staff: &Staff, kind: &str, target: &str) {
    assert_eq!(entry["kind"], kind, "{entry:#}");
    assert_eq!(entry["target"], target, "{entry:#}");
    assert_eq!(entry["actor"]["id"], staff.id, "{entry:#}");
    assert_eq!(entry["actor"]["name"], staff.name.as_str(), "{entry:#}");
    assert_eq!(entry["ip"], STAFF_IP, "{entry:#}");
    assert!(entry["at"].is_string() && entry["id"].is_i64(), "{entry:#}");
}
