//! Accounts against abuse (issue 11):
//! - `sessions.user_id`: which user a session holds, so a password reset (or the CLI's role or
//!   password change) can end every session of that user;
//! - `users.reset_mailed_at`: when the last reset link was mailed, claimed by one conditional
//!   UPDATE so parallel requests send one mail;
//! - `pending_signups.password_hash` goes: the account takes the password sent with the right
//!   code, so whoever reads the inbox decides it;
//! - `auth_attempts` goes: login and code limits count in the shared `rate_limits` table.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Sessions {
    Table,
    UserId,
}

#[derive(DeriveIden)]
enum Users {
    Table,
    ResetMailedAt,
}

#[derive(DeriveIden)]
enum PendingSignups {
    Table,
    PasswordHash,
}

#[derive(DeriveIden)]
enum AuthAttempts {
    Table,
    Id,
    Kind,
    Key,
    At,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Sessions::Table)
                    .add_column(ColumnDef::new(Sessions::UserId).big_integer().null())
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_sessions_user_id")
                    .table(Sessions::Table)
                    .col(Sessions::UserId)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Users::Table)
                    .add_column(
                        ColumnDef::new(Users::ResetMailedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await?;
        // SQLite (3.35+) and PostgreSQL both know DROP COLUMN; sea-query does not build it for
        // SQLite, so it is written out.
        manager
            .get_connection()
            .execute_unprepared("ALTER TABLE pending_signups DROP COLUMN password_hash")
            .await?;
        manager
            .drop_table(Table::drop().table(AuthAttempts::Table).to_owned())
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(AuthAttempts::Table)
                    .col(
                        ColumnDef::new(AuthAttempts::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(AuthAttempts::Kind).string_len(32).not_null())
                    .col(ColumnDef::new(AuthAttempts::Key).string_len(254).not_null())
                    .col(
                        ColumnDef::new(AuthAttempts::At)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_auth_attempts_kind_key_at")
                    .table(AuthAttempts::Table)
                    .col(AuthAttempts::Kind)
                    .col(AuthAttempts::Key)
                    .col(AuthAttempts::At)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(PendingSignups::Table)
                    .add_column(
                        ColumnDef::new(PendingSignups::PasswordHash)
                            .string_len(255)
                            .not_null()
                            .default(""),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .get_connection()
            .execute_unprepared("ALTER TABLE users DROP COLUMN reset_mailed_at")
            .await?;
        manager
            .drop_index(
                Index::drop()
                    .name("idx_sessions_user_id")
                    .table(Sessions::Table)
                    .to_owned(),
            )
            .await?;
        manager
            .get_connection()
            .execute_unprepared("ALTER TABLE sessions DROP COLUMN user_id")
            .await?;
        Ok(())
    }
}
