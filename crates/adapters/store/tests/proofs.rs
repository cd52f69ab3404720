//! The proof repository on both databases, each test on a fresh one.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::{Duration, TimeZone, Utc};
use garden_store::testing::TestDatabase;
use garden_store::{Backend, Store};
use proofs::{NewProof, ProofError, ProofId, ProofItems, ProofRepository};
use rstest::rstest;

async fn store(backend: Backend) -> (TestDatabase, Store) {
    let db = TestDatabase::create(backend).await;
    let store = Store::new(db.connection.clone(), shared::clock::SystemClock);
    (db, store)
}

fn new_proof(items: &str, images: &[&str], minutes: i64) -> NewProof {
    NewProof {
        items: ProofItems::parse(items).unwrap(),
        images: images.iter().map(|p| (*p).to_owned()).collect(),
        created_at: Utc.with_ymd_and_hms(2026, 11, 21, 8, 0, 0).unwrap()
            + Duration::minutes(minutes),
    }
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn proofs_come_back_newest_first_with_images_in_order(#[case] backend: Backend) {
    let (_db, store) = store(backend).await;
    let older = store
        .insert(
            new_proof(
                "Raccoon",
                &["/media/proofs/b.png", "/media/proofs/a.png"],
                0,
            ),
            &actor(),
        )
        .await
        .unwrap();
    let newer = store
        .insert(
            new_proof("2x Kitsune", &["/media/proofs/c.png"], 5),
            &actor(),
        )
        .await
        .unwrap();
    assert_eq!(older.images, ["/media/proofs/b.png", "/media/proofs/a.png"]);

    let listed = store.list().await.unwrap();
    assert_eq!(listed, vec![newer.clone(), older.clone()]);
    assert_eq!(listed[1].items, "Raccoon");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn deleting_a_proof_frees_only_its_own_images(#[case] backend: Backend) {
    let (_db, store) = store(backend).await;
    let first = store
        .insert(
            new_proof(
                "Owl",
                &["/media/proofs/shared.png", "/media/proofs/own.png"],
                0,
            ),
            &actor(),
        )
        .await
        .unwrap();
    store
        .insert(
            new_proof("Bunny", &["/media/proofs/shared.png"], 1),
            &actor(),
        )
        .await
        .unwrap();
    let mut in_use = store.image_paths_in_use().await.unwrap();
    in_use.sort();
    assert_eq!(
        in_use,
        ["/media/proofs/own.png", "/media/proofs/shared.png"]
    );

    store.delete(first.id, &actor()).await.unwrap();
    assert_eq!(
        store.image_paths_in_use().await.unwrap(),
        ["/media/proofs/shared.png"]
    );
    assert_eq!(store.list().await.unwrap().len(), 1);
    assert!(matches!(
        store.delete(first.id, &actor()).await,
        Err(ProofError::NotFound(_))
    ));
    assert!(matches!(
        store.delete(ProofId::new(999), &actor()).await,
        Err(ProofError::NotFound(_))
    ));
}

/// The member of staff the audit log names.
fn actor() -> shared::Actor {
    shared::Actor::command_line()
}
