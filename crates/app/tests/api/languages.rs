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

/// The text after `marker` up to the end of its line.
fn after<'a>(eml: &'a str, marker: &str) -> &'a str {
    let at = eml
        .find(marker)
        .unwrap_or_else(|| panic!("{marker:?} in\n{eml}"))
        + marker.len();
    eml[at..].lines().next().unwrap_or_default()
}

async fn profile_language(app: &TestApp, client: &reqwest::Client) -> Value {
    let profile: Value = client
        .get(app.url("/api/profile"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    profile["user"]["language"].clone()
}

async fn choose_language(
    app: &TestApp,
    client: &reqwest::Client,
    body: Value,
) -> reqwest::Response {
    client
        .patch(app.url("/api/profile"))
        .json(&body)
        .send()
        .await
        .unwrap()
}

/// A Brazilian registers: the code mail is in Portuguese, the account keeps `pt-BR`, and its
/// reset mail stays Portuguese whoever asks for it; the profile changes the language to German
/// (the next mail is German) and refuses one the shop does not offer.
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_account_keeps_the_language_it_registered_in_and_its_mail_follows_it(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    let brazilian = browser_in("pt-BR,pt;q=0.9");
    let form = json!({
        "name": "Ana",
        "email": "ana@example.com",
        "password": "correct horse",
        "password_confirmation": "correct horse",
    });
    let sent = app
        .post_json(&brazilian, "/api/send-verification-code", &form)
        .await;
    assert_eq!(sent.status(), 200);
    let sent: Value = sent.json().await.unwrap();
    assert_eq!(
        sent["message"],
        "Enviamos um código de 6 dígitos para ana@example.com."
    );
    let mails = app.wait_for_outbox(1).await;
    assert!(mails[0].contains("Olá, Ana!"), "{}", mails[0]);
    let code = after(&mails[0], "Seu código de verificação da Garden Shop é ")[..6].to_owned();
    let mut verify = form.clone();
    verify["code"] = json!(code);
    let verified = app.post_json(&brazilian, "/api/verify-code", &verify).await;
    assert_eq!(verified.status(), 200);
    let verified: Value = verified.json().await.unwrap();
    assert_eq!(verified["message"], "Verificado e conectado!");
    assert_eq!(profile_language(&app, &brazilian).await, "pt-BR");

    let german = browser_in("de-DE,de;q=0.9");
    let asked = app
        .post_json(
            &german,
            "/api/forgot-password",
            &json!({"email": "ana@example.com"}),
        )
        .await;
    assert_eq!(asked.status(), 200);
    let mails = app.wait_for_outbox(2).await;
    assert!(
        mails[1].contains("Subject: Redefina sua senha da Garden Shop"),
        "{}",
        mails[1]
    );
    assert!(
        mails[1].contains("Alguém pediu para redefinir a senha"),
        "{}",
        mails[1]
    );

    let changed = choose_language(&app, &brazilian, json!({"language": "de"})).await;
    assert_eq!(changed.status(), 200);
    assert_eq!(
        changed.json::<Value>().await.unwrap(),
        json!({"language": "de"})
    );
    assert_eq!(profile_language(&app, &brazilian).await, "de");
    app.clock.advance(std::time::Duration::from_secs(61));
    let english = browser_in("en-US,en;q=0.9");
    app.post_json(
        &english,
        "/api/forgot-password",
        &json!({"email": "ana@example.com"}),
    )
    .await;
    let mails = app.wait_for_outbox(3).await;
    assert!(mails[2].contains("Hallo Ana,"), "{}", mails[2]);
    assert!(mails[2].contains("Öffne diesen Link"), "{}", mails[2]);

    for refused in [
        json!({"language": "ja"}),
        json!({"language": "pt"}),
        json!({"language": ""}),
    ] {
        let response = choose_language(&app, &brazilian, refused.clone()).await;
        assert_eq!(response.status(), 422, "{refused}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], "invalid_fields");
        assert_eq!(
            body["errors"]["language"],
            json!(["Escolha um dos idiomas que a loja oferece: en, es, pt-BR, fr ou de."]),
            "in the request's language: {body}"
        );
    }
    assert_eq!(
        profile_language(&app, &brazilian).await,
        "de",
        "nothing changed"
    );
    let nobody = choose_language(&app, &browser_in("en"), json!({"language": "fr"})).await;
    assert_eq!(nobody.status(), 401);
}

/// Accounts made before languages (or by staff on the command line) have none: the profile
/// says null and their mail is in the asking request's language.
#[tokio::test]
async fn an_account_without_a_language_gets_mail_in_the_request_s_language() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let client = app.client_with_role(accounts::Role::Customer).await;
    assert_eq!(profile_language(&app, &client).await, Value::Null);
    let email: Value = client
        .get(app.url("/api/me"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let french = browser_in("fr-FR,fr;q=0.9");
    app.post_json(
        &french,
        "/api/forgot-password",
        &json!({"email": email["email"]}),
    )
    .await;
    let mails = app.wait_for_outbox(1).await;
    assert!(
        mails[0].contains("Ouvrez ce lien pour en choisir un nouveau"),
        "{}",
        mails[0]
    );
}

/// The chat keeps the language it was started in: the agent's joining is told in Portuguese
/// to a Brazilian shopper, whichever language the member of staff's browser speaks.
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_chat_tells_the_agent_s_joining_in_the_language_it_was_started_in(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    let brazilian = browser_in("pt-BR,pt;q=0.9");
    let session = uuid::Uuid::new_v4().to_string();
    let started = app
        .post_json(
            &brazilian,
            "/api/chat/start-ai",
            &json!({ "session_id": session }),
        )
        .await;
    assert_eq!(started.status(), 200);
    let started: Value = started.json().await.unwrap();
    let chat = started["chat_id"].as_str().unwrap().to_owned();
    let live = app
        .post_json(
            &brazilian,
            "/api/chat/start-live",
            &json!({ "session_id": session, "chat_id": chat }),
        )
        .await;
    assert_eq!(live.status(), 200);
    let admin = app.client_with_role(accounts::Role::Admin).await;
    let accepted = admin
        .post(app.url(&format!("/api/admin/chats/{chat}/accept")))
        .header(ACCEPT_LANGUAGE, "de-DE,de;q=0.9")
        .send()
        .await
        .unwrap();
    assert_eq!(accepted.status(), 200);
    let history: Value = brazilian
        .get(app.url(&format!(
            "/api/chat/history?chat_id={chat}&session_id={session}"
        )))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let texts: Vec<&str> = history["chat"]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["message"].as_str().unwrap())
        .collect();
    assert!(
        texts.contains(&"Agora você está falando com uma pessoa da nossa equipe."),
        "{texts:?}"
    );
    assert!(
        !texts.contains(&"You are now connected to a live agent."),
        "{texts:?}"
    );
}
