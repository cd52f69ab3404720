//! The first load and the product list at the limit: pre-compressed product lists chosen by
//! Accept-Encoding, no database and no session work per poll, robots.txt and sitemap.xml, and
//! WebP copies of the product pictures.

use std::io::Read;
use std::sync::atomic::Ordering;

use rstest::rstest;
use serde_json::json;
use store::testing::TestDatabase;
use store::Backend;

use crate::helpers::{Options, TestApp};

/// The demo shop with the background re-reads pushed far out, so every statement counted comes
/// from the requests themselves.
async fn quiet_demo(backend: Backend) -> TestApp {
    TestApp::spawn_with(
        TestDatabase::create(backend).await,
        Options::demo_data(true),
        |settings| {
            settings.catalog.refresh_seconds = 3_600;
            settings.chat.version_refresh_ms = 3_600_000;
            settings.chat.purge_every_seconds = 3_600;
            settings.site.public_url = "https://shop.example".into();
        },
    )
    .await
}

/// Replaces the built frontend's `index.html` with `html`.
pub(crate) fn write_index(app: &TestApp, html: &str) {
    std::fs::write(app.static_dir.join("index.html"), html).unwrap();
}

async fn list(
    app: &TestApp,
    client: &reqwest::Client,
    accept_encoding: Option<&str>,
    if_none_match: Option<&str>,
) -> reqwest::Response {
    let mut request = client.get(app.url("/api/products"));
    if let Some(value) = accept_encoding {
        request = request.header("Accept-Encoding", value);
    }
    if let Some(value) = if_none_match {
        request = request.header("If-None-Match", value);
    }
    request.send().await.unwrap()
}

fn header<'a>(response: &'a reqwest::Response, name: &str) -> Option<&'a str> {
    response
        .headers()
        .get(name)
        .map(|value| value.to_str().unwrap())
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(bytes, 4096)
        .read_to_end(&mut out)
        .unwrap();
    out
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_list_is_sent_in_the_best_coding_the_browser_accepts(#[case] backend: Backend) {
    let app = quiet_demo(backend).await;
    let plain = list(&app, &app.client, None, None).await;
    assert_eq!(plain.status(), 200);
    assert_eq!(header(&plain, "content-encoding"), None);
    assert_eq!(header(&plain, "vary"), Some("accept-encoding"));
    assert_eq!(header(&plain, "content-type"), Some("application/json"));
    let plain_tag = header(&plain, "etag").unwrap().to_owned();
    let json = plain.bytes().await.unwrap().to_vec();
    let products: Vec<serde_json::Value> = serde_json::from_slice(&json).unwrap();
    assert_eq!(products.len(), 30);

    let gzip = list(&app, &app.client, Some("gzip, deflate"), None).await;
    assert_eq!(header(&gzip, "content-encoding"), Some("gzip"));
    assert_eq!(header(&gzip, "vary"), Some("accept-encoding"));
    let gzip_tag = header(&gzip, "etag").unwrap().to_owned();
    let gzip_body = gzip.bytes().await.unwrap();
    assert_eq!(gunzip(&gzip_body), json, "the same list");
    assert!(
        gzip_body.len() * 3 < json.len(),
        "{} bytes of gzip for {} of JSON",
        gzip_body.len(),
        json.len()
    );

    let br = list(&app, &app.client, Some("gzip, deflate, br, zstd"), None).await;
    assert_eq!(header(&br, "content-encoding"), Some("br"));
    let br_tag = header(&br, "etag").unwrap().to_owned();
    let br_body = br.bytes().await.unwrap();
    assert_eq!(unbrotli(&br_body), json, "the same list");
    assert!(br_body.len() <= gzip_body.len());

    // preferences are honoured
    let refused = list(&app, &app.client, Some("br;q=0, gzip;q=0.5"), None).await;
    assert_eq!(header(&refused, "content-encoding"), Some("gzip"));
    let none = list(&app, &app.client, Some("br;q=0, gzip;q=0"), None).await;
    assert_eq!(header(&none, "content-encoding"), None);
    assert_eq!(none.bytes().await.unwrap().to_vec(), json);

    // each representation has its own strong validator
    for tag in [&plain_tag, &gzip_tag, &br_tag] {
        assert!(tag.starts_with('"') && !tag.starts_with("W/"), "{tag}");
    }
    assert_ne!(plain_tag, gzip_tag);
    assert_ne!(gzip_tag, br_tag);

    // and revalidates without a body, whatever the browser accepts now
    for (accept, tag) in [
        (Some("gzip"), &gzip_tag),
        (Some("br, gzip"), &br_tag),
        (None, &plain_tag),
        (Some("br"), &gzip_tag),
    ] {
        let revalidated = list(&app, &app.client, accept, Some(tag)).await;
        assert_eq!(revalidated.status(), 304, "{accept:?} {tag}");
        assert_eq!(header(&revalidated, "etag"), Some(tag.as_str()));
        assert_eq!(header(&revalidated, "vary"), Some("accept-encoding"));
        assert!(revalidated.bytes().await.unwrap().is_empty());
    }
    let listed = format!("\"other\", {br_tag}");
    let revalidated = list(&app, &app.client, Some("br"), Some(&listed)).await;
    assert_eq!(revalidated.status(), 304);
    let stale = list(&app, &app.client, Some("br"), Some("\"other\"")).await;
    assert_eq!(stale.status(), 200);
    assert_eq!(header(&stale, "content-encoding"), Some("br"));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_poll_of_the_list_sends_no_statement_even_with_a_session(#[case] backend: Backend) {
    let app = quiet_demo(backend).await;
    let shopper = app.client_with_role(accounts::Role::Customer).await;
    let count = || app.db_queries.load(Ordering::SeqCst);

    // the counter sees a signed-in request's session work elsewhere
    let before = count();
    let me = shopper
        .get(app.url("/api/auth/check"))
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), 200);
    assert!(count() > before, "a signed-in call reads the session");

    let tag = header(&list(&app, &shopper, Some("gzip"), None).await, "etag")
        .unwrap()
        .to_owned();
    let before = count();
    for round in 0..20 {
        let fresh = list(&app, &shopper, Some("gzip, br"), None).await;
        assert_eq!(fresh.status(), 200, "round {round}");
        assert!(fresh.headers().get("set-cookie").is_none());
        let revalidated = list(&app, &shopper, Some("gzip"), Some(&tag)).await;
        assert_eq!(revalidated.status(), 304, "round {round}");
        let guest = list(&app, &app.client, None, None).await;
        assert_eq!(guest.status(), 200, "round {round}");
    }
    assert_eq!(count(), before, "60 polls sent no statement");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn robots_and_the_sitemap_are_real_files_on_the_public_address(#[case] backend: Backend) {
    let app = quiet_demo(backend).await;

    let robots = app.get("/robots.txt").await;
    assert_eq!(robots.status(), 200);
    assert_eq!(
        header(&robots, "content-type"),
        Some("text/plain; charset=utf-8")
    );
    let robots = robots.text().await.unwrap();
    assert!(robots.starts_with("User-agent: *\nAllow: /\n"), "{robots}");
    for private in [
        "Disallow: /api/",
        "Disallow: /admin/",
        "Disallow: /checkout",
    ] {
        assert!(robots.lines().any(|line| line == private), "{robots}");
    }
    assert!(
        robots
            .lines()
            .any(|line| line == "Sitemap: https://shop.example/sitemap.xml"),
        "{robots}"
    );
    assert!(!robots.contains("<"), "not the app's HTML: {robots}");

    let sitemap = app.get("/sitemap.xml").await;
    assert_eq!(sitemap.status(), 200);
    assert_eq!(
        header(&sitemap, "content-type"),
        Some("application/xml; charset=utf-8")
    );
    let sitemap = sitemap.text().await.unwrap();
    assert!(sitemap.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"));
    let locs: Vec<&str> = sitemap
        .split("<loc>")
        .skip(1)
        .map(|rest| rest.split("</loc>").next().unwrap())
        .collect();
    for page in ["", "/about", "/how-it-works", "/faq", "/proofs", "/terms"] {
        let url = format!("https://shop.example{page}");
        let url = if page.is_empty() {
            format!("{url}/")
        } else {
            url
        };
        assert!(locs.contains(&url.as_str()), "{url} in {locs:?}");
    }
    let products = app.products().await;
    for product in &products {
        let url = format!("https://shop.example/product/{}", product["id"]);
        assert!(locs.contains(&url.as_str()), "{url} in {locs:?}");
    }
    assert_eq!(locs.len(), 8 + products.len(), "{locs:?}");
    assert!(!locs.iter().any(|loc| loc.contains("/admin")));
}

fn decoded_size(bytes: &[u8]) -> (u32, u32) {
    let picture = image::load_from_memory_with_format(bytes, image::ImageFormat::WebP).unwrap();
    (picture.width(), picture.height())
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn product_pictures_are_also_served_as_webp_in_three_widths(#[case] backend: Backend) {
    let app = quiet_demo(backend).await;
    let products = app.products().await;
    let image = products[0]["image"].as_str().unwrap().to_owned();
    assert!(
        image.starts_with("/media/products/") && image.ends_with(".png"),
        "the API still names the PNG: {image}"
    );
    let png = app.get(&image).await;
    assert_eq!(header(&png, "content-type"), Some("image/png"));
    let png = png.bytes().await.unwrap();
    let source = image::load_from_memory(&png).unwrap();
    assert_eq!(source.width(), 300);

    let stem = image.trim_end_matches(".png");
    for (width, expected) in [(150, 150), (300, 300), (600, 300)] {
        let webp = app.get(&format!("{stem}-{width}.webp")).await;
        assert_eq!(webp.status(), 200, "{width}");
        assert_eq!(header(&webp, "content-type"), Some("image/webp"));
        assert_eq!(
            header(&webp, "cache-control"),
            Some("public, max-age=31536000, immutable")
        );
        let bytes = webp.bytes().await.unwrap();
        let (w, h) = decoded_size(&bytes);
        assert_eq!(w, expected, "a {width} copy is never wider than its source");
        assert_eq!(
            h * source.width(),
            source.height() * w,
            "the aspect is kept"
        );
        if width == 300 {
            // lossy WebP of the same size: well under half even of the demo's palette PNGs
            assert!(
                bytes.len() * 2 < png.len(),
                "{} vs {}",
                bytes.len(),
                png.len()
            );
        }
    }

    // 60 browsers asking at once for a copy nobody made yet all get the same picture
    let stem_other = products[1]["image"]
        .as_str()
        .unwrap()
        .trim_end_matches(".png")
        .to_owned();
    let url = app.url(&format!("{stem_other}-150.webp"));
    let bodies = futures::future::join_all((0..60).map(|_| {
        let (client, url) = (app.client.clone(), url.clone());
        async move { client.get(url).send().await.unwrap().bytes().await.unwrap() }
    }))
    .await;
    assert!(bodies.iter().all(|body| body == &bodies[0]));
    assert_eq!(decoded_size(&bodies[0]).0, 150);

    for missing in [
        format!("{stem}-151.webp"),
        format!("{stem}.webp"),
        "/media/products/00000000000000000000000000000000-150.webp".to_owned(),
        "/media/proofs/00000000000000000000000000000000-150.webp".to_owned(),
    ] {
        assert_eq!(app.get(&missing).await.status(), 404, "{missing}");
    }
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_page_preloads_its_largest_picture_with_high_priority(#[case] backend: Backend) {
    let app = quiet_demo(backend).await;
    write_index(
        &app,
        "<!doctype html><html><head><title>Garden Shop</title></head><body></body></html>",
    );
    let products = app.products().await;
    let stem = |product: &serde_json::Value| {
        product["image"]
            .as_str()
            .unwrap()
            .trim_end_matches(".png")
            .to_owned()
    };

    let home = app.get("/").await;
    assert_eq!(header(&home, "cache-control"), Some("private, no-cache"));
    assert_eq!(header(&home, "vary"), Some("Cookie"));
    assert_eq!(
        header(&home, "content-type"),
        Some("text/html; charset=utf-8")
    );
    let home = home.text().await.unwrap();
    let first = stem(&products[0]);
    let expected = format!(
        "<link rel=\"preload\" as=\"image\" href=\"{first}-300.webp\" imagesrcset=\"{first}-150.webp 150w, {first}-300.webp 300w, {first}-600.webp 600w\" imagesizes=\"(min-width: 1100px) 200px, (min-width: 900px) 20vw, (min-width: 640px) 28vw, (min-width: 340px) 42vw, 80vw\" fetchpriority=\"high\">"
    );
    assert!(home.contains(&expected), "{home}");
    assert_eq!(home.matches("rel=\"preload\"").count(), 1);

    let product = &products[5];
    let page = app
        .get(&format!("/product/{}", product["id"]))
        .await
        .text()
        .await
        .unwrap();
    let picture = stem(product);
    assert!(
        page.contains(&format!("href=\"{picture}-300.webp\""))
            && page.contains("imagesizes=\"(min-width: 768px) 420px, 84vw\""),
        "{page}"
    );

    for plain in ["/?category=Pets", "/about", "/product/999999", "/product/x"] {
        let page = app.get(plain).await.text().await.unwrap();
        assert!(!page.contains("preload"), "{plain}: {page}");
        assert!(page.contains("<title>Garden Shop</title>"), "{plain}");
    }
}

/// The JSON of the page's bootstrap element, parsed.
pub(crate) fn bootstrap(page: &str) -> serde_json::Value {
    let start = "<script id=\"shop-bootstrap\" type=\"application/json\">";
    let at = page
        .find(start)
        .unwrap_or_else(|| panic!("no bootstrap in {page}"))
        + start.len();
    let end = at + page[at..].find("</script>").unwrap();
    assert!(page[..at].contains("<head>") && page[end..].contains("</head>"));
    serde_json::from_str(&page[at..end]).unwrap()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_page_carries_the_session_and_the_storefronts_product_list(#[case] backend: Backend) {
    let app = quiet_demo(backend).await;
    write_index(
        &app,
        "<!doctype html><html><head><title>Garden Shop</title></head><body></body></html>",
    );
    let list: serde_json::Value = app.get_json("/api/products").await;
    let site: serde_json::Value = app.get_json("/api/site").await;

    for path in ["/", "/?category=Pets", "/product/3", "/product/999999"] {
        let page = app.get(path).await.text().await.unwrap();
        let data = bootstrap(&page);
        assert_eq!(
            data["session"],
            json!({ "loggedIn": false, "user": null }),
            "{path}"
        );
        assert_eq!(data["products"], list, "{path}");
        assert!(data["events"].is_i64(), "{path}: {data}");
        assert_eq!(data["currencies"], site["currencies"], "{path}");
    }
    for path in ["/about", "/checkout", "/admin/products", "/index.html"] {
        let page = app.get(path).await.text().await.unwrap();
        let mut data = bootstrap(&page);
        assert!(data["events"].is_i64(), "{path}: {data}");
        data.as_object_mut().unwrap().remove("events");
        // every page carries the currencies offered, so prices draw in the shopper's at once
        let currencies = data.as_object_mut().unwrap().remove("currencies");
        assert_eq!(currencies.as_ref(), Some(&site["currencies"]), "{path}");
        assert_eq!(
            data,
            json!({ "session": { "loggedIn": false, "user": null } }),
            "{path}"
        );
    }

    // the same answer as GET /api/auth/check for this visitor, and a page no cache shares
    let customer = app.client_with_role(accounts::Role::Customer).await;
    let check: serde_json::Value = customer
        .get(app.url("/api/auth/check"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(check["loggedIn"], true);
    let response = customer.get(app.url("/about")).send().await.unwrap();
    assert_eq!(
        header(&response, "cache-control"),
        Some("private, no-cache")
    );
    assert_eq!(bootstrap(&response.text().await.unwrap())["session"], check);
    // a HEAD is answered like the GET, without the page
    let head = app.client.head(app.url("/")).send().await.unwrap();
    assert_eq!(head.status(), 200);
    assert_eq!(header(&head, "cache-control"), Some("private, no-cache"));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn no_product_text_can_end_the_bootstrap_element(#[case] backend: Backend) {
    let app = quiet_demo(backend).await;
    write_index(
        &app,
        "<!doctype html><html><head></head><body></body></html>",
    );
    let admin = app.client_with_role(accounts::Role::SuperAdmin).await;
    let name = "Owl</script><script>alert(1)</script><!--";
    let boundary = "bootstrap-boundary";
    let mut body = String::new();
    for (field, value) in [
        ("name", name),
        ("price", "9.50"),
        ("category", "Pets"),
        ("description", "</SCRIPT>&<b>bold</b>"),
        ("stock", "4"),
    ] {
        body.push_str(&format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"\r\n\r\n{value}\r\n"
        ));
    }
    body.push_str(&format!("--{boundary}--\r\n"));
    let created = admin
        .post(app.url("/api/admin/products"))
        .header(
            "Content-Type",
            format!("multipart/form-data; boundary={boundary}"),
        )
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);

    let page = app.get("/").await.text().await.unwrap();
    assert!(
        !page.contains("alert(1)</script>") && !page.contains("<!--"),
        "{page}"
    );
    assert!(!page.to_lowercase().contains("</script>&"), "{page}");
    let products = bootstrap(&page)["products"].as_array().unwrap().clone();
    let owl = products.iter().find(|p| p["name"] == name).unwrap();
    assert_eq!(owl["description"], "</SCRIPT>&<b>bold</b>");
    assert_eq!(page.matches("</script>").count(), 1, "{page}");
}

/// A build manifest like Vite's: the entry, two pages and the chunks they share.
const MANIFEST: &str = r#"{
  "index.html": { "file": "assets/index-E1.js", "isEntry": true, "imports": ["_react-R1.js"],
                  "dynamicImports": ["src/app/routes/home.tsx", "src/app/routes/product.tsx"],
                  "css": ["assets/index-E1.css"] },
  "_react-R1.js": { "file": "assets/react-R1.js" },
  "src/app/routes/home.tsx": { "file": "assets/home-H1.js", "isDynamicEntry": true,
                  "imports": ["_react-R1.js", "index.html", "_cart-C1.js"], "css": ["assets/home-H1.css"] },
  "_cart-C1.js": { "file": "assets/cart-C1.js", "imports": ["index.html", "_modal-M1.js"], "css": ["assets/cart-C1.css"] },
  "_modal-M1.js": { "file": "assets/modal-M1.js" },
  "src/app/routes/product.tsx": { "file": "assets/product-P1.js", "isDynamicEntry": true,
                  "imports": ["_cart-C1.js", "_bad.js"] },
  "_bad.js": { "file": "assets/bad\"><script>x.js" }
}"#;

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_storefront_pages_fetch_their_code_with_the_html(#[case] backend: Backend) {
    let app = quiet_demo(backend).await;
    write_index(
        &app,
        "<!doctype html><html><head></head><body></body></html>",
    );
    let app = &app;
    let page = |path: &'static str| async move { app.get(path).await.text().await.unwrap() };
    // no manifest (e.g. a build from before it was asked for): nothing to preload
    assert!(!page("/").await.contains("modulepreload"));

    std::fs::create_dir_all(app.static_dir.join(".vite")).unwrap();
    std::fs::write(app.static_dir.join(".vite/manifest.json"), MANIFEST).unwrap();
    let links = |html: String| -> Vec<String> {
        html.split('<')
            .filter(|tag| {
                tag.starts_with("link rel=\"modulepreload\"") || tag.contains("as=\"style\"")
            })
            .map(|tag| tag.trim_end_matches('>').to_owned())
            .collect()
    };
    assert_eq!(
        links(page("/").await),
        [
            "link rel=\"modulepreload\" crossorigin href=\"/assets/home-H1.js\"",
            "link rel=\"preload\" as=\"style\" crossorigin href=\"/assets/home-H1.css\"",
            "link rel=\"modulepreload\" crossorigin href=\"/assets/cart-C1.js\"",
            "link rel=\"preload\" as=\"style\" crossorigin href=\"/assets/cart-C1.css\"",
            "link rel=\"modulepreload\" crossorigin href=\"/assets/modal-M1.js\"",
        ]
    );
    // a file name that is not a plain path is never written into the page
    assert_eq!(
        links(page("/product/3").await),
        [
            "link rel=\"modulepreload\" crossorigin href=\"/assets/product-P1.js\"",
            "link rel=\"modulepreload\" crossorigin href=\"/assets/cart-C1.js\"",
            "link rel=\"preload\" as=\"style\" crossorigin href=\"/assets/cart-C1.css\"",
            "link rel=\"modulepreload\" crossorigin href=\"/assets/modal-M1.js\"",
        ]
    );
    for other in ["/about", "/checkout", "/?"] {
        let html = page(other).await;
        assert!(
            other == "/?" || links(html.clone()).is_empty(),
            "{other}: {html}"
        );
    }
    // an unreadable manifest leaves the page as it is
    std::fs::write(app.static_dir.join(".vite/manifest.json"), "{").unwrap();
    assert!(links(page("/").await).is_empty());
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn assets_go_out_in_the_builds_own_compressed_copies(#[case] backend: Backend) {
    let app = quiet_demo(backend).await;
    let assets = app.static_dir.join("assets");
    std::fs::create_dir_all(&assets).unwrap();
    let script = "console.log('garden');\n".repeat(200);
    std::fs::write(assets.join("app-A1.js"), &script).unwrap();
    // stand-ins for the copies: what the server sends is recognisable
    std::fs::write(assets.join("app-A1.js.br"), b"brotli bytes").unwrap();
    std::fs::write(assets.join("app-A1.js.gz"), b"gzip bytes").unwrap();
    std::fs::write(assets.join("small-S1.css"), "a{}").unwrap();
    let client = reqwest::Client::builder()
        .no_gzip()
        .no_brotli()
        .build()
        .unwrap();
    let fetch = |path: &'static str, accept: &'static str| {
        let client = client.clone();
        let url = app.url(path);
        async move {
            let mut request = client.get(url);
            if !accept.is_empty() {
                request = request.header("Accept-Encoding", accept);
            }
            request.send().await.unwrap()
        }
    };

    for (accept, coding, body) in [
        ("gzip, deflate, br, zstd", Some("br"), &b"brotli bytes"[..]),
        ("br;q=0.5, gzip", Some("gzip"), &b"gzip bytes"[..]),
        ("gzip", Some("gzip"), &b"gzip bytes"[..]),
        ("", None, script.as_bytes()),
        ("identity", None, script.as_bytes()),
    ] {
        let response = fetch("/assets/app-A1.js", accept).await;
        assert_eq!(response.status(), 200, "{accept}");
        assert_eq!(header(&response, "content-encoding"), coding, "{accept}");
        assert_eq!(
            header(&response, "content-type"),
            Some("text/javascript"),
            "{accept}"
        );
        assert_eq!(
            header(&response, "vary"),
            Some("accept-encoding"),
            "{accept}"
        );
        assert_eq!(
            header(&response, "content-disposition"),
            Some("inline; filename=\"app-A1.js\""),
            "{accept}"
        );
        assert_eq!(
            header(&response, "cache-control"),
            Some("public, max-age=31536000, immutable")
        );
        assert_eq!(response.bytes().await.unwrap(), body, "{accept}");
    }
    // a file the build left uncompressed is sent as it is
    let small = fetch("/assets/small-S1.css", "identity").await;
    assert_eq!(
        header(&small, "content-type"),
        Some("text/css; charset=utf-8")
    );
    assert_eq!(header(&small, "content-encoding"), None);
    assert_eq!(small.text().await.unwrap(), "a{}");
    // a copy has the type of its file
    std::fs::write(assets.join("small-S1.css.br"), b"css brotli").unwrap();
    let copy = fetch("/assets/small-S1.css", "br").await;
    assert_eq!(
        header(&copy, "content-type"),
        Some("text/css; charset=utf-8")
    );
    assert_eq!(header(&copy, "content-encoding"), Some("br"));
    assert_eq!(copy.bytes().await.unwrap(), &b"css brotli"[..]);
}
