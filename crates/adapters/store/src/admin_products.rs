//! The admin's writes to the catalog, each in one transaction; stock changes as single
//! conditional statements so concurrent clicks never lose one another nor go below zero.

use anyhow::Context;
use catalog::{
    CatalogError, Product, ProductDraft, ProductId, ProductWrites, Removal, Stock, StockChange,
};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveValue::NotSet, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QuerySelect, Value,
};

use shared::{Actor, AuditKind};

use crate::entities::{bundle_items, products};
use crate::products::{
    active_model, insert_components, locked_product, product_json, product_target,
    products_with_ids, stock_json,
};
use crate::sql::run;
use crate::Store;

/// One product (archived or not) with its components, read on `db` (a transaction's own view).
async fn one_product(db: &impl ConnectionTrait, id: i64) -> Result<Product, CatalogError> {
    products_with_ids(db, &[id])
        .await?
        .pop()
        .ok_or(CatalogError::NotFound(ProductId::new(id)))
}

/// A product's row, read on `db`.
async fn product_row(
    db: &impl ConnectionTrait,
    id: ProductId,
) -> Result<products::Model, CatalogError> {
    products::Entity::find_by_id(id.get())
        .one(db)
        .await
        .with_context(|| format!("failed to load product {id}"))?
        .ok_or(CatalogError::NotFound(id))
}

impl ProductWrites for Store {
    #[tracing::instrument(skip_all, fields(name = %draft.name))]
    async fn create(&self, draft: ProductDraft, actor: &Actor) -> Result<Product, CatalogError> {
        let txn = self.begin().await?;
        let id = products::Entity::insert(active_model(None, &draft, self.now()))
            .exec(&txn)
            .await
            .context("failed to insert the product")?
            .last_insert_id;
        insert_components(&txn, ProductId::new(id), &draft.related_ids).await?;
        let after = one_product(&txn, id).await?;
        self.audit(
            &txn,
            actor,
            AuditKind::ProductCreate,
            product_target(id),
            None,
            Some(product_json(&after)),
        )
        .await?;
        txn.commit()
            .await
            .context("failed to commit the new product")?;
        Ok(after)
    }

    #[tracing::instrument(skip(self, draft, actor))]
    async fn update(
        &self,
        id: ProductId,
        draft: ProductDraft,
        refuse_if_held: bool,
        actor: &Actor,
    ) -> Result<Product, CatalogError> {
        let txn = locked_product(&self.db, id).await?;
        // under the product's lock: a placement takes it too (its stock), so none slips past
        if refuse_if_held && crate::order_rows::holds_product(&txn, id).await? {
            txn.rollback().await.context("failed to roll back")?;
            return Err(CatalogError::DropHeld(id));
        }
        let before = one_product(&txn, id.get()).await?;
        let row = active_model(None, &draft, self.now());
        products::Entity::update_many()
            .set(products::ActiveModel {
                created_at: NotSet,
                archived: NotSet,
                ..row
            })
            .filter(products::Column::Id.eq(id.get()))
            .exec(&txn)
            .await
            .with_context(|| format!("failed to update product {id}"))?;
        bundle_items::Entity::delete_many()
            .filter(bundle_items::Column::BundleId.eq(id.get()))
            .exec(&txn)
            .await
            .with_context(|| format!("failed to clear the components of product {id}"))?;
        insert_components(&txn, id, &draft.related_ids).await?;
        let after = one_product(&txn, id.get()).await?;
        self.audit(
            &txn,
            actor,
            AuditKind::ProductUpdate,
            product_target(id.get()),
            Some(product_json(&before)),
            Some(product_json(&after)),
        )
        .await?;
        txn.commit()
            .await
            .with_context(|| format!("failed to commit product {id}"))?;
        Ok(after)
    }

    #[tracing::instrument(skip(self, actor))]
    async fn remove(&self, id: ProductId, actor: &Actor) -> Result<Removal, CatalogError> {
        let txn = locked_product(&self.db, id).await?;
        let before = one_product(&txn, id.get()).await?;
        // Deleted only while no order line or reservation names it: decided by the statement.
        let unnamed = crate::order_rows::NAMES_NO_PRODUCT;
        let deleted = run(
            &txn,
            &format!("DELETE FROM products WHERE id = ? AND {unnamed}"),
            vec![id.get().into(), id.get().into(), id.get().into()],
        )
        .await
        .with_context(|| format!("failed to delete product {id}"))?;
        let (removal, after) = if deleted.rows_affected() == 1 {
            // Foreign keys cascade on PostgreSQL; say it for every SQLite connection too.
            bundle_items::Entity::delete_many()
                .filter(
                    bundle_items::Column::BundleId
                        .eq(id.get())
                        .or(bundle_items::Column::ProductId.eq(id.get())),
                )
                .exec(&txn)
                .await
                .with_context(|| format!("failed to remove product {id} from bundles"))?;
            (Removal::Deleted, None)
        } else {
            products::Entity::update_many()
                .col_expr(products::Column::Archived, Expr::value(true))
                .col_expr(products::Column::UpdatedAt, Expr::value(self.now()))
                .filter(products::Column::Id.eq(id.get()))
                .exec(&txn)
                .await
                .with_context(|| format!("failed to archive product {id}"))?;
            let after = one_product(&txn, id.get()).await?;
            (Removal::Archived, Some(product_json(&after)))
        };
        self.audit(
            &txn,
            actor,
            AuditKind::ProductDelete,
            product_target(id.get()),
            Some(product_json(&before)),
            after,
        )
        .await?;
        txn.commit()
            .await
            .with_context(|| format!("failed to commit the removal of product {id}"))?;
        Ok(removal)
    }

    #[tracing::instrument(skip_all, fields(count = positions.len()))]
    async fn reorder(
        &self,
        positions: Vec<(ProductId, i32)>,
        actor: &Actor,
    ) -> Result<(), CatalogError> {
        let txn = self.begin().await?;
        let now = self.now();
        let (mut before, mut after) = (serde_json::Map::new(), serde_json::Map::new());
        for (id, position) in positions {
            if !crate::products::lock_product(&txn, id.get()).await? {
                txn.rollback().await.context("failed to roll back")?;
                return Err(CatalogError::NotFound(id));
            }
            let row = products::Entity::find_by_id(id.get())
                .one(&txn)
                .await
                .with_context(|| format!("failed to load product {id}"))?
                .ok_or(CatalogError::NotFound(id))?;
            products::Entity::update_many()
                .col_expr(products::Column::SortOrder, Expr::value(position))
                .col_expr(products::Column::UpdatedAt, Expr::value(now))
                .filter(products::Column::Id.eq(id.get()))
                .exec(&txn)
                .await
                .with_context(|| format!("failed to move product {id}"))?;
            // Only the products that moved, under their name and id.
            if row.sort_order != Some(position) {
                let key = format!("{} (#{id})", row.name);
                before.insert(key.clone(), row.sort_order.into());
                after.insert(key, position.into());
            }
        }
        self.audit(
            &txn,
            actor,
            AuditKind::ProductReorder,
            "products",
            Some(before.into()),
            Some(after.into()),
        )
        .await?;
        txn.commit()
            .await
            .context("failed to commit the new order")?;
        Ok(())
    }

    #[tracing::instrument(skip(self, actor))]
    async fn set_stock(
        &self,
        id: ProductId,
        stock: Stock,
        actor: &Actor,
    ) -> Result<Product, CatalogError> {
        let write = StockWrite {
            sql: "UPDATE products SET stock = ?, updated_at = ? WHERE id = ?",
            values: vec![stock.count().into(), self.now().into(), id.get().into()],
            kind: AuditKind::StockSet,
            asked: None,
            counted_only: false,
        };
        self.write_stock(id, write, actor).await
    }

    #[tracing::instrument(skip(self, actor))]
    async fn change_stock(
        &self,
        id: ProductId,
        change: StockChange,
        actor: &Actor,
    ) -> Result<Product, CatalogError> {
        let (sql, values, asked): (&str, Vec<Value>, String) = match change {
            StockChange::Plus(n) => (
                "UPDATE products SET stock = COALESCE(stock, 0) + ?, updated_at = ? WHERE id = ?",
                vec![i64::from(n).into(), self.now().into(), id.get().into()],
                format!("+{n}"),
            ),
            StockChange::Minus(n) => (
                "UPDATE products SET stock = CASE WHEN stock > ? THEN stock - ? ELSE 0 END, \
                 updated_at = ? WHERE id = ? AND stock IS NOT NULL",
                vec![
                    i64::from(n).into(),
                    i64::from(n).into(),
                    self.now().into(),
                    id.get().into(),
                ],
                format!("-{n}"),
            ),
        };
        let write = StockWrite {
            sql,
            values,
            kind: AuditKind::StockChange,
            asked: Some(asked),
            counted_only: matches!(change, StockChange::Minus(_)),
        };
        self.write_stock(id, write, actor).await
    }

    #[tracing::instrument(skip(self))]
    async fn bundles_containing(&self, id: ProductId) -> Result<Vec<ProductId>, CatalogError> {
        Ok(bundle_items::Entity::find()
            .filter(bundle_items::Column::ProductId.eq(id.get()))
            .all(&self.db)
            .await
            .with_context(|| format!("failed to load the bundles containing product {id}"))?
            .into_iter()
            .map(|row| ProductId::new(row.bundle_id))
            .collect())
    }

    #[tracing::instrument(skip(self))]
    async fn image_paths_in_use(&self) -> Result<Vec<String>, CatalogError> {
        let paths: Vec<Option<String>> = products::Entity::find()
            .select_only()
            .column(products::Column::Image)
            .filter(products::Column::Image.is_not_null())
            .distinct()
            .into_tuple()
            .all(&self.db)
            .await
            .context("failed to list the product images in use")?;
        Ok(paths.into_iter().flatten().collect())
    }
}

/// One write of a product's stock: its statement, how the audit log names it (`asked`: the
/// change asked for, when it is one), and whether it applies to a counted stock only.
struct StockWrite<'a> {
    sql: &'a str,
    values: Vec<Value>,
    kind: AuditKind,
    asked: Option<String>,
    counted_only: bool,
}

impl Store {
    /// Writes product `id`'s stock under its row lock (one conditional statement: never below
    /// zero), audited with its name and stock before and after.
    async fn write_stock(
        &self,
        id: ProductId,
        write: StockWrite<'_>,
        actor: &Actor,
    ) -> Result<Product, CatalogError> {
        let txn = locked_product(&self.db, id).await?;
        let before = product_row(&txn, id).await?;
        if write.counted_only && before.stock.is_none() {
            txn.rollback().await.context("failed to roll back")?;
            return Err(CatalogError::UnlimitedStock(id));
        }
        run(&txn, write.sql, write.values)
            .await
            .with_context(|| format!("failed to change the stock of product {id}"))?;
        let mut after = stock_json(&product_row(&txn, id).await?);
        if let Some(asked) = write.asked {
            after["change"] = asked.into();
        }
        let before = Some(stock_json(&before));
        self.audit(
            &txn,
            actor,
            write.kind,
            product_target(id.get()),
            before,
            Some(after),
        )
        .await?;
        txn.commit()
            .await
            .with_context(|| format!("failed to commit the stock of product {id}"))?;
        catalog::ProductRepository::product(self, id).await
    }
}
