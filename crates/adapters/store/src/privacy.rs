//! A shopper's data: everything the shop keeps about an account for its export, and the
//! erasure of an account (`accounts::AccountEraser`) in one transaction. The account's own rows
//! are here; each other area says what it keeps and forgets of the account in its own file, and
//! the erasure runs their statements in its transaction, in the order below.

use accounts::{
    AccountEraser, Erased, Erasure, PersonalData, PersonalDataSource, RepoError, UserId,
};
use anyhow::Context;
use sea_orm::EntityTrait;

use crate::entities::users;
use crate::sql::{by_id, lock_row, run, Step};
use crate::Store;

impl Store {
    /// Everything the shop keeps about the account (`None` when there is no such account): the
    /// account, its orders with their lines, buyer fields and reviews, and its help chats.
    async fn read_personal_data(&self, user: UserId) -> anyhow::Result<Option<PersonalData>> {
        let Some(account) = users::Entity::find_by_id(user.get())
            .one(&self.db)
            .await
            .with_context(|| format!("failed to load user {user}"))?
        else {
            return Ok(None);
        };
        Ok(Some(PersonalData {
            account_created_at: account.created_at,
            orders: self.order_records(user).await?,
            chats: crate::chats::chat_records(&self.db, user).await?,
        }))
    }
}

impl PersonalDataSource for Store {
    async fn personal_data(&self, user: UserId) -> Result<Option<PersonalData>, RepoError> {
        Ok(self.read_personal_data(user).await?)
    }
}

impl AccountEraser for Store {
    #[tracing::instrument(skip_all, fields(user = %erasure.user))]
    async fn erase(&self, erasure: Erasure) -> Result<Erased, RepoError> {
        let id = erasure.user.get();
        // the account row's lock first: on PostgreSQL it keeps a checkout of this account
        // (which reads it) from slipping in between the check and the erasure
        let lock = "UPDATE users SET name = name WHERE id = ?";
        let Some(txn) = lock_row(&self.db, lock, id, "the account").await? else {
            return Ok(Erased::NotFound);
        };
        let open = crate::personal_orders::open_orders(&txn, id).await?;
        if open > 0 {
            txn.rollback().await.context("failed to roll back")?;
            return Ok(Erased::OpenOrders(open));
        }
        for (sql, values) in erasure_steps(&erasure) {
            run(&txn, &sql, values)
                .await
                .with_context(|| format!("failed to erase user {id}: {sql}"))?;
        }
        txn.commit()
            .await
            .with_context(|| format!("failed to commit the erasure of user {id}"))?;
        Ok(Erased::Done)
    }
}

/// The erasure's statements, in their order, each written by its area.
fn erasure_steps(erasure: &Erasure) -> Vec<Step> {
    use crate::personal_orders as orders;
    let id = erasure.user.get();
    let mut steps = vec![
        crate::dispute_rows::evidence_kept(erasure),
        orders::joins_forgotten(id),
        // the live updates sent to the account and to its chats' sessions
        crate::push_events::events_forgotten(id),
        crate::rate_limits::limits_forgotten(erasure),
    ];
    // the messages go before their live updates below
    steps.extend(orders::jobs_forgotten(id));
    steps.extend(orders::tickets_deleted(erasure));
    steps.extend([
        crate::promo::redemptions_forgotten(id),
        crate::reviews::reviews_forgotten(id),
        orders::orders_forgotten(erasure),
    ]);
    steps.extend(crate::chats::chats_forgotten(id));
    steps.extend([
        by_id("DELETE FROM password_reset_tokens WHERE user_id = ?", id),
        // the database's sessions (the service also ends them where they live)
        crate::sessions::sessions_forgotten(id),
        // a sign-up waiting for its code, and a demo login, for the same address
        by_id(
            "DELETE FROM pending_signups WHERE email IN (SELECT email FROM users WHERE id = ?)",
            id,
        ),
        by_id(
            "DELETE FROM demo_logins WHERE email IN (SELECT email FROM users WHERE id = ?)",
            id,
        ),
        by_id("DELETE FROM users WHERE id = ?", id),
    ]);
    steps
}
