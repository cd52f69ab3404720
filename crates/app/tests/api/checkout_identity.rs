//! Discord linking, Roblox lookups, promo codes and PayPal through the app, against the local
//! stand-ins and against fake Discord, Roblox and PayPal servers; SQLite and PostgreSQL.

use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::checkout_support::*;
use crate::helpers::TestApp;

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_dev_sign_in_links_an_identity_kept_in_the_session(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let client = browser();
    let none: Value = client
        .get(app.url("/api/discord/identity"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(none, json!({ "identity": null }));

    let response = client
        .get(app.url("/api/discord/authorize"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 302);
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    let page = client.get(app.url(&location)).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains("action=\"/discord/callback\""));
    assert!(html.contains("Continue as gardenfan"));
    assert!(html.contains(&format!("value=\"{}\"", state_of(&location))));

    // a state that is not this session's: 422, nothing linked
    let wrong = app
        .post_json(
            &client,
            "/api/discord-auth",
            &json!({ "code": "dev-100000000000000001", "state": "forged" }),
        )
        .await;
    assert_eq!(wrong.status(), 422);
    // the state is single use: the real one no longer works either
    let reused = app
        .post_json(
            &client,
            "/api/discord-auth",
            &json!({ "code": "dev-100000000000000001", "state": state_of(&location) }),
        )
        .await;
    assert_eq!(reused.status(), 422);

    let linked = link_discord(&app, &client, 0).await;
    assert_eq!(
        linked,
        json!({ "discord_id": "100000000000000001", "username": "gardenfan", "avatar": null })
    );
    let identity: Value = client
        .get(app.url("/api/discord/identity"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(identity["identity"], linked);

    let unlinked = client
        .delete(app.url("/api/discord/identity"))
        .send()
        .await
        .unwrap();
    assert_eq!(unlinked.status(), 200);
    assert_eq!(
        unlinked.json::<Value>().await.unwrap(),
        json!({ "message": "Discord unlinked." })
    );
    let identity: Value = client
        .get(app.url("/api/discord/identity"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(identity, json!({ "identity": null }));
}

async fn fake_discord(user: Value, token_status: u16) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/oauth2/token"))
        .respond_with(if token_status == 200 {
            ResponseTemplate::new(200).set_body_json(json!({
                "access_token": "user-access-token", "token_type": "Bearer",
                "expires_in": 604800, "refresh_token": "r", "scope": "identify guilds.join"
            }))
        } else {
            ResponseTemplate::new(token_status).set_body_json(json!({"error": "server_error"}))
        })
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/users/@me"))
        .respond_with(ResponseTemplate::new(200).set_body_json(user))
        .mount(&server)
        .await;
    server
}

async fn discord_app(backend: Backend, server: &MockServer) -> TestApp {
    let base = format!("{}/api", server.uri());
    shop_with(backend, vec![], |s| {
        s.discord.client_id = "client-1".into();
        s.discord.client_secret = "secret-1".to_owned().into();
        s.discord.authorize_url = "https://discord.example/oauth2/authorize".into();
        s.discord.api_base = base;
    })
    .await
}

async fn authorize_state(app: &TestApp, client: &reqwest::Client) -> String {
    let response = client
        .get(app.url("/api/discord/authorize"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 302);
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    assert!(
        location.starts_with("https://discord.example/oauth2/authorize?"),
        "{location}"
    );
    let url = reqwest::Url::parse(&location).unwrap();
    let query: std::collections::HashMap<String, String> = url.query_pairs().into_owned().collect();
    assert_eq!(query["client_id"], "client-1");
    assert_eq!(query["response_type"], "code");
    assert_eq!(query["scope"], "identify guilds.join");
    assert_eq!(
        query["redirect_uri"],
        "http://localhost:8080/discord/callback"
    );
    query["state"].clone()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn real_discord_oauth_against_a_fake_discord(#[case] backend: Backend) {
    let server = fake_discord(
        json!({"id": "80351110224678912", "username": "nelly", "avatar": "8342729096ea3675442027381ff50dfe"}),
        200,
    )
    .await;
    let app = discord_app(backend, &server).await;
    let client = browser();
    let state = authorize_state(&app, &client).await;
    let response = app
        .post_json(
            &client,
            "/api/discord-auth",
            &json!({"code": "abc", "state": state}),
        )
        .await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.json::<Value>().await.unwrap(),
        json!({
            "discord_id": "80351110224678912",
            "username": "nelly",
            "avatar": "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png"
        })
    );
    // the dev page is off when Discord is configured
    assert_eq!(
        app.get("/dev/discord/authorize?state=x").await.status(),
        404
    );

    // a user without an id: the spec's 400
    let server = fake_discord(json!({"username": "ghost"}), 200).await;
    let app = discord_app(backend, &server).await;
    let state = authorize_state(&app, &client).await;
    let response = app
        .post_json(
            &client,
            "/api/discord-auth",
            &json!({"code": "abc", "state": state}),
        )
        .await;
    assert_eq!(response.status(), 400);
    assert_eq!(
        response.json::<Value>().await.unwrap()["message"],
        "Discord login failed: No user ID returned."
    );

    // Discord failing: 502
    let server = fake_discord(json!({}), 503).await;
    let app = discord_app(backend, &server).await;
    let state = authorize_state(&app, &client).await;
    let response = app
        .post_json(
            &client,
            "/api/discord-auth",
            &json!({"code": "abc", "state": state}),
        )
        .await;
    assert_eq!(response.status(), 502);
    assert_eq!(
        response.json::<Value>().await.unwrap()["message"],
        "Error while connecting to Discord."
    );
}

/// Issue 32 item 12: an over-long identity from a non-standard OAuth answer was linked and
/// answered 500 at checkout (PostgreSQL refused it in the order row).
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_over_long_discord_identity_is_refused_at_the_callback_and_never_reaches_checkout(
    #[case] backend: Backend,
) {
    let id = "80351110224678912";
    let hash = "8342729096ea3675442027381ff50dfe";
    for user in [
        json!({"id": id, "username": "n".repeat(101), "avatar": hash}),
        json!({"id": id, "username": "nelly", "global_name": "N".repeat(101), "avatar": hash}),
        json!({"id": id, "username": "nelly", "avatar": "f".repeat(450)}),
        json!({"id": id, "username": "nelly", "avatar": "a_../../../evil.example/x"}),
    ] {
        let server = fake_discord(user.clone(), 200).await;
        let base = format!("{}/api", server.uri());
        let app = shop_with(backend, vec![(1, product("Owl", "10.00", Some(5)))], |s| {
            s.discord.client_id = "client-1".into();
            s.discord.client_secret = "secret-1".to_owned().into();
            s.discord.authorize_url = "https://discord.example/oauth2/authorize".into();
            s.discord.api_base = base;
        })
        .await;
        let client = browser();
        let state = authorize_state(&app, &client).await;
        let response = app
            .post_json(
                &client,
                "/api/discord-auth",
                &json!({"code": "abc", "state": state}),
            )
            .await;
        assert_eq!(response.status(), 400, "{user}");
        assert_eq!(
            response.json::<Value>().await.unwrap()["message"],
            "Discord login failed: Discord sent an account name or picture the shop cannot use. \
             Please try again, or ask us for help in the live chat.",
            "{user}"
        );
        // nothing kept: this browser has no Discord account, and checkout never sees one
        let identity: Value = client
            .get(app.url("/api/discord/identity"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(identity, json!({ "identity": null }), "{user}");
        let refused = checkout(&app, &client, &payload(&[(1, 1)], 10.0)).await;
        assert_ne!(refused.status(), 500, "{user}");
        assert!(refused.status().is_client_error(), "{user}");
        assert_eq!(app.count_rows("orders").await, 0, "{user}");
    }

    // the longest a standard answer may be still links and checks out
    let server = fake_discord(
        json!({"id": id, "username": "n".repeat(100), "avatar": format!("a_{hash}")}),
        200,
    )
    .await;
    let base = format!("{}/api", server.uri());
    let app = shop_with(backend, vec![(1, product("Owl", "10.00", Some(5)))], |s| {
        s.discord.client_id = "client-1".into();
        s.discord.client_secret = "secret-1".to_owned().into();
        s.discord.authorize_url = "https://discord.example/oauth2/authorize".into();
        s.discord.api_base = base;
    })
    .await;
    let client = browser();
    let state = authorize_state(&app, &client).await;
    let linked = app
        .post_json(
            &client,
            "/api/discord-auth",
            &json!({"code": "abc", "state": state}),
        )
        .await;
    assert_eq!(linked.status(), 200);
    let placed = checkout(&app, &client, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(placed.status(), 200, "{}", placed.text().await.unwrap());
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn roblox_lookups_offline_and_against_a_fake_roblox(#[case] backend: Backend) {
    // offline stand-in
    let app = TestApp::spawn(backend).await;
    let client = browser();
    let response = app
        .post_json(
            &client,
            "/api/roblox/avatar",
            &json!({"username": " Garden_Fan1 "}),
        )
        .await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["username"], "Garden_Fan1");
    assert_eq!(body["avatar_url"], "/api/roblox/dev-avatar/Garden_Fan1.svg");
    let svg = app.get("/api/roblox/dev-avatar/Garden_Fan1.svg").await;
    assert_eq!(svg.status(), 200);
    assert_eq!(svg.headers()["content-type"], "image/svg+xml");
    assert!(svg.text().await.unwrap().starts_with("<svg"));
    assert_eq!(
        app.get("/api/roblox/dev-avatar/a_b_c.svg").await.status(),
        404
    );
    let bad = app
        .post_json(
            &client,
            "/api/roblox/avatar",
            &json!({"username": "no spaces"}),
        )
        .await;
    assert_eq!(bad.status(), 422);
    assert!(bad.json::<Value>().await.unwrap()["errors"]["username"].is_array());

    // a fake Roblox
    let roblox = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/usernames/users"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "data": [{"requestedUsername": "builderman", "hasVerifiedBadge": true,
                      "id": 156, "name": "Builderman", "displayName": "Builderman"}]
        })))
        .mount(&roblox)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/users/avatar-headshot"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "data": [{"targetId": 156, "state": "Completed", "imageUrl": "https://tr.rbxcdn.com/head.png", "version": "TN3"}]
        })))
        .mount(&roblox)
        .await;
    let uri = roblox.uri();
    let app = shop_with(backend, vec![], |s| {
        s.roblox.users_api_base = uri.clone();
        s.roblox.thumbnails_api_base = uri;
    })
    .await;
    let response = app
        .post_json(
            &client,
            "/api/roblox/avatar",
            &json!({"username": "builderman"}),
        )
        .await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.json::<Value>().await.unwrap(),
        json!({"username": "Builderman", "avatar_url": "https://tr.rbxcdn.com/head.png"})
    );
    assert_eq!(
        app.get("/api/roblox/dev-avatar/Builderman.svg")
            .await
            .status(),
        404
    );

    let missing = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/usernames/users"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "data": [] })))
        .mount(&missing)
        .await;
    let uri = missing.uri();
    let app = shop_with(backend, vec![], |s| {
        s.roblox.users_api_base = uri.clone();
        s.roblox.thumbnails_api_base = uri;
    })
    .await;
    let response = app
        .post_json(
            &client,
            "/api/roblox/avatar",
            &json!({"username": "nobody_here"}),
        )
        .await;
    assert_eq!(response.status(), 404);
    assert_eq!(
        response.json::<Value>().await.unwrap()["message"],
        "Roblox user not found."
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn only_a_super_admin_creates_promo_codes(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let body = json!({"code": "spring", "discount_percent": 15, "expires_at": "2099-01-01T00:00:00Z", "max_uses": 5});

    let anonymous = app
        .post_json(&browser(), "/api/admin/promo-codes", &body)
        .await;
    assert_eq!(anonymous.status(), 401);
    for role in [accounts::Role::Customer, accounts::Role::Admin] {
        let client = app.client_with_role(role).await;
        let response = app
            .post_json(&client, "/api/admin/promo-codes", &body)
            .await;
        assert_eq!(response.status(), 403, "{role}");
    }
    let boss = app.client_with_role(accounts::Role::SuperAdmin).await;
    let response = app.post_json(&boss, "/api/admin/promo-codes", &body).await;
    assert_eq!(response.status(), 201);
    assert_eq!(
        response.json::<Value>().await.unwrap(),
        json!({"code": "SPRING", "discount_percent": 15, "expires_at": "2099-01-01T00:00:00+00:00", "max_uses": 5})
    );

    let duplicate = app
        .post_json(
            &boss,
            "/api/admin/promo-codes",
            &json!({"code": "Spring", "discount_percent": 5}),
        )
        .await;
    assert_eq!(duplicate.status(), 422);
    assert!(duplicate.json::<Value>().await.unwrap()["errors"]["code"].is_array());
    for percent in [json!(0), json!(101), json!(12.5), json!("x"), Value::Null] {
        let bad = app
            .post_json(
                &boss,
                "/api/admin/promo-codes",
                &json!({"code": "OTHER", "discount_percent": percent}),
            )
            .await;
        assert_eq!(bad.status(), 422, "{percent}");
        assert!(bad.json::<Value>().await.unwrap()["errors"]["discount_percent"].is_array());
    }
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_promo_code_is_redeemed_once_per_discord_account(#[case] backend: Backend) {
    let app = shop(backend, vec![(1, product("Owl", "10.00", Some(10)))]).await;
    let boss = app.client_with_role(accounts::Role::SuperAdmin).await;
    for (code, extra) in [
        ("TENOFF", json!({})),
        ("OLD", json!({"expires_at": "2001-01-01T00:00:00Z"})),
        ("ONCE", json!({"max_uses": 1})),
    ] {
        let mut body = json!({"code": code, "discount_percent": 10});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        assert_eq!(
            app.post_json(&boss, "/api/admin/promo-codes", &body)
                .await
                .status(),
            201
        );
    }

    let client = browser();
    let validate = |code: &'static str| {
        let client = client.clone();
        let app = &app;
        async move {
            let response = app
                .post_json(
                    &client,
                    "/api/validate-promo",
                    &json!({"promo_code": code, "discord_id": "1"}),
                )
                .await;
            (
                response.status().as_u16(),
                response.json::<Value>().await.unwrap(),
            )
        }
    };
    // no linked account yet: a typed code is told it needs Discord, not to be entered
    let (status_code, body) = validate("TENOFF").await;
    assert_eq!(status_code, 422);
    assert_eq!(
        body["reason"],
        "Link Discord to use this code: each promo code is used once per Discord account."
    );
    assert_eq!(
        validate("  ").await.1["reason"],
        "Enter a promo code and link Discord."
    );

    link_discord(&app, &client, 0).await;
    let (status_code, body) = validate(" ").await;
    assert_eq!(status_code, 422);
    assert_eq!(body["reason"], "Enter a promo code.");
    assert_eq!(validate("tenoff").await, (200, json!({"discount": 10})));
    let (status_code, body) = validate("NOPE").await;
    assert_eq!(status_code, 422);
    assert_eq!(body["reason"], "Invalid promo code");
    assert_eq!(body["errors"]["promo_code"], json!(["Invalid promo code"]));
    assert_eq!(
        validate("OLD").await.1["reason"],
        "This promo code has expired."
    );

    // first use: 10% off 10.00 = 9.00; paid on the dev page
    let mut body = payload(&[(1, 1)], 9.0);
    body["promo_code"] = json!("TENOFF");
    let response = checkout(&app, &client, &body).await;
    assert_eq!(response.status(), 200);
    let id = response.json::<Value>().await.unwrap()["order_id"]
        .as_i64()
        .unwrap();
    let paid = client
        .post(app.url(&format!("/dev/pay/{id}/pay")))
        .send()
        .await
        .unwrap();
    assert_eq!(paid.status(), 303);

    // the same account again: refused by validate and by checkout
    assert_eq!(
        validate("TENOFF").await.1["reason"],
        "You have already used this promo code."
    );
    let again = checkout(&app, &client, &body).await;
    assert_eq!(again.status(), 422);
    assert_eq!(
        again.json::<Value>().await.unwrap()["reason"],
        "You have already used this promo code."
    );
    // even through another session of the same account
    let other_session = browser();
    link_discord(&app, &other_session, 0).await;
    assert_eq!(checkout(&app, &other_session, &body).await.status(), 422);
    // another account may use it
    let friend = browser();
    link_discord(&app, &friend, 1).await;
    assert_eq!(checkout(&app, &friend, &body).await.status(), 200);

    // a code with one use left, used up once paid
    let mut once = payload(&[(1, 1)], 9.0);
    once["promo_code"] = json!("ONCE");
    let response = checkout(&app, &friend, &once).await;
    let id = response.json::<Value>().await.unwrap()["order_id"]
        .as_i64()
        .unwrap();
    friend
        .post(app.url(&format!("/dev/pay/{id}/pay")))
        .send()
        .await
        .unwrap();
    let stranger = browser();
    link_discord(&app, &stranger, 2).await;
    let response = app
        .post_json(
            &stranger,
            "/api/validate-promo",
            &json!({"promo_code": "ONCE", "discord_id": ""}),
        )
        .await;
    assert_eq!(
        response.json::<Value>().await.unwrap()["reason"],
        "This promo code has reached its usage limit."
    );
}

async fn fake_paypal(capture_status: &str) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/oauth2/token"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "access_token": "A21AAtoken", "token_type": "Bearer", "expires_in": 32400
        })))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v2/checkout/orders"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "PAYPAL-ORDER-1",
            "status": "PAYER_ACTION_REQUIRED",
            "links": [
                {"href": "https://api-m.paypal.com/v2/checkout/orders/PAYPAL-ORDER-1", "rel": "self", "method": "GET"},
                {"href": "https://www.paypal.com/checkoutnow?token=PAYPAL-ORDER-1", "rel": "payer-action", "method": "GET"}
            ]
        })))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v2/checkout/orders/PAYPAL-ORDER-1/capture"))
        .respond_with(ResponseTemplate::new(201).set_body_json(json!({
            "id": "PAYPAL-ORDER-1",
            "status": capture_status,
            "purchase_units": [{"payments": {"captures": [{
                "id": "CAP1", "status": capture_status,
                "amount": {"currency_code": "USD", "value": "21.57"}
            }]}}]
        })))
        .mount(&server)
        .await;
    server
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn paypal_checkout_and_capture_against_a_fake_paypal(#[case] backend: Backend) {
    let plain = TestApp::spawn(backend).await;
    assert_eq!(plain.get_json("/api/site").await["paypal_enabled"], false);
    assert_eq!(
        plain
            .post_json(&browser(), "/api/checkout/paypal", &payload(&[(1, 1)], 1.0))
            .await
            .status(),
        404
    );

    let paypal = fake_paypal("COMPLETED").await;
    let uri = paypal.uri();
    let app = shop_with(backend, vec![(1, product("Owl", "10.00", Some(3)))], |s| {
        s.paypal.client_id = "pp-client".into();
        s.paypal.client_secret = "pp-secret".to_owned().into();
        s.paypal.api_base = uri;
        s.paypal.enabled = true;
    })
    .await;
    assert_eq!(app.get_json("/api/site").await["paypal_enabled"], true);
    let client = browser();
    link_discord(&app, &client, 0).await;
    let response = app
        .post_json(&client, "/api/checkout/paypal", &payload(&[(1, 2)], 20.0))
        .await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    let id = body["order_id"].as_i64().unwrap();
    assert_eq!(
        body["approval_url"],
        "https://www.paypal.com/checkoutnow?token=PAYPAL-ORDER-1"
    );
    assert_eq!(stock(&app, 1).await, Some(1));
    let requests = paypal.received_requests().await.unwrap();
    let create = requests
        .iter()
        .find(|r| r.url.path() == "/v2/checkout/orders")
        .unwrap();
    let sent: Value = serde_json::from_slice(&create.body).unwrap();
    let unit = &sent["purchase_units"][0];
    assert_eq!(unit["custom_id"], id.to_string());
    // PayPal fee: (20.00 + 0.49) / 0.9501 = 21.566... -> 21.57
    assert_eq!(unit["amount"]["value"], "21.57");
    assert_eq!(unit["amount"]["breakdown"]["item_total"]["value"], "20.00");
    assert_eq!(unit["amount"]["breakdown"]["handling"]["value"], "1.57");
    assert_eq!(
        sent["payment_source"]["paypal"]["experience_context"]["return_url"],
        format!("http://localhost:8080/api/paypal/return?order_id={id}")
    );

    // a return with another PayPal order's token changes nothing
    let forged = client
        .get(app.url(&format!("/api/paypal/return?order_id={id}&token=OTHER")))
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 400);
    assert_eq!(status(&app, id).await, "pending");

    let back = client
        .get(app.url(&format!(
            "/api/paypal/return?order_id={id}&token=PAYPAL-ORDER-1&PayerID=X"
        )))
        .send()
        .await
        .unwrap();
    assert_eq!(back.status(), 303);
    assert_eq!(
        back.headers()["location"],
        format!("/success?order_id={id}").as_str()
    );
    assert_eq!(status(&app, id).await, "paid");
    // a second return (reload) captures nothing more and stays paid
    let again = client
        .get(app.url(&format!(
            "/api/paypal/return?order_id={id}&token=PAYPAL-ORDER-1"
        )))
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 303);
    let captures = paypal
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|r| r.url.path().ends_with("/capture"))
        .count();
    assert_eq!(captures, 1);
    assert_eq!(stock(&app, 1).await, Some(1));
}
