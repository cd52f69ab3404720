//! The audit log of the delivery queue (claim, release, deliver, refund), proofs of delivery
//! and the staff's chat deletion: each change appends exactly one entry with its actor,
//! address, target and the values before and after; a refused one appends nothing.

use accounts::Role;
use chrono::{Duration, Utc};
use image::ImageFormat;
use reqwest::Client;
use rstest::rstest;
use serde_json::{json, Value};
use store::testing::{seed_order, SeedOrder};
use store::Backend;

use crate::audit_support::{assert_entry, Audited, Staff};
use crate::chat::{start_ai, start_live};
use crate::proofs::{picture, publish};

async fn post(audited: &Audited, staff: &Staff, path: &str, body: Value) -> reqwest::Response {
    staff
        .client
        .post(audited.app.url(path))
        .json(&body)
        .send()
        .await
        .unwrap()
}

fn order(status: &str, claimed_by: Option<i64>, proof_id: Option<i64>) -> Value {
    json!({ "status": status, "claimed_by": claimed_by, "proof_id": proof_id })
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_queue_and_proofs_are_audited_and_refusals_are_not(#[case] backend: Backend) {
    let audited = Audited::spawn(backend).await;
    let ann = audited.staff(Role::Admin).await;
    let bob = audited.staff(Role::SuperAdmin).await;
    let db = audited.app.store.connection();
    let now = Utc::now();
    let first = seed_order(
        db,
        &SeedOrder::paid(7, "Raccoon", 2, now - Duration::minutes(30)),
    )
    .await;
    let second = seed_order(
        db,
        &SeedOrder::paid(8, "Kitsune", 1, now - Duration::minutes(5)),
    )
    .await;
    let target = format!("order:{first}");

    // claim
    let seen = audited.count().await;
    let claim = format!("/api/admin/orders/{first}/claim");
    assert_eq!(post(&audited, &ann, &claim, json!({})).await.status(), 200);
    let entry = audited.one_new_entry(seen).await;
    assert_entry(&entry, &ann, "order.claim", &target);
    assert_eq!(entry["before"], order("paid", None, None));
    assert_eq!(entry["after"], order("paid", Some(ann.id), None));

    // someone else's claim, a release by someone else and a missing order: refused, unwritten
    let seen = audited.count().await;
    assert_eq!(post(&audited, &bob, &claim, json!({})).await.status(), 409);
    let release = format!("/api/admin/orders/{first}/release");
    assert_eq!(
        post(&audited, &bob, &release, json!({ "reason": "Not mine." }))
            .await
            .status(),
        409
    );
    let missing = "/api/admin/orders/99999/claim";
    assert_eq!(post(&audited, &ann, missing, json!({})).await.status(), 404);
    // claiming one's own claim again changes nothing and so records nothing
    assert_eq!(post(&audited, &ann, &claim, json!({})).await.status(), 200);
    audited
        .nothing_new(seen, "a refused claim or release")
        .await;

    // release
    assert_eq!(
        post(
            &audited,
            &ann,
            &release,
            json!({ "reason": "My game crashed." })
        )
        .await
        .status(),
        200
    );
    let entry = audited.one_new_entry(seen).await;
    assert_entry(&entry, &ann, "order.release", &target);
    assert_eq!(entry["before"], order("paid", Some(ann.id), None));
    assert_eq!(entry["after"], order("paid", None, None));
    // releasing an unclaimed order changes nothing
    let seen = audited.count().await;
    assert_eq!(
        post(
            &audited,
            &ann,
            &release,
            json!({ "reason": "My game crashed." })
        )
        .await
        .status(),
        200
    );
    audited
        .nothing_new(seen, "releasing an unclaimed order")
        .await;

    // a proof: published, then linked to the delivery
    let picture = picture(40, 30, 90, ImageFormat::Png);
    let refused = publish(
        &audited.app,
        &bob.client,
        Some("   "),
        &[("a.png", picture.clone())],
    )
    .await;
    assert_eq!(refused.status(), 422);
    audited.nothing_new(seen, "a refused proof").await;
    let published = publish(
        &audited.app,
        &bob.client,
        Some("2x Raccoon"),
        &[("a.png", picture.clone()), ("b.png", picture)],
    )
    .await;
    assert_eq!(published.status(), 201);
    let proof: Value = published.json().await.unwrap();
    let proof_id = proof["id"].as_i64().unwrap();
    let entry = audited.one_new_entry(seen).await;
    assert_entry(&entry, &bob, "proof.create", &format!("proof:{proof_id}"));
    assert_eq!(entry["before"], Value::Null);
    assert_eq!(
        entry["after"],
        json!({ "items": "2x Raccoon", "images": proof["images"] })
    );
    assert_eq!(entry["after"]["images"].as_array().unwrap().len(), 2);

    // deliver (after a claim, which every delivery needs): an unknown proof is refused; with
    // the proof, one entry naming it
    let claim_first = format!("/api/admin/orders/{first}/claim");
    assert_eq!(
        post(&audited, &bob, &claim_first, json!({})).await.status(),
        200
    );
    let seen = audited.count().await;
    let deliver = format!("/api/admin/orders/{first}/deliver");
    let unknown = post(&audited, &bob, &deliver, json!({ "proof_id": 777 })).await;
    assert_eq!(unknown.status(), 422);
    audited
        .nothing_new(seen, "a delivery with an unknown proof")
        .await;
    let delivered = post(&audited, &bob, &deliver, json!({ "proof_id": proof_id })).await;
    assert_eq!(delivered.status(), 200);
    let entry = audited.one_new_entry(seen).await;
    assert_entry(&entry, &bob, "order.deliver", &target);
    assert_eq!(entry["before"], order("paid", Some(bob.id), None));
    assert_eq!(
        entry["after"],
        order("delivered", Some(bob.id), Some(proof_id))
    );
    let seen = audited.count().await;
    assert_eq!(
        post(&audited, &ann, &deliver, json!({})).await.status(),
        409
    );
    audited
        .nothing_new(seen, "delivering a delivered order")
        .await;

    // refund through the dev provider: recorded refunded, one entry
    let refund = format!("/api/admin/orders/{second}/refund");
    assert_eq!(post(&audited, &ann, &refund, json!({})).await.status(), 200);
    let entry = audited.one_new_entry(seen).await;
    assert_entry(&entry, &ann, "order.refund", &format!("order:{second}"));
    assert_eq!(entry["before"], order("paid", None, None));
    assert_eq!(entry["after"], order("refunded", None, None));
    // refunding it again answers it as it is; a missing order is not found: nothing written
    let seen = audited.count().await;
    assert_eq!(post(&audited, &ann, &refund, json!({})).await.status(), 200);
    let missing = "/api/admin/orders/99999/refund";
    assert_eq!(post(&audited, &ann, missing, json!({})).await.status(), 404);
    audited
        .nothing_new(seen, "a refund that changes nothing")
        .await;

    // deleting the proof: the entry keeps what was deleted; a second delete is not found
    let delete = |who: &Staff| {
        who.client
            .delete(audited.app.url(&format!("/api/proofs/{proof_id}")))
            .send()
    };
    assert_eq!(delete(&ann).await.unwrap().status(), 200);
    let entry = audited.one_new_entry(seen).await;
    assert_entry(&entry, &ann, "proof.delete", &format!("proof:{proof_id}"));
    assert_eq!(
        entry["before"],
        json!({ "items": "2x Raccoon", "images": proof["images"] })
    );
    assert_eq!(entry["after"], Value::Null);
    let seen = audited.count().await;
    assert_eq!(delete(&ann).await.unwrap().status(), 404);
    audited.nothing_new(seen, "deleting a missing proof").await;

    // the kind filter finds each kind once (two claims: every delivery has its own)
    assert_eq!(audited.entries("kind=order.claim").await.len(), 2);
    for kind in [
        "order.release",
        "order.deliver",
        "order.refund",
        "proof.create",
        "proof.delete",
    ] {
        assert_eq!(
            audited.entries(&format!("kind={kind}")).await.len(),
            1,
            "{kind}"
        );
    }
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_staff_chat_deletion_is_audited_and_the_shoppers_own_is_not(#[case] backend: Backend) {
    let audited = Audited::spawn(backend).await;
    let app = &audited.app;
    let ann = audited.staff(Role::Admin).await;
    let (chat, session, _) = start_ai(app, &app.client).await;
    start_live(app, &chat, &session).await;

    let delete = |client: &Client, id: &str| {
        client
            .delete(app.url(&format!("/api/admin/chats/{id}")))
            .send()
    };
    let seen = audited.count().await;
    let unknown = uuid::Uuid::new_v4().to_string();
    assert_eq!(delete(&ann.client, &unknown).await.unwrap().status(), 404);
    // the shopper ending their own chat is not a staff action
    let ended = app
        .client
        .delete(app.url(&format!("/api/chat/{chat}?session_id={session}")))
        .send()
        .await
        .unwrap();
    assert_eq!(ended.status(), 200);
    audited
        .nothing_new(seen, "a refused or shopper's deletion")
        .await;

    assert_eq!(delete(&ann.client, &chat).await.unwrap().status(), 200);
    let entry = audited.one_new_entry(seen).await;
    assert_entry(&entry, &ann, "chat.delete", &format!("chat:{chat}"));
    let before = &entry["before"];
    assert_eq!(before["status"], "closed", "{entry:#}");
    assert_eq!(before["user_id"], Value::Null);
    assert_eq!(before["accepted_by"], Value::Null);
    assert!(before["messages"].as_u64().unwrap() >= 1, "{entry:#}");
    assert!(before.get("session_id").is_none(), "no session in the log");
    assert_eq!(entry["after"], Value::Null);

    let seen = audited.count().await;
    assert_eq!(delete(&ann.client, &chat).await.unwrap().status(), 404);
    audited.nothing_new(seen, "deleting a deleted chat").await;
}
