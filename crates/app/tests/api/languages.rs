//! The server's words in the request's language (the `lang` cookie, else `Accept-Language`,
//! else English): real errors of the API in every language the shop speaks, and the order that
//! keeps the language it was placed in.

use reqwest::header::{HeaderMap, HeaderValue, ACCEPT_LANGUAGE, COOKIE};
use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;

use crate::checkout_support::*;
use crate::helpers::TestApp;

/// A browser (cookies kept, no redirects) whose `Accept-Language` is `accept`.
fn browser_in(accept: &str) -> reqwest::Client {
    let mut headers = HeaderMap::new();
    headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_str(accept).unwrap());
    reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .default_headers(headers)
        .build()
        .unwrap()
}

/// Each language by the `Accept-Language` a browser of it sends, with the words expected.
const NOT_FOUND: [(&str, &str); 5] = [
    ("en-US,en;q=0.9", "Product not found."),
    ("es-MX,es;q=0.9", "Producto no encontrado."),
    ("pt-BR,pt;q=0.9", "Produto não encontrado."),
    ("fr-FR,fr;q=0.9", "Produit introuvable."),
    ("de-DE,de;q=0.9", "Produkt nicht gefunden."),
];

#[tokio::test]
async fn an_unknown_product_s_404_is_in_the_browser_s_language() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for (accept, expected) in NOT_FOUND {
        for path in ["/api/products/999", "/api/products/abc"] {
            let response = browser_in(accept).get(app.url(path)).send().await.unwrap();
            assert_eq!(response.status(), 404, "{accept} {path}");
            let body: Value = response.json().await.unwrap();
            assert_eq!(body["message"], expected, "{accept} {path}");
            assert_eq!(body["code"], "not_found");
        }
    }
}

#[tokio::test]
async fn the_lang_cookie_wins_over_the_browser_and_english_is_the_fallback() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let chosen = reqwest::Client::new()
        .get(app.url("/api/products/999"))
        .header(ACCEPT_LANGUAGE, "de")
        .header(COOKIE, "lang=pt-BR")
        .send()
        .await
        .unwrap();
    let body: Value = chosen.json().await.unwrap();
    assert_eq!(body["message"], "Produto não encontrado.");
    let unknown = browser_in("ja,it;q=0.8")
        .get(app.url("/api/products/999"))
        .send()
        .await
        .unwrap();
    let body: Value = unknown.json().await.unwrap();
    assert_eq!(body["message"], "Product not found.");
}

#[tokio::test]
async fn a_422_s_field_messages_are_in_the_request_s_language() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let expected = [
        ("en", "The password field is required."),
        ("es", "El campo password es obligatorio."),
        ("pt-BR", "O campo password é obrigatório."),
        ("fr", "Le champ password est obligatoire."),
        ("de", "Das Feld password ist erforderlich."),
    ];
    for (code, words) in expected {
        let response = reqwest::Client::new()
            .post(app.url("/api/login"))
            .header(COOKIE, format!("lang={code}"))
            .json(&json!({"email": "ann@example.com"}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 422, "{code}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["message"], words, "{code}");
        assert_eq!(body["errors"]["password"], json!([words]), "{code}");
        assert_eq!(body["code"], "invalid_fields");
    }
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn checkout_s_409s_are_in_the_shopper_s_language(#[case] backend: Backend) {
    let app = shop(
        backend,
        vec![
            (1, product("Raccoon", "10.00", Some(2))),
            (2, product("T-Rex", "5.00", Some(0))),
        ],
    )
    .await;
    let client = browser_in("fr-CA,fr;q=0.9,en;q=0.5");
    link_discord(&app, &client, 0).await;

    let response = checkout(&app, &client, &payload(&[(1, 1)], 9.98)).await;
    assert_eq!(response.status(), 409);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], "cart_changed");
    assert_eq!(
        body["message"],
        "Les prix ont changé. Veuillez vérifier votre commande."
    );
    assert_eq!(body["cart"]["total"], 10.0);

    let response = checkout(&app, &client, &payload(&[(1, 3), (2, 1)], 35.0)).await;
    assert_eq!(response.status(), 409);
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body["message"],
        "Veuillez corriger les points suivants avant de continuer :"
    );
    assert_eq!(
        body["problems"],
        json!([
            "- Raccoon n'a que 2 en stock, mais vous en avez choisi 3.",
            "- T-Rex est en rupture de stock."
        ])
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_order_keeps_the_language_it_was_placed_in(#[case] backend: Backend) {
    let app = shop(backend, vec![(1, product("Raccoon", "10.00", Some(5)))]).await;
    let client = browser_in("pt-BR");
    link_discord(&app, &client, 0).await;
    let response = checkout(&app, &client, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(response.status(), 200);
    let placed: Value = response.json().await.unwrap();
    let (id, key) = (&placed["order_id"], placed["order_key"].as_str().unwrap());

    // opened by anyone, in any language: the order still says where it came from
    let page = browser_in("de")
        .get(app.url(&format!("/api/orders/{id}?key={key}")))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    let body: Value = page.json().await.unwrap();
    assert_eq!(body["language"], "pt-BR");
}
