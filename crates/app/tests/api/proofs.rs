//! Proofs of delivery over HTTP: the public list, publishing with 1..10 checked pictures,
//! deleting with the pictures no proof uses any more.

use std::path::PathBuf;

use accounts::Role;
use image::{ImageFormat, Rgba, RgbaImage};
use rstest::rstest;
use serde_json::Value;
use store::Backend;

use crate::helpers::TestApp;

pub(crate) fn picture(width: u32, height: u32, shade: u8, format: ImageFormat) -> Vec<u8> {
    let img = RgbaImage::from_fn(width, height, |x, y| {
        Rgba([shade, (x % 256) as u8, (y % 256) as u8, 255])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    if format == ImageFormat::Jpeg {
        image::DynamicImage::ImageRgba8(img)
            .to_rgb8()
            .write_to(&mut out, format)
            .unwrap();
    } else {
        img.write_to(&mut out, format).unwrap();
    }
    out.into_inner()
}

const BOUNDARY: &str = "garden-shop-test-boundary-7f3a";

/// A multipart/form-data body: text fields, then files.
fn multipart(items: Option<&str>, files: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut body = Vec::new();
    if let Some(items) = items {
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"items\"\r\n\r\n{items}\r\n"
            )
            .as_bytes(),
        );
    }
    for (index, (name, bytes)) in files.iter().enumerate() {
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"images[]\"; \
                 filename=\"{index}-{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    body
}

pub(crate) async fn publish(
    app: &TestApp,
    client: &reqwest::Client,
    items: Option<&str>,
    files: &[(&str, Vec<u8>)],
) -> reqwest::Response {
    client
        .post(app.url("/api/proofs"))
        .header(
            "Content-Type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(multipart(items, files))
        .send()
        .await
        .unwrap()
}

/// Makes every stored picture look an hour old.
fn age_pictures(app: &TestApp) {
    let an_hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for path in stored_pictures(app) {
        std::fs::File::options()
            .append(true)
            .open(&path)
            .unwrap()
            .set_modified(an_hour_ago)
            .unwrap();
    }
}

fn stored_pictures(app: &TestApp) -> Vec<PathBuf> {
    let dir = app.settings.media.root.join("proofs");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return vec![];
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    files.sort();
    files
}

async fn proofs(app: &TestApp) -> Vec<Value> {
    app.get_json("/api/proofs")
        .await
        .as_array()
        .unwrap()
        .clone()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn staff_publish_a_proof_with_two_pictures_and_everyone_sees_it_newest_first(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    let admin = app.client_with_role(Role::Admin).await;
    assert!(proofs(&app).await.is_empty());

    let big = picture(2400, 1200, 10, ImageFormat::Png);
    let photo = picture(640, 480, 200, ImageFormat::Jpeg);
    let response = publish(
        &app,
        &admin,
        Some("  2x Raccoon, 1 Kitsune "),
        &[("big.png", big), ("photo.jpg", photo)],
    )
    .await;
    assert_eq!(response.status(), 201);
    let first: Value = response.json().await.unwrap();
    assert_eq!(first["items"], "2x Raccoon, 1 Kitsune");
    let images: Vec<String> = first["images"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(images.len(), 2);
    for url in &images {
        assert!(
            url.starts_with("/media/proofs/") && url.ends_with(".png"),
            "{url}"
        );
        let served = app.get(url).await;
        assert_eq!(served.status(), 200);
        assert_eq!(served.headers()["content-type"], "image/png");
    }
    let shrunk =
        image::load_from_memory(&app.get(&images[0]).await.bytes().await.unwrap()).unwrap();
    assert_eq!(
        (shrunk.width(), shrunk.height()),
        (1600, 800),
        "larger side 1600"
    );
    assert_eq!(stored_pictures(&app).len(), 2);

    let super_admin = app.client_with_role(Role::SuperAdmin).await;
    let second = publish(
        &app,
        &super_admin,
        Some("Disco Bee"),
        &[("bee.gif", picture(30, 30, 90, ImageFormat::Gif))],
    )
    .await;
    assert_eq!(second.status(), 201);
    let second: Value = second.json().await.unwrap();

    let listed = proofs(&app).await;
    assert_eq!(listed.len(), 2);
    assert_eq!(listed[0]["id"], second["id"], "newest first");
    assert_eq!(listed[1]["id"], first["id"]);
    assert_eq!(listed[1]["images"], first["images"]);
    assert!(listed[0]["created_at"].is_string());
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_bad_picture_or_too_many_store_nothing(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let admin = app.client_with_role(Role::Admin).await;
    let good = picture(50, 50, 1, ImageFormat::Png);

    let text = publish(
        &app,
        &admin,
        Some("Raccoon"),
        &[
            ("good.png", good.clone()),
            ("notes.png", b"this is just a text file".to_vec()),
        ],
    )
    .await;
    assert_eq!(text.status(), 422);
    let body: Value = text.json().await.unwrap();
    assert_eq!(
        body["errors"]["images"][0],
        "Image 2: Only PNG, JPEG, WebP and GIF images are accepted."
    );
    assert!(proofs(&app).await.is_empty());
    assert!(stored_pictures(&app).is_empty(), "not even the good one");

    let eleven: Vec<(&str, Vec<u8>)> = (0..11u8)
        .map(|i| ("p.png", picture(8, 8, i, ImageFormat::Png)))
        .collect();
    let too_many = publish(&app, &admin, Some("Raccoon"), &eleven).await;
    assert_eq!(too_many.status(), 422);
    let body: Value = too_many.json().await.unwrap();
    assert_eq!(
        body["errors"]["images"][0],
        "A proof may have at most 10 images."
    );

    let ten = publish(&app, &admin, Some("Raccoon"), &eleven[..10]).await;
    assert_eq!(ten.status(), 201, "ten is the most");
    let ten: Value = ten.json().await.unwrap();
    assert_eq!(ten["images"].as_array().unwrap().len(), 10);

    let oversized = {
        let mut bytes = picture(8, 8, 3, ImageFormat::Png);
        bytes.resize(5 * 1024 * 1024 + 1, 0);
        bytes
    };
    let big = publish(&app, &admin, Some("Raccoon"), &[("big.png", oversized)]).await;
    assert_eq!(big.status(), 422);
    let body: Value = big.json().await.unwrap();
    assert!(body["errors"]["images"][0]
        .as_str()
        .unwrap()
        .contains("5 MB"));

    let nothing = publish(&app, &admin, Some("   "), &[]).await;
    assert_eq!(nothing.status(), 422);
    let body: Value = nothing.json().await.unwrap();
    assert_eq!(
        body["errors"]["items"][0],
        "Please provide items and at least one image."
    );
    assert_eq!(
        body["errors"]["images"][0],
        "Please provide items and at least one image."
    );

    let not_multipart = admin
        .post(app.url("/api/proofs"))
        .json(&serde_json::json!({ "items": "Raccoon" }))
        .send()
        .await
        .unwrap();
    assert_eq!(not_multipart.status(), 415);
    let body: Value = not_multipart.json().await.unwrap();
    assert!(body["message"].as_str().unwrap().contains("multipart"));
    assert!(body["errors"].is_object());

    assert_eq!(
        proofs(&app).await.len(),
        1,
        "only the proof with ten pictures"
    );
    assert_eq!(stored_pictures(&app).len(), 10);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn only_staff_publish_and_delete(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let files = [("a.png", picture(8, 8, 1, ImageFormat::Png))];
    let guest = publish(&app, &app.new_client(), Some("Raccoon"), &files).await;
    assert_eq!(guest.status(), 401);
    let customer = app.client_with_role(Role::Customer).await;
    let refused = publish(&app, &customer, Some("Raccoon"), &files).await;
    assert_eq!(refused.status(), 403);
    assert!(stored_pictures(&app).is_empty());

    let admin = app.client_with_role(Role::Admin).await;
    let proof: Value = publish(&app, &admin, Some("Raccoon"), &files)
        .await
        .json()
        .await
        .unwrap();
    let path = format!("/api/proofs/{}", proof["id"]);
    let guest = app
        .new_client()
        .delete(app.url(&path))
        .send()
        .await
        .unwrap();
    assert_eq!(guest.status(), 401);
    let customer = customer.delete(app.url(&path)).send().await.unwrap();
    assert_eq!(customer.status(), 403);
    assert_eq!(proofs(&app).await.len(), 1);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn deleting_a_proof_removes_the_pictures_no_other_proof_uses(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let admin = app.client_with_role(Role::Admin).await;
    let shared = picture(20, 20, 7, ImageFormat::Png);
    let own = picture(20, 20, 8, ImageFormat::Png);
    let first: Value = publish(
        &app,
        &admin,
        Some("Raccoon"),
        &[("own.png", own), ("shared.png", shared.clone())],
    )
    .await
    .json()
    .await
    .unwrap();
    let second: Value = publish(&app, &admin, Some("Kitsune"), &[("shared.png", shared)])
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        first["images"][1], second["images"][0],
        "same picture, same file"
    );
    assert_eq!(stored_pictures(&app).len(), 2);

    // freshly saved pictures are spared by a clean-up (an upload in flight on any instance may
    // be about to use them): a proof deleted at once keeps its files until a later clean-up
    let quick: Value = publish(
        &app,
        &admin,
        Some("Bee"),
        &[("bee.png", picture(12, 12, 99, ImageFormat::Png))],
    )
    .await
    .json()
    .await
    .unwrap();
    let deleted = admin
        .delete(app.url(&format!("/api/proofs/{}", quick["id"])))
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 200);
    assert_eq!(stored_pictures(&app).len(), 3, "spared while fresh");
    // from here on the pictures were uploaded an hour ago
    age_pictures(&app);

    let deleted = admin
        .delete(app.url(&format!("/api/proofs/{}", first["id"])))
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 200);
    assert_eq!(
        deleted.json::<Value>().await.unwrap()["message"],
        "Proof deleted."
    );
    assert_eq!(stored_pictures(&app).len(), 1, "the shared picture stays");
    let own_url = first["images"][0].as_str().unwrap();
    assert_eq!(app.get(own_url).await.status(), 404);
    let shared_url = second["images"][0].as_str().unwrap();
    assert_eq!(app.get(shared_url).await.status(), 200);

    let deleted = admin
        .delete(app.url(&format!("/api/proofs/{}", second["id"])))
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 200);
    assert!(stored_pictures(&app).is_empty());
    assert!(proofs(&app).await.is_empty());

    let again = admin
        .delete(app.url(&format!("/api/proofs/{}", second["id"])))
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 404);
    assert_eq!(
        again.json::<Value>().await.unwrap()["message"],
        "Proof not found."
    );
}
