//! The admin's writes to the catalog, each in one transaction; stock changes as single
//! conditional statements so concurrent clicks never lose one another nor go below zero.

use anyhow::Context;
use catalog::{
    CatalogError, Product, ProductDraft, ProductId, ProductWrites, Removal, Stock, StockChange,
};
use chrono::Utc;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveValue::{NotSet, Set},
    ColumnTrait, ConnectionTrait, DatabaseBackend, EntityTrait, QueryFilter, QuerySelect,
    Statement, TransactionTrait, Value,
};

use crate::entities::{bundle_items, products};
use crate::products::insert_components;
use crate::Store;

/// A statement with `?` placeholders, numbered `$1, $2...` for PostgreSQL.
pub(crate) fn statement(db: &impl ConnectionTrait, sql: &str, values: Vec<Value>) -> Statement {
    let backend = db.get_database_backend();
    let sql = match backend {
        DatabaseBackend::Postgres => {
            let mut numbered = String::with_capacity(sql.len() + 8);
            let mut n = 0;
            for c in sql.chars() {
                if c == '?' {
                    n += 1;
                    numbered.push('$');
                    numbered.push_str(&n.to_string());
                } else {
                    numbered.push(c);
                }
            }
            numbered
        }
        _ => sql.to_owned(),
    };
    Statement::from_sql_and_values(backend, sql, values)
}

fn new_row(draft: &ProductDraft) -> products::ActiveModel {
    let now = Utc::now();
    products::ActiveModel {
        id: NotSet,
        name: Set(draft.name.clone()),
        description: Set(draft.description.clone()),
        price_cents: Set(draft.price.cents()),
        category: Set(draft.category.clone()),
        image: Set(draft.image.clone()),
        stock: Set(draft.stock.count()),
        weight: Set(draft.weight),
        mutation: Set(draft.mutation.clone()),
        savings_cents: Set(draft.savings.map(|m| m.cents())),
        sort_order: Set(draft.sort_order),
        delete_after_out_of_stock: Set(draft.delete_after_out_of_stock),
        dupe_warning: Set(draft.dupe_warning),
        archived: Set(false),
        created_at: Set(now),
        updated_at: Set(now),
    }
}

impl ProductWrites for Store {
    #[tracing::instrument(skip_all, fields(name = %draft.name))]
    async fn create(&self, draft: ProductDraft) -> Result<Product, CatalogError> {
        let txn = self
            .db
            .begin()
            .await
            .context("failed to start a transaction")?;
        let id = products::Entity::insert(new_row(&draft))
            .exec(&txn)
            .await
            .context("failed to insert the product")?
            .last_insert_id;
        insert_components(&txn, ProductId::new(id), &draft.related_ids).await?;
        txn.commit()
            .await
            .context("failed to commit the new product")?;
        catalog::ProductRepository::product(self, ProductId::new(id)).await
    }

    #[tracing::instrument(skip(self, draft))]
    async fn update(&self, id: ProductId, draft: ProductDraft) -> Result<Product, CatalogError> {
        let txn = self
            .db
            .begin()
            .await
            .context("failed to start a transaction")?;
        let row = new_row(&draft);
        let updated = products::Entity::update_many()
            .set(products::ActiveModel {
                created_at: NotSet,
                archived: NotSet,
                ..row
            })
            .filter(products::Column::Id.eq(id.get()))
            .exec(&txn)
            .await
            .with_context(|| format!("failed to update product {id}"))?;
        if updated.rows_affected != 1 {
            txn.rollback().await.context("failed to roll back")?;
            return Err(CatalogError::NotFound(id));
        }
        bundle_items::Entity::delete_many()
            .filter(bundle_items::Column::BundleId.eq(id.get()))
            .exec(&txn)
            .await
            .with_context(|| format!("failed to clear the components of product {id}"))?;
        insert_components(&txn, id, &draft.related_ids).await?;
        txn.commit()
            .await
            .with_context(|| format!("failed to commit product {id}"))?;
        catalog::ProductRepository::product(self, id).await
    }

    #[tracing::instrument(skip(self))]
    async fn remove(&self, id: ProductId) -> Result<Removal, CatalogError> {
        let txn = self
            .db
            .begin()
            .await
            .context("failed to start a transaction")?;
        // Deleted only while no order line or reservation names it: decided by the statement.
        let deleted = txn
            .execute(statement(
                &txn,
                "DELETE FROM products WHERE id = ? \
                 AND NOT EXISTS (SELECT 1 FROM order_lines WHERE product_id = ?) \
                 AND NOT EXISTS (SELECT 1 FROM order_reservations WHERE product_id = ?)",
                vec![id.get().into(), id.get().into(), id.get().into()],
            ))
            .await
            .with_context(|| format!("failed to delete product {id}"))?;
        let removal = if deleted.rows_affected() == 1 {
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
            Removal::Deleted
        } else {
            let archived = products::Entity::update_many()
                .col_expr(products::Column::Archived, Expr::value(true))
                .col_expr(products::Column::UpdatedAt, Expr::value(Utc::now()))
                .filter(products::Column::Id.eq(id.get()))
                .exec(&txn)
                .await
                .with_context(|| format!("failed to archive product {id}"))?;
            if archived.rows_affected != 1 {
                txn.rollback().await.context("failed to roll back")?;
                return Err(CatalogError::NotFound(id));
            }
            Removal::Archived
        };
        txn.commit()
            .await
            .with_context(|| format!("failed to commit the removal of product {id}"))?;
        Ok(removal)
    }

    #[tracing::instrument(skip_all, fields(count = positions.len()))]
    async fn reorder(&self, positions: Vec<(ProductId, i32)>) -> Result<(), CatalogError> {
        let txn = self
            .db
            .begin()
            .await
            .context("failed to start a transaction")?;
        let now = Utc::now();
        for (id, position) in positions {
            let updated = products::Entity::update_many()
                .col_expr(products::Column::SortOrder, Expr::value(position))
                .col_expr(products::Column::UpdatedAt, Expr::value(now))
                .filter(products::Column::Id.eq(id.get()))
                .exec(&txn)
                .await
                .with_context(|| format!("failed to move product {id}"))?;
            if updated.rows_affected != 1 {
                txn.rollback().await.context("failed to roll back")?;
                return Err(CatalogError::NotFound(id));
            }
        }
        txn.commit()
            .await
            .context("failed to commit the new order")?;
        Ok(())
    }

    #[tracing::instrument(skip(self))]
    async fn set_stock(&self, id: ProductId, stock: Stock) -> Result<Product, CatalogError> {
        let updated = products::Entity::update_many()
            .col_expr(products::Column::Stock, Expr::value(stock.count()))
            .col_expr(products::Column::UpdatedAt, Expr::value(Utc::now()))
            .filter(products::Column::Id.eq(id.get()))
            .exec(&self.db)
            .await
            .with_context(|| format!("failed to set the stock of product {id}"))?;
        if updated.rows_affected != 1 {
            return Err(CatalogError::NotFound(id));
        }
        catalog::ProductRepository::product(self, id).await
    }

    #[tracing::instrument(skip(self))]
    async fn change_stock(
        &self,
        id: ProductId,
        change: StockChange,
    ) -> Result<Product, CatalogError> {
        let (sql, values): (&str, Vec<Value>) = match change {
            StockChange::Plus(n) => (
                "UPDATE products SET stock = COALESCE(stock, 0) + ?, updated_at = ? WHERE id = ?",
                vec![i64::from(n).into(), Utc::now().into(), id.get().into()],
            ),
            StockChange::Minus(n) => (
                "UPDATE products SET stock = CASE WHEN stock > ? THEN stock - ? ELSE 0 END, \
                 updated_at = ? WHERE id = ? AND stock IS NOT NULL",
                vec![
                    i64::from(n).into(),
                    i64::from(n).into(),
                    Utc::now().into(),
                    id.get().into(),
                ],
            ),
        };
        self.db
            .execute(statement(&self.db, sql, values))
            .await
            .with_context(|| format!("failed to change the stock of product {id}"))?;
        // No row changed: the product is unknown (NotFound below) or its stock is unlimited.
        catalog::ProductRepository::product(self, id).await
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
