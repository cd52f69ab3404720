//! The accounts' ports: users, pending sign-ups and reset tokens.

use accounts::{
    Email, NewUser, PasswordHash, PendingSignup, RepoError, ResetTokenRecord, Role, TokenHash,
    User, UserId, UserName, UserStore,
};
use anyhow::{anyhow, Context};
use chrono::{DateTime, Utc};
use sea_orm::{
    sea_query::{Expr, OnConflict, Query},
    ActiveModelTrait,
    ActiveValue::Set,
    ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, SqlErr,
};

use serde_json::json;
use shared::{Actor, AuditKind, Language, PrivateServerUrl};

use crate::entities::{password_reset_tokens, pending_signups, users};
use crate::sql::{fetch_one, run};
use crate::Store;

fn to_user(row: users::Model) -> Result<User, RepoError> {
    Ok(User {
        id: UserId::new(row.id),
        name: UserName::from_stored(&row.name),
        email: Email::parse(&row.email)
            .map_err(|e| anyhow!("user {} has an invalid stored e-mail: {e}", row.id))?,
        role: row
            .role
            .parse::<Role>()
            .with_context(|| format!("user {} has an unknown role", row.id))?,
        password_hash: PasswordHash::new(row.password_hash),
        // a code no longer offered reads as never chosen
        language: row.language.as_deref().and_then(Language::matching),
    })
}

fn to_pending(row: pending_signups::Model) -> Result<PendingSignup, RepoError> {
    Ok(PendingSignup {
        email: Email::parse(&row.email).map_err(|e| anyhow!("invalid pending e-mail: {e}"))?,
        name: UserName::from_stored(&row.name),
        code_hash: TokenHash::from_stored(row.code_hash),
        attempts: u32::try_from(row.attempts).unwrap_or(0),
        expires_at: row.expires_at,
        resend_at: row.resend_at,
    })
}

fn is_duplicate(error: &DbErr) -> bool {
    matches!(error.sql_err(), Some(SqlErr::UniqueConstraintViolation(_)))
}

async fn insert_user(
    db: &impl ConnectionTrait,
    user: NewUser,
    now: DateTime<Utc>,
) -> Result<User, RepoError> {
    let row = users::ActiveModel {
        name: Set(user.name.as_str().to_owned()),
        email: Set(user.email.as_str().to_owned()),
        password_hash: Set(user.password_hash.as_str().to_owned()),
        role: Set(user.role.as_str().to_owned()),
        created_at: Set(now),
        updated_at: Set(now),
        language: Set(user.language.map(|language| language.code().to_owned())),
        ..Default::default()
    };
    match row.insert(db).await {
        Ok(row) => to_user(row),
        Err(error) if is_duplicate(&error) => Err(RepoError::Duplicate),
        Err(error) => Err(anyhow::Error::new(error)
            .context("failed to insert a user")
            .into()),
    }
}

/// The audit entries of a changed account: its role and name when they changed, and that its
/// password was set (never the hash).
async fn audit_account_change(
    txn: &impl ConnectionTrait,
    actor: &Actor,
    before: &users::Model,
    after: &User,
    store: &Store,
) -> Result<(), RepoError> {
    let target = format!("user:{}", after.id);
    let changes = [
        (
            AuditKind::UserRole,
            "role",
            &before.role,
            after.role.as_str(),
        ),
        (
            AuditKind::UserName,
            "name",
            &before.name,
            after.name.as_str(),
        ),
    ];
    for (kind, field, was, now) in changes {
        if was != now {
            let was = json!({ "email": before.email, field: was });
            let now = json!({ "email": after.email.as_str(), field: now });
            store
                .audit(txn, actor, kind, target.clone(), Some(was), Some(now))
                .await?;
        }
    }
    store
        .audit(
            txn,
            actor,
            AuditKind::UserPassword,
            target,
            None,
            Some(json!({ "email": after.email.as_str(), "password": "changed" })),
        )
        .await?;
    Ok(())
}

impl UserStore for Store {
    #[tracing::instrument(skip(self))]
    async fn user_by_id(&self, id: UserId) -> Result<Option<User>, RepoError> {
        users::Entity::find_by_id(id.get())
            .one(&self.db)
            .await
            .with_context(|| format!("failed to load user {id}"))?
            .map(to_user)
            .transpose()
    }

    #[tracing::instrument(skip_all)]
    async fn user_by_email(&self, email: &Email) -> Result<Option<User>, RepoError> {
        users::Entity::find()
            .filter(users::Column::Email.eq(email.as_str()))
            .one(&self.db)
            .await
            .context("failed to look a user up by e-mail")?
            .map(to_user)
            .transpose()
    }

    #[tracing::instrument(skip_all, fields(role = %user.role))]
    async fn upsert_user(&self, user: NewUser, actor: Option<Actor>) -> Result<User, RepoError> {
        let txn = self.begin().await?;
        // the write lock first (a server may be writing too), then the values replaced
        users::Entity::update_many()
            .col_expr(
                users::Column::UpdatedAt,
                Expr::col(users::Column::UpdatedAt).into(),
            )
            .filter(users::Column::Email.eq(user.email.as_str()))
            .exec(&txn)
            .await
            .context("failed to lock a user")?;
        let existing = users::Entity::find()
            .filter(users::Column::Email.eq(user.email.as_str()))
            .one(&txn)
            .await
            .context("failed to look a user up by e-mail")?;
        let saved = match existing {
            Some(before) => {
                let mut row: users::ActiveModel = before.clone().into();
                row.name = Set(user.name.as_str().to_owned());
                row.role = Set(user.role.as_str().to_owned());
                row.password_hash = Set(user.password_hash.as_str().to_owned());
                row.updated_at = Set(self.now());
                let saved = to_user(row.update(&txn).await.context("failed to update a user")?)?;
                if let Some(actor) = &actor {
                    audit_account_change(&txn, actor, &before, &saved, self).await?;
                }
                saved
            }
            None => {
                let saved = insert_user(&txn, user, self.now()).await?;
                if let Some(actor) = &actor {
                    self.audit(
                        &txn,
                        actor,
                        AuditKind::UserCreate,
                        format!("user:{}", saved.id),
                        None,
                        Some(json!({
                            "email": saved.email.as_str(),
                            "name": saved.name.as_str(),
                            "role": saved.role.as_str(),
                        })),
                    )
                    .await?;
                }
                saved
            }
        };
        txn.commit().await.context("failed to commit the user")?;
        Ok(saved)
    }

    #[tracing::instrument(skip(self, hash))]
    async fn set_password(&self, id: UserId, hash: PasswordHash) -> Result<(), RepoError> {
        users::Entity::update_many()
            .col_expr(users::Column::PasswordHash, Expr::value(hash.as_str()))
            .col_expr(users::Column::UpdatedAt, Expr::value(self.now()))
            .filter(users::Column::Id.eq(id.get()))
            .exec(&self.db)
            .await
            .with_context(|| format!("failed to set the password of user {id}"))?;
        Ok(())
    }

    #[tracing::instrument(skip(self))]
    async fn set_language(&self, id: UserId, language: Language) -> Result<(), RepoError> {
        users::Entity::update_many()
            .col_expr(users::Column::Language, Expr::value(language.code()))
            .col_expr(users::Column::UpdatedAt, Expr::value(self.now()))
            .filter(users::Column::Id.eq(id.get()))
            .exec(&self.db)
            .await
            .with_context(|| format!("failed to set the language of user {id}"))?;
        Ok(())
    }

    #[tracing::instrument(skip_all)]
    async fn pending_signup(&self, email: &Email) -> Result<Option<PendingSignup>, RepoError> {
        pending_signups::Entity::find_by_id(email.as_str().to_owned())
            .one(&self.db)
            .await
            .context("failed to load a pending sign-up")?
            .map(to_pending)
            .transpose()
    }

    #[tracing::instrument(skip_all)]
    async fn claim_signup(
        &self,
        signup: PendingSignup,
        now: DateTime<Utc>,
    ) -> Result<bool, RepoError> {
        // One upsert whose update only happens when the stored code may be replaced: of N
        // parallel claims one writes (PostgreSQL re-checks the condition on the row the winner
        // committed; SQLite runs writes one at a time). Built by hand so that RETURNING is part
        // of the statement (see rate_limits.rs).
        let upsert = Query::insert()
            .into_table(pending_signups::Entity)
            .columns([
                pending_signups::Column::Email,
                pending_signups::Column::Name,
                pending_signups::Column::CodeHash,
                pending_signups::Column::Attempts,
                pending_signups::Column::ExpiresAt,
                pending_signups::Column::ResendAt,
                pending_signups::Column::CreatedAt,
            ])
            .values_panic([
                signup.email.as_str().into(),
                signup.name.as_str().into(),
                signup.code_hash.as_str().into(),
                i32::try_from(signup.attempts).unwrap_or(i32::MAX).into(),
                signup.expires_at.into(),
                signup.resend_at.into(),
                now.into(),
            ])
            .on_conflict(
                OnConflict::column(pending_signups::Column::Email)
                    .update_columns([
                        pending_signups::Column::Name,
                        pending_signups::Column::CodeHash,
                        pending_signups::Column::Attempts,
                        pending_signups::Column::ExpiresAt,
                        pending_signups::Column::ResendAt,
                        pending_signups::Column::CreatedAt,
                    ])
                    .action_and_where(
                        Expr::col((pending_signups::Entity, pending_signups::Column::ResendAt))
                            .lte(now),
                    )
                    .to_owned(),
            )
            .returning_col(pending_signups::Column::Email)
            .to_owned();
        let statement = self.db.get_database_backend().build(&upsert);
        let row = self
            .db
            .query_one(statement)
            .await
            .context("failed to claim a pending sign-up")?;
        Ok(row.is_some())
    }

    #[tracing::instrument(skip_all)]
    async fn save_pending_signup(&self, signup: PendingSignup) -> Result<(), RepoError> {
        let txn = self.begin().await?;
        pending_signups::Entity::delete_by_id(signup.email.as_str().to_owned())
            .exec(&txn)
            .await
            .context("failed to replace a pending sign-up")?;
        pending_signups::ActiveModel {
            email: Set(signup.email.as_str().to_owned()),
            name: Set(signup.name.as_str().to_owned()),
            code_hash: Set(signup.code_hash.as_str().to_owned()),
            attempts: Set(i32::try_from(signup.attempts).unwrap_or(i32::MAX)),
            expires_at: Set(signup.expires_at),
            resend_at: Set(signup.resend_at),
            created_at: Set(self.now()),
        }
        .insert(&txn)
        .await
        .context("failed to store a pending sign-up")?;
        txn.commit()
            .await
            .context("failed to commit a pending sign-up")?;
        Ok(())
    }

    #[tracing::instrument(skip_all)]
    async fn add_code_attempt(&self, email: &Email) -> Result<u32, RepoError> {
        let update = Query::update()
            .table(pending_signups::Entity)
            .value(
                pending_signups::Column::Attempts,
                Expr::col(pending_signups::Column::Attempts).add(1),
            )
            .and_where(pending_signups::Column::Email.eq(email.as_str()))
            .returning_col(pending_signups::Column::Attempts)
            .to_owned();
        let statement = self.db.get_database_backend().build(&update);
        let row = self
            .db
            .query_one(statement)
            .await
            .context("failed to count a code attempt")?
            .ok_or_else(|| anyhow!("no pending sign-up to count an attempt for"))?;
        let attempts: i32 = row
            .try_get_by_index(0)
            .context("failed to read the attempt count")?;
        Ok(u32::try_from(attempts).unwrap_or(0))
    }

    #[tracing::instrument(skip_all)]
    async fn complete_signup(&self, user: NewUser) -> Result<User, RepoError> {
        let txn = self.begin().await?;
        let email = user.email.as_str().to_owned();
        let created = insert_user(&txn, user, self.now()).await?;
        pending_signups::Entity::delete_by_id(email)
            .exec(&txn)
            .await
            .context("failed to remove the pending sign-up")?;
        txn.commit()
            .await
            .context("failed to commit the new account")?;
        Ok(created)
    }

    #[tracing::instrument(skip(self, now, last_before))]
    async fn claim_reset_mail(
        &self,
        user: UserId,
        now: DateTime<Utc>,
        last_before: DateTime<Utc>,
    ) -> Result<bool, RepoError> {
        let claimed = users::Entity::update_many()
            .col_expr(users::Column::ResetMailedAt, Expr::value(Some(now)))
            .filter(users::Column::Id.eq(user.get()))
            .filter(
                users::Column::ResetMailedAt
                    .is_null()
                    .or(users::Column::ResetMailedAt.lte(last_before)),
            )
            .exec(&self.db)
            .await
            .with_context(|| format!("failed to claim a reset mail for user {user}"))?;
        Ok(claimed.rows_affected == 1)
    }

    #[tracing::instrument(skip(self, hash))]
    async fn save_reset_token(
        &self,
        user: UserId,
        hash: TokenHash,
        expires_at: DateTime<Utc>,
    ) -> Result<(), RepoError> {
        let txn = self.begin().await?;
        let now = self.now();
        password_reset_tokens::Entity::update_many()
            .col_expr(
                password_reset_tokens::Column::UsedAt,
                Expr::value(Some(now)),
            )
            .filter(password_reset_tokens::Column::UserId.eq(user.get()))
            .filter(password_reset_tokens::Column::UsedAt.is_null())
            .exec(&txn)
            .await
            .with_context(|| format!("failed to void older reset tokens of user {user}"))?;
        password_reset_tokens::ActiveModel {
            user_id: Set(user.get()),
            token_hash: Set(hash.as_str().to_owned()),
            expires_at: Set(expires_at),
            used_at: Set(None),
            created_at: Set(self.now()),
            ..Default::default()
        }
        .insert(&txn)
        .await
        .with_context(|| format!("failed to store a reset token for user {user}"))?;
        txn.commit()
            .await
            .context("failed to commit a reset token")?;
        Ok(())
    }

    #[tracing::instrument(skip(self, hash))]
    async fn reset_token(&self, hash: &TokenHash) -> Result<Option<ResetTokenRecord>, RepoError> {
        let Some((token, user)) = password_reset_tokens::Entity::find()
            .filter(password_reset_tokens::Column::TokenHash.eq(hash.as_str()))
            .find_also_related(users::Entity)
            .one(&self.db)
            .await
            .context("failed to look a reset token up")?
        else {
            return Ok(None);
        };
        let Some(user) = user else {
            return Ok(None);
        };
        Ok(Some(ResetTokenRecord {
            user_id: UserId::new(user.id),
            email: Email::parse(&user.email)
                .map_err(|e| anyhow!("user {} has an invalid stored e-mail: {e}", user.id))?,
            expires_at: token.expires_at,
            used: token.used_at.is_some(),
        }))
    }

    #[tracing::instrument(skip(self, hash, password))]
    async fn redeem_reset_token(
        &self,
        hash: &TokenHash,
        user: UserId,
        password: PasswordHash,
        at: DateTime<Utc>,
    ) -> Result<bool, RepoError> {
        let txn = self.begin().await?;
        let used = password_reset_tokens::Entity::update_many()
            .col_expr(password_reset_tokens::Column::UsedAt, Expr::value(Some(at)))
            .filter(password_reset_tokens::Column::TokenHash.eq(hash.as_str()))
            .filter(password_reset_tokens::Column::UserId.eq(user.get()))
            .filter(password_reset_tokens::Column::UsedAt.is_null())
            .exec(&txn)
            .await
            .context("failed to use a reset token")?;
        if used.rows_affected != 1 {
            txn.rollback().await.context("failed to roll back")?;
            return Ok(false);
        }
        users::Entity::update_many()
            .col_expr(users::Column::PasswordHash, Expr::value(password.as_str()))
            .col_expr(users::Column::UpdatedAt, Expr::value(at))
            .filter(users::Column::Id.eq(user.get()))
            .exec(&txn)
            .await
            .with_context(|| format!("failed to set the password of user {user}"))?;
        txn.commit()
            .await
            .context("failed to commit the password reset")?;
        Ok(true)
    }
}

/// For another area's statement over rows that name a user (its id in `column`): the user's row
/// as `alias`, where it still exists (a member of staff's name).
pub(crate) fn user_join(alias: &str, column: &str) -> String {
    format!("LEFT JOIN users {alias} ON {alias}.id = {column}")
}

/// A member of staff's name and private server link as stored; `None` when there is no such
/// user.
pub(crate) async fn staff_member(
    db: &impl ConnectionTrait,
    id: i64,
) -> anyhow::Result<Option<(String, Option<String>)>> {
    let row = fetch_one(
        db,
        "SELECT name, private_server_url FROM users WHERE id = ?",
        vec![id.into()],
    )
    .await
    .with_context(|| format!("failed to read staff member {id}"))?;
    let Some(row) = row else {
        return Ok(None);
    };
    let name = row.try_get("", "name").context("bad name")?;
    let link = row
        .try_get("", "private_server_url")
        .context("bad private_server_url")?;
    Ok(Some((name, link)))
}

impl Store {
    /// Gives a member of staff a private server link outside any staff action (the demo seed;
    /// not audited).
    pub async fn seed_private_server_url(&self, staff: i64, url: &str) -> anyhow::Result<()> {
        run(
            &self.db,
            "UPDATE users SET private_server_url = ? WHERE id = ?",
            vec![url.into(), staff.into()],
        )
        .await
        .context("failed to seed a private server link")?;
        Ok(())
    }

    /// Sets (or clears) member of staff `staff`'s private server link, audited.
    pub(crate) async fn set_staff_link(
        &self,
        staff: i64,
        url: Option<PrivateServerUrl>,
        actor: &Actor,
    ) -> anyhow::Result<()> {
        let txn = self.begin().await?;
        // the row's write lock before the read (SQLite never has to upgrade a read lock)
        run(
            &txn,
            "UPDATE users SET private_server_url = private_server_url WHERE id = ?",
            vec![staff.into()],
        )
        .await
        .with_context(|| format!("failed to lock user {staff}"))?;
        let before = fetch_one(
            &txn,
            "SELECT private_server_url FROM users WHERE id = ?",
            vec![staff.into()],
        )
        .await
        .context("failed to read a private server link")?
        .map(|row| row.try_get::<Option<String>>("", "private_server_url"))
        .transpose()
        .context("bad private_server_url")?
        .flatten();
        let after = url.as_ref().map(|url| url.as_str().to_owned());
        run(
            &txn,
            "UPDATE users SET private_server_url = ? WHERE id = ?",
            vec![after.clone().into(), staff.into()],
        )
        .await
        .with_context(|| format!("failed to set the private server of user {staff}"))?;
        if before != after {
            // the audit log says that it changed, never the link itself
            self.audit(
                &txn,
                actor,
                AuditKind::PrivateServerSet,
                format!("user:{staff}"),
                Some(serde_json::json!({ "link_set": before.is_some() })),
                Some(serde_json::json!({ "link_set": after.is_some() })),
            )
            .await?;
        }
        txn.commit()
            .await
            .context("failed to commit a private server link")?;
        Ok(())
    }
}
