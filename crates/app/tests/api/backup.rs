//! `garden-shop backup` and `restore` on SQLite and PostgreSQL: a shop with orders, a chat,
//! product pictures and a proof is backed up while it runs, restored into a fresh database and
//! media directory, and the restored shop serves all of it; a shop is never overwritten
//! without `--force`.

use accounts::Role;
use clap::Parser;
use garden_app::{run_cli, Application, Cli, Settings};
use image::{ImageFormat, Rgba, RgbaImage};
use rstest::rstest;
use serde_json::{json, Value};
use store::testing::TestDatabase;
use store::Backend;

use crate::checkout_support::{browser, checkout, link_discord, payload};
use crate::helpers::{TestApp, TEST_PASSWORD};

async fn cli(args: &[&str], settings: &Settings) -> anyhow::Result<String> {
    let mut argv = vec!["garden-shop"];
    argv.extend_from_slice(args);
    let command = Cli::try_parse_from(argv).unwrap().command.unwrap();
    run_cli(command, settings.clone(), std::io::empty()).await
}

fn png() -> Vec<u8> {
    let img = RgbaImage::from_fn(40, 30, |x, y| Rgba([90, (x * 6) as u8, (y * 8) as u8, 255]));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, ImageFormat::Png).unwrap();
    out.into_inner()
}

async fn publish_proof(app: &TestApp, staff: &reqwest::Client) {
    const BOUNDARY: &str = "backup-test-boundary";
    let mut body = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"items\"\r\n\r\nRaccoon x1\r\n\
         --{BOUNDARY}\r\nContent-Disposition: form-data; name=\"images[]\"; filename=\"a.png\"\r\n\
         Content-Type: image/png\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(&png());
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    let response = staff
        .post(app.url("/api/proofs"))
        .header(
            "Content-Type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(body)
        .send()
        .await
        .unwrap();
    assert!(
        response.status().is_success(),
        "{}",
        response.text().await.unwrap()
    );
}

/// Row counts of the tables a backup must carry, read with a connection of its own.
async fn counts(url: &str) -> Vec<(&'static str, i64)> {
    use sea_orm::{ConnectionTrait, Statement};
    let db = store::connect(url, 1).await.unwrap();
    let mut out = Vec::new();
    for table in [
        "products",
        "users",
        "orders",
        "order_lines",
        "chats",
        "chat_messages",
        "proofs",
    ] {
        let row = db
            .query_one(Statement::from_string(
                db.get_database_backend(),
                format!("SELECT COUNT(*) FROM {table}"),
            ))
            .await
            .unwrap()
            .unwrap();
        out.push((table, row.try_get_by_index::<i64>(0).unwrap()));
    }
    db.close().await.unwrap();
    out
}

/// Every picture a page of the shop links to (product images, proof pictures).
fn pictures(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) if s.starts_with("/media/") => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| pictures(v, out)),
        Value::Object(map) => map.values().for_each(|v| pictures(v, out)),
        _ => {}
    }
}

async fn bytes(client: &reqwest::Client, url: String) -> Vec<u8> {
    let response = client.get(&url).send().await.unwrap();
    assert_eq!(response.status(), 200, "{url}");
    response.bytes().await.unwrap().to_vec()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_restored_into_a_fresh_shop_has_its_orders_chats_and_pictures(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn_with_demo(backend).await;
    app.create_user("boss@example.com", TEST_PASSWORD, Role::SuperAdmin)
        .await;
    let staff = app.new_client();
    app.login(&staff, "boss@example.com", TEST_PASSWORD).await;
    publish_proof(&app, &staff).await;

    // an order, paid
    let products = app.products().await;
    let product = products
        .iter()
        .find(|p| p["stock"].as_i64().is_some_and(|n| n > 0))
        .expect("a demo product in stock");
    let shopper = browser();
    link_discord(&app, &shopper, 0).await;
    let placed = checkout(
        &app,
        &shopper,
        &payload(
            &[(product["id"].as_i64().unwrap(), 1)],
            product["price"].as_f64().unwrap(),
        ),
    )
    .await;
    assert_eq!(placed.status(), 200);
    let order: Value = placed.json().await.unwrap();
    let order_id = order["order_id"].as_i64().unwrap();
    let paid = shopper
        .post(app.url(&format!("/dev/pay/{order_id}/pay")))
        .header("Origin", &app.address)
        .send()
        .await
        .unwrap();
    assert_eq!(paid.status(), 303);
    // a chat with the assistant
    let session = uuid::Uuid::new_v4().to_string();
    let chat: Value = app
        .post_json(
            &app.client,
            "/api/chat/start-ai",
            &json!({ "session_id": session }),
        )
        .await
        .json()
        .await
        .unwrap();
    let sent = app
        .post_json(
            &app.client,
            "/api/chat/send",
            &json!({ "session_id": session, "chat_id": chat["chat_id"], "message": "Do you sell raccoons?" }),
        )
        .await;
    assert_eq!(sent.status(), 200);

    let before = counts(&app.settings.database.url).await;
    let list_before = app.get_json("/api/products").await;
    let proofs_before = app.get_json("/api/proofs").await;
    let mut linked = Vec::new();
    pictures(&list_before, &mut linked);
    pictures(&proofs_before, &mut linked);
    assert!(
        linked.iter().any(|p| p.starts_with("/media/products/")),
        "{linked:?}"
    );
    assert!(
        linked.iter().any(|p| p.starts_with("/media/proofs/")),
        "{linked:?}"
    );

    // the backup, while the shop runs
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("backup");
    let report = cli(&["backup", target.to_str().unwrap()], &app.settings)
        .await
        .unwrap();
    assert!(report.contains("media:"), "{report}");
    assert!(target.join("backup.json").is_file());
    let database_file = match backend {
        Backend::Sqlite => "shop.db",
        Backend::Postgres => "shop.pgdump",
    };
    assert!(target.join(database_file).is_file(), "{report}");
    assert!(
        cli(&["backup", target.to_str().unwrap()], &app.settings)
            .await
            .is_err(),
        "a backup never writes into a directory with files"
    );

    // never over a shop without --force
    let mut over_the_shop = app.settings.clone();
    over_the_shop.media.root = dir.path().join("empty-media");
    let refused = cli(&["restore", target.to_str().unwrap()], &over_the_shop)
        .await
        .unwrap_err();
    assert!(
        format!("{refused:#}").contains("already holds a shop"),
        "{refused:#}"
    );

    // into a fresh database and media directory
    let fresh = TestDatabase::create(backend).await;
    fresh.connection.clone().close().await.unwrap();
    let mut settings = app.settings.clone();
    settings.database.url = fresh.url.clone();
    settings.media.root = dir.path().join("restored-media");
    settings.seed.demo_data = false;
    let report = cli(&["restore", target.to_str().unwrap()], &settings)
        .await
        .unwrap();
    assert!(report.contains("Restored"), "{report}");
    let again = cli(&["restore", target.to_str().unwrap()], &settings)
        .await
        .unwrap_err();
    assert!(format!("{again:#}").contains("--force"), "{again:#}");
    cli(&["restore", target.to_str().unwrap(), "--force"], &settings)
        .await
        .unwrap();

    assert_eq!(counts(&settings.database.url).await, before);
    let restored = Application::build(settings).await.unwrap();
    let address = format!("http://127.0.0.1:{}", restored.port());
    tokio::spawn(restored.run_until_stopped());
    let client = reqwest::Client::new();
    let list_after: Value = client
        .get(format!("{address}/api/products"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(list_after, list_before);
    let proofs_after: Value = client
        .get(format!("{address}/api/proofs"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(proofs_after, proofs_before);
    for picture in &linked {
        assert_eq!(
            bytes(&client, format!("{address}{picture}")).await,
            bytes(&app.client, app.url(picture)).await,
            "{picture}"
        );
    }
    // the staff account and the paid order came along
    let boss = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .unwrap();
    let login = boss
        .post(format!("{address}/api/login"))
        .json(&json!({ "email": "boss@example.com", "password": TEST_PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), 200);
    let queue: Value = boss
        .get(format!("{address}/api/admin/orders"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(
        queue.to_string().contains(&format!("\"id\":{order_id}")),
        "{queue}"
    );
}

/// The modes of `dir` and everything under it, as (path relative to `dir`, mode bits).
fn modes(dir: &std::path::Path) -> Vec<(String, u32)> {
    use std::os::unix::fs::PermissionsExt;
    let mut out = vec![(
        ".".to_owned(),
        std::fs::metadata(dir).unwrap().permissions().mode() & 0o777,
    )];
    let mut pending = vec![dir.to_path_buf()];
    while let Some(next) = pending.pop() {
        for entry in std::fs::read_dir(&next).unwrap() {
            let entry = entry.unwrap();
            let mode = entry.metadata().unwrap().permissions().mode() & 0o777;
            let name = entry
                .path()
                .strip_prefix(dir)
                .unwrap()
                .display()
                .to_string();
            if entry.file_type().unwrap().is_dir() {
                pending.push(entry.path());
            }
            out.push((name, mode));
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_is_owner_only_and_restore_refuses_one_others_can_read_unless_forced() {
    use std::os::unix::fs::PermissionsExt;
    let app = TestApp::spawn_with_demo(Backend::Sqlite).await;
    // the media directory's pictures are readable by everyone, as a web server wants them
    let picture = app.settings.media.root.join("products/open.png");
    std::fs::create_dir_all(picture.parent().unwrap()).unwrap();
    std::fs::write(&picture, png()).unwrap();
    std::fs::set_permissions(&picture, std::fs::Permissions::from_mode(0o644)).unwrap();

    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let target = dir.path().join("nightly");
    cli(&["backup", target.to_str().unwrap()], &app.settings)
        .await
        .unwrap();
    let written = modes(&target);
    assert!(
        written.iter().any(|(path, _)| path == "shop.db")
            && written
                .iter()
                .any(|(path, _)| path == "media/products/open.png"),
        "{written:?}"
    );
    for (path, mode) in &written {
        let is_dir = target.join(path).is_dir();
        assert_eq!(
            *mode,
            if is_dir { 0o700 } else { 0o600 },
            "{path} is {mode:o}"
        );
    }

    // a copy someone left readable by everyone is refused, naming the file and the way out
    let fresh = TestDatabase::create(Backend::Sqlite).await;
    fresh.connection.clone().close().await.unwrap();
    let mut settings = app.settings.clone();
    settings.database.url = fresh.url.clone();
    settings.media.root = dir.path().join("restored-media");
    settings.seed.demo_data = false;
    let database = target.join("shop.db");
    std::fs::set_permissions(&database, std::fs::Permissions::from_mode(0o644)).unwrap();
    let refused = cli(&["restore", target.to_str().unwrap()], &settings)
        .await
        .unwrap_err();
    let message = format!("{refused:#}");
    assert!(
        message.contains(database.to_str().unwrap())
            && message.contains("others")
            && message.contains("--force"),
        "{message}"
    );
    assert!(
        !settings.media.root.exists(),
        "nothing restored before the refusal"
    );
    // so is a directory others may enter
    std::fs::set_permissions(&database, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755)).unwrap();
    let refused = cli(&["restore", target.to_str().unwrap()], &settings)
        .await
        .unwrap_err();
    assert!(
        format!("{refused:#}").contains(&format!("{} can be read", target.display())),
        "{refused:#}"
    );
    // --force restores it anyway
    let report = cli(&["restore", target.to_str().unwrap(), "--force"], &settings)
        .await
        .unwrap();
    assert!(report.contains("Restored"), "{report}");
}
