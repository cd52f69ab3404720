//! Orders on both databases: placement with its stock reservation, payment, expiry and
//! cancellation, each in one transaction, and the providers' events recorded with the change
//! they caused.
//!
//! On SQLite every write transaction here starts with a write, so it takes the database's write
//! lock at its first statement and waits for it (the connection's busy timeout) instead of
//! failing to upgrade a read lock later; on PostgreSQL the conditional UPDATEs lock the rows
//! they change, in product id order, so concurrent orders queue rather than deadlock.
//!
//! Placing an order, once its stock is taken, serialises on its holders (Discord account,
//! browser session, client address: transaction-scoped advisory locks on PostgreSQL, the write
//! lock on SQLite), then counts their pending orders, so parallel checkouts cannot all pass a
//! cap; checkouts refused for stock never wait for those locks. A promo code's
//! `uses` is raised by a conditional UPDATE (`uses < max_uses`) and the account's claim is the
//! redemption row (one per code and account), both in the placing transaction; releasing the
//! order gives both back.

use std::collections::HashMap;

use anyhow::Context;
use cart_pricing::{DiscountPercent, Money, PaymentMethod, Quantity};
use catalog::{CatalogError, Product, ProductId};
use chrono::{DateTime, Utc};
use orders::{
    AccountCapReached, Amounts, Applied, Buyer, Closing, DiscordId, DiscordIdentity, DropHolders,
    Email, HeldUnits, HoldReason, Lifecycle, NewHold, NewOrder, Order, OrderError, OrderId,
    OrderLine, OrderPromo, OrderRepository, OrderStatus, OrderStep, Payment, PaymentProvider,
    PendingCapReached, PendingCaps, PendingCount, PlaceError, ProductLookup, ProviderEvent,
    Reservation, RiskHold, RobloxUsername,
};
use orders::{KeyedOrder, KeyedPlacement, Paid, ScopedKey};
use promo::{PromoCode, PromoId, Rejection};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveValue::{NotSet, Set},
    ColumnTrait, Condition, ConnectionTrait, DatabaseBackend, DatabaseTransaction, EntityTrait,
    QueryFilter, QueryOrder,
};

use shared::UserId;

use crate::entities::{order_line_parts, order_lines, order_reservations, orders as order_rows};
use crate::lifecycle::{record_noted_step, record_step};
use crate::sql::{fetch_all, fetch_one, run};
use crate::Store;

impl ProductLookup for Store {
    #[tracing::instrument(skip_all, fields(count = ids.len()))]
    async fn products(&self, ids: Vec<ProductId>) -> Result<Vec<Product>, CatalogError> {
        let ids: Vec<i64> = ids.iter().map(ProductId::get).collect();
        crate::products::products_with_ids(&self.db, &ids).await
    }
}

impl OrderRepository for Store {
    #[tracing::instrument(skip_all, fields(lines = order.lines.len()))]
    async fn place(
        &self,
        order: NewOrder,
        reservation: Reservation,
        caps: PendingCaps,
    ) -> Result<Order, PlaceError> {
        let txn = self.begin().await?;
        let id = match place_in(&txn, &order, &reservation, caps).await {
            Ok(id) => id,
            Err(PlaceError::Unknown(failed)) => return Err(PlaceError::Unknown(failed)),
            Err(refused) => {
                txn.rollback()
                    .await
                    .context("failed to roll back a refused order")?;
                return Err(refused);
            }
        };
        txn.commit()
            .await
            .with_context(|| format!("failed to commit order {id}"))?;
        Ok(Order::placed(OrderId::new(id), order))
    }

    #[tracing::instrument(skip(self, hash))]
    async fn set_access_key_hash(&self, id: OrderId, hash: String) -> Result<(), OrderError> {
        self.store_access_key_hash(id, hash).await
    }

    #[tracing::instrument(skip(self, reference, url))]
    async fn attach_payment_reference(
        &self,
        id: OrderId,
        reference: String,
        url: String,
    ) -> Result<(), OrderError> {
        let updated = run(
            &self.db,
            "UPDATE orders SET provider_reference = ?, payment_url = ? \
                 WHERE id = ? AND status = ? AND provider_reference IS NULL",
            vec![
                reference.into(),
                url.into(),
                id.get().into(),
                OrderStatus::Pending.as_str().into(),
            ],
        )
        .await
        .with_context(|| format!("failed to record the payment session of order {id}"))?;
        if updated.rows_affected() == 0 {
            return Err(OrderError::NotFound(id));
        }
        Ok(())
    }

    #[tracing::instrument(skip_all)]
    async fn keyed_order(
        &self,
        key: ScopedKey,
        since: DateTime<Utc>,
    ) -> Result<Option<KeyedOrder>, OrderError> {
        let found = fetch_one(
            &self.db,
            "SELECT id, request_fingerprint, payment_url, buyer_token FROM orders \
                 WHERE idempotency_key = ? AND created_at >= ?",
            vec![key.as_str().into(), since.into()],
        )
        .await
        .context("failed to look up an idempotency key")?;
        let Some(row) = found else {
            return Ok(None);
        };
        let read = || -> Result<_, sea_orm::DbErr> {
            Ok((
                row.try_get::<i64>("", "id")?,
                row.try_get::<Option<String>>("", "request_fingerprint")?,
                row.try_get::<Option<String>>("", "payment_url")?,
                row.try_get::<Option<String>>("", "buyer_token")?,
            ))
        };
        let (id, fingerprint, payment_url, buyer_token) =
            read().context("unreadable keyed order")?;
        let order = OrderRepository::order(self, OrderId::new(id)).await?;
        Ok(Some(KeyedOrder {
            order,
            fingerprint: fingerprint.unwrap_or_default(),
            payment_url,
            buyer_token,
        }))
    }

    #[tracing::instrument(skip(self))]
    async fn order(&self, id: OrderId) -> Result<Order, OrderError> {
        let row = order_rows::Entity::find_by_id(id.get())
            .one(&self.db)
            .await
            .with_context(|| format!("failed to load order {id}"))?
            .ok_or(OrderError::NotFound(id))?;
        let mut orders = with_lines(&self.db, vec![row]).await?;
        orders.pop().ok_or(OrderError::NotFound(id))
    }

    #[tracing::instrument(skip(self))]
    async fn orders_of_user(&self, user_id: UserId) -> Result<Vec<Order>, OrderError> {
        let user_id = user_id.get();
        let rows = order_rows::Entity::find()
            .filter(order_rows::Column::UserId.eq(user_id))
            .order_by_desc(order_rows::Column::CreatedAt)
            .order_by_desc(order_rows::Column::Id)
            .all(&self.db)
            .await
            .with_context(|| format!("failed to load the orders of user {user_id}"))?;
        with_lines(&self.db, rows).await
    }

    #[tracing::instrument(skip(self))]
    async fn mark_paid(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        event: Option<ProviderEvent>,
        hold: Option<NewHold>,
    ) -> Result<Applied, OrderError> {
        let Some(txn) = self.begin_with_event(event.as_ref(), at).await? else {
            return Ok(Applied::Replayed);
        };
        let paid = order_rows::Entity::update_many()
            .col_expr(
                order_rows::Column::Status,
                Expr::value(OrderStatus::Paid.as_str()),
            )
            .col_expr(order_rows::Column::PaidAt, Expr::value(at))
            .filter(order_rows::Column::Id.eq(id.get()))
            .filter(order_rows::Column::Status.eq(OrderStatus::Pending.as_str()))
            .exec(&txn)
            .await
            .with_context(|| format!("failed to mark order {id} paid"))?;
        if paid.rows_affected != 1 {
            return not_pending(txn, id).await;
        }
        // The redemption was claimed when the order was placed; an order placed before claims
        // existed counts it now (once per code and Discord account, whatever the order).
        if let Some((code, discord)) = promo_of(&txn, id).await? {
            if crate::promo::redeem(&txn, code, &discord, id.get(), at).await? {
                crate::promo::count_use(&txn, code).await?;
            }
        }
        // Sold out for good (no pending order still holds some): off the storefront.
        for product in reserved_products(&txn, id).await? {
            crate::products::archive_if_sold_out(&txn, product, at).await?;
        }
        record_step(&txn, id.get(), OrderStep::Paid, None, at).await?;
        if let Some(hold) = &hold {
            // in the payment's transaction: never in the queue without its hold
            put_on_hold(&txn, id, hold, at).await?;
        }
        txn.commit()
            .await
            .with_context(|| format!("failed to commit the payment of order {id}"))?;
        Ok(Applied::Changed)
    }

    #[tracing::instrument(skip(self, payment_id))]
    async fn mark_awaiting_payment(
        &self,
        id: OrderId,
        payment_id: String,
        pay_by: DateTime<Utc>,
        at: DateTime<Utc>,
        event: Option<ProviderEvent>,
    ) -> Result<Applied, OrderError> {
        let Some(txn) = self.begin_with_event(event.as_ref(), at).await? else {
            return Ok(Applied::Replayed);
        };
        // a pending order gets a payment id only here: one that has one awaits already
        let awaiting = run(
            &txn,
            "UPDATE orders SET payment_id = ?, pay_by = ? \
                 WHERE id = ? AND status = ? AND payment_id IS NULL",
            vec![
                payment_id.into(),
                pay_by.into(),
                id.get().into(),
                OrderStatus::Pending.as_str().into(),
            ],
        )
        .await
        .with_context(|| format!("failed to mark order {id} awaiting its payment"))?;
        if awaiting.rows_affected() != 1 {
            if current_status(&txn, id).await? != OrderStatus::Pending {
                return not_pending(txn, id).await;
            }
            // awaiting already: the event (if any) is kept as processed
            txn.commit().await.context("failed to record an event")?;
            return Ok(Applied::Replayed);
        }
        let deadline = pay_by.to_rfc3339();
        record_noted_step(
            &txn,
            id.get(),
            OrderStep::AwaitingPayment,
            None,
            Some(&deadline),
            at,
        )
        .await?;
        txn.commit()
            .await
            .with_context(|| format!("failed to commit order {id} awaiting its payment"))?;
        Ok(Applied::Changed)
    }

    #[tracing::instrument(skip(self))]
    async fn mark_paid_too_late(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        event: Option<ProviderEvent>,
    ) -> Result<Applied, OrderError> {
        let Some(txn) = self.begin_with_event(event.as_ref(), at).await? else {
            return Ok(Applied::Replayed);
        };
        // the no-op UPDATE takes the order's row lock: of two late payments at once, the
        // second reads the first one's step
        let closed = run(
            &txn,
            "UPDATE orders SET status = status WHERE id = ? AND status IN (?, ?)",
            vec![
                id.get().into(),
                OrderStatus::Expired.as_str().into(),
                OrderStatus::Cancelled.as_str().into(),
            ],
        )
        .await
        .with_context(|| format!("failed to lock order {id}"))?;
        if closed.rows_affected() != 1 {
            return not_pending(txn, id).await;
        }
        let told = fetch_one(
            &txn,
            "SELECT 1 AS told FROM order_events WHERE order_id = ? AND step = ?",
            vec![id.get().into(), OrderStep::PaidAfterExpiry.as_str().into()],
        )
        .await
        .with_context(|| format!("failed to read the steps of order {id}"))?;
        if told.is_some() {
            // said once already: the event (if any) is kept as processed
            txn.commit().await.context("failed to record an event")?;
            return Ok(Applied::Replayed);
        }
        record_step(&txn, id.get(), OrderStep::PaidAfterExpiry, None, at).await?;
        txn.commit()
            .await
            .with_context(|| format!("failed to record the late payment of order {id}"))?;
        Ok(Applied::Changed)
    }

    #[tracing::instrument(skip(self))]
    async fn release(
        &self,
        id: OrderId,
        closing: Closing,
        at: DateTime<Utc>,
        event: Option<ProviderEvent>,
    ) -> Result<Applied, OrderError> {
        let Some(txn) = self.begin_with_event(event.as_ref(), at).await? else {
            return Ok(Applied::Replayed);
        };
        let closed = order_rows::Entity::update_many()
            .col_expr(
                order_rows::Column::Status,
                Expr::value(closing.status().as_str()),
            )
            .col_expr(order_rows::Column::ClosedAt, Expr::value(at))
            .filter(order_rows::Column::Id.eq(id.get()))
            .filter(order_rows::Column::Status.eq(OrderStatus::Pending.as_str()))
            .filter(order_rows::Column::ReviewReason.is_null())
            .exec(&txn)
            .await
            .with_context(|| format!("failed to close order {id}"))?;
        if closed.rows_affected != 1 {
            return not_pending(txn, id).await;
        }
        let held = order_reservations::Entity::find()
            .filter(order_reservations::Column::OrderId.eq(id.get()))
            .order_by_asc(order_reservations::Column::ProductId)
            .all(&txn)
            .await
            .with_context(|| format!("failed to load the reservation of order {id}"))?;
        for row in held {
            crate::products::give_back_stock(&txn, row.product_id, row.quantity, at).await?;
        }
        // The promo code's use and the account's claim go back with the order.
        crate::promo::give_back(&txn, id.get()).await?;
        let step = match closing {
            Closing::Expired => OrderStep::Expired,
            Closing::Cancelled => OrderStep::Cancelled,
        };
        record_step(&txn, id.get(), step, None, at).await?;
        txn.commit()
            .await
            .with_context(|| format!("failed to commit the release of order {id}"))?;
        Ok(Applied::Changed)
    }

    #[tracing::instrument(skip_all)]
    async fn units_held(&self, holders: DropHolders) -> Result<Vec<HeldUnits>, OrderError> {
        if holders.is_empty() {
            return Ok(Vec::new());
        }
        let counted = units_held_by(&self.db, &holders, Counted::Capped).await?;
        // a cap lifted since the count is no cap any more
        Ok(counted
            .iter()
            .filter(|held| held.max_per_account.is_some())
            .map(|held| held.units(0))
            .collect())
    }

    #[tracing::instrument(skip(self))]
    async fn pending_past_deadline(
        &self,
        usual_cutoff: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<Vec<OrderId>, OrderError> {
        let rows = order_rows::Entity::find()
            .filter(order_rows::Column::Status.eq(OrderStatus::Pending.as_str()))
            .filter(order_rows::Column::ReviewReason.is_null())
            .filter(
                Condition::any()
                    .add(
                        Condition::all()
                            .add(order_rows::Column::PayBy.is_null())
                            .add(order_rows::Column::CreatedAt.lt(usual_cutoff)),
                    )
                    .add(order_rows::Column::PayBy.lt(now)),
            )
            .order_by_asc(order_rows::Column::CreatedAt)
            .all(&self.db)
            .await
            .context("failed to list stale pending orders")?;
        Ok(rows.into_iter().map(|row| OrderId::new(row.id)).collect())
    }

    #[tracing::instrument(skip(self, reason))]
    async fn hold_for_review(&self, id: OrderId, reason: String) -> Result<Applied, OrderError> {
        let txn = self.begin().await?;
        // the first hold is the step; a later one only replaces the reason (the row's write
        // lock first, so SQLite never has to upgrade a read lock)
        crate::order_rows::lock_order(&txn, id.get()).await?;
        let first = fetch_one(
            &txn,
            "SELECT review_reason FROM orders WHERE id = ?",
            vec![id.get().into()],
        )
        .await
        .with_context(|| format!("failed to read order {id}"))?
        .map(|row| row.try_get::<Option<String>>("", "review_reason"))
        .transpose()
        .context("bad review_reason")?
        .is_some_and(|reason| reason.is_none());
        let held = order_rows::Entity::update_many()
            .col_expr(order_rows::Column::ReviewReason, Expr::value(reason))
            .filter(order_rows::Column::Id.eq(id.get()))
            .filter(order_rows::Column::Status.eq(OrderStatus::Pending.as_str()))
            .exec(&txn)
            .await
            .with_context(|| format!("failed to hold order {id} for review"))?;
        if held.rows_affected == 1 {
            if first {
                record_step(&txn, id.get(), OrderStep::Held, None, self.now()).await?;
            }
            txn.commit()
                .await
                .with_context(|| format!("failed to commit the hold of order {id}"))?;
            return Ok(Applied::Changed);
        }
        txn.rollback().await.context("failed to roll back")?;
        let row = order_rows::Entity::find_by_id(id.get())
            .one(&self.db)
            .await
            .with_context(|| format!("failed to load order {id}"))?
            .ok_or(OrderError::NotFound(id))?;
        Ok(Applied::NotPending(parse_status(&row)?))
    }
}

/// Places `order` inside `txn` and answers its id; a refusal leaves `txn` to be rolled back.
async fn place_in(
    txn: &DatabaseTransaction,
    order: &NewOrder,
    reservation: &Reservation,
    caps: PendingCaps,
) -> Result<i64, PlaceError> {
    // Before the stock: a retry of a placement still running waits for it here, and then
    // answers its order rather than being refused for the stock that order took.
    if let Some(keyed) = &order.idempotency {
        if let Some(placed) = placed_under_key(txn, keyed).await? {
            return Err(PlaceError::AlreadyPlaced(placed));
        }
    }
    if let Some(promo) = &order.promo {
        crate::promo::claim_use(txn, promo.id, &promo.code)
            .await?
            .map_or(Ok(()), |refused| Err(PlaceError::Promo(refused)))?;
    }
    let id = insert_order(txn, order, reservation).await?;
    if let Some(promo) = &order.promo {
        // a promo code is redeemed per Discord account: checkout refuses one without
        let Some(discord) = &order.buyer.discord else {
            return Err(PlaceError::Promo(Rejection::Invalid));
        };
        // One pending or paid redemption per code and Discord account (the primary key).
        if !crate::promo::redeem(
            txn,
            promo.id,
            discord.discord_id.as_str(),
            id,
            order.created_at,
        )
        .await?
        {
            return Err(PlaceError::Promo(Rejection::AlreadyUsed));
        }
    }
    // The holders' locks and counts, then the stock, come last, after every insert: the
    // shared locks (a holder's advisory lock, the product's row) are held for a few round
    // trips and the commit, not for the whole placement, so a rush on one product sells at
    // the database's pace. The counts leave this order out.
    if let Some(reached) = pending_cap_reached(txn, order, caps, id).await? {
        return Err(PlaceError::TooManyPending(reached));
    }
    // Under the same lock of the Discord account (SQLite: the write lock), so two
    // placements of one account, on any instance, count one after the other.
    if let Some(reached) = account_cap_reached(txn, order, id).await? {
        return Err(PlaceError::AccountCap(reached));
    }
    for (product, quantity) in reservation.entries() {
        if !crate::products::take_stock(txn, *product, *quantity, order.created_at).await? {
            return Err(PlaceError::OutOfStock(*product));
        }
    }
    record_step(txn, id, OrderStep::Placed, None, order.created_at).await?;
    Ok(id)
}

/// The promo code and the Discord account of order `id` (the row locked by the caller), when it
/// has both.
async fn promo_of(
    txn: &DatabaseTransaction,
    id: OrderId,
) -> anyhow::Result<Option<(PromoId, String)>> {
    let row = fetch_one(
        txn,
        "SELECT promo_code_id, discord_id FROM orders WHERE id = ?",
        vec![id.get().into()],
    )
    .await
    .with_context(|| format!("failed to read the promo code of order {id}"))?;
    let Some(row) = row else {
        return Ok(None);
    };
    let code: Option<i64> = row
        .try_get("", "promo_code_id")
        .context("bad promo_code_id")?;
    let discord: Option<String> = row.try_get("", "discord_id").context("bad discord_id")?;
    Ok(code.map(PromoId::new).zip(discord))
}

/// Inserts the order's row (with its idempotency key), its lines, its bundles' parts and its
/// reservation; answers its id.
async fn insert_order(
    txn: &DatabaseTransaction,
    order: &NewOrder,
    reservation: &Reservation,
) -> anyhow::Result<i64> {
    let id = order_rows::Entity::insert(order_row(order))
        .exec(txn)
        .await
        .context("failed to store the order")?
        .last_insert_id;
    if let Some(keyed) = &order.idempotency {
        // unique: whatever got past the lock, one key keeps one order
        run(
            txn,
            "UPDATE orders SET idempotency_key = ?, request_fingerprint = ? WHERE id = ?",
            vec![
                keyed.key.as_str().into(),
                keyed.fingerprint.clone().into(),
                id.into(),
            ],
        )
        .await
        .with_context(|| format!("failed to store the idempotency key of order {id}"))?;
    }
    let position = |position: usize| i32::try_from(position).unwrap_or(i32::MAX);
    let lines = order
        .lines
        .iter()
        .enumerate()
        .map(|(at, line)| order_lines::ActiveModel {
            order_id: Set(id),
            position: Set(position(at)),
            product_id: Set(line.product_id.get()),
            name: Set(line.name.clone()),
            unit_price_cents: Set(line.unit_price.cents()),
            quantity: Set(i32::try_from(line.quantity.get()).unwrap_or(i32::MAX)),
            unit_price_paid: Set(line.unit_price_paid),
        });
    order_lines::Entity::insert_many(lines)
        .exec_without_returning(txn)
        .await
        .with_context(|| format!("failed to store the lines of order {id}"))?;
    let parts: Vec<order_line_parts::ActiveModel> = order
        .lines
        .iter()
        .enumerate()
        .flat_map(|(at, line)| {
            line.components
                .iter()
                .map(move |component| order_line_parts::ActiveModel {
                    order_id: Set(id),
                    position: Set(position(at)),
                    product_id: Set(component.get()),
                })
        })
        .collect();
    if !parts.is_empty() {
        order_line_parts::Entity::insert_many(parts)
            .exec_without_returning(txn)
            .await
            .with_context(|| format!("failed to store the bundles' parts of order {id}"))?;
    }
    if !reservation.is_empty() {
        let held = reservation.entries().iter().map(|(product, quantity)| {
            order_reservations::ActiveModel {
                order_id: Set(id),
                product_id: Set(product.get()),
                quantity: Set(i64::from(*quantity)),
            }
        });
        order_reservations::Entity::insert_many(held)
            .exec_without_returning(txn)
            .await
            .with_context(|| format!("failed to store the reservation of order {id}"))?;
    }
    Ok(id)
}

/// Any number, the same in every instance: the class of the advisory locks on order holders.
const HOLDER_LOCKS: i32 = 0x6f72_6472; // "ordr"
/// The class of the advisory locks on idempotency keys.
const KEY_LOCKS: i32 = 0x6964_656d; // "idem"

/// Serialises the placements under one idempotency key for the rest of the transaction
/// (an advisory lock on PostgreSQL; on SQLite the first statement, a write, takes the database's
/// write lock), lets an order placed under the key before `since` go of it, and answers the
/// order placed under it since, if any.
async fn placed_under_key(
    txn: &DatabaseTransaction,
    keyed: &KeyedPlacement,
) -> Result<Option<OrderId>, PlaceError> {
    let key = keyed.key.as_str();
    if txn.get_database_backend() == DatabaseBackend::Postgres {
        run(
            txn,
            "SELECT pg_advisory_xact_lock(?, ?)",
            vec![KEY_LOCKS.into(), lock_key(key).into()],
        )
        .await
        .context("failed to lock the idempotency key")?;
    }
    run(
        txn,
        "UPDATE orders SET idempotency_key = NULL, request_fingerprint = NULL \
         WHERE idempotency_key = ? AND created_at < ?",
        vec![key.into(), keyed.since.into()],
    )
    .await
    .context("failed to let an old idempotency key go")?;
    let found = fetch_one(
        txn,
        "SELECT id FROM orders WHERE idempotency_key = ?",
        vec![key.into()],
    )
    .await
    .context("failed to look up an idempotency key")?;
    found
        .map(|row| row.try_get::<i64>("", "id").map(OrderId::new))
        .transpose()
        .context("unreadable order id")
        .map_err(PlaceError::Unknown)
}

/// A stable 32-bit key for an advisory lock (FNV-1a, folded): the same in every instance.
fn lock_key(holder: &str) -> i32 {
    let hash = holder
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        });
    // the upper and lower halves folded; the casts keep the bits
    ((hash >> 32) ^ (hash & 0xffff_ffff)) as u32 as i32
}

/// Serialises the placements of the order's holders for the rest of the transaction, then
/// counts their pending orders: the first holder at its cap (`PendingCaps::reached`, the
/// orders domain's rule), with its oldest pending order.
async fn pending_cap_reached(
    txn: &DatabaseTransaction,
    order: &NewOrder,
    caps: PendingCaps,
    placed: i64,
) -> Result<Option<PendingCapReached>, PlaceError> {
    let discord = order
        .buyer
        .discord
        .as_ref()
        .map(|d| d.discord_id.as_str().to_owned());
    let token = order.holder.buyer_token.clone();
    // counted by the address's network key (an IPv6 client's /64), not the whole address
    let address = order.holder.client_net.clone();
    if txn.get_database_backend() == DatabaseBackend::Postgres {
        let mut keys: Vec<i32> = [
            discord.as_ref().map(|d| format!("discord:{d}")),
            order
                .buyer
                .user_id
                .map(|user| format!("user:{}", user.get())),
            token.as_ref().map(|t| format!("session:{t}")),
            address.as_ref().map(|a| format!("ip:{a}")),
        ]
        .into_iter()
        .flatten()
        .map(|holder| lock_key(&holder))
        .collect();
        // always in the same order, so two placements sharing holders cannot deadlock
        keys.sort_unstable();
        keys.dedup();
        let locks = keys
            .iter()
            .map(|_| format!("pg_advisory_xact_lock({HOLDER_LOCKS}, ?)"))
            .collect::<Vec<_>>()
            .join(", ");
        run(
            txn,
            &format!("SELECT {locks}"),
            keys.into_iter().map(Into::into).collect(),
        )
        .await
        .context("failed to lock the order's holders")?;
    }
    // SQLite: the inserts before took the write lock, so the count below cannot change until
    // the transaction commits
    let counted = fetch_one(
        txn,
        "SELECT \
               COALESCE(SUM(CASE WHEN discord_id = ? THEN 1 ELSE 0 END), 0), \
               MIN(CASE WHEN discord_id = ? THEN created_at END), \
               COALESCE(SUM(CASE WHEN buyer_token = ? THEN 1 ELSE 0 END), 0), \
               MIN(CASE WHEN buyer_token = ? THEN created_at END), \
               COALESCE(SUM(CASE WHEN client_net = ? THEN 1 ELSE 0 END), 0), \
               MIN(CASE WHEN client_net = ? THEN created_at END) \
             FROM orders WHERE status = ? AND id <> ? \
               AND (discord_id = ? OR buyer_token = ? OR client_net = ?)",
        vec![
            discord.clone().into(),
            discord.clone().into(),
            token.clone().into(),
            token.clone().into(),
            address.clone().into(),
            address.clone().into(),
            OrderStatus::Pending.as_str().into(),
            placed.into(),
            discord.into(),
            token.into(),
            address.into(),
        ],
    )
    .await
    .context("failed to count the holders' pending orders")?
    .context("a count answered no row")?;
    let count = |index: usize| -> anyhow::Result<PendingCount> {
        let count: i64 = counted.try_get_by_index(index * 2)?;
        let oldest = counted.try_get_by_index(index * 2 + 1)?;
        Ok((u64::try_from(count).unwrap_or(0), oldest))
    };
    let counts = (|| anyhow::Ok([count(0)?, count(1)?, count(2)?]))()
        .context("unreadable pending order counts")?;
    Ok(caps.reached(counts, order.created_at))
}

/// The first of the order's drop caps one of its buyers would go over: its Discord account, its
/// shop account (when logged in) and its browser session, each counting the units its other
/// pending, paid, delivered and disputed orders hold, their bundles' stored parts included
/// (`units_held_by`, the count `GET /api/checkout/holdings` shows), plus what this order
/// (`placed`, already inserted) takes. Call with the holders' locks held
/// (`pending_cap_reached`).
async fn account_cap_reached(
    txn: &DatabaseTransaction,
    order: &NewOrder,
    placed: i64,
) -> Result<Option<AccountCapReached>, PlaceError> {
    if order.account_caps.is_empty() {
        return Ok(None);
    }
    let holders = DropHolders {
        discord: order.buyer.discord.as_ref().map(|d| d.discord_id.clone()),
        user: order.buyer.user_id,
        buyer_token: order.holder.buyer_token.clone(),
    };
    if holders.is_empty() {
        return Ok(None);
    }
    let products: Vec<i64> = order
        .account_caps
        .iter()
        .map(|cap| cap.product.get())
        .collect();
    let counted = Counted::Products {
        ids: &products,
        placing: placed,
    };
    let held_by_product: HashMap<i64, HeldCount> = units_held_by(txn, &holders, counted)
        .await?
        .into_iter()
        .map(|held| (held.product, held))
        .collect();
    for cap in &order.account_caps {
        let held = held_by_product
            .get(&cap.product.get())
            .map(|held| held.units(cap.max))
            .unwrap_or_else(|| HeldUnits {
                product: cap.product,
                max_per_account: cap.max,
                by_discord: 0,
                by_user: 0,
                by_browser: 0,
            });
        if let Some((held, by)) = held
            .by_holder()
            .into_iter()
            .find(|(held, _)| u64::from(*held) + u64::from(cap.wanted) > u64::from(cap.max))
        {
            return Ok(Some(AccountCapReached {
                product: cap.product,
                max: cap.max,
                held,
                by,
            }));
        }
    }
    Ok(None)
}

/// Which products a count of held units covers.
enum Counted<'a> {
    /// These products (an order's drop caps), the order being placed (`placing`) left out.
    Products { ids: &'a [i64], placing: i64 },
    /// Every product with a cap per account (`max_per_account` set).
    Capped,
}

/// One product's units as `units_held_by` counted them.
struct HeldCount {
    product: i64,
    /// The product's cap as it stands (`None`: no cap any more).
    max_per_account: Option<i32>,
    /// Held by the Discord account, the shop account and the browser.
    units: [i64; 3],
}

impl HeldCount {
    /// In the domain's words, `max` standing in for a cap that is gone.
    fn units(&self, max: u32) -> HeldUnits {
        let count = |units: i64| u32::try_from(units.max(0)).unwrap_or(u32::MAX);
        HeldUnits {
            product: ProductId::new(self.product),
            max_per_account: self
                .max_per_account
                .and_then(|max| u32::try_from(max).ok())
                .unwrap_or(max),
            by_discord: count(self.units[0]),
            by_user: count(self.units[1]),
            by_browser: count(self.units[2]),
        }
    }
}

/// The one count of a buyer's units of capped products, for checkout's caps and for the
/// holdings the product page shows: for each product `counted` covers that any of `holders`
/// holds, the units in the pending, paid, delivered and disputed orders of its Discord account,
/// its shop account and its browser (buyer token), each apart: a line's own product, and each
/// part of a bundle line as the order stored it (one unit per unit of the line).
async fn units_held_by(
    db: &impl ConnectionTrait,
    holders: &DropHolders,
    counted: Counted<'_>,
) -> anyhow::Result<Vec<HeldCount>> {
    let discord = holders.discord.as_ref().map(|d| d.as_str().to_owned());
    let user = holders.user.map(|user| user.get());
    let token = holders.buyer_token.clone();
    let mut values: Vec<sea_orm::Value> =
        vec![discord.clone().into(), user.into(), token.clone().into()];
    let (scope, placing) = match counted {
        Counted::Products { ids, placing } => {
            let products = ids.iter().map(|id| sea_orm::Value::from(*id));
            values.extend(products.clone());
            values.extend(products);
            (crate::sql::marks(ids.len()), Some(placing))
        }
        Counted::Capped => (crate::products::CAPPED.to_owned(), None),
    };
    let leave_out = match placing {
        Some(placing) => {
            values.push(placing.into());
            "o.id <> ? AND "
        }
        None => "",
    };
    let (statuses_in, statuses) = crate::sql::holding_statuses();
    values.extend(statuses);
    values.extend([discord.into(), user.into(), token.into()]);
    let caps = crate::products::product_join("pr", "held.product_id");
    let rows = fetch_all(
        db,
        &format!(
            "SELECT held.product_id, pr.max_per_account, \
                   COALESCE(SUM(CASE WHEN o.discord_id = ? THEN held.units ELSE 0 END), 0), \
                   COALESCE(SUM(CASE WHEN o.user_id = ? THEN held.units ELSE 0 END), 0), \
                   COALESCE(SUM(CASE WHEN o.buyer_token = ? THEN held.units ELSE 0 END), 0) \
                 FROM ( \
                   SELECT l.order_id, l.product_id, l.quantity AS units FROM order_lines l \
                   WHERE l.product_id IN ({scope}) \
                   UNION ALL \
                   SELECT l.order_id, p.product_id, l.quantity AS units \
                   FROM order_line_parts p JOIN order_lines l \
                     ON l.order_id = p.order_id AND l.position = p.position \
                   WHERE p.product_id IN ({scope}) \
                 ) held JOIN orders o ON o.id = held.order_id {caps} \
                 WHERE {leave_out}o.status IN ({statuses_in}) \
                   AND (o.discord_id = ? OR o.user_id = ? OR o.buyer_token = ?) \
                 GROUP BY held.product_id, pr.max_per_account",
        ),
        values,
    )
    .await
    .context("failed to count the buyer's units of its drops")?;
    rows.into_iter()
        .map(|row| {
            let product: i64 = row.try_get_by_index(0).context("unreadable product id")?;
            let max_per_account: Option<i32> = row.try_get_by_index(1).context("unreadable cap")?;
            let mut units = [0_i64; 3];
            for (index, count) in units.iter_mut().enumerate() {
                *count = row
                    .try_get_by_index(index + 2)
                    .context("unreadable unit count")?;
            }
            Ok(HeldCount {
                product,
                max_per_account,
                units,
            })
        })
        .collect()
}

impl Store {
    /// Starts the transaction of a change that `event` (when given) reports, recording the
    /// event first; `None` (nothing written) when it was recorded before: a replay.
    pub(crate) async fn begin_with_event(
        &self,
        event: Option<&ProviderEvent>,
        at: DateTime<Utc>,
    ) -> Result<Option<DatabaseTransaction>, OrderError> {
        let txn = self.begin().await?;
        if let Some(event) = event {
            if !record_event(&txn, event, at).await? {
                txn.rollback().await.context("failed to roll back")?;
                return Ok(None);
            }
        }
        Ok(Some(txn))
    }
}

/// Puts paid order `id` on `hold` in the caller's transaction: one not held yet since `at`
/// (its `risk_held` step), or one held for another reason under this one (the hold's time and
/// step as they were). `false` when it is not paid or already held for this reason.
pub(crate) async fn put_on_hold(
    txn: &DatabaseTransaction,
    id: OrderId,
    hold: &NewHold,
    at: DateTime<Utc>,
) -> Result<bool, OrderError> {
    let reason = hold.reason.as_str();
    let paid = OrderStatus::Paid.as_str();
    let held = run(
        txn,
        "UPDATE orders SET hold_reason = ?, held_at = ? \
             WHERE id = ? AND status = ? AND hold_reason IS NULL",
        vec![reason.into(), at.into(), id.get().into(), paid.into()],
    )
    .await
    .with_context(|| format!("failed to hold order {id}"))?;
    if held.rows_affected() == 1 {
        record_noted_step(
            txn,
            id.get(),
            OrderStep::RiskHeld,
            None,
            hold.detail.as_deref(),
            at,
        )
        .await?;
        return Ok(true);
    }
    let took_over = run(
        txn,
        "UPDATE orders SET hold_reason = ? \
             WHERE id = ? AND status = ? AND hold_reason IS NOT NULL AND hold_reason <> ?",
        vec![reason.into(), id.get().into(), paid.into(), reason.into()],
    )
    .await
    .with_context(|| format!("failed to change the hold of order {id}"))?;
    Ok(took_over.rows_affected() == 1)
}

/// Records a provider's event; `false` when it was recorded before.
pub(crate) async fn record_event(
    txn: &DatabaseTransaction,
    event: &ProviderEvent,
    at: DateTime<Utc>,
) -> Result<bool, OrderError> {
    let inserted = run(
        txn,
        "INSERT INTO processed_events (provider, event_id, processed_at) VALUES (?, ?, ?) \
             ON CONFLICT DO NOTHING",
        vec![
            event.provider.as_str().into(),
            event.id.clone().into(),
            at.into(),
        ],
    )
    .await
    .with_context(|| format!("failed to record event {}", event.id))?;
    Ok(inserted.rows_affected() == 1)
}

/// The answer to a change that found order `id` no longer pending: `txn` rolled back, its
/// status now.
pub(crate) async fn not_pending(
    txn: DatabaseTransaction,
    id: OrderId,
) -> Result<Applied, OrderError> {
    let current = current_status(&txn, id).await;
    txn.rollback().await.context("failed to roll back")?;
    Ok(Applied::NotPending(current?))
}

async fn current_status(txn: &DatabaseTransaction, id: OrderId) -> Result<OrderStatus, OrderError> {
    let row = order_rows::Entity::find_by_id(id.get())
        .one(txn)
        .await
        .with_context(|| format!("failed to load order {id}"))?
        .ok_or(OrderError::NotFound(id))?;
    Ok(parse_status(&row)?)
}

async fn reserved_products(txn: &DatabaseTransaction, id: OrderId) -> Result<Vec<i64>, OrderError> {
    Ok(order_reservations::Entity::find()
        .filter(order_reservations::Column::OrderId.eq(id.get()))
        .order_by_asc(order_reservations::Column::ProductId)
        .all(txn)
        .await
        .with_context(|| format!("failed to load the reservation of order {id}"))?
        .into_iter()
        .map(|row| row.product_id)
        .collect())
}

fn order_row(order: &NewOrder) -> order_rows::ActiveModel {
    let buyer = &order.buyer;
    let discord = buyer.discord.as_ref();
    order_rows::ActiveModel {
        id: NotSet,
        status: Set(OrderStatus::Pending.as_str().to_owned()),
        user_id: Set(buyer.user_id.map(UserId::get)),
        language: Set(buyer.language.code().to_owned()),
        discord_id: Set(discord.map(|d| d.discord_id.as_str().to_owned())),
        discord_username: Set(discord.map(|d| d.username.clone()).unwrap_or_default()),
        discord_avatar: Set(discord.and_then(|d| d.avatar_url.clone())),
        roblox_username: Set(buyer.roblox_username.as_str().to_owned()),
        email: Set(buyer.email.as_str().to_owned()),
        subtotal_cents: Set(order.amounts.subtotal.cents()),
        discount_cents: Set(order.amounts.discount.cents()),
        fee_cents: Set(order.amounts.fee.cents()),
        total_cents: Set(order.amounts.total.cents()),
        currency: Set(order.amounts.paid.currency.to_string()),
        rate: Set(order.amounts.paid.rate.normalize().to_string()),
        minor_units: Set(i32::try_from(order.amounts.paid.minor_units).unwrap_or(2)),
        amount_paid: Set(order.amounts.paid.amount),
        promo_code_id: Set(order.promo.as_ref().map(|p| p.id.get())),
        promo_code: Set(order.promo.as_ref().map(|p| p.code.as_str().to_owned())),
        discount_percent: Set(order.promo.as_ref().map(|p| i32::from(p.discount.get()))),
        payment_method: Set(order.method.as_str().to_owned()),
        provider: Set(order.provider.as_str().to_owned()),
        provider_reference: Set(None),
        created_at: Set(order.created_at),
        paid_at: Set(None),
        delivered_at: Set(None),
        closed_at: Set(None),
        claimed_by: Set(None),
        buyer_token: Set(order.holder.buyer_token.clone()),
        client_ip: Set(order.holder.client_ip.clone()),
        client_net: Set(order.holder.client_net.clone()),
        review_reason: Set(None),
        payment_id: Set(None),
        refund_id: Set(None),
        disputed_at: Set(None),
        disputed_from: Set(None),
        dispute_outcome: Set(None),
        dispute_closed_at: Set(None),
        pay_by: Set(order.pay_by),
        refund_policy_version: Set(order.refund_policy_version.clone()),
        hold_reason: Set(None),
        held_at: Set(None),
    }
}

/// The orders with their lines, in the order of `rows`.
pub(crate) async fn with_lines(
    db: &impl ConnectionTrait,
    rows: Vec<order_rows::Model>,
) -> Result<Vec<Order>, OrderError> {
    if rows.is_empty() {
        return Ok(vec![]);
    }
    let ids: Vec<i64> = rows.iter().map(|row| row.id).collect();
    let mut lines: HashMap<i64, Vec<OrderLine>> = HashMap::new();
    for line in order_lines::Entity::find()
        .filter(order_lines::Column::OrderId.is_in(ids.clone()))
        .order_by_asc(order_lines::Column::OrderId)
        .order_by_asc(order_lines::Column::Position)
        .all(db)
        .await
        .context("failed to load order lines")?
    {
        let order_id = line.order_id;
        lines.entry(order_id).or_default().push(to_line(line)?);
    }
    for part in order_line_parts::Entity::find()
        .filter(order_line_parts::Column::OrderId.is_in(ids))
        .order_by_asc(order_line_parts::Column::ProductId)
        .all(db)
        .await
        .context("failed to load the bundles' parts of order lines")?
    {
        let line = lines.get_mut(&part.order_id).and_then(|lines| {
            usize::try_from(part.position)
                .ok()
                .and_then(|position| lines.get_mut(position))
        });
        if let Some(line) = line {
            line.components.push(ProductId::new(part.product_id));
        }
    }
    rows.into_iter()
        .map(|row| {
            let own = lines.remove(&row.id).unwrap_or_default();
            Ok(to_order(row, own)?)
        })
        .collect()
}

fn money(cents: i64, what: &str, order: i64) -> anyhow::Result<Money> {
    Money::from_cents(cents).with_context(|| format!("order {order} has an invalid {what}"))
}

fn to_line(row: order_lines::Model) -> anyhow::Result<OrderLine> {
    Ok(OrderLine {
        product_id: ProductId::new(row.product_id),
        unit_price: money(row.unit_price_cents, "unit price", row.order_id)?,
        unit_price_paid: row.unit_price_paid,
        quantity: Quantity::new(i64::from(row.quantity))
            .with_context(|| format!("order {} has a line with a bad quantity", row.order_id))?,
        name: row.name,
        components: Vec::new(),
    })
}

fn parse_status(row: &order_rows::Model) -> anyhow::Result<OrderStatus> {
    OrderStatus::parse(&row.status)
        .with_context(|| format!("order {} has an unknown status {}", row.id, row.status))
}

/// An order's risk hold from its columns (`hold_reason`, `held_at`); none without a reason.
pub(crate) fn risk_hold(
    reason: Option<&str>,
    since: Option<DateTime<Utc>>,
    order: i64,
) -> anyhow::Result<Option<RiskHold>> {
    let Some(reason) = reason else {
        return Ok(None);
    };
    Ok(Some(RiskHold {
        reason: HoldReason::parse(reason)
            .with_context(|| format!("order {order} has an unknown hold reason {reason}"))?,
        since: since.with_context(|| format!("order {order} is held since no time"))?,
    }))
}

/// What the order was paid in: its currency, rate and amount.
fn paid(row: &order_rows::Model) -> anyhow::Result<Paid> {
    paid_from(
        row.id,
        &row.currency,
        &row.rate,
        row.minor_units,
        row.amount_paid,
    )
}

/// What order `id` was paid in, from its columns `currency`, `rate`, `minor_units` and
/// `amount_paid` (the delivery queue reads them by plain SQL).
pub(crate) fn paid_from(
    id: i64,
    currency: &str,
    rate: &str,
    minor_units: i32,
    amount: i64,
) -> anyhow::Result<Paid> {
    Ok(Paid {
        currency: currency
            .parse()
            .with_context(|| format!("order {id} has a bad currency"))?,
        rate: rate
            .parse()
            .with_context(|| format!("order {id} has a bad rate"))?,
        minor_units: u32::try_from(minor_units)
            .with_context(|| format!("order {id} has bad minor units"))?,
        amount,
    })
}

/// The order's latest chargeback, once one was opened.
fn dispute_of(row: &order_rows::Model) -> anyhow::Result<Option<orders::Dispute>> {
    let id = row.id;
    Ok(match (row.disputed_at, &row.disputed_from) {
        (Some(opened_at), Some(previous)) => Some(orders::Dispute {
            opened_at,
            previous: OrderStatus::parse(previous)
                .with_context(|| format!("order {id} has an unknown status before its dispute"))?,
            outcome: row
                .dispute_outcome
                .as_deref()
                .map(|outcome| {
                    orders::DisputeOutcome::parse(outcome)
                        .with_context(|| format!("order {id} has an unknown dispute outcome"))
                })
                .transpose()?,
            closed_at: row.dispute_closed_at,
        }),
        _ => None,
    })
}

fn to_order(row: order_rows::Model, lines: Vec<OrderLine>) -> anyhow::Result<Order> {
    let id = row.id;
    let paid = paid(&row)?;
    let review = row.review_reason.clone();
    let status = parse_status(&row)?;
    let dispute = dispute_of(&row)?;
    let promo = match (row.promo_code_id, &row.promo_code, row.discount_percent) {
        (Some(promo_id), Some(code), Some(percent)) => Some(OrderPromo {
            id: PromoId::new(promo_id),
            code: PromoCode::parse(code)
                .with_context(|| format!("order {id} has a bad promo code"))?,
            discount: DiscountPercent::new(i64::from(percent))
                .with_context(|| format!("order {id} has a bad discount"))?,
        }),
        _ => None,
    };
    let buyer = Buyer {
        // no Discord id: the buyer deleted their account (`privacy.rs`)
        discord: match row.discord_id.as_deref() {
            Some(discord_id) => Some(DiscordIdentity {
                discord_id: DiscordId::parse(discord_id)
                    .with_context(|| format!("order {id} has a bad Discord id"))?,
                username: row.discord_username,
                avatar_url: row.discord_avatar,
            }),
            None => None,
        },
        roblox_username: RobloxUsername::parse(&row.roblox_username)
            .with_context(|| format!("order {id} has a bad Roblox username"))?,
        email: Email::parse(&row.email).with_context(|| format!("order {id} has a bad e-mail"))?,
        user_id: row.user_id.map(UserId::new),
        // an unknown code (a language since removed) reads as English
        language: row.language.parse().unwrap_or_default(),
    };
    let amounts = Amounts {
        subtotal: money(row.subtotal_cents, "subtotal", id)?,
        discount: money(row.discount_cents, "discount", id)?,
        fee: money(row.fee_cents, "fee", id)?,
        total: money(row.total_cents, "total", id)?,
        paid,
    };
    let payment = Payment {
        method: PaymentMethod::parse(&row.payment_method)
            .with_context(|| format!("order {id} has an unknown payment method"))?,
        provider: PaymentProvider::parse(&row.provider)
            .with_context(|| format!("order {id} has an unknown provider"))?,
        reference: row.provider_reference,
        payment_id: row.payment_id.clone(),
    };
    let mut order = Order::restore(
        OrderId::new(id),
        lines,
        buyer,
        amounts,
        promo,
        payment,
        row.created_at,
        row.claimed_by.map(UserId::new),
        Lifecycle::restore(status, row.paid_at, row.delivered_at, row.closed_at),
    );
    order.review = review;
    order.hold = risk_hold(row.hold_reason.as_deref(), row.held_at, id)?;
    order.dispute = dispute;
    order.client_ip = row.client_ip.clone();
    order.pay_by = row.pay_by;
    Ok(order)
}
