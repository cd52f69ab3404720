use rstest::rstest;
use store::Backend;

use crate::helpers::TestApp;

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn product_images_are_pngs_cached_for_a_year(#[case] backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let products = app.products().await;
    let image = products[0]["image"].as_str().unwrap();

    let response = app.get(image).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "image/png");
    assert_eq!(
        response.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    let bytes = response.bytes().await.unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[tokio::test]
async fn media_paths_cannot_reach_other_files(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    // The frontend's directory is a sibling of the media root: a way out would reach it.
    let sibling = app
        .static_dir
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    for path in [
        "/media/products/missing.png".to_owned(),
        format!("/media/..%2F{sibling}%2Findex.html"),
        format!("/media/products/..%2F..%2F{sibling}%2Findex.html"),
    ] {
        let response = app.get(&path).await;
        assert_eq!(response.status(), 404, "{path}");
        let body = response.text().await.unwrap();
        assert!(!body.contains("<title>"), "{path} leaked a file");
    }
}
