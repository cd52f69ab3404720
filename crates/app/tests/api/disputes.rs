//! Disputes, on SQLite and PostgreSQL with a fake Stripe: a dispute of a delivered order stages
//! the delivery record as evidence once (three PDFs and the text fields), staff submit it once
//! or the deadline job does, an undelivered order's dispute stages nothing and is accepted.

use std::sync::{Arc, Mutex};

use accounts::Role;
use garden_app::Loop;
use rstest::rstest;
use serde_json::{json, Value};
use store::Backend;
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use crate::checkout_support::*;
use crate::helpers::TestApp;

const DISPUTE_FIXTURE: &str = include_str!("../../../adapters/stripe/tests/fixtures/dispute.json");
const FILE_FIXTURE: &str = include_str!("../../../adapters/stripe/tests/fixtures/file.json");

/// Stripe's dispute object as its API answers it now (the card's network is named since
/// 2026-09-30; the fixture predates it).
fn dispute_object(id: &str, order: i64, status: &str, due_by: i64) -> Value {
    let mut dispute: Value = serde_json::from_str(DISPUTE_FIXTURE).unwrap();
    dispute["id"] = json!(id);
    dispute["payment_intent"] = json!(payment_intent(order));
    dispute["status"] = json!(status);
    dispute["reason"] = json!("product_not_received");
    dispute["amount"] = json!(1000);
    dispute["evidence_details"]["due_by"] = json!(due_by);
    dispute["payment_method_details"]["card"]["network"] = json!("visa");
    dispute
}

/// What the fake Stripe was asked: each upload's form, each evidence update's form.
#[derive(Default)]
struct Seen {
    uploads: Vec<Vec<u8>>,
    updates: Vec<Vec<(String, String)>>,
    closes: usize,
}

/// The fake's dispute calls: uploads answer `file_{n}`; updates and closes answer the
/// dispute; `fail` makes updates answer 503, `fail_uploads` uploads.
#[derive(Clone)]
struct FakeDisputes {
    seen: Arc<Mutex<Seen>>,
    fail: Arc<std::sync::atomic::AtomicBool>,
    fail_uploads: Arc<std::sync::atomic::AtomicBool>,
}

fn unavailable() -> ResponseTemplate {
    ResponseTemplate::new(503).set_body_json(json!({
        "error": { "type": "api_error", "message": "Stripe had a problem" }
    }))
}

impl Respond for FakeDisputes {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let mut seen = self.seen.lock().unwrap();
        let path = request.url.path().to_owned();
        if path == "/v1/files" {
            if self.fail_uploads.load(std::sync::atomic::Ordering::SeqCst) {
                return unavailable();
            }
            seen.uploads.push(request.body.clone());
            let mut file: Value = serde_json::from_str(FILE_FIXTURE).unwrap();
            file["id"] = json!(format!("file_{}", seen.uploads.len()));
            return ResponseTemplate::new(200).set_body_json(file);
        }
        if self.fail.load(std::sync::atomic::Ordering::SeqCst) {
            return unavailable();
        }
        let id = path
            .trim_start_matches("/v1/disputes/")
            .trim_end_matches("/close");
        if path.ends_with("/close") {
            seen.closes += 1;
        } else {
            let form = form_urlencoded::parse(&request.body)
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect();
            seen.updates.push(form);
        }
        ResponseTemplate::new(200).set_body_json(dispute_object(id, 0, "needs_response", 0))
    }
}

fn payment_intent(order: i64) -> String {
    format!("pi_test_order_{order}")
}

struct Shop {
    app: TestApp,
    buyer: reqwest::Client,
    fake: FakeDisputes,
}

async fn shop(backend: Backend) -> Shop {
    let stripe = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/checkout/sessions"))
        .respond_with(Sessions(0.into()))
        .mount(&stripe)
        .await;
    let fake = FakeDisputes {
        seen: Arc::default(),
        fail: Arc::default(),
        fail_uploads: Arc::default(),
    };
    for route in ["^/v1/files$", "^/v1/disputes/[A-Za-z0-9_]+(/close)?$"] {
        Mock::given(method("POST"))
            .and(path_regex(route))
            .respond_with(fake.clone())
            .mount(&stripe)
            .await;
    }
    let uri = stripe.uri();
    let app = shop_with(backend, vec![(1, product("Owl", "10.00", Some(10)))], |s| {
        s.stripe.secret_key = "sk_test_fake".to_owned().into();
        s.stripe.webhook_secret = WEBHOOK_SECRET.to_owned().into();
        s.stripe.api_base = uri.clone();
        s.stripe.files_api_base = uri;
        s.checkout.max_pending_orders = 100;
        // the loop runs when a dispute asks for it; its timer only at start
        s.disputes.check_every_seconds = 3600;
        s.metrics.enabled = true;
    })
    .await;
    // keep the fake alive as long as the shop
    std::mem::forget(stripe);
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    app.rounds.finished(Loop::Disputes, 1).await;
    Shop { app, buyer, fake }
}

/// Places an order of one Owl and pays it with its payment intent.
async fn paid_order(shop: &Shop) -> i64 {
    let app = &shop.app;
    let response = checkout(app, &shop.buyer, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(response.status(), 200);
    let id = response.json::<Value>().await.unwrap()["order_id"]
        .as_i64()
        .unwrap();
    let session = reference(app, id).await;
    let mut event = stripe_event(
        &format!("evt_paid_{id}"),
        "checkout.session.completed",
        &session,
        id,
    );
    event["data"]["object"]["payment_intent"] = json!(payment_intent(id));
    assert_eq!(
        deliver(app, &event, WEBHOOK_SECRET, now(app))
            .await
            .status(),
        200
    );
    id
}

/// The buyer's step on the order's page (`ready`, `received`): its status and body.
async fn buyer_says(shop: &Shop, id: i64, step: &str) -> (u16, Value) {
    let response = shop
        .buyer
        .post(shop.app.url(&format!("/api/orders/{id}/{step}")))
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.json().await.unwrap())
}

/// A paid order handed over the whole way: claimed by a member of staff, its page showing the
/// private server link, the buyer in the game, delivered, and the buyer's "I got my items"
/// (refused before the delivery and a second time).
async fn delivered_order(shop: &Shop) -> i64 {
    let app = &shop.app;
    let id = paid_order(shop).await;
    let staff = app.client_with_role(Role::Admin).await;
    let staff_step = |step: &'static str| {
        staff
            .post(app.url(&format!("/api/admin/orders/{id}/{step}")))
            .json(&json!({}))
            .send()
    };
    assert_eq!(staff_step("claim").await.unwrap().status(), 200);
    let page: Value = shop
        .buyer
        .get(app.url(&format!("/api/orders/{id}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(page["delivery"]["private_server_url"].is_string(), "{page}");
    assert_eq!(buyer_says(shop, id, "ready").await.0, 200);
    let (early, body) = buyer_says(shop, id, "received").await;
    assert_eq!(early, 409, "not delivered yet: {body}");
    assert_eq!(staff_step("deliver").await.unwrap().status(), 200);
    let (first, page) = buyer_says(shop, id, "received").await;
    assert_eq!(first, 200, "{page}");
    assert!(page["delivery"]["received_at"].is_string(), "{page}");
    let steps: Vec<&str> = page["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|step| step["status"].as_str().unwrap())
        .collect();
    assert_eq!(steps, ["paid", "claimed", "delivered", "received"]);
    let (again, body) = buyer_says(shop, id, "received").await;
    assert_eq!(again, 409, "once: {body}");
    assert_eq!(body["message"], "You already told us you got your items.");
    // the record is whole: its mails sent (the delivery record, and so the evidence's
    // fingerprint, lists them: a mail sent later is a changed record); this shop has no
    // Discord tickets, so no ticket posts to wait for
    app.settled_jobs(id, "mail").await;
    id
}

/// Stripe's dispute event for `order`.
fn dispute_event(event_id: &str, kind: &str, id: &str, order: i64, due_by: i64) -> Value {
    json!({
        "id": event_id, "object": "event", "type": kind, "created": 1_700_000_000,
        "data": { "object": dispute_object(id, order, "needs_response", due_by) },
    })
}

/// Delivers the event (answered 200) and waits for the disputes loop to have run after it.
async fn report(app: &TestApp, event: &Value) {
    // the event wakes the loop (its timer is an hour): the first round started after this
    // one is a round after the event
    let started = app.rounds.started(Loop::Disputes);
    let response = deliver(app, event, WEBHOOK_SECRET, now(app)).await;
    assert_eq!(response.status(), 200, "{event}");
    app.rounds.finished(Loop::Disputes, started + 1).await;
}

async fn disputes(app: &TestApp, admin: &reqwest::Client) -> Vec<Value> {
    let list = admin
        .get(app.url("/api/admin/disputes"))
        .send()
        .await
        .unwrap();
    assert_eq!(list.status(), 200);
    list.json::<Vec<Value>>().await.unwrap()
}

fn field<'a>(form: &'a [(String, String)], name: &str) -> &'a str {
    form.iter()
        .find(|(key, _)| key == name)
        .map_or("", |(_, value)| value.as_str())
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_delivered_orders_dispute_stages_its_record_once_and_staff_submit_it_once(
    #[case] backend: Backend,
) {
    let shop = shop(backend).await;
    let app = &shop.app;
    let order = delivered_order(&shop).await;
    let due_by = now(app) + 7 * 24 * 3600;
    let created = dispute_event("evt_d1", "charge.dispute.created", "du_one", order, due_by);
    // Stripe repeats itself: the created event three times, then an update
    for _ in 0..3 {
        report(app, &created).await;
    }
    let updated = dispute_event("evt_d2", "charge.dispute.updated", "du_one", order, due_by);
    report(app, &updated).await;

    {
        let seen = shop.fake.seen.lock().unwrap();
        assert_eq!(seen.uploads.len(), 3, "three PDF files, once");
        for upload in &seen.uploads {
            let text = String::from_utf8_lossy(upload);
            assert!(text.contains("dispute_evidence"), "the upload's purpose");
            assert!(text.contains("%PDF-"), "a PDF file");
        }
        assert_eq!(seen.updates.len(), 1, "staged once");
        let staged = &seen.updates[0];
        assert_eq!(field(staged, "submit"), "false");
        let name = field(staged, "evidence[customer_name]");
        assert!(
            name.contains("Builder_Bob (Roblox)"),
            "{name} in {staged:?}"
        );
        assert_eq!(field(staged, "evidence[customer_purchase_ip]"), "127.0.0.1");
        assert_eq!(
            field(staged, "evidence[customer_email_address]"),
            "buyer@example.com"
        );
        assert!(field(staged, "evidence[product_description]").contains("1 x Owl"));
        let log = field(staged, "evidence[access_activity_log]");
        for step in [
            "Order placed",
            "Payment received",
            "Claimed for delivery",
            "Private server link shown to the buyer: https://www.roblox.com/share?code=test",
            "Buyer pressed \"I'm in the game\" from 127.0.0.1",
            "Delivered in game",
            "Buyer confirmed \"I got my items\" from 127.0.0.1",
        ] {
            assert!(log.contains(step), "{step} in {log}");
        }
        let policy = field(staged, "evidence[refund_policy_disclosure]");
        assert!(policy.contains("refund policy"), "{policy}");
        assert!(
            policy.contains("version 2026-11-01") && policy.contains("beside the Complete Payment"),
            "the version the order recorded: {policy}"
        );
        assert!(!field(staged, "evidence[service_date]").is_empty());
        for file in [
            "service_documentation",
            "customer_communication",
            "refund_policy",
        ] {
            assert!(
                field(staged, &format!("evidence[{file}]")).starts_with("file_"),
                "{file}"
            );
        }
    }

    let admin = app.client_with_role(Role::SuperAdmin).await;
    let listed = disputes(app, &admin).await;
    assert_eq!(listed.len(), 1);
    let dispute = &listed[0];
    assert_eq!(dispute["dispute_id"], "du_one");
    assert_eq!(dispute["order_id"], order);
    assert_eq!(dispute["evidence"], "staged");
    assert_eq!(dispute["amount"], 10.0);
    assert_eq!(dispute["currency"], "USD");
    assert_eq!(dispute["reason"], "product_not_received");
    assert_eq!(dispute["delivered"], true);

    // the files as Stripe gets them
    let pdf = admin
        .get(app.url("/api/admin/disputes/du_one/evidence/service_documentation"))
        .send()
        .await
        .unwrap();
    assert_eq!(pdf.status(), 200);
    assert_eq!(pdf.headers()["content-type"], "application/pdf");
    assert!(pdf.bytes().await.unwrap().starts_with(b"%PDF-"));
    // the mails as the buyer got them, the order page's address without its key
    let messages = admin
        .get(app.url("/api/admin/disputes/du_one/evidence/customer_communication"))
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let document = lopdf::Document::load_mem(&messages).unwrap();
    let pages: Vec<u32> = document.get_pages().keys().copied().collect();
    let text = document.extract_text(&pages).unwrap();
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("Thank you for your order!"), "{flat}");
    assert!(
        flat.contains(&format!("/orders/{order}")),
        "the order page's address: {flat}"
    );
    assert!(
        !flat.contains("key="),
        "never the key that opens it: {flat}"
    );
    let unknown = admin
        .get(app.url("/api/admin/disputes/du_one/evidence/passport"))
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), 404);

    // staff only, a note within 1,000 characters, then once
    let staff = app.client_with_role(Role::Admin).await;
    let submit = |client: &reqwest::Client, note: String| {
        client
            .post(app.url("/api/admin/disputes/du_one/submit"))
            .json(&json!({ "note": note }))
            .send()
    };
    assert_eq!(submit(&staff, "x".into()).await.unwrap().status(), 403);
    let long = submit(&admin, "x".repeat(1001)).await.unwrap();
    assert_eq!(long.status(), 422);
    assert!(long.json::<Value>().await.unwrap()["errors"]["note"].is_array());
    let note = "The buyer thanked our staff in the ticket after the trade.";
    let submitted = submit(&admin, note.into()).await.unwrap();
    assert_eq!(submitted.status(), 200);
    assert_eq!(
        submitted.json::<Value>().await.unwrap()["evidence"],
        "submitted"
    );
    assert_eq!(submit(&admin, note.into()).await.unwrap().status(), 409);
    let accept = admin
        .post(app.url("/api/admin/disputes/du_one/accept"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        accept.status(),
        409,
        "submitted evidence cannot be accepted"
    );
    let seen = shop.fake.seen.lock().unwrap();
    assert_eq!(seen.updates.len(), 2, "one staging, one submission");
    let sent = &seen.updates[1];
    assert_eq!(field(sent, "submit"), "true");
    assert!(field(sent, "evidence[uncategorized_text]").contains(note));
    assert_eq!(seen.uploads.len(), 3, "the staged files are kept");
    assert_eq!(seen.closes, 0);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_undelivered_orders_dispute_stages_nothing_and_is_accepted_once(
    #[case] backend: Backend,
) {
    let shop = shop(backend).await;
    let app = &shop.app;
    let order = paid_order(&shop).await;
    let due_by = now(app) + 7 * 24 * 3600;
    report(
        app,
        &dispute_event("evt_u1", "charge.dispute.created", "du_two", order, due_by),
    )
    .await;
    let admin = app.client_with_role(Role::SuperAdmin).await;
    let listed = disputes(app, &admin).await;
    assert_eq!(listed[0]["evidence"], "none");
    assert_eq!(listed[0]["delivered"], false);
    let submit = admin
        .post(app.url("/api/admin/disputes/du_two/submit"))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(submit.status(), 409);
    let missing = admin
        .post(app.url("/api/admin/disputes/du_nobody/accept"))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);

    // Stripe failing: 502 and nothing changes
    shop.fake
        .fail
        .store(true, std::sync::atomic::Ordering::SeqCst);
    let accept = || {
        admin
            .post(app.url("/api/admin/disputes/du_two/accept"))
            .send()
    };
    assert_eq!(accept().await.unwrap().status(), 502);
    assert_eq!(disputes(app, &admin).await[0]["outcome"], Value::Null);
    shop.fake
        .fail
        .store(false, std::sync::atomic::Ordering::SeqCst);
    let accepted = accept().await.unwrap();
    assert_eq!(accepted.status(), 200);
    assert_eq!(accepted.json::<Value>().await.unwrap()["outcome"], "lost");
    assert_eq!(accept().await.unwrap().status(), 409);
    {
        let seen = shop.fake.seen.lock().unwrap();
        assert!(seen.uploads.is_empty() && seen.updates.is_empty());
        assert_eq!(seen.closes, 1);
    }

    // the owner's numbers: the dispute by reason and outcome, in a page promtool accepts
    let metrics = app.client.get(app.url("/metrics")).send().await.unwrap();
    assert_eq!(metrics.status(), 200);
    let text = metrics.text().await.unwrap();
    assert!(
        text.contains(r#"shop_disputes_total{outcome="lost",reason="product_not_received"} 1"#),
        "{text}"
    );
    crate::metrics::promtool_accepts(&text);

    // and on the sales dashboard: one dispute in one paid order, lost, over the 0.75 % line
    let stats: Value = admin
        .get(app.url("/api/admin/sales-stats"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let figures = &stats["disputes"];
    assert_eq!(figures["opened"], 1, "{figures}");
    assert_eq!(figures["lost"], 1);
    assert_eq!(figures["won"], 0);
    assert_eq!(figures["pending"], 0);
    assert_eq!(figures["lost_amount"], 10.0);
    assert_eq!(figures["paid_in_window"], 1);
    assert_eq!(figures["rate_percent"], 100.0);
    assert_eq!(figures["warn_rate_percent"], 0.75);
    assert_eq!(figures["over_warning"], true);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn staged_evidence_nobody_submitted_goes_a_day_before_it_is_due(#[case] backend: Backend) {
    let shop = shop(backend).await;
    let app = &shop.app;
    let order = delivered_order(&shop).await;
    // due in 30 hours: staged now, not yet submitted
    let due_by = now(app) + 30 * 3600;
    report(
        app,
        &dispute_event(
            "evt_s1",
            "charge.dispute.created",
            "du_three",
            order,
            due_by,
        ),
    )
    .await;
    let admin = app.client_with_role(Role::SuperAdmin).await;
    assert_eq!(disputes(app, &admin).await[0]["evidence"], "staged");
    // seven hours on, it is due within a day: the next round submits it, once
    app.clock.advance(std::time::Duration::from_secs(7 * 3600));
    report(
        app,
        &dispute_event(
            "evt_s2",
            "charge.dispute.updated",
            "du_three",
            order,
            due_by,
        ),
    )
    .await;
    report(
        app,
        &dispute_event(
            "evt_s3",
            "charge.dispute.updated",
            "du_three",
            order,
            due_by,
        ),
    )
    .await;
    assert_eq!(disputes(app, &admin).await[0]["evidence"], "submitted");
    let seen = shop.fake.seen.lock().unwrap();
    let submits: Vec<_> = seen
        .updates
        .iter()
        .filter(|form| field(form, "submit") == "true")
        .collect();
    assert_eq!(submits.len(), 1);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn offline_the_dev_payment_page_plays_the_bank_and_the_dispute_is_staged_once(
    #[case] backend: Backend,
) {
    // no Stripe keys: the dev payment page, and the evidence goes nowhere but our records
    let app = shop_with(backend, vec![(1, product("Owl", "10.00", Some(10)))], |s| {
        s.disputes.check_every_seconds = 3600;
    })
    .await;
    app.rounds.finished(Loop::Disputes, 1).await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let placed = checkout(&app, &buyer, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(placed.status(), 200);
    let id = placed.json::<Value>().await.unwrap()["order_id"]
        .as_i64()
        .unwrap();
    let form = |step: &str| {
        buyer
            .post(app.url(&format!("/dev/pay/{id}/{step}")))
            .header("Origin", &app.address)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .send()
    };
    let page = || async {
        let page = buyer
            .get(app.url(&format!("/dev/pay/{id}")))
            .send()
            .await
            .unwrap();
        page.text().await.unwrap()
    };
    assert!(
        !page().await.contains("/dispute\""),
        "an unpaid order has no bank to play"
    );
    assert_eq!(form("pay").await.unwrap().status(), 303);
    let staff = app.client_with_role(Role::Admin).await;
    for step in ["claim", "deliver"] {
        let done = staff
            .post(app.url(&format!("/api/admin/orders/{id}/{step}")))
            .json(&json!({}))
            .send()
            .await
            .unwrap();
        assert_eq!(done.status(), 200, "{step}");
    }
    let html = page().await;
    assert!(
        html.contains(&format!("action=\"/dev/pay/{id}/dispute\"")),
        "{html}"
    );
    assert!(html.contains(&format!("action=\"/dev/pay/{id}/fraud-warning\"")));

    // the bank disputes it twice: one dispute, staged once
    for _ in 0..2 {
        let started = app.rounds.started(Loop::Disputes);
        let opened = form("dispute").await.unwrap();
        assert_eq!(opened.status(), 303);
        assert_eq!(
            opened.headers()["location"],
            format!("/dev/pay/{id}").as_str()
        );
        app.rounds.finished(Loop::Disputes, started + 1).await;
    }
    assert_eq!(status(&app, id).await, "disputed");
    let admin = app.client_with_role(Role::SuperAdmin).await;
    let listed = disputes(&app, &admin).await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0]["dispute_id"], format!("dp_dev_{id}"));
    assert_eq!(listed[0]["order_id"], id);
    assert_eq!(listed[0]["reason"], "product_not_received");
    assert_eq!(listed[0]["evidence"], "staged");
    let pdf = admin
        .get(app.url(&format!(
            "/api/admin/disputes/dp_dev_{id}/evidence/customer_communication"
        )))
        .send()
        .await
        .unwrap();
    assert_eq!(pdf.status(), 200);
    assert!(pdf.bytes().await.unwrap().starts_with(b"%PDF-"));

    // another site's form cannot play the bank
    let foreign = buyer
        .post(app.url(&format!("/dev/pay/{id}/fraud-warning")))
        .header("Origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status(), 403);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_erased_buyers_disputed_order_still_yields_its_evidence(#[case] backend: Backend) {
    let shop = shop(backend).await;
    let app = &shop.app;
    let email = "erin@example.com";
    app.create_user(email, crate::helpers::TEST_PASSWORD, Role::Customer)
        .await;
    app.login(&shop.buyer, email, crate::helpers::TEST_PASSWORD)
        .await;
    link_discord(app, &shop.buyer, 0).await;
    let order = delivered_order(&shop).await;

    // the bank's dispute arrives; the buyer's export says what went to Stripe
    let due_by = now(app) + 7 * 24 * 3600;
    let created = dispute_event(
        "evt_e1",
        "charge.dispute.created",
        "du_erased",
        order,
        due_by,
    );
    report(app, &created).await;
    let export: Value = shop
        .buyer
        .get(app.url("/api/profile/export"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let exported = &export["orders"][0]["disputes"][0];
    assert_eq!(exported["dispute_id"], "du_erased", "{export}");
    assert_eq!(exported["evidence"], "staged");
    let sent: Vec<&str> = exported["sent_to_stripe"]
        .as_array()
        .unwrap()
        .iter()
        .map(|field| field.as_str().unwrap())
        .collect();
    for field in [
        "customer_email_address",
        "customer_purchase_ip",
        "access_activity_log",
        "service_documentation",
    ] {
        assert!(sent.contains(&field), "{field} in {sent:?}");
    }

    // then the buyer erases their account; staff submit the evidence a week later
    let deleted = shop
        .buyer
        .delete(app.url("/api/profile"))
        .header("Origin", &app.address)
        .json(&json!({ "password": crate::helpers::TEST_PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 204);
    app.clock
        .advance(std::time::Duration::from_secs(7 * 24 * 60 * 60));
    let admin = app.client_with_role(Role::SuperAdmin).await;
    let submitted = admin
        .post(app.url("/api/admin/disputes/du_erased/submit"))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(submitted.status(), 200);
    let pdf = admin
        .get(app.url("/api/admin/disputes/du_erased/evidence/service_documentation"))
        .send()
        .await
        .unwrap();
    assert_eq!(pdf.status(), 200);

    let seen = shop.fake.seen.lock().unwrap();
    assert_eq!(seen.updates.len(), 2, "staged, then submitted");
    let sent = &seen.updates[1];
    assert_eq!(field(sent, "submit"), "true");
    assert_eq!(
        field(sent, "evidence[customer_email_address]"),
        "buyer@example.com",
        "the erased buyer's address, kept for the dispute"
    );
    let name = field(sent, "evidence[customer_name]");
    assert!(name.contains("Builder_Bob (Roblox)"), "{name}");
    assert_eq!(field(sent, "evidence[customer_purchase_ip]"), "127.0.0.1");
    let log = field(sent, "evidence[access_activity_log]");
    assert!(
        log.contains("Buyer confirmed \"I got my items\" from 127.0.0.1"),
        "{log}"
    );
}

const WARNING_FIXTURE: &str =
    include_str!("../../../adapters/stripe/tests/fixtures/early_fraud_warning.json");

/// Stripe's early fraud warning about the order's payment.
fn warning_event(event_id: &str, order: i64) -> Value {
    let mut warning: Value = serde_json::from_str(WARNING_FIXTURE).unwrap();
    warning["charge"] = json!(format!("ch_{}", payment_intent(order)));
    warning["payment_intent"] = json!(payment_intent(order));
    warning["fraud_type"] = json!("unauthorized_use_of_card");
    json!({
        "id": event_id, "object": "event", "type": "radar.early_fraud_warning.created",
        "created": 1_700_000_000, "data": { "object": warning },
    })
}

/// The names of the files uploaded so far (each upload's `filename`).
fn uploaded_names(shop: &Shop) -> Vec<String> {
    let seen = shop.fake.seen.lock().unwrap();
    seen.uploads
        .iter()
        .map(|body| {
            let text = String::from_utf8_lossy(body);
            let (_, rest) = text.split_once("filename=\"").expect("a file name");
            rest.split('"').next().unwrap().to_owned()
        })
        .collect()
}

async fn warned(app: &TestApp, boss: &reqwest::Client) -> Vec<Value> {
    let list = boss
        .get(app.url("/api/admin/fraud-warnings"))
        .send()
        .await
        .unwrap();
    assert_eq!(list.status(), 200);
    list.json().await.unwrap()
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_fraud_warning_on_a_delivered_order_prepares_its_evidence_once_for_the_dispute(
    #[case] backend: Backend,
) {
    let shop = shop(backend).await;
    let app = &shop.app;
    let boss = app.client_with_role(Role::SuperAdmin).await;
    let order = delivered_order(&shop).await;

    // Stripe repeats itself: the three files are built and uploaded once, before any dispute
    for _ in 0..3 {
        report(app, &warning_event("evt_w1", order)).await;
    }
    assert_eq!(status(app, order).await, "delivered", "nothing to hold");
    let prepared: Vec<String> = [
        "service_documentation",
        "customer_communication",
        "refund_policy",
    ]
    .iter()
    .map(|file| format!("{file}-order-{order}.pdf"))
    .collect();
    assert_eq!(uploaded_names(&shop), prepared);
    assert!(
        shop.fake.seen.lock().unwrap().updates.is_empty(),
        "no dispute to stage yet"
    );

    // staff see the warning and the files as a dispute would send them
    let list = warned(app, &boss).await;
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["order_id"], order);
    assert_eq!(list[0]["fraud_type"], "unauthorized_use_of_card");
    assert_eq!(list[0]["evidence"], "prepared");
    assert!(list[0]["prepared_at"].is_string(), "{list:?}");
    assert!(list[0]["error"].is_null(), "{list:?}");
    let pdf = boss
        .get(app.url(&format!(
            "/api/admin/fraud-warnings/{order}/evidence/service_documentation"
        )))
        .send()
        .await
        .unwrap();
    assert_eq!(pdf.status(), 200);
    assert_eq!(pdf.headers()["content-type"], "application/pdf");
    assert!(pdf.bytes().await.unwrap().starts_with(b"%PDF-"));
    for (path, why) in [
        (
            format!(
                "/api/admin/fraud-warnings/{}/evidence/refund_policy",
                order + 1
            ),
            "no warning",
        ),
        (
            format!("/api/admin/fraud-warnings/{order}/evidence/invoice"),
            "no such file",
        ),
        (
            "/api/admin/fraud-warnings/0/evidence/refund_policy".to_owned(),
            "no order 0",
        ),
        (
            "/api/admin/fraud-warnings/x/evidence/refund_policy".to_owned(),
            "not a number",
        ),
    ] {
        let answer = boss.get(app.url(&path)).send().await.unwrap();
        assert_eq!(answer.status(), 404, "{why}");
    }
    let staff = app.client_with_role(Role::Admin).await;
    let refused = staff
        .get(app.url("/api/admin/fraud-warnings"))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 403, "super_admin only");

    // the dispute follows: staged with the prepared files at once, nothing uploaded again
    let due_by = now(app) + 7 * 24 * 3600;
    let created = dispute_event(
        "evt_wd1",
        "charge.dispute.created",
        "du_warned",
        order,
        due_by,
    );
    report(app, &created).await;
    assert_eq!(uploaded_names(&shop).len(), 3, "the prepared files serve");
    {
        let seen = shop.fake.seen.lock().unwrap();
        assert_eq!(seen.updates.len(), 1);
        let staged = &seen.updates[0];
        assert_eq!(field(staged, "evidence[service_documentation]"), "file_1");
        assert_eq!(field(staged, "evidence[customer_communication]"), "file_2");
        assert_eq!(field(staged, "evidence[refund_policy]"), "file_3");
        assert!(field(staged, "evidence[access_activity_log]").contains("Delivered in game"));
    }
    assert_eq!(disputes(app, &boss).await[0]["evidence"], "staged");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn evidence_prepared_before_the_record_changed_is_built_again_for_the_dispute(
    #[case] backend: Backend,
) {
    let shop = shop(backend).await;
    let app = &shop.app;
    // delivered, the buyer has not said "I got my items" yet
    let order = paid_order(&shop).await;
    let staff = app.client_with_role(Role::Admin).await;
    for step in ["claim", "deliver"] {
        let answer = staff
            .post(app.url(&format!("/api/admin/orders/{order}/{step}")))
            .json(&json!({}))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 200, "{step}");
    }
    report(app, &warning_event("evt_w2", order)).await;
    assert_eq!(uploaded_names(&shop).len(), 3);

    // the record changes: the buyer confirms; the dispute's files say so
    assert_eq!(buyer_says(&shop, order, "received").await.0, 200);
    let due_by = now(app) + 7 * 24 * 3600;
    let created = dispute_event(
        "evt_wd2",
        "charge.dispute.created",
        "du_changed",
        order,
        due_by,
    );
    report(app, &created).await;
    let names = uploaded_names(&shop);
    assert_eq!(names.len(), 6, "built again: {names:?}");
    assert!(names[3].ends_with("-du_changed.pdf"), "{names:?}");
    let seen = shop.fake.seen.lock().unwrap();
    let staged = &seen.updates[0];
    assert_eq!(field(staged, "evidence[service_documentation]"), "file_4");
    assert!(field(staged, "evidence[access_activity_log]").contains("Buyer confirmed"));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_warning_on_an_undelivered_order_prepares_nothing_and_a_failed_upload_is_tried_again(
    #[case] backend: Backend,
) {
    let shop = shop(backend).await;
    let app = &shop.app;
    let boss = app.client_with_role(Role::SuperAdmin).await;
    // a paid order is held by the warning instead: no evidence is prepared
    let held = paid_order(&shop).await;
    report(app, &warning_event("evt_w3", held)).await;
    assert!(uploaded_names(&shop).is_empty());
    assert!(warned(app, &boss).await.is_empty());

    // Stripe's Files API fails: the warned order says so, and the loop tries again later
    let order = delivered_order(&shop).await;
    shop.fake
        .fail_uploads
        .store(true, std::sync::atomic::Ordering::SeqCst);
    report(app, &warning_event("evt_w4", order)).await;
    let list = warned(app, &boss).await;
    assert_eq!(list[0]["evidence"], "preparing", "{list:?}");
    assert!(
        list[0]["error"].as_str().unwrap().contains("Stripe"),
        "{list:?}"
    );
    shop.fake
        .fail_uploads
        .store(false, std::sync::atomic::Ordering::SeqCst);
    // a minute later, its retry is due
    app.clock.advance(std::time::Duration::from_secs(61));
    // (Stripe repeating the warning wakes the loop; it changes nothing by itself)
    report(app, &warning_event("evt_w4", order)).await;
    let list = warned(app, &boss).await;
    assert_eq!(list[0]["evidence"], "prepared", "{list:?}");
    assert!(list[0]["error"].is_null());
}
