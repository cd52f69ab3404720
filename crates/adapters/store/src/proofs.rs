//! Proofs of delivery with their pictures in order.

use std::collections::HashMap;

use anyhow::Context;
use proofs::{NewProof, Proof, ProofError, ProofId, ProofRepository};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
    TransactionTrait,
};

use crate::entities::{proof_images, proofs as proof_rows};
use crate::Store;

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

    #[tracing::instrument(skip(self, proof), fields(images = proof.images.len()))]
    async fn insert(&self, proof: NewProof) -> Result<Proof, ProofError> {
        let txn = self
            .db
            .begin()
            .await
            .context("failed to start a transaction")?;
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
        txn.commit().await.context("failed to commit the proof")?;
        Ok(Proof {
            id: ProofId::new(id),
            items: proof.items.as_ref().to_owned(),
            images: proof.images,
            created_at: proof.created_at,
        })
    }

    #[tracing::instrument(skip(self))]
    async fn delete(&self, id: ProofId) -> Result<(), ProofError> {
        let txn = self
            .db
            .begin()
            .await
            .context("failed to start a transaction")?;
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
