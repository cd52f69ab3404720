use rstest::rstest;
use store::Backend;

use crate::helpers::TestApp;

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[tokio::test]
async fn client_routes_get_index_html_which_no_cache_keeps(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    for path in ["/", "/product/3", "/faq", "/index.html"] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(
            response.headers()["cache-control"],
            "private, no-cache",
            "{path}"
        );
        assert!(
            response
                .text()
                .await
                .unwrap()
                .contains("<title>Garden Shop</title>"),
            "{path}"
        );
    }
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[tokio::test]
async fn hashed_assets_are_immutable_and_other_files_cached_briefly(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let asset = app.get("/assets/index-4f3a9c.js").await;
    assert_eq!(asset.status(), 200);
    assert_eq!(
        asset.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert!(asset.headers()["content-type"]
        .to_str()
        .unwrap()
        .contains("javascript"));

    let icon = app.get("/favicon.svg").await;
    assert_eq!(icon.headers()["cache-control"], "public, max-age=3600");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[tokio::test]
async fn unknown_api_paths_are_json_404s_not_the_app(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let response = app.get("/api/nothing-here").await;
    assert_eq!(response.status(), 404);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["message"], "Not found.");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[tokio::test]
async fn responses_carry_security_headers(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    // the product list is answered before the middleware that adds them: it adds its own
    for path in [
        "/",
        "/api/products",
        "/api/products?category=Pets",
        "/api/site",
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        let headers = response.headers();
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["x-frame-options"], "DENY", "{path}");
        assert_eq!(
            headers["referrer-policy"], "strict-origin-when-cross-origin",
            "{path}"
        );
        let policy = headers["content-security-policy"].to_str().unwrap();
        assert!(policy.contains("frame-ancestors 'none'"), "{path}");
        // Issue 23: a proof's preview before upload is a `blob:` image; nothing else may come
        // from `blob:` (no script, no worker: the success page's confetti draws without one).
        let directives: std::collections::HashMap<&str, Vec<&str>> = policy
            .split(';')
            .filter_map(|directive| {
                let mut words = directive.split_whitespace();
                Some((words.next()?, words.collect()))
            })
            .collect();
        assert!(directives["img-src"].contains(&"blob:"), "{path}: {policy}");
        for (name, sources) in &directives {
            if *name != "img-src" {
                assert!(!sources.contains(&"blob:"), "{path}: {name} allows blob:");
            }
        }
        assert_eq!(directives["script-src"], ["'self'"], "{path}");
        assert!(!directives.contains_key("worker-src"), "{path}");
    }
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[tokio::test]
async fn a_missing_frontend_build_says_how_to_build_it(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    std::fs::remove_file(app.static_dir.join("index.html")).unwrap();
    let response = app.get("/").await;
    assert_eq!(response.status(), 503);
    assert!(response.text().await.unwrap().contains("just build"));
}

/// Issue 22, item 9: the build's source maps and `.vite/manifest.json` are for the server and
/// the developers: 404 in the error shape, never the file nor the app's page.
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[tokio::test]
async fn source_maps_and_the_build_manifest_are_not_served(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    std::fs::write(
        app.static_dir.join("assets/index-4f3a9c.js.map"),
        r#"{"version":3,"sources":["../src/main.tsx"],"sourcesContent":["// secret"]}"#,
    )
    .unwrap();
    std::fs::create_dir_all(app.static_dir.join(".vite")).unwrap();
    std::fs::write(
        app.static_dir.join(".vite/manifest.json"),
        r#"{"index.html":{"file":"assets/index-4f3a9c.js","isEntry":true}}"#,
    )
    .unwrap();
    for path in [
        "/assets/index-4f3a9c.js.map",
        "/assets/missing-1234.js.map",
        "/.vite/manifest.json",
        "/.vite/",
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 404, "{path}");
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["message"], "Not found.", "{path}");
    }
    // the rest of the build is served as before
    assert_eq!(app.get("/assets/index-4f3a9c.js").await.status(), 200);
    assert_eq!(app.get("/product/3").await.status(), 200);
}
