//! What the other areas read of the orders: the order's row lock and audit values, small reads,
//! and the SQL fragments their statements take (the account's orders, an order joined, a
//! product named by an order). It calls no other area.

use std::collections::HashMap;

use anyhow::Context;
use catalog::{CatalogError, ProductId};
use chrono::{DateTime, Utc};
use orders::{OrderId, PaymentProvider};
use promo::PromoId;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{json, Value};

use crate::entities::orders as order_rows;
use crate::sql::{fetch_all, fetch_one, run};

/// The audit target of an order.
pub(crate) fn order_target(id: i64) -> String {
    format!("order:{id}")
}

/// Takes the order's row lock inside `txn` (see `products::lock_product`); `false` when there is no
/// such order.
pub(crate) async fn lock_order(txn: &impl ConnectionTrait, id: i64) -> anyhow::Result<bool> {
    let locked = run(
        txn,
        "UPDATE orders SET status = status WHERE id = ?",
        vec![id.into()],
    )
    .await
    .with_context(|| format!("failed to lock order {id}"))?;
    Ok(locked.rows_affected() == 1)
}

/// An order's queue values as the audit log keeps them: its status, who claimed it and its
/// proof of delivery, and its risk hold (`hold`, the reason) while it has one. `None` when
/// there is no such order.
pub(crate) async fn order_json(
    txn: &impl ConnectionTrait,
    id: i64,
) -> anyhow::Result<Option<Value>> {
    let row = fetch_one(
        txn,
        "SELECT status, claimed_by, proof_id, hold_reason FROM orders WHERE id = ?",
        vec![id.into()],
    )
    .await
    .with_context(|| format!("failed to read order {id} for the audit log"))?;
    let Some(row) = row else {
        return Ok(None);
    };
    let status: String = row.try_get("", "status")?;
    let claimed_by: Option<i64> = row.try_get("", "claimed_by")?;
    let proof_id: Option<i64> = row.try_get("", "proof_id")?;
    let hold: Option<String> = row.try_get("", "hold_reason")?;
    let mut values = json!({
        "status": status,
        "claimed_by": claimed_by,
        "proof_id": proof_id,
    });
    if let (Some(hold), Some(values)) = (hold, values.as_object_mut()) {
        values.insert("hold".to_owned(), Value::String(hold));
    }
    Ok(Some(values))
}

/// How many orders, of any status, name promo code `id` (each keeps it for its history).
pub(crate) async fn with_promo(txn: &impl ConnectionTrait, id: PromoId) -> anyhow::Result<u64> {
    order_rows::Entity::find()
        .filter(order_rows::Column::PromoCodeId.eq(id.get()))
        .count(txn)
        .await
        .with_context(|| format!("failed to look up the orders of promo code {id}"))
}

/// Whether a pending, paid, delivered or disputed order holds units of the product, alone or
/// inside a bundle (the parts its line keeps).
pub(crate) async fn holds_product(
    txn: &impl ConnectionTrait,
    id: ProductId,
) -> Result<bool, CatalogError> {
    let (marks, statuses) = crate::sql::holding_statuses();
    let mut values: Vec<sea_orm::Value> = vec![id.get().into(), id.get().into()];
    values.extend(statuses);
    let found = fetch_one(
        txn,
        &format!(
            "SELECT 1 AS held FROM order_lines l JOIN orders o ON o.id = l.order_id \
                 WHERE (l.product_id = ? OR EXISTS (SELECT 1 FROM order_line_parts p \
                   WHERE p.order_id = l.order_id AND p.position = l.position \
                   AND p.product_id = ?)) \
                 AND o.status IN ({marks}) LIMIT 1"
        ),
        values,
    )
    .await
    .with_context(|| format!("failed to look for orders holding product {id}"))?;
    Ok(found.is_some())
}

/// The products of these orders, by order, in their lines' order.
pub(crate) async fn products_of(
    db: &impl ConnectionTrait,
    orders: &[i64],
) -> anyhow::Result<HashMap<i64, Vec<i64>>> {
    let mut by_order: HashMap<i64, Vec<i64>> = HashMap::new();
    if orders.is_empty() {
        return Ok(by_order);
    }
    let marks = crate::sql::marks(orders.len());
    let rows = fetch_all(
        db,
        &format!(
            "SELECT order_id, product_id FROM order_lines WHERE order_id IN ({marks}) \
                 ORDER BY order_id, position"
        ),
        orders.iter().map(|id| (*id).into()).collect(),
    )
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

/// For a statement about the products (`products` its row): a pending order holds some, its
/// status the one `?`.
pub(crate) const PENDING_RESERVATION: &str = "(SELECT 1 FROM order_reservations r \
     JOIN orders o ON o.id = r.order_id \
     WHERE r.product_id = products.id AND o.status = ?)";

/// For a statement about product `?` (twice): whether no order line and no reservation
/// names it.
pub(crate) const NAMES_NO_PRODUCT: &str =
    "NOT EXISTS (SELECT 1 FROM order_lines WHERE product_id = ?) \
     AND NOT EXISTS (SELECT 1 FROM order_reservations WHERE product_id = ?)";

/// For another area's statement about an order (its id in `column`): that a line of the order
/// is of the product `?`.
pub(crate) fn has_product(column: &str) -> String {
    format!("EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = {column} AND l.product_id = ?)")
}

/// For another area's statement about an order (its id in `column`): that the order's status is
/// none of the two `?`.
pub(crate) fn status_not_in(column: &str) -> String {
    format!("EXISTS (SELECT 1 FROM orders o WHERE o.id = {column} AND o.status NOT IN (?, ?))")
}

/// For another area's statement over rows that name an order (its id in `column`): the order's
/// row as `alias`, where it exists.
pub(crate) fn order_join(alias: &str, column: &str) -> String {
    format!("LEFT JOIN orders {alias} ON {alias}.id = {column}")
}

/// For another area's statement: the first order paid by the payment (`?`: the provider, the
/// payment's id), as a subquery.
pub(crate) const PAID_BY: &str =
    "(SELECT id FROM orders WHERE provider = ? AND payment_id = ? ORDER BY id LIMIT 1)";

/// The first order paid by the provider's payment `payment_id`, with its status as stored.
pub(crate) async fn paid_by(
    db: &impl ConnectionTrait,
    provider: PaymentProvider,
    payment_id: &str,
) -> anyhow::Result<Option<(OrderId, String)>> {
    let row = fetch_one(
        db,
        "SELECT id, status FROM orders WHERE provider = ? AND payment_id = ? \
             ORDER BY id LIMIT 1",
        vec![provider.as_str().into(), payment_id.into()],
    )
    .await
    .context("failed to read the order of a payment")?;
    row.map(|row| {
        Ok((
            OrderId::new(row.try_get("", "id")?),
            row.try_get("", "status")?,
        ))
    })
    .transpose()
}

/// How many orders were paid since `since`.
pub(crate) async fn paid_since(
    db: &impl ConnectionTrait,
    since: DateTime<Utc>,
) -> anyhow::Result<u64> {
    let row = fetch_one(
        db,
        "SELECT CAST(COUNT(*) AS BIGINT) AS paid FROM orders WHERE paid_at >= ?",
        vec![since.into()],
    )
    .await
    .context("failed to count the paid orders")?
    .context("a count answers one row")?;
    let paid: i64 = row.try_get("", "paid")?;
    Ok(u64::try_from(paid).unwrap_or(0))
}

/// The orders of the account being erased, as a subquery with one `?` (its id), for the
/// statements of other areas that forget what they keep of those orders.
pub(crate) const ITS_ORDERS: &str = "(SELECT id FROM orders WHERE user_id = ?)";

/// The buyer's fields of the paid orders of the account being erased, as the start of a SELECT
/// with two `?`: the time to stamp them with and the account's id.
pub(crate) const PAID_BUYER_FIELDS: &str = "SELECT id, email, discord_id, discord_username, \
     roblox_username, client_ip, buyer_ready_ip, received_ip, paid_at, ? FROM orders \
     WHERE user_id = ? AND paid_at IS NOT NULL";
