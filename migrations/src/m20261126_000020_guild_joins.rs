//! Joining the buyer to the shop's Discord server through the job table (issue 21):
//! - `guild_joins`: one pending join per Discord account (`discord_id` unique: a new link
//!   replaces the token and starts over), holding the buyer's OAuth access token until the
//!   join is made or given up, when the row is deleted; `expires_at` is when the token stops
//!   working (expired rows are swept, so no token stays behind). Each attempt leases the row
//!   (`lease_until`) so that of several instances one makes it; a failure is tried again at
//!   `next_attempt_at`.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum GuildJoins {
    Table,
    Id,
    DiscordId,
    AccessToken,
    ExpiresAt,
    Attempts,
    NextAttemptAt,
    LeaseUntil,
    LastError,
    CreatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(GuildJoins::Table)
                    .col(
                        ColumnDef::new(GuildJoins::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(GuildJoins::DiscordId)
                            .string_len(20)
                            .not_null()
                            .unique_key(),
                    )
                    .col(ColumnDef::new(GuildJoins::AccessToken).text().not_null())
                    .col(
                        ColumnDef::new(GuildJoins::ExpiresAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(GuildJoins::Attempts)
                            .integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(GuildJoins::NextAttemptAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(GuildJoins::LeaseUntil)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(ColumnDef::new(GuildJoins::LastError).text().null())
                    .col(
                        ColumnDef::new(GuildJoins::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_guild_joins_due")
                    .table(GuildJoins::Table)
                    .col(GuildJoins::NextAttemptAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(GuildJoins::Table).to_owned())
            .await
    }
}
