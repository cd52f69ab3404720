use anyhow::Context;
use cart_pricing::DiscountPercent;
use chrono::{DateTime, Utc};
use promo::{
    CreatePromoError, DeletePromoError, DiscordId, ListPromoError, MaxUses, NewPromo, Promo,
    PromoChange, PromoCode, PromoId, PromoRepository, PromoSummary, PromoUsage, Rejection,
    UpdatePromoError, ValidatePromoError,
};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveValue::{NotSet, Set},
    ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, SqlErr,
};

use serde_json::json;
use shared::{Actor, AuditKind};

use crate::entities::{promo_codes, promo_redemptions};
use crate::sql::run;
use crate::Store;

/// The audit target of a promo code.
fn promo_target(id: i64) -> String {
    format!("promo:{id}")
}

/// A code's values as the audit log keeps them.
fn promo_json(promo: &Promo) -> serde_json::Value {
    json!({
        "code": promo.code.as_str(),
        "discount_percent": promo.discount.get(),
        "expires_at": promo.expires_at.map(|at| at.to_rfc3339()),
        "max_uses": promo.max_uses.map(|max| max.get()),
        "active": promo.active,
    })
}

fn stored_max_uses(max_uses: Option<MaxUses>) -> Option<i32> {
    max_uses.map(|m| i32::try_from(m.get()).unwrap_or(i32::MAX))
}

fn uses_of(row: &promo_codes::Model) -> u32 {
    u32::try_from(row.uses).unwrap_or(0)
}

/// Takes the code's row lock inside `txn` (see `crate::products::lock_product`), so no order claims a
/// use between the checks and the write; `false` when there is no such code.
async fn lock_promo(txn: &impl ConnectionTrait, id: i64) -> anyhow::Result<bool> {
    let locked = run(
        txn,
        "UPDATE promo_codes SET uses = uses WHERE id = ?",
        vec![id.into()],
    )
    .await
    .with_context(|| format!("failed to lock promo code {id}"))?;
    Ok(locked.rows_affected() == 1)
}

/// Claims one use of promo code `id` for an order being placed in `txn` (a conditional
/// UPDATE: `uses < max_uses`); the rejection when it is switched off since it was checked, or
/// its last use went to another order.
pub(crate) async fn claim_use(
    txn: &impl ConnectionTrait,
    id: PromoId,
    code: &PromoCode,
) -> anyhow::Result<Option<Rejection>> {
    let claimed = run(
        txn,
        "UPDATE promo_codes SET uses = uses + 1 \
             WHERE id = ? AND active = ? AND (max_uses IS NULL OR uses < max_uses)",
        vec![id.get().into(), true.into()],
    )
    .await
    .with_context(|| format!("failed to claim a use of promo code {code}"))?;
    if claimed.rows_affected() == 1 {
        return Ok(None);
    }
    let active = promo_codes::Entity::find_by_id(id.get())
        .one(txn)
        .await
        .with_context(|| format!("failed to read promo code {code}"))?
        .is_some_and(|row| row.active);
    Ok(Some(if active {
        Rejection::UsedUp
    } else {
        Rejection::Inactive
    }))
}

/// Records the redemption of promo code `id` by Discord account `discord` for `order`, once per
/// code and account (the primary key); `false` when the account holds one already.
pub(crate) async fn redeem(
    txn: &impl ConnectionTrait,
    id: PromoId,
    discord: &str,
    order: i64,
    at: DateTime<Utc>,
) -> anyhow::Result<bool> {
    let redeemed = run(
        txn,
        "INSERT INTO promo_redemptions (promo_code_id, discord_id, order_id, redeemed_at) \
             VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
        vec![id.get().into(), discord.into(), order.into(), at.into()],
    )
    .await
    .with_context(|| format!("failed to claim the promo redemption of order {order}"))?;
    Ok(redeemed.rows_affected() == 1)
}

/// Counts one more use of promo code `id` (an order placed before claims existed, paid now).
pub(crate) async fn count_use(txn: &impl ConnectionTrait, id: PromoId) -> anyhow::Result<()> {
    run(
        txn,
        "UPDATE promo_codes SET uses = uses + 1 WHERE id = ?",
        vec![id.get().into()],
    )
    .await
    .with_context(|| format!("failed to count a use of promo code {id}"))?;
    Ok(())
}

/// Gives back the promo use and the account's claim of `order`, closed unpaid.
pub(crate) async fn give_back(txn: &impl ConnectionTrait, order: i64) -> anyhow::Result<()> {
    run(
        txn,
        "UPDATE promo_codes SET uses = uses - 1 WHERE uses > 0 \
         AND id IN (SELECT promo_code_id FROM promo_redemptions WHERE order_id = ?)",
        vec![order.into()],
    )
    .await
    .with_context(|| format!("failed to give back the promo use of order {order}"))?;
    run(
        txn,
        "DELETE FROM promo_redemptions WHERE order_id = ?",
        vec![order.into()],
    )
    .await
    .with_context(|| format!("failed to release the promo redemption of order {order}"))?;
    Ok(())
}

/// The promo code's row, locked for the rest of `txn`; `None` when there is no such code.
async fn locked_promo(
    txn: &impl ConnectionTrait,
    id: i64,
) -> anyhow::Result<Option<promo_codes::Model>> {
    if !lock_promo(txn, id).await? {
        return Ok(None);
    }
    promo_codes::Entity::find_by_id(id)
        .one(txn)
        .await
        .with_context(|| format!("failed to load promo code {id}"))
}

impl PromoRepository for Store {
    #[tracing::instrument(skip(self, actor), fields(code = %promo.code))]
    async fn create(&self, promo: NewPromo, actor: &Actor) -> Result<Promo, CreatePromoError> {
        let txn = self.begin().await?;
        let row = promo_codes::ActiveModel {
            id: NotSet,
            code: Set(promo.code.as_str().to_owned()),
            discount_percent: Set(i32::from(promo.discount.get())),
            expires_at: Set(promo.expires_at),
            max_uses: Set(stored_max_uses(promo.max_uses)),
            created_at: Set(self.now()),
            uses: Set(0),
            active: Set(true),
        };
        let inserted = promo_codes::Entity::insert(row).exec(&txn).await;
        let id = match inserted {
            Ok(done) => done.last_insert_id,
            Err(error) if matches!(error.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
                return Err(CreatePromoError::Duplicate(promo.code));
            }
            Err(error) => {
                return Err(anyhow::Error::new(error)
                    .context(format!("failed to store promo code {}", promo.code))
                    .into())
            }
        };
        let row = promo_codes::Entity::find_by_id(id)
            .one(&txn)
            .await
            .context("failed to read back the promo code")?
            .context("the promo code just stored is missing")?;
        let created = to_promo(row)?;
        self.audit(
            &txn,
            actor,
            AuditKind::PromoCreate,
            promo_target(id),
            None,
            Some(promo_json(&created)),
        )
        .await?;
        txn.commit()
            .await
            .context("failed to commit the promo code")?;
        Ok(created)
    }

    #[tracing::instrument(skip(self))]
    async fn list(&self) -> Result<Vec<PromoSummary>, ListPromoError> {
        let rows = promo_codes::Entity::find()
            .order_by_desc(promo_codes::Column::CreatedAt)
            .order_by_desc(promo_codes::Column::Id)
            .all(&self.db)
            .await
            .context("failed to list the promo codes")?;
        rows.into_iter()
            .map(|row| {
                let uses = uses_of(&row);
                Ok(PromoSummary {
                    promo: to_promo(row)?,
                    uses,
                })
            })
            .collect()
    }

    #[tracing::instrument(skip(self, actor))]
    async fn update(
        &self,
        id: PromoId,
        change: PromoChange,
        actor: &Actor,
    ) -> Result<PromoSummary, UpdatePromoError> {
        let txn = self.begin().await?;
        let Some(row) = locked_promo(&txn, id.get()).await? else {
            txn.rollback().await.context("failed to roll back")?;
            return Err(UpdatePromoError::NotFound(id));
        };
        let uses = uses_of(&row);
        let before = to_promo(row)?;
        let after = change.apply(&before);
        if after.max_uses.is_some_and(|max| max.get() < uses) {
            txn.rollback().await.context("failed to roll back")?;
            return Err(UpdatePromoError::MaxUsesBelowUses { uses });
        }
        if after != before {
            promo_codes::Entity::update_many()
                .col_expr(
                    promo_codes::Column::DiscountPercent,
                    Expr::value(i32::from(after.discount.get())),
                )
                .col_expr(
                    promo_codes::Column::ExpiresAt,
                    Expr::value(after.expires_at),
                )
                .col_expr(
                    promo_codes::Column::MaxUses,
                    Expr::value(stored_max_uses(after.max_uses)),
                )
                .col_expr(promo_codes::Column::Active, Expr::value(after.active))
                .filter(promo_codes::Column::Id.eq(id.get()))
                .exec(&txn)
                .await
                .with_context(|| format!("failed to change promo code {id}"))?;
            self.audit(
                &txn,
                actor,
                AuditKind::PromoUpdate,
                promo_target(id.get()),
                Some(promo_json(&before)),
                Some(promo_json(&after)),
            )
            .await?;
        }
        txn.commit()
            .await
            .with_context(|| format!("failed to commit promo code {id}"))?;
        Ok(PromoSummary { promo: after, uses })
    }

    #[tracing::instrument(skip(self, actor))]
    async fn delete(&self, id: PromoId, actor: &Actor) -> Result<(), DeletePromoError> {
        let txn = self.begin().await?;
        let Some(row) = locked_promo(&txn, id.get()).await? else {
            txn.rollback().await.context("failed to roll back")?;
            return Err(DeletePromoError::NotFound(id));
        };
        // an order of any status keeps the code for its history, even one cancelled since
        let on_orders = crate::order_rows::with_promo(&txn, id).await?;
        if row.uses > 0 || on_orders > 0 {
            txn.rollback().await.context("failed to roll back")?;
            return Err(DeletePromoError::Used(id));
        }
        let before = to_promo(row)?;
        promo_codes::Entity::delete_by_id(id.get())
            .exec(&txn)
            .await
            .with_context(|| format!("failed to delete promo code {id}"))?;
        self.audit(
            &txn,
            actor,
            AuditKind::PromoDelete,
            promo_target(id.get()),
            Some(promo_json(&before)),
            None,
        )
        .await?;
        txn.commit()
            .await
            .with_context(|| format!("failed to commit the deletion of promo code {id}"))?;
        Ok(())
    }

    #[tracing::instrument(skip(self, discord_id))]
    async fn usage(
        &self,
        code: &PromoCode,
        discord_id: &DiscordId,
    ) -> Result<Option<PromoUsage>, ValidatePromoError> {
        let Some(row) = promo_codes::Entity::find()
            .filter(promo_codes::Column::Code.eq(code.as_str()))
            .one(&self.db)
            .await
            .with_context(|| format!("failed to load promo code {code}"))?
        else {
            return Ok(None);
        };
        // `uses` counts the pending and paid redemptions (claimed with the order).
        let uses = row.uses;
        let used_by_account = promo_redemptions::Entity::find()
            .filter(promo_redemptions::Column::PromoCodeId.eq(row.id))
            .filter(promo_redemptions::Column::DiscordId.eq(discord_id.as_str()))
            .count(&self.db)
            .await
            .context("failed to look up the account's redemption")?
            > 0;
        Ok(Some(PromoUsage {
            promo: to_promo(row)?,
            uses: u32::try_from(uses).unwrap_or(u32::MAX),
            used_by_account,
        }))
    }
}

fn to_promo(row: promo_codes::Model) -> anyhow::Result<Promo> {
    Ok(Promo {
        id: PromoId::new(row.id),
        code: PromoCode::parse(&row.code)
            .with_context(|| format!("promo code {} is malformed", row.id))?,
        discount: DiscountPercent::new(i64::from(row.discount_percent))
            .with_context(|| format!("promo code {} has a bad discount", row.id))?,
        expires_at: row.expires_at,
        max_uses: row.max_uses.and_then(|m| MaxUses::new(i64::from(m))),
        active: row.active,
        created_at: row.created_at,
    })
}

/// The redemptions of an erased account's orders: the code's count stays; the Discord account
/// becomes a marker unique per order (never a snowflake, so it matches no one's later
/// redemption).
pub(crate) fn redemptions_forgotten(id: i64) -> crate::sql::Step {
    let its_orders = crate::order_rows::ITS_ORDERS;
    crate::sql::by_id(
        &format!(
            "UPDATE promo_redemptions SET discord_id = 'erased-' || CAST(order_id AS TEXT) \
             WHERE order_id IN {its_orders}"
        ),
        id,
    )
}
