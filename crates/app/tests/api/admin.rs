//! The admin API: products with pictures, reorder, inventory, sales statistics and the staff
//! delivery queue, on SQLite and PostgreSQL.

use std::io::Cursor;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use accounts::Role;
use chrono::{Duration, Utc};
use image::{DynamicImage, ImageFormat, RgbaImage};
use reqwest::{Client, Method, StatusCode};
use rstest::rstest;
use serde_json::{json, Value};
use store::testing::{seed_order, SeedOrder};
use store::Backend;

use crate::helpers::{ids, TestApp};

pub(crate) const BOUNDARY: &str = "garden-admin-test-boundary-51c2";

fn picture(width: u32, height: u32, format: ImageFormat) -> Vec<u8> {
    let img = RgbaImage::from_fn(width, height, |x, y| {
        image::Rgba([(x % 256) as u8, (y % 256) as u8, 90, 255])
    });
    let mut out = Cursor::new(Vec::new());
    match format {
        ImageFormat::Jpeg => DynamicImage::ImageRgba8(img)
            .into_rgb8()
            .write_to(&mut out, format)
            .unwrap(),
        _ => img.write_to(&mut out, format).unwrap(),
    }
    out.into_inner()
}

/// A real 10000x10000 PNG (grey, so it compresses to little), made once.
fn huge_png() -> &'static [u8] {
    static PNG: OnceLock<Vec<u8>> = OnceLock::new();
    PNG.get_or_init(|| {
        let img = image::GrayImage::new(10_000, 10_000);
        let mut out = Cursor::new(Vec::new());
        img.write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    })
}

/// A multipart/form-data body: text fields (repeatable), then an optional `image` file.
pub(crate) fn multipart(fields: &[(&str, &str)], image: Option<(&str, &[u8])>) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    }
    if let Some((filename, bytes)) = image {
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"image\"; \
                 filename=\"{filename}\"\r\nContent-Type: image/png\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    body
}

fn owl_form<'a>(name: &'a str, extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut fields = vec![
        ("name", name),
        ("price", "9.50"),
        ("category", "Pets"),
        ("description", "A wise bird"),
        ("stock", "4"),
        ("weight", "1.25"),
        ("sort_order", ""),
        ("mutation", ""),
        ("savings", "12"),
        ("delete_after_out_of_stock", "0"),
        ("dupe_warning", "1"),
    ];
    for (key, value) in extra {
        fields.retain(|(k, _)| k != key);
        fields.push((key, value));
    }
    fields
}

async fn send_form(
    app: &TestApp,
    client: &Client,
    method: Method,
    path: &str,
    body: Vec<u8>,
) -> reqwest::Response {
    client
        .request(method, app.url(path))
        .header(
            "Content-Type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(body)
        .send()
        .await
        .unwrap()
}

async fn create(app: &TestApp, admin: &Client, body: Vec<u8>) -> reqwest::Response {
    send_form(app, admin, Method::POST, "/api/admin/products", body).await
}

async fn created(app: &TestApp, admin: &Client, fields: &[(&str, &str)]) -> Value {
    let response = create(app, admin, multipart(fields, None)).await;
    assert_eq!(response.status(), 201);
    response.json().await.unwrap()
}

/// The stored product pictures (PNG), without their WebP copies.
fn stored_pictures(app: &TestApp) -> Vec<PathBuf> {
    stored_files(app)
        .into_iter()
        .filter(|path| path.extension().is_some_and(|ext| ext == "png"))
        .collect()
}

/// Every file of the product pictures' directory: the PNGs and their WebP copies.
fn stored_files(app: &TestApp) -> Vec<PathBuf> {
    let dir = app.settings.media.root.join("products");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return vec![];
    };
    let mut files: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

async fn admin_products(app: &TestApp, admin: &Client) -> Vec<Value> {
    let response = admin
        .get(app.url("/api/admin/products"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

async fn post(app: &TestApp, client: &Client, path: &str, body: Value) -> reqwest::Response {
    client.post(app.url(path)).json(&body).send().await.unwrap()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn every_admin_call_is_refused_to_everyone_it_is_not_for(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let boss = app.client_with_role(Role::SuperAdmin).await;
    let product = created(&app, &boss, &owl_form("Owl", &[])).await;
    let id = product["id"].as_i64().unwrap();
    let order = seed_order(
        app.store.connection(),
        &SeedOrder::paid(id, "Owl", 1, Utc::now() - Duration::minutes(20)),
    )
    .await;

    let clients = [
        ("anonymous", app.new_client()),
        ("customer", app.client_with_role(Role::Customer).await),
        ("admin", app.client_with_role(Role::Admin).await),
        ("super_admin", boss),
    ];
    let form = || multipart(&owl_form("Owl", &[]), None);
    enum Body {
        None,
        Json(Value),
        Form,
    }
    // (method, path, body, whom it is for: true = staff, false = super_admin only)
    let calls: Vec<(Method, String, Body, bool)> = vec![
        (Method::GET, "/api/admin/products".into(), Body::None, false),
        (
            Method::POST,
            "/api/admin/products".into(),
            Body::Form,
            false,
        ),
        (
            Method::POST,
            format!("/api/admin/products/{id}"),
            Body::Form,
            false,
        ),
        (
            Method::PUT,
            format!("/api/admin/products/{id}"),
            Body::Form,
            false,
        ),
        (
            Method::POST,
            "/api/admin/products/reorder".into(),
            Body::Json(json!({"updates": [{"id": id, "sort_order": 0}]})),
            false,
        ),
        (
            Method::GET,
            "/api/admin/products/standalone".into(),
            Body::None,
            false,
        ),
        (
            Method::POST,
            format!("/api/admin/products/{id}/inventory"),
            Body::Json(json!({"inventory": 5})),
            false,
        ),
        (
            Method::POST,
            format!("/api/admin/products/{id}/change"),
            Body::Json(json!({"type": "plus"})),
            false,
        ),
        (
            Method::GET,
            "/api/admin/sales-stats".into(),
            Body::None,
            false,
        ),
        (Method::GET, "/api/admin/orders".into(), Body::None, true),
        (
            Method::POST,
            format!("/api/admin/orders/{order}/claim"),
            Body::None,
            true,
        ),
        (
            Method::POST,
            format!("/api/admin/orders/{order}/release"),
            Body::None,
            true,
        ),
        (
            Method::POST,
            format!("/api/admin/orders/{order}/hold/release"),
            Body::None,
            false,
        ),
    ];
    for (method, path, body, for_staff) in &calls {
        for (who, client) in &clients {
            let request = client.request(method.clone(), app.url(path));
            let request = match body {
                Body::None => request,
                Body::Json(value) => request.json(value),
                Body::Form => request
                    .header(
                        "Content-Type",
                        format!("multipart/form-data; boundary={BOUNDARY}"),
                    )
                    .body(form()),
            };
            let status = request.send().await.unwrap().status();
            let expected = match (*who, for_staff) {
                ("anonymous", _) => 401,
                ("customer", _) => 403,
                ("admin", false) => 403,
                // past the guard: the admin's claim just before still holds the order
                ("super_admin", true) if path.ends_with("/claim") => 409,
                // past the guard: the order is not on hold
                ("super_admin", false) if path.ends_with("/hold/release") => 409,
                // past the guard: a release needs the reason its buyer is told
                (_, true) if path.ends_with("/release") && !path.ends_with("/hold/release") => 422,
                _ => {
                    if *method == Method::POST && path == "/api/admin/products" {
                        201
                    } else {
                        200
                    }
                }
            };
            assert_eq!(status.as_u16(), expected, "{method} {path} as {who}");
        }
    }
    // DELETE last: it changes what the other calls see
    for (who, client) in &clients {
        let status = client
            .delete(app.url(&format!("/api/admin/products/{id}")))
            .send()
            .await
            .unwrap()
            .status();
        let expected = match *who {
            "anonymous" => 401,
            "customer" | "admin" => 403,
            _ => 200,
        };
        assert_eq!(status.as_u16(), expected, "DELETE as {who}");
    }
    // the queue's deliver and refund, for admins too
    let admin = &clients[2].1;
    let claimed = post(
        &app,
        admin,
        &format!("/api/admin/orders/{order}/claim"),
        json!({}),
    )
    .await;
    assert_eq!(claimed.status(), 200, "this admin's own claim again");
    let delivered = post(
        &app,
        admin,
        &format!("/api/admin/orders/{order}/deliver"),
        json!({"proof_id": null}),
    )
    .await;
    assert_eq!(delivered.status(), 200);
    let refused = post(
        &app,
        &clients[1].1,
        &format!("/api/admin/orders/{order}/refund"),
        json!({}),
    )
    .await;
    assert_eq!(refused.status(), 403);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn products_are_created_with_png_jpeg_and_webp_pictures_and_edited(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let admin = app.client_with_role(Role::SuperAdmin).await;
    // 4:3 pictures of different sizes (equal pixels would share one content-hash file)
    for (name, format, filename, width) in [
        ("Png Owl", ImageFormat::Png, "owl.png", 640),
        ("Jpeg Owl", ImageFormat::Jpeg, "owl.jpg", 800),
        ("Webp Owl", ImageFormat::WebP, "owl.webp", 400),
    ] {
        let bytes = picture(width, width * 3 / 4, format);
        let response = create(
            &app,
            &admin,
            multipart(&owl_form(name, &[]), Some((filename, &bytes))),
        )
        .await;
        assert_eq!(response.status(), 201, "{name}");
        let product: Value = response.json().await.unwrap();
        assert_eq!(product["name"], name);
        assert_eq!(product["price"], 9.5);
        assert_eq!(product["stock"], 4);
        assert_eq!(product["inventory"], 4);
        assert_eq!(product["savings"], 12.0);
        assert_eq!(product["dupe_warning"], true);
        assert_eq!(product["archived"], false);
        let path = product["image"].as_str().unwrap();
        assert!(
            path.starts_with("/media/products/") && path.ends_with(".png"),
            "{path}"
        );
        let served = app.get(path).await;
        assert_eq!(served.status(), 200);
        let stored = image::load_from_memory(&served.bytes().await.unwrap()).unwrap();
        assert_eq!(
            (stored.width(), stored.height()),
            (300, 225),
            "{name} fits 300x300"
        );
    }
    // the storefront has them at once
    assert_eq!(app.products().await.len(), 3);
    assert_eq!(stored_pictures(&app).len(), 3);
    assert_eq!(
        stored_files(&app).len(),
        12,
        "each upload made its three webp copies"
    );

    // edit without a picture (POST + _method=PUT): the picture stays
    let first = admin_products(&app, &admin).await[0].clone();
    let id = first["id"].as_i64().unwrap();
    let response = send_form(
        &app,
        &admin,
        Method::POST,
        &format!("/api/admin/products/{id}"),
        multipart(
            &owl_form(
                "Renamed Owl",
                &[("_method", "PUT"), ("stock", ""), ("dupe_warning", "0")],
            ),
            None,
        ),
    )
    .await;
    assert_eq!(response.status(), 200);
    let edited: Value = response.json().await.unwrap();
    assert_eq!(edited["name"], "Renamed Owl");
    assert_eq!(edited["image"], first["image"]);
    assert_eq!(edited["stock"], Value::Null);
    assert_eq!(edited["inventory"], 0);
    assert_eq!(edited["dupe_warning"], false);
    assert!(app
        .products()
        .await
        .iter()
        .any(|p| p["name"] == "Renamed Owl"));

    // a new picture with a plain PUT replaces the old one, whose file goes
    let bytes = picture(100, 100, ImageFormat::Gif);
    let response = send_form(
        &app,
        &admin,
        Method::PUT,
        &format!("/api/admin/products/{id}"),
        multipart(&owl_form("Renamed Owl", &[]), Some(("owl.gif", &bytes))),
    )
    .await;
    assert_eq!(response.status(), 200);
    let replaced: Value = response.json().await.unwrap();
    assert_ne!(replaced["image"], first["image"]);
    assert_eq!(
        stored_pictures(&app).len(),
        3,
        "the old picture was removed"
    );
    assert_eq!(stored_files(&app).len(), 12, "with its webp copies");
    assert_eq!(
        app.get(first["image"].as_str().unwrap()).await.status(),
        404
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn bad_pictures_and_bad_fields_answer_422_and_store_nothing(#[case] backend: Backend) {
    // The pictures first: encoding the 100-megapixel one takes seconds, and a logged-in
    // connection left idle that long is closed by the server's keep-alive (a request racing
    // that close fails with IncompleteMessage).
    let huge = huge_png();
    let text = b"hello, I am a text file wearing a .png name\n".repeat(20);
    let six_mib = {
        let mut big = picture(64, 64, ImageFormat::Png);
        big.resize(6 * 1024 * 1024, 0);
        big
    };
    let truncated = {
        let mut png = picture(300, 300, ImageFormat::Png);
        png.truncate(png.len() / 2);
        png
    };
    let app = TestApp::spawn(backend).await;
    let admin = app.client_with_role(Role::SuperAdmin).await;
    let cases: [(&str, &[u8], &str); 4] = [
        (
            "text.png",
            &text,
            "The image must be a PNG, JPEG, WebP or GIF file.",
        ),
        (
            "big.png",
            &six_mib,
            "The image may be at most 5 MB and 40 megapixels.",
        ),
        (
            "huge.png",
            huge,
            "The image may be at most 5 MB and 40 megapixels.",
        ),
        (
            "cut.png",
            &truncated,
            "The image could not be read; the file may be damaged.",
        ),
    ];
    for (filename, bytes, message) in cases {
        let response = create(
            &app,
            &admin,
            multipart(&owl_form("Owl", &[]), Some((filename, bytes))),
        )
        .await;
        assert_eq!(response.status(), 422, "{filename}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["errors"]["image"][0], message, "{filename}");
    }

    // every bad field at once, each under its name
    let response = create(
        &app,
        &admin,
        multipart(
            &owl_form(
                "",
                &[
                    ("price", "free"),
                    ("stock", "-2"),
                    ("weight", "heavy"),
                    ("category", ""),
                    ("related_ids[]", "999"),
                ],
            ),
            Some(("text.png", &text)),
        ),
    )
    .await;
    assert_eq!(response.status(), 422);
    let body: Value = response.json().await.unwrap();
    for field in ["name", "price", "stock", "weight", "category", "image"] {
        assert!(body["errors"][field][0].is_string(), "{field}: {body}");
    }

    assert!(admin_products(&app, &admin).await.is_empty(), "no product");
    assert!(stored_pictures(&app).is_empty(), "no picture");
    assert!(app.products().await.is_empty());

    // not multipart at all: the API's error shape
    let response = post(&app, &admin, "/api/admin/products", json!({"name": "Owl"})).await;
    assert_eq!(response.status(), 415);
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body["message"],
        "The request body must be multipart/form-data."
    );
    assert!(body["errors"].is_object());
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn bundles_take_only_existing_plain_products(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let admin = app.client_with_role(Role::SuperAdmin).await;
    let owl = created(&app, &admin, &owl_form("Owl", &[])).await["id"]
        .as_i64()
        .unwrap();
    let bee = created(&app, &admin, &owl_form("Bee", &[])).await["id"]
        .as_i64()
        .unwrap();
    let (owl_s, bee_s) = (owl.to_string(), bee.to_string());
    let pack = created(
        &app,
        &admin,
        &[
            owl_form("Pack", &[]),
            vec![
                ("related_ids[]", owl_s.as_str()),
                ("related_ids[]", bee_s.as_str()),
            ],
        ]
        .concat(),
    )
    .await;
    assert_eq!(pack["related_ids"], json!([owl, bee]));
    let pack_id = pack["id"].as_i64().unwrap();
    let standalone: Value = admin
        .get(app.url("/api/admin/products/standalone"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(standalone, json!([pack_id]));

    let pack_s = pack_id.to_string();
    // (method, path, extra form fields, part of the message)
    type Refusal<'a> = (Method, String, Vec<(&'a str, &'a str)>, &'a str);
    let refusals: Vec<Refusal> = vec![
        (
            Method::POST,
            "/api/admin/products".into(),
            vec![("related_ids[]", pack_s.as_str())],
            "a bundle cannot contain bundles",
        ),
        (
            Method::POST,
            "/api/admin/products".into(),
            vec![("related_ids[]", "4242")],
            "Product 4242 does not exist.",
        ),
        (
            Method::PUT,
            format!("/api/admin/products/{pack_id}"),
            vec![("related_ids[]", pack_s.as_str())],
            "A bundle cannot contain itself.",
        ),
        (
            Method::PUT,
            format!("/api/admin/products/{owl}"),
            vec![("related_ids[]", bee_s.as_str())],
            "so it cannot be a bundle itself",
        ),
        (
            Method::POST,
            "/api/admin/products".into(),
            vec![("related_ids[]", "abc")],
            "\"abc\" is not a product id.",
        ),
    ];
    for (method, path, extra, message) in refusals {
        let fields = [owl_form("X", &[]), extra].concat();
        let response = send_form(
            &app,
            &admin,
            method.clone(),
            &path,
            multipart(&fields, None),
        )
        .await;
        assert_eq!(response.status(), 422, "{method} {path}");
        let body: Value = response.json().await.unwrap();
        let first = body["errors"]["related_ids"][0].as_str().unwrap();
        assert!(first.contains(message), "{first}");
    }
    assert_eq!(admin_products(&app, &admin).await.len(), 3);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn delete_archives_a_product_with_orders_and_deletes_one_without(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let admin = app.client_with_role(Role::SuperAdmin).await;
    let bytes = picture(50, 50, ImageFormat::Png);
    let response = create(
        &app,
        &admin,
        multipart(&owl_form("Unsold", &[]), Some(("a.png", &bytes))),
    )
    .await;
    let unsold: Value = response.json().await.unwrap();
    let sold = created(&app, &admin, &owl_form("Sold", &[])).await;
    let sold_id = sold["id"].as_i64().unwrap();
    seed_order(
        app.store.connection(),
        &SeedOrder::paid(sold_id, "Sold", 1, Utc::now()),
    )
    .await;

    let answer: Value = admin
        .delete(app.url(&format!("/api/admin/products/{sold_id}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        answer,
        json!({"message": "Product archived.", "archived": true})
    );
    let answer: Value = admin
        .delete(app.url(&format!("/api/admin/products/{}", unsold["id"])))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        answer,
        json!({"message": "Product deleted.", "archived": false})
    );

    let listed = admin_products(&app, &admin).await;
    assert_eq!(ids(&listed), vec![sold_id]);
    assert_eq!(listed[0]["archived"], true);
    assert!(
        app.products().await.is_empty(),
        "the storefront shows neither"
    );
    assert!(
        stored_files(&app).is_empty(),
        "the deleted product's picture went, with its webp copies"
    );
    let gone = admin
        .delete(app.url(&format!("/api/admin/products/{}", unsold["id"])))
        .send()
        .await
        .unwrap();
    assert_eq!(gone.status(), 404);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn reorder_persists_and_the_storefront_follows(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let admin = app.client_with_role(Role::SuperAdmin).await;
    let mut made = vec![];
    for (name, price) in [("A", "1"), ("B", "2"), ("C", "3")] {
        made.push(
            created(&app, &admin, &owl_form(name, &[("price", price)])).await["id"]
                .as_i64()
                .unwrap(),
        );
    }
    assert_eq!(ids(&app.products().await), made);
    let wanted = vec![made[2], made[0], made[1]];
    let updates: Vec<Value> = wanted
        .iter()
        .enumerate()
        .map(|(i, id)| json!({"id": id, "sort_order": i}))
        .collect();
    let response = post(
        &app,
        &admin,
        "/api/admin/products/reorder",
        json!({ "updates": updates }),
    )
    .await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.json::<Value>().await.unwrap()["message"],
        "Product order saved."
    );
    assert_eq!(
        ids(&app.products().await),
        wanted,
        "the storefront follows at once"
    );
    assert_eq!(ids(&admin_products(&app, &admin).await), wanted);

    let refused = post(
        &app,
        &admin,
        "/api/admin/products/reorder",
        json!({"updates": [{"id": made[0], "sort_order": 0}, {"id": 999, "sort_order": 1}]}),
    )
    .await;
    assert_eq!(refused.status(), 422);
    assert_eq!(ids(&app.products().await), wanted, "all or nothing");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn inventory_is_set_and_changed_never_below_zero(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let admin = Arc::new(app.client_with_role(Role::SuperAdmin).await);
    let id = created(&app, &admin, &owl_form("Owl", &[])).await["id"]
        .as_i64()
        .unwrap();

    let set = post(
        &app,
        &admin,
        &format!("/api/admin/products/{id}/inventory"),
        json!({"inventory": 12}),
    )
    .await;
    assert_eq!(set.status(), 200);
    let set: Value = set.json().await.unwrap();
    assert_eq!(
        (set["stock"].clone(), set["inventory"].clone()),
        (json!(12), json!(12))
    );
    for bad in [
        json!({"inventory": -1}),
        json!({"inventory": 1.5}),
        json!({"inventory": "x"}),
        json!({}),
    ] {
        let response = post(
            &app,
            &admin,
            &format!("/api/admin/products/{id}/inventory"),
            bad.clone(),
        )
        .await;
        assert_eq!(response.status(), 422, "{bad}");
        let body: Value = response.json().await.unwrap();
        assert!(body["errors"]["inventory"][0].is_string());
    }

    let app = Arc::new(app);
    let minus = (0..50).map(|_| {
        let (app, admin) = (app.clone(), admin.clone());
        tokio::spawn(async move {
            let response = post(
                &app,
                &admin,
                &format!("/api/admin/products/{id}/change"),
                json!({"type": "minus", "inventory": 1}),
            )
            .await;
            assert_eq!(response.status(), 200);
            let product: Value = response.json().await.unwrap();
            product["stock"].as_i64().unwrap()
        })
    });
    for stock in futures::future::join_all(minus).await {
        assert!(stock.unwrap() >= 0);
    }
    let owl = app.products().await;
    assert_eq!(owl[0]["stock"], 0, "the storefront sees 0");

    let plus: Value = post(
        &app,
        &admin,
        &format!("/api/admin/products/{id}/change"),
        json!({"type": "plus"}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(plus["inventory"], 1, "the amount defaults to 1");
    let bad = post(
        &app,
        &admin,
        &format!("/api/admin/products/{id}/change"),
        json!({"type": "sideways"}),
    )
    .await;
    assert_eq!(bad.status(), 422);
    let missing = post(
        &app,
        &admin,
        "/api/admin/products/999/change",
        json!({"type": "plus"}),
    )
    .await;
    assert_eq!(missing.status(), 404);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn sales_stats_count_paid_and_delivered_lines_by_day_week_and_month(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    let admin = app.client_with_role(Role::SuperAdmin).await;
    let owl = created(&app, &admin, &owl_form("Owl", &[])).await["id"]
        .as_i64()
        .unwrap();
    let bee = created(&app, &admin, &owl_form("Bee", &[])).await["id"]
        .as_i64()
        .unwrap();
    let now = Utc::now();
    let db = app.store.connection();
    // whole days back keep the time of day, so each lands on a known date
    for (product, name, qty, days_ago, status) in [
        (owl, "Owl", 2, 0, "paid"),
        (owl, "Owl", 1, 1, "delivered"),
        (bee, "Bee", 4, 10, "paid"),
        (owl, "Owl", 3, 40, "paid"),
        (owl, "Owl", 5, 200, "delivered"),
        (owl, "Owl", 50, 1, "refunded"),
        (owl, "Owl", 70, 2, "expired"),
    ] {
        seed_order(
            db,
            &SeedOrder {
                status,
                ..SeedOrder::paid(product, name, qty, now - Duration::days(days_ago))
            },
        )
        .await;
    }
    let response = admin
        .get(app.url("/api/admin/sales-stats"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let stats: Value = response.json().await.unwrap();
    let key = |days: i64| (now - Duration::days(days)).format("%Y-%m-%d").to_string();
    let daily = stats["daily"]["Owl"].as_object().unwrap();
    assert_eq!(daily.len(), 30, "every day present");
    assert_eq!(daily[&key(0)], 2);
    assert_eq!(daily[&key(1)], 1);
    assert_eq!(daily[&key(2)], 0);
    assert_eq!(stats["daily"]["Bee"][key(10)], 4);
    assert_eq!(stats["weekly"]["Owl"].as_object().unwrap().len(), 12);
    let weekly_owl: i64 = stats["weekly"]["Owl"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_i64().unwrap())
        .sum();
    assert_eq!(weekly_owl, 6, "the last 12 weeks: 2 + 1 + 3");
    let monthly = stats["monthly"]["Owl"].as_object().unwrap();
    assert_eq!(monthly.len(), 12);
    assert_eq!(
        monthly.values().map(|v| v.as_i64().unwrap()).sum::<i64>(),
        11
    );
    assert_eq!(stats["overall"], json!({"Owl": 11, "Bee": 4}));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn staff_work_the_delivery_queue_and_only_one_claim_wins(#[case] backend: Backend) {
    // the offline Roblox stand-in draws every buyer's avatar
    let app = TestApp::spawn_with(
        store::testing::TestDatabase::create(backend).await,
        crate::helpers::Options::demo_data(false),
        |settings| settings.roblox.users_api_base = String::new(),
    )
    .await;
    let ann = app.client_with_role(Role::Admin).await;
    let bob = app.client_with_role(Role::SuperAdmin).await;
    let db = app.store.connection();
    let now = Utc::now();
    let newer = seed_order(
        db,
        &SeedOrder::paid(7, "Raccoon", 2, now - Duration::minutes(5)),
    )
    .await;
    let older = seed_order(
        db,
        &SeedOrder::paid(8, "Kitsune", 1, now - Duration::minutes(42)),
    )
    .await;
    seed_order(
        db,
        &SeedOrder {
            status: "pending",
            paid_at: None,
            ..SeedOrder::paid(9, "X", 1, now)
        },
    )
    .await;

    let queue: Vec<Value> = ann
        .get(app.url("/api/admin/orders"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(ids(&queue), vec![older, newer], "paid ones, oldest first");
    let first = &queue[0];
    assert_eq!(first["status"], "paid");
    assert_eq!(first["status_label"], "Paid");
    assert_eq!(first["items"], json!([{"name": "Kitsune", "qty": 1}]));
    assert_eq!(first["roblox_username"], "Builderman");
    assert!(first["roblox_avatar_url"]
        .as_str()
        .unwrap()
        .contains("Builderman"));
    assert_eq!(first["discord_username"], "kid");
    assert_eq!(first["email"], "kid@example.com");
    assert!(first["minutes_waiting"].as_i64().unwrap() >= 42);
    assert_eq!(first["claimed_by"], Value::Null);
    assert_eq!(first["proof_id"], Value::Null);

    // both claim at once: exactly one wins, the other learns who has it
    let path = format!("/api/admin/orders/{older}/claim");
    let (a, b) = tokio::join!(
        post(&app, &ann, &path, json!({})),
        post(&app, &bob, &path, json!({}))
    );
    let mut statuses = [a.status(), b.status()];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT]);
    let (winner, loser_body): (&Client, Value) = if a.status() == 200 {
        let claimed: Value = a.json().await.unwrap();
        assert!(claimed["claimed_by"]["name"]
            .as_str()
            .unwrap()
            .starts_with("admin"));
        (&ann, b.json().await.unwrap())
    } else {
        (&bob, a.json().await.unwrap())
    };
    assert!(loser_body["message"]
        .as_str()
        .unwrap()
        .starts_with("Already claimed by "));
    let other = if std::ptr::eq(winner, &ann) {
        &bob
    } else {
        &ann
    };
    let refused = post(
        &app,
        other,
        &format!("/api/admin/orders/{older}/release"),
        json!({ "reason": "The buyer asked for later." }),
    )
    .await;
    assert_eq!(refused.status(), 409);
    let released: Value = post(
        &app,
        winner,
        &format!("/api/admin/orders/{older}/release"),
        json!({ "reason": "The buyer asked for later." }),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(released["claimed_by"], Value::Null);

    let reclaimed = post(
        &app,
        &ann,
        &format!("/api/admin/orders/{older}/claim"),
        json!({}),
    )
    .await;
    assert_eq!(reclaimed.status(), 200);
    let unknown_proof = post(
        &app,
        &ann,
        &format!("/api/admin/orders/{older}/deliver"),
        json!({"proof_id": 777}),
    )
    .await;
    assert_eq!(unknown_proof.status(), 422);
    // a proof_id that is no id is named, and nothing is delivered
    for not_an_id in [
        json!("3"),
        json!(0),
        json!(-2),
        json!(1.5),
        json!([3]),
        json!(true),
    ] {
        let refused = post(
            &app,
            &ann,
            &format!("/api/admin/orders/{older}/deliver"),
            json!({ "proof_id": not_an_id }),
        )
        .await;
        assert_eq!(refused.status(), 422, "{not_an_id}");
        let body: Value = refused.json().await.unwrap();
        assert_eq!(
            body["errors"]["proof_id"][0], "The proof must be a proof's id.",
            "{not_an_id}: {body}"
        );
    }
    let delivered = post(
        &app,
        &ann,
        &format!("/api/admin/orders/{older}/deliver"),
        json!({"proof_id": null}),
    )
    .await;
    assert_eq!(delivered.status(), 200);
    let delivered: Value = delivered.json().await.unwrap();
    assert_eq!(delivered["status"], "delivered");
    assert_eq!(delivered["status_label"], "Delivered");
    assert!(delivered["claimed_by"]["name"].is_string());
    let again = post(
        &app,
        &bob,
        &format!("/api/admin/orders/{older}/deliver"),
        json!({}),
    )
    .await;
    assert_eq!(again.status(), 409);

    let refunded: Value = post(
        &app,
        &bob,
        &format!("/api/admin/orders/{newer}/refund"),
        json!({}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(refunded["status"], "refunded");
    let list = |filter: &'static str| {
        let ann = ann.clone();
        let url = app.url(&format!("/api/admin/orders?filter={filter}"));
        async move {
            ann.get(url)
                .send()
                .await
                .unwrap()
                .json::<Vec<Value>>()
                .await
                .unwrap()
        }
    };
    assert!(list("paid").await.is_empty());
    assert_eq!(ids(&list("delivered").await), vec![older]);
    assert_eq!(list("all").await.len(), 2);
    let bad = ann
        .get(app.url("/api/admin/orders?filter=nope"))
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 422);
    let missing = post(&app, &ann, "/api/admin/orders/99999/claim", json!({})).await;
    assert_eq!(missing.status(), 404);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_stock_call_reads_numbers_or_digits_and_names_its_field_whatever_the_body(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    let admin = app.client_with_role(Role::SuperAdmin).await;
    let id = created(&app, &admin, &owl_form("Owl", &[])).await["id"]
        .as_i64()
        .unwrap();
    let (set, change) = (
        format!("/api/admin/products/{id}/inventory"),
        format!("/api/admin/products/{id}/change"),
    );
    let refused = [
        // a body that is not an object has no field
        (
            &set,
            json!([12]),
            "inventory",
            "The inventory field is required.",
        ),
        (
            &set,
            json!(12),
            "inventory",
            "The inventory field is required.",
        ),
        (
            &set,
            json!({"inventory": null}),
            "inventory",
            "The inventory field is required.",
        ),
        (
            &set,
            json!({"inventory": 12.0}),
            "inventory",
            "The inventory must be a whole number of 0 or more.",
        ),
        (
            &set,
            json!({"inventory": ""}),
            "inventory",
            "The inventory must be a whole number of 0 or more.",
        ),
        (
            &set,
            json!({"inventory": 1_000_001}),
            "inventory",
            "The inventory may be at most 1000000.",
        ),
        (
            &change,
            json!([]),
            "type",
            "The type must be plus or minus.",
        ),
        (
            &change,
            json!({"type": "Plus"}),
            "type",
            "The type must be plus or minus.",
        ),
        (
            &change,
            json!({"type": "plus", "inventory": 0}),
            "inventory",
            "The inventory must be a whole number of 1 or more.",
        ),
        (
            &change,
            json!({"type": 1, "inventory": "x"}),
            "inventory",
            "The inventory must be a whole number of 1 or more.",
        ),
    ];
    for (path, body, field, words) in refused {
        let response = post(&app, &admin, path, body.clone()).await;
        assert_eq!(response.status(), 422, "{body}");
        let answer: Value = response.json().await.unwrap();
        assert_eq!(
            answer,
            json!({"message": words, "code": "invalid_fields", "errors": {field: [words]}}),
            "{body}"
        );
    }
    let stock = |response: reqwest::Response| async move {
        assert_eq!(response.status(), 200);
        response.json::<Value>().await.unwrap()["stock"].clone()
    };
    assert_eq!(
        stock(post(&app, &admin, &set, json!({"inventory": " 7 "})).await).await,
        7
    );
    let plus_one = json!({"type": "plus", "inventory": null});
    assert_eq!(stock(post(&app, &admin, &change, plus_one).await).await, 8);
    let minus_two = json!({"type": "minus", "inventory": "2"});
    assert_eq!(stock(post(&app, &admin, &change, minus_two).await).await, 6);
}
