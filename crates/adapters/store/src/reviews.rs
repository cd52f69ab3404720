//! Verified reviews on both databases: one per order (`INSERT … ON CONFLICT (order_id) DO
//! NOTHING`), listed newest first with their orders' products, hidden ones kept.

use std::collections::HashMap;

use anyhow::Context;
use chrono::{DateTime, Utc};
use orders::{OrderError, OrderId};
use reviews::{NewReview, Review, ReviewRepository};
use sea_orm::{ConnectionTrait, QueryResult};
use shared::UserId;

use serde_json::json;
use shared::{Actor, AuditKind};

use crate::sql::{lock_row, statement};
use crate::Store;

fn to_review(row: &QueryResult) -> anyhow::Result<Review> {
    let rating: i16 = row.try_get("", "rating")?;
    Ok(Review {
        id: row.try_get("", "id")?,
        order_id: OrderId::new(row.try_get("", "order_id")?),
        rating: u8::try_from(rating).context("bad rating")?,
        text: row.try_get("", "text")?,
        name: row.try_get("", "name")?,
        created_at: row.try_get("", "created_at")?,
        product_ids: vec![],
    })
}

impl Store {
    /// The products of these orders, by order.
    async fn products_of(&self, orders: &[i64]) -> anyhow::Result<HashMap<i64, Vec<i64>>> {
        let mut by_order: HashMap<i64, Vec<i64>> = HashMap::new();
        if orders.is_empty() {
            return Ok(by_order);
        }
        let marks = vec!["?"; orders.len()].join(", ");
        let rows = self
            .db
            .query_all(statement(
                &self.db,
                &format!(
                    "SELECT order_id, product_id FROM order_lines WHERE order_id IN ({marks}) \
                     ORDER BY order_id, position"
                ),
                orders.iter().map(|id| (*id).into()).collect(),
            ))
            .await
            .context("failed to read the reviewed orders' products")?;
        for row in rows {
            by_order
                .entry(row.try_get("", "order_id")?)
                .or_default()
                .push(row.try_get("", "product_id")?);
        }
        Ok(by_order)
    }
}

const COLUMNS: &str = "r.id, r.order_id, r.rating, r.text, r.name, r.created_at";

impl ReviewRepository for Store {
    #[tracing::instrument(skip_all, fields(order = %review.order_id))]
    async fn add_review(&self, review: NewReview) -> Result<Option<Review>, OrderError> {
        let inserted = self
            .db
            .execute(statement(
                &self.db,
                "INSERT INTO reviews (order_id, rating, text, name, created_at) \
                 VALUES (?, ?, ?, ?, ?) ON CONFLICT (order_id) DO NOTHING",
                vec![
                    review.order_id.get().into(),
                    i16::from(review.rating).into(),
                    review.text.clone().into(),
                    review.name.clone().into(),
                    review.created_at.into(),
                ],
            ))
            .await
            .context("failed to store a review")?;
        if inserted.rows_affected() != 1 {
            return Ok(None);
        }
        let row = self
            .db
            .query_one(statement(
                &self.db,
                &format!("SELECT {COLUMNS} FROM reviews r WHERE r.order_id = ?"),
                vec![review.order_id.get().into()],
            ))
            .await
            .context("failed to read the review back")?
            .context("the review just stored is missing")?;
        let mut stored = to_review(&row)?;
        stored.product_ids = self
            .products_of(&[review.order_id.get()])
            .await?
            .remove(&review.order_id.get())
            .unwrap_or_default();
        Ok(Some(stored))
    }

    #[tracing::instrument(skip(self))]
    async fn visible_reviews(&self, product: Option<i64>) -> Result<Vec<Review>, OrderError> {
        let (filter, values) = match product {
            Some(product) => (
                " AND EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = r.order_id \
                 AND l.product_id = ?)",
                vec![product.into()],
            ),
            None => ("", vec![]),
        };
        let rows = self
            .db
            .query_all(statement(
                &self.db,
                // a review of an order refunded or disputed leaves the list and the average;
                // a dispute won returns the order to its status, and the review with it
                &format!(
                    "SELECT {COLUMNS} FROM reviews r WHERE r.hidden_at IS NULL{filter} \
                     AND EXISTS (SELECT 1 FROM orders o WHERE o.id = r.order_id \
                       AND o.status NOT IN (?, ?)) \
                     ORDER BY r.created_at DESC, r.id DESC LIMIT 500"
                ),
                values
                    .into_iter()
                    .chain([
                        orders::OrderStatus::Refunded.as_str().into(),
                        orders::OrderStatus::Disputed.as_str().into(),
                    ])
                    .collect(),
            ))
            .await
            .context("failed to read the reviews")?;
        let mut reviews = rows
            .iter()
            .map(to_review)
            .collect::<anyhow::Result<Vec<_>>>()?;
        let orders: Vec<i64> = reviews.iter().map(|r| r.order_id.get()).collect();
        let mut products = self.products_of(&orders).await?;
        for review in &mut reviews {
            review.product_ids = products.remove(&review.order_id.get()).unwrap_or_default();
        }
        Ok(reviews)
    }

    #[tracing::instrument(skip(self, by, reason))]
    async fn hide_review(
        &self,
        id: i64,
        by: &Actor,
        reason: String,
        at: DateTime<Utc>,
    ) -> Result<bool, OrderError> {
        // the write lock first, then the values this replaces
        let lock = "UPDATE reviews SET hidden_reason = hidden_reason WHERE id = ?";
        let Some(txn) = lock_row(&self.db, lock, id, "a review").await? else {
            return Ok(false);
        };
        let before = txn
            .query_one(statement(
                &txn,
                "SELECT order_id, rating, hidden_at, hidden_reason FROM reviews WHERE id = ?",
                vec![id.into()],
            ))
            .await
            .context("failed to read a review")?
            .context("a locked review vanished")?;
        let order_id: i64 = before.try_get("", "order_id").context("order_id")?;
        let rating: i16 = before.try_get("", "rating").context("rating")?;
        let hidden_at: Option<DateTime<Utc>> =
            before.try_get("", "hidden_at").context("hidden_at")?;
        let hidden_reason: Option<String> = before
            .try_get("", "hidden_reason")
            .context("hidden_reason")?;
        txn.execute(statement(
            &txn,
            "UPDATE reviews SET hidden_at = ?, hidden_by = ?, hidden_reason = ? WHERE id = ?",
            vec![
                at.into(),
                by.user_id.map(UserId::get).into(),
                reason.clone().into(),
                id.into(),
            ],
        ))
        .await
        .context("failed to hide a review")?;
        self.audit(
            &txn,
            by,
            AuditKind::ReviewHide,
            format!("review:{id}"),
            Some(json!({
                "order_id": order_id,
                "rating": rating,
                "hidden": hidden_at.is_some(),
                "hidden_reason": hidden_reason,
            })),
            Some(json!({
                "order_id": order_id,
                "rating": rating,
                "hidden": true,
                "hidden_reason": reason,
            })),
        )
        .await?;
        txn.commit()
            .await
            .context("failed to commit a hidden review")?;
        Ok(true)
    }
}
