use std::collections::HashMap;

use anyhow::Context;
use cart_pricing::Money;
use catalog::{CatalogError, Product, ProductDraft, ProductId, ProductRepository, Stock};
use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, SimpleExpr};
use sea_orm::{
    ActiveValue::{NotSet, Set},
    ColumnTrait, Condition, ConnectionTrait, DatabaseConnection, DatabaseTransaction, EntityTrait,
    PaginatorTrait, QueryFilter, QueryOrder, Statement, TransactionTrait,
};

use serde_json::{json, Value};

use crate::entities::{bundle_items, products};
use crate::{Backend, Store};

impl ProductRepository for Store {
    #[tracing::instrument(skip(self))]
    async fn all_products(&self) -> Result<Vec<Product>, CatalogError> {
        let rows = products::Entity::find()
            .all(&self.db)
            .await
            .context("failed to load the products")?;
        let mut components = bundle_components(&self.db, None).await?;
        rows.into_iter()
            .map(|row| {
                let related = components.remove(&row.id).unwrap_or_default();
                to_product(row, related)
            })
            .collect()
    }

    #[tracing::instrument(skip(self))]
    async fn product(&self, id: ProductId) -> Result<Product, CatalogError> {
        let row = products::Entity::find_by_id(id.get())
            .one(&self.db)
            .await
            .with_context(|| format!("failed to load product {id}"))?
            .ok_or(CatalogError::NotFound(id))?;
        let related = bundle_components(&self.db, Some(id.get()))
            .await?
            .remove(&id.get())
            .unwrap_or_default();
        to_product(row, related)
    }

    #[tracing::instrument(skip(self))]
    async fn count_products(&self) -> Result<u64, CatalogError> {
        Ok(products::Entity::find()
            .count(&self.db)
            .await
            .context("failed to count the products")?)
    }

    #[tracing::instrument(skip(self, products), fields(count = products.len()))]
    async fn insert_with_ids(
        &self,
        products: Vec<(ProductId, ProductDraft)>,
    ) -> Result<(), CatalogError> {
        let txn = self.begin().await?;
        let now = self.now();
        for (id, draft) in &products {
            products::Entity::insert(active_model(Some(*id), draft, now))
                .exec_without_returning(&txn)
                .await
                .with_context(|| format!("failed to insert product {id}"))?;
        }
        for (id, draft) in &products {
            insert_components(&txn, *id, &draft.related_ids).await?;
        }
        if self.backend() == Backend::Postgres {
            // Explicit ids leave the id sequence behind; move it past the largest id.
            txn.execute(Statement::from_string(
                txn.get_database_backend(),
                "SELECT setval(pg_get_serial_sequence('products', 'id'), \
                 (SELECT COALESCE(MAX(id), 1) FROM products))",
            ))
            .await
            .context("failed to advance the product id sequence")?;
        }
        txn.commit()
            .await
            .context("failed to commit the products")?;
        Ok(())
    }
}

pub(crate) async fn insert_components(
    txn: &impl ConnectionTrait,
    bundle: ProductId,
    components: &[ProductId],
) -> Result<(), CatalogError> {
    if components.is_empty() {
        return Ok(());
    }
    let rows =
        components
            .iter()
            .enumerate()
            .map(|(position, component)| bundle_items::ActiveModel {
                bundle_id: Set(bundle.get()),
                product_id: Set(component.get()),
                position: Set(i32::try_from(position).unwrap_or(i32::MAX)),
            });
    bundle_items::Entity::insert_many(rows)
        .exec_without_returning(txn)
        .await
        .with_context(|| format!("failed to store the components of bundle {bundle}"))?;
    Ok(())
}

/// Takes `quantity` of product `id`'s stock for an order placed in `txn` (a conditional UPDATE
/// that locks the row); `false` when the stock cannot cover it.
pub(crate) async fn take_stock(
    txn: &impl ConnectionTrait,
    id: ProductId,
    quantity: u32,
    at: DateTime<Utc>,
) -> anyhow::Result<bool> {
    let quantity = i64::from(quantity);
    let taken = products::Entity::update_many()
        .col_expr(
            products::Column::Stock,
            Expr::col(products::Column::Stock).sub(quantity),
        )
        .col_expr(products::Column::UpdatedAt, Expr::value(at))
        .filter(products::Column::Id.eq(id.get()))
        .filter(products::Column::Stock.is_not_null())
        .filter(products::Column::Stock.gte(quantity))
        .exec(txn)
        .await
        .with_context(|| format!("failed to reserve stock of product {id}"))?;
    Ok(taken.rows_affected == 1)
}

/// Gives `quantity` back to product `id`'s stock (an order closed unpaid) in `txn`.
pub(crate) async fn give_back_stock(
    txn: &impl ConnectionTrait,
    id: i64,
    quantity: i64,
    at: DateTime<Utc>,
) -> anyhow::Result<()> {
    products::Entity::update_many()
        .col_expr(
            products::Column::Stock,
            Expr::col(products::Column::Stock).add(quantity),
        )
        .col_expr(products::Column::UpdatedAt, Expr::value(at))
        .filter(products::Column::Id.eq(id))
        .filter(products::Column::Stock.is_not_null())
        .exec(txn)
        .await
        .with_context(|| format!("failed to give back stock of product {id}"))?;
    Ok(())
}

/// These products (archived ones too) with their bundles' components, in two statements
/// however many ids are given; ids that do not exist are left out.
pub(crate) async fn products_with_ids(
    db: &impl ConnectionTrait,
    ids: &[i64],
) -> Result<Vec<Product>, CatalogError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows = products::Entity::find()
        .filter(products::Column::Id.is_in(ids.iter().copied()))
        .all(db)
        .await
        .context("failed to load the cart's products")?;
    let mut components = components_of(db, ids).await?;
    rows.into_iter()
        .map(|row| {
            let related = components.remove(&row.id).unwrap_or_default();
            to_product(row, related)
        })
        .collect()
}

/// The components of these bundles, by bundle id.
async fn components_of(
    db: &impl ConnectionTrait,
    bundles: &[i64],
) -> Result<HashMap<i64, Vec<ProductId>>, CatalogError> {
    let bundles = bundles.iter().copied();
    components_where(db, Some(bundle_items::Column::BundleId.is_in(bundles))).await
}

/// Bundle id -> its component ids in order; for one bundle or for all.
pub(crate) async fn bundle_components(
    db: &impl ConnectionTrait,
    bundle: Option<i64>,
) -> Result<HashMap<i64, Vec<ProductId>>, CatalogError> {
    components_where(db, bundle.map(|id| bundle_items::Column::BundleId.eq(id))).await
}

async fn components_where(
    db: &impl ConnectionTrait,
    filter: Option<SimpleExpr>,
) -> Result<HashMap<i64, Vec<ProductId>>, CatalogError> {
    let mut query = bundle_items::Entity::find()
        .order_by_asc(bundle_items::Column::BundleId)
        .order_by_asc(bundle_items::Column::Position);
    if let Some(filter) = filter {
        query = query.filter(filter);
    }
    let rows = query
        .all(db)
        .await
        .context("failed to load bundle components")?;
    let mut map: HashMap<i64, Vec<ProductId>> = HashMap::new();
    for row in rows {
        map.entry(row.bundle_id)
            .or_default()
            .push(ProductId::new(row.product_id));
    }
    Ok(map)
}

/// A product's row as the admin's draft writes it: with `id` when the caller chooses it, and
/// never its release announcement (a new row has none, an update keeps it).
pub(crate) fn active_model(
    id: Option<ProductId>,
    draft: &ProductDraft,
    now: DateTime<Utc>,
) -> products::ActiveModel {
    products::ActiveModel {
        id: id.map_or(NotSet, |id| Set(id.get())),
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
        release_at: Set(draft.release_at),
        max_per_account: Set(draft.max_per_account.map(|n| n as i32)),
        release_announced_at: NotSet,
    }
}

pub(crate) fn to_product(
    row: products::Model,
    related_ids: Vec<ProductId>,
) -> Result<Product, CatalogError> {
    let money = |cents: i64, what: &str| {
        Money::from_cents(cents)
            .with_context(|| format!("product {} has an invalid {what}", row.id))
    };
    Ok(Product {
        id: ProductId::new(row.id),
        price: money(row.price_cents, "price")?,
        savings: row.savings_cents.map(|c| money(c, "savings")).transpose()?,
        stock: Stock::from_count(row.stock),
        name: row.name,
        description: row.description,
        category: row.category,
        image: row.image,
        weight: row.weight,
        mutation: row.mutation,
        sort_order: row.sort_order,
        delete_after_out_of_stock: row.delete_after_out_of_stock,
        related_ids,
        dupe_warning: row.dupe_warning,
        archived: row.archived,
        release_at: row.release_at,
        max_per_account: row.max_per_account.map(|n| u32::try_from(n).unwrap_or(1)),
    })
}

impl Store {
    /// Claims the announcement of every release that has come by `now` and was not announced
    /// yet (`release_announced_at` set to the product's `release_at` in one conditional
    /// statement), and answers how many this call claimed: of several instances waking at the
    /// same release, exactly one gets a count above zero and publishes it. A release moved
    /// after it was announced is announced again at its new time.
    pub async fn claim_release_announcements(
        &self,
        now: chrono::DateTime<chrono::Utc>,
    ) -> anyhow::Result<u64> {
        let claimed = products::Entity::update_many()
            .col_expr(
                products::Column::ReleaseAnnouncedAt,
                Expr::col(products::Column::ReleaseAt).into(),
            )
            .filter(products::Column::ReleaseAt.is_not_null())
            .filter(products::Column::ReleaseAt.lte(now))
            .filter(
                Condition::any()
                    .add(products::Column::ReleaseAnnouncedAt.is_null())
                    .add(
                        Expr::col(products::Column::ReleaseAnnouncedAt)
                            .ne(Expr::col(products::Column::ReleaseAt)),
                    ),
            )
            .exec(&self.db)
            .await
            .context("failed to claim the announcement of a release")?;
        Ok(claimed.rows_affected)
    }
}

/// The audit target of a product.
pub(crate) fn product_target(id: i64) -> String {
    format!("product:{id}")
}

/// Takes the product's row lock inside `txn` with a write that changes nothing the shop
/// reads, so the values read next are the ones this transaction replaces (a PostgreSQL row
/// lock; SQLite's write lock, taken before any read so the transaction never has to upgrade).
/// `false` when there is no such product.
pub(crate) async fn lock_product(txn: &impl ConnectionTrait, id: i64) -> anyhow::Result<bool> {
    let locked = products::Entity::update_many()
        .col_expr(
            products::Column::UpdatedAt,
            Expr::col(products::Column::UpdatedAt).into(),
        )
        .filter(products::Column::Id.eq(id))
        .exec(txn)
        .await
        .with_context(|| format!("failed to lock product {id}"))?;
    Ok(locked.rows_affected == 1)
}

/// A product's values as the audit log keeps them (price and savings as decimal text).
pub(crate) fn product_json(product: &catalog::Product) -> Value {
    json!({
        "name": product.name,
        "price": format!("{:.2}", product.price.as_decimal()),
        "category": product.category,
        "description": product.description,
        "image": product.image,
        "stock": product.stock.count(),
        "weight": product.weight,
        "mutation": product.mutation,
        "savings": product.savings.map(|s| format!("{:.2}", s.as_decimal())),
        "sort_order": product.sort_order,
        "delete_after_out_of_stock": product.delete_after_out_of_stock,
        "dupe_warning": product.dupe_warning,
        "related_ids": product.related_ids.iter().map(|id| id.get()).collect::<Vec<_>>(),
        "archived": product.archived,
        "release_at": product.release_at.map(|at| at.to_rfc3339()),
        "max_per_account": product.max_per_account,
    })
}

/// The name and stock of a product row, as stock entries show them.
pub(crate) fn stock_json(row: &products::Model) -> Value {
    json!({ "name": row.name, "stock": row.stock })
}

/// A transaction holding product `id`'s row lock (`lock_product`); `NotFound`, rolled back,
/// when there is no such product.
pub(crate) async fn locked_product(
    db: &DatabaseConnection,
    id: ProductId,
) -> Result<DatabaseTransaction, CatalogError> {
    let txn = db.begin().await.context("failed to start a transaction")?;
    if !lock_product(&txn, id.get()).await? {
        txn.rollback().await.context("failed to roll back")?;
        return Err(CatalogError::NotFound(id));
    }
    Ok(txn)
}

/// For another area's statement over rows that name a product (its id in `column`): the
/// product's row as `alias`, where it still exists.
pub(crate) fn product_join(alias: &str, column: &str) -> String {
    format!("LEFT JOIN products {alias} ON {alias}.id = {column}")
}

/// The products with a cap per account, as a subquery.
pub(crate) const CAPPED: &str = "SELECT c.id FROM products c WHERE c.max_per_account IS NOT NULL";

/// Takes product `id` off the storefront in `txn` when it is sold out for good: its stock is
/// gone, it is to go then, and no pending order still holds some.
pub(crate) async fn archive_if_sold_out(
    txn: &impl ConnectionTrait,
    id: i64,
    at: DateTime<Utc>,
) -> anyhow::Result<()> {
    let pending_hold = crate::order_rows::PENDING_RESERVATION;
    txn.execute(crate::sql::statement(
        txn,
        &format!(
            "UPDATE products SET archived = ?, updated_at = ? \
             WHERE id = ? AND delete_after_out_of_stock = ? AND archived = ? AND stock = 0 \
             AND NOT EXISTS {pending_hold}"
        ),
        vec![
            true.into(),
            at.into(),
            id.into(),
            true.into(),
            false.into(),
            orders::OrderStatus::Pending.as_str().into(),
        ],
    ))
    .await
    .with_context(|| format!("failed to archive sold-out product {id}"))?;
    Ok(())
}
