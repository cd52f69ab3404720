//! Accounts: users, sign-ups waiting for their code, password-reset tokens, server-side
//! sessions and the attempt log behind the rate limits.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
    Name,
    Email,
    PasswordHash,
    Role,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum PendingSignups {
    Table,
    Email,
    Name,
    PasswordHash,
    CodeHash,
    Attempts,
    ExpiresAt,
    ResendAt,
    CreatedAt,
}

#[derive(DeriveIden)]
enum PasswordResetTokens {
    Table,
    Id,
    UserId,
    TokenHash,
    ExpiresAt,
    UsedAt,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Sessions {
    Table,
    Id,
    State,
    ExpiresAt,
}

#[derive(DeriveIden)]
enum AuthAttempts {
    Table,
    Id,
    Kind,
    Key,
    At,
}

fn timestamp(column: impl IntoIden) -> ColumnDef {
    ColumnDef::new(column)
        .timestamp_with_time_zone()
        .not_null()
        .to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Users::Table)
                    .col(
                        ColumnDef::new(Users::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(Users::Name).string_len(100).not_null())
                    // stored lowercase: one address, one account
                    .col(
                        ColumnDef::new(Users::Email)
                            .string_len(254)
                            .not_null()
                            .unique_key(),
                    )
                    .col(
                        ColumnDef::new(Users::PasswordHash)
                            .string_len(255)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Users::Role)
                            .string_len(20)
                            .not_null()
                            .default("customer"),
                    )
                    .col(timestamp(Users::CreatedAt))
                    .col(timestamp(Users::UpdatedAt))
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(PendingSignups::Table)
                    .col(
                        ColumnDef::new(PendingSignups::Email)
                            .string_len(254)
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(PendingSignups::Name)
                            .string_len(100)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(PendingSignups::PasswordHash)
                            .string_len(255)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(PendingSignups::CodeHash)
                            .string_len(64)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(PendingSignups::Attempts)
                            .integer()
                            .not_null()
                            .default(0),
                    )
                    .col(timestamp(PendingSignups::ExpiresAt))
                    .col(timestamp(PendingSignups::ResendAt))
                    .col(timestamp(PendingSignups::CreatedAt))
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(PasswordResetTokens::Table)
                    .col(
                        ColumnDef::new(PasswordResetTokens::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(PasswordResetTokens::UserId)
                            .big_integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(PasswordResetTokens::TokenHash)
                            .string_len(64)
                            .not_null()
                            .unique_key(),
                    )
                    .col(timestamp(PasswordResetTokens::ExpiresAt))
                    .col(
                        ColumnDef::new(PasswordResetTokens::UsedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(timestamp(PasswordResetTokens::CreatedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .from(PasswordResetTokens::Table, PasswordResetTokens::UserId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(Sessions::Table)
                    .col(
                        ColumnDef::new(Sessions::Id)
                            .string_len(128)
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(Sessions::State).text().not_null())
                    .col(timestamp(Sessions::ExpiresAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_sessions_expires_at")
                    .table(Sessions::Table)
                    .col(Sessions::ExpiresAt)
                    .to_owned(),
            )
            .await?;

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
                    .col(timestamp(AuthAttempts::At))
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
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            AuthAttempts::Table.into_iden(),
            Sessions::Table.into_iden(),
            PasswordResetTokens::Table.into_iden(),
            PendingSignups::Table.into_iden(),
            Users::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(table).to_owned())
                .await?;
        }
        Ok(())
    }
}
