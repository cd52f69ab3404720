//! Verified reviews on both databases: one per order (`INSERT … ON CONFLICT (order_id) DO
//! NOTHING`), listed newest first with their orders' products, hidden ones kept.

use anyhow::Context;
use chrono::{DateTime, Utc};
use orders::{OrderError, OrderId};
use reviews::{NewReview, Review, ReviewRepository};
use sea_orm::{ConnectionTrait, QueryResult};
use shared::UserId;

use serde_json::json;
use shared::{Actor, AuditKind};

use crate::sql::{fetch_all, fetch_one, lock_row, run};
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

const COLUMNS: &str = "r.id, r.order_id, r.rating, r.text, r.name, r.created_at";

impl ReviewRepository for Store {
    #[tracing::instrument(skip_all, fields(order = %review.order_id))]
    async fn add_review(&self, review: NewReview) -> Result<Option<Review>, OrderError> {
        let inserted = run(
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
        )
        .await
        .context("failed to store a review")?;
        if inserted.rows_affected() != 1 {
            return Ok(None);
        }
        let row = fetch_one(
            &self.db,
            &format!("SELECT {COLUMNS} FROM reviews r WHERE r.order_id = ?"),
            vec![review.order_id.get().into()],
        )
        .await
        .context("failed to read the review back")?
        .context("the review just stored is missing")?;
        let mut stored = to_review(&row)?;
        stored.product_ids = crate::order_rows::products_of(&self.db, &[review.order_id.get()])
            .await?
            .remove(&review.order_id.get())
            .unwrap_or_default();
        Ok(Some(stored))
    }

    #[tracing::instrument(skip(self))]
    async fn visible_reviews(&self, product: Option<i64>) -> Result<Vec<Review>, OrderError> {
        let (filter, values) = match product {
            Some(product) => (
                format!(" AND {}", crate::order_rows::has_product("r.order_id")),
                vec![product.into()],
            ),
            None => (String::new(), vec![]),
        };
        let standing = crate::order_rows::status_not_in("r.order_id");
        let rows = fetch_all(
            &self.db,
            // a review of an order refunded or disputed leaves the list and the average;
            // a dispute won returns the order to its status, and the review with it
            &format!(
                "SELECT {COLUMNS} FROM reviews r WHERE r.hidden_at IS NULL{filter} \
                     AND {standing} ORDER BY r.created_at DESC, r.id DESC LIMIT 500"
            ),
            values
                .into_iter()
                .chain([
                    orders::OrderStatus::Refunded.as_str().into(),
                    orders::OrderStatus::Disputed.as_str().into(),
                ])
                .collect(),
        )
        .await
        .context("failed to read the reviews")?;
        let mut reviews = rows
            .iter()
            .map(to_review)
            .collect::<anyhow::Result<Vec<_>>>()?;
        let orders: Vec<i64> = reviews.iter().map(|r| r.order_id.get()).collect();
        let mut products = crate::order_rows::products_of(&self.db, &orders).await?;
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
        let before = fetch_one(
            &txn,
            "SELECT order_id, rating, hidden_at, hidden_reason FROM reviews WHERE id = ?",
            vec![id.into()],
        )
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
        run(
            &txn,
            "UPDATE reviews SET hidden_at = ?, hidden_by = ?, hidden_reason = ? WHERE id = ?",
            vec![
                at.into(),
                by.user_id.map(UserId::get).into(),
                reason.clone().into(),
                id.into(),
            ],
        )
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

/// The reviews of an erased account's orders stay, signed by no one.
pub(crate) fn reviews_forgotten(id: i64) -> crate::sql::Step {
    let its_orders = crate::order_rows::ITS_ORDERS;
    (
        format!("UPDATE reviews SET name = ? WHERE order_id IN {its_orders}"),
        vec![::reviews::ANONYMOUS_NAME.into(), id.into()],
    )
}

/// The review of an order for its buyer's export.
pub(crate) async fn review_record(
    db: &impl ConnectionTrait,
    order: i64,
) -> anyhow::Result<Option<accounts::ReviewRecord>> {
    let row = fetch_one(
        db,
        "SELECT rating, text, name, created_at FROM reviews WHERE order_id = ?",
        vec![order.into()],
    )
    .await
    .with_context(|| format!("failed to load the review of order {order}"))?;
    let Some(row) = row else {
        return Ok(None);
    };
    Ok(Some(accounts::ReviewRecord {
        rating: row.try_get("", "rating")?,
        text: row.try_get("", "text")?,
        name: row.try_get("", "name")?,
        created_at: row.try_get("", "created_at")?,
    }))
}

/// For another area's statement about an order (its id in `column`): whether it has a review.
pub(crate) fn reviewed(column: &str) -> String {
    format!("EXISTS (SELECT 1 FROM reviews v WHERE v.order_id = {column})")
}
