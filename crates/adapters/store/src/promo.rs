use anyhow::Context;
use cart_pricing::DiscountPercent;
use chrono::Utc;
use promo::{
    CreatePromoError, DiscordId, MaxUses, NewPromo, Promo, PromoCode, PromoId, PromoRepository,
    PromoUsage, ValidatePromoError,
};
use sea_orm::{
    ActiveValue::{NotSet, Set},
    ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, SqlErr, TransactionTrait,
};

use serde_json::json;
use shared::{Actor, AuditKind};

use crate::audit;
use crate::entities::{promo_codes, promo_redemptions};
use crate::Store;

impl PromoRepository for Store {
    #[tracing::instrument(skip(self, actor), fields(code = %promo.code))]
    async fn create(&self, promo: NewPromo, actor: &Actor) -> Result<Promo, CreatePromoError> {
        let txn = self
            .db
            .begin()
            .await
            .context("failed to start a transaction")?;
        let row = promo_codes::ActiveModel {
            id: NotSet,
            code: Set(promo.code.as_str().to_owned()),
            discount_percent: Set(i32::from(promo.discount.get())),
            expires_at: Set(promo.expires_at),
            max_uses: Set(promo
                .max_uses
                .map(|m| i32::try_from(m.get()).unwrap_or(i32::MAX))),
            created_at: Set(Utc::now()),
            uses: Set(0),
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
        audit::append(
            &txn,
            actor,
            AuditKind::PromoCreate,
            format!("promo:{id}"),
            None,
            Some(json!({
                "code": created.code.as_str(),
                "discount_percent": created.discount.get(),
                "expires_at": created.expires_at.map(|at| at.to_rfc3339()),
                "max_uses": created.max_uses.map(|max| max.get()),
            })),
        )
        .await?;
        txn.commit()
            .await
            .context("failed to commit the promo code")?;
        Ok(created)
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
        created_at: row.created_at,
    })
}
