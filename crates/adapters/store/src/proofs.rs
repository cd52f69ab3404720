//! Proofs of delivery with their pictures in order.

use std::collections::HashMap;

use anyhow::Context;
use proofs::{NewProof, Proof, ProofError, ProofId, ProofRepository};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect,
};
use serde_json::{json, Value};
use shared::{Actor, AuditKind};

use crate::entities::{proof_images, proofs as proof_rows};
use crate::Store;

/// The audit target of a proof.
fn target(id: i64) -> String {
    format!("proof:{id}")
}

/// A proof's values as the audit log keeps them: its items and its pictures in order.
fn proof_json(items: &str, images: &[String]) -> Value {
    json!({ "items": items, "images": images })
}

/// The pictures of proof `id` in order, read on `db`.
async fn image_paths(db: &impl ConnectionTrait, id: i64) -> anyhow::Result<Vec<String>> {
    proof_images::Entity::find()
        .select_only()
        .column(proof_images::Column::Path)
        .filter(proof_images::Column::ProofId.eq(id))
        .order_by_asc(proof_images::Column::Position)
        .into_tuple::<String>()
        .all(db)
        .await
        .with_context(|| format!("failed to read the images of proof {id}"))
}

impl ProofRepository for Store {
    #[tracing::instrument(skip(self))]
    async fn list(&self) -> Result<Vec<Proof>, ProofError> {
        let rows = proof_rows::Entity::find()
            .order_by_desc(proof_rows::Column::CreatedAt)
            .order_by_desc(proof_rows::Column::Id)
            .all(&self.db)
            .await
            .context("failed to load the proofs")?;
        let mut images: HashMap<i64, Vec<String>> = HashMap::new();
        for image in proof_images::Entity::find()
            .order_by_asc(proof_images::Column::ProofId)
            .order_by_asc(proof_images::Column::Position)
            .all(&self.db)
            .await
            .context("failed to load the proof images")?
        {
            images.entry(image.proof_id).or_default().push(image.path);
        }
        Ok(rows
            .into_iter()
            .map(|row| Proof {
                id: ProofId::new(row.id),
                images: images.remove(&row.id).unwrap_or_default(),
                items: row.items,
                created_at: row.created_at,
            })
            .collect())
    }

    #[tracing::instrument(skip(self, proof, actor), fields(images = proof.images.len()))]
    async fn insert(&self, proof: NewProof, actor: &Actor) -> Result<Proof, ProofError> {
        let txn = self.begin().await?;
        let inserted = proof_rows::Entity::insert(proof_rows::ActiveModel {
            items: Set(proof.items.as_ref().to_owned()),
            created_at: Set(proof.created_at),
            ..Default::default()
        })
        .exec(&txn)
        .await
        .context("failed to store the proof")?;
        let id = inserted.last_insert_id;
        let rows =
            proof
                .images
                .iter()
                .enumerate()
                .map(|(position, path)| proof_images::ActiveModel {
                    proof_id: Set(id),
                    position: Set(i32::try_from(position).unwrap_or(i32::MAX)),
                    path: Set(path.clone()),
                });
        proof_images::Entity::insert_many(rows)
            .exec_without_returning(&txn)
            .await
            .with_context(|| format!("failed to store the images of proof {id}"))?;
        self.audit(
            &txn,
            actor,
            AuditKind::ProofCreate,
            target(id),
            None,
            Some(proof_json(proof.items.as_ref(), &proof.images)),
        )
        .await?;
        txn.commit().await.context("failed to commit the proof")?;
        Ok(Proof {
            id: ProofId::new(id),
            items: proof.items.as_ref().to_owned(),
            images: proof.images,
            created_at: proof.created_at,
        })
    }

    #[tracing::instrument(skip(self, actor))]
    async fn delete(&self, id: ProofId, actor: &Actor) -> Result<(), ProofError> {
        let txn = self.begin().await?;
        // lock the proof first (a write), then read what the deletion removes
        let locked = proof_rows::Entity::update_many()
            .col_expr(
                proof_rows::Column::Items,
                Expr::col(proof_rows::Column::Items).into(),
            )
            .filter(proof_rows::Column::Id.eq(id.get()))
            .exec(&txn)
            .await
            .with_context(|| format!("failed to lock proof {id}"))?;
        let before = proof_rows::Entity::find_by_id(id.get())
            .one(&txn)
            .await
            .with_context(|| format!("failed to read proof {id}"))?;
        let (1, Some(before)) = (locked.rows_affected, before) else {
            return Err(ProofError::NotFound(id));
        };
        let before = proof_json(&before.items, &image_paths(&txn, id.get()).await?);
        proof_images::Entity::delete_many()
            .filter(proof_images::Column::ProofId.eq(id.get()))
            .exec(&txn)
            .await
            .with_context(|| format!("failed to delete the images of proof {id}"))?;
        let deleted = proof_rows::Entity::delete_by_id(id.get())
            .exec(&txn)
            .await
            .with_context(|| format!("failed to delete proof {id}"))?;
        if deleted.rows_affected == 0 {
            return Err(ProofError::NotFound(id));
        }
        self.audit(
            &txn,
            actor,
            AuditKind::ProofDelete,
            target(id.get()),
            Some(before),
            None,
        )
        .await?;
        txn.commit()
            .await
            .with_context(|| format!("failed to commit the deletion of proof {id}"))?;
        Ok(())
    }

    #[tracing::instrument(skip(self))]
    async fn image_paths_in_use(&self) -> Result<Vec<String>, ProofError> {
        Ok(proof_images::Entity::find()
            .select_only()
            .column(proof_images::Column::Path)
            .distinct()
            .into_tuple::<String>()
            .all(&self.db)
            .await
            .context("failed to list the proof images in use")?)
    }
}

/// For another area's statement about an order (its proof's id in `column`): the path of the
/// proof's first picture, as a subquery.
pub(crate) fn first_picture(column: &str) -> String {
    format!(
        "(SELECT p.path FROM proof_images p WHERE p.proof_id = {column} \
         ORDER BY p.position LIMIT 1)"
    )
}

/// Whether proof `id` exists.
pub(crate) async fn exists(db: &impl ConnectionTrait, id: i64) -> anyhow::Result<bool> {
    let row = db
        .query_one(crate::sql::statement(
            db,
            "SELECT 1 AS found FROM proofs WHERE id = ?",
            vec![id.into()],
        ))
        .await
        .context("failed to look the proof up")?;
    Ok(row.is_some())
}

/// The path of proof `id`'s first picture, if it has one.
pub(crate) async fn first_picture_of(
    db: &impl ConnectionTrait,
    id: i64,
) -> anyhow::Result<Option<String>> {
    let row = db
        .query_one(crate::sql::statement(
            db,
            "SELECT path FROM proof_images WHERE proof_id = ? ORDER BY position LIMIT 1",
            vec![id.into()],
        ))
        .await
        .with_context(|| format!("failed to read the pictures of proof {id}"))?;
    row.map(|row| row.try_get("", "path").context("bad path"))
        .transpose()
}

/// The pictures of a delivery's proof, in order, for a dispute's evidence (their paths; the
/// disputes service reads them).
pub(crate) async fn evidence_pictures(
    db: &impl ConnectionTrait,
    proof: Option<i64>,
) -> anyhow::Result<Vec<disputes::ProofImage>> {
    let Some(proof) = proof else {
        return Ok(vec![]);
    };
    let rows = db
        .query_all(crate::sql::statement(
            db,
            "SELECT i.path, p.created_at FROM proof_images i JOIN proofs p ON p.id = i.proof_id \
             WHERE i.proof_id = ? ORDER BY i.position",
            vec![proof.into()],
        ))
        .await
        .with_context(|| format!("failed to read the pictures of proof {proof}"))?;
    rows.iter()
        .map(|row| {
            let path: String = row.try_get("", "path")?;
            let content_type = match path.rsplit('.').next() {
                Some("png") => "image/png",
                Some("webp") => "image/webp",
                _ => "image/jpeg",
            };
            Ok(disputes::ProofImage {
                posted_at: row.try_get("", "created_at")?,
                content_type: content_type.to_owned(),
                path,
                bytes: vec![],
            })
        })
        .collect()
}
