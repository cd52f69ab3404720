use std::collections::HashMap;

use anyhow::Context;
use cart_pricing::Money;
use catalog::{CatalogError, Product, ProductDraft, ProductId, ProductRepository, Stock};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, Condition, ConnectionTrait, EntityTrait, PaginatorTrait,
    QueryFilter, QueryOrder, Statement, TransactionTrait,
};

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
        let txn = self
            .db
            .begin()
            .await
            .context("failed to start a transaction")?;
        let now = self.now();
        for (id, draft) in &products {
            products::Entity::insert(active_model(*id, draft, now))
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

/// Bundle id -> its component ids in order; for one bundle or for all.
/// These products (archived ones too) with their bundles' components, in two statements
/// however many ids are given; ids that do not exist are left out.
pub(crate) async fn products_with_ids(
    db: &impl ConnectionTrait,
    ids: &[i64],
) -> Result<Vec<Product>, CatalogError> {
    use sea_orm::{ColumnTrait, QueryFilter};
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
    use sea_orm::{ColumnTrait, QueryFilter};
    let rows = bundle_items::Entity::find()
        .filter(bundle_items::Column::BundleId.is_in(bundles.iter().copied()))
        .order_by_asc(bundle_items::Column::BundleId)
        .order_by_asc(bundle_items::Column::Position)
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

pub(crate) async fn bundle_components(
    db: &impl ConnectionTrait,
    bundle: Option<i64>,
) -> Result<HashMap<i64, Vec<ProductId>>, CatalogError> {
    use sea_orm::{ColumnTrait, QueryFilter};
    let mut query = bundle_items::Entity::find()
        .order_by_asc(bundle_items::Column::BundleId)
        .order_by_asc(bundle_items::Column::Position);
    if let Some(id) = bundle {
        query = query.filter(bundle_items::Column::BundleId.eq(id));
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

fn active_model(
    id: ProductId,
    draft: &ProductDraft,
    now: chrono::DateTime<chrono::Utc>,
) -> products::ActiveModel {
    products::ActiveModel {
        id: Set(id.get()),
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
        release_announced_at: Set(None),
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
