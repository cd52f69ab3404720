//! The outbox's Discord side (issue 32, items 2 and 9):
//!
//! - `discord_limits`: one row (`name = 'discord'`) shared by every instance: the end of the
//!   bot's last global rate limit, and the current ten-minute window of answers Discord counts
//!   as invalid (401, 403, 429) with their count, so the shop stops before Discord's budget.
//! - `ticket_posts`: the id of every message the shop posts in an order's ticket, so a claim
//!   post can be edited (its private server link removed) when the order is released or ends.
//! - `outbox_jobs.thread_id`: the thread a job works on when the order no longer names it (the
//!   erasure of an account queues the deletion of its orders' threads).

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum DiscordLimits {
    Table,
    Name,
    PausedUntil,
    WindowStart,
    InvalidCount,
}

#[derive(DeriveIden)]
enum TicketPosts {
    Table,
    Id,
    OrderId,
    EventId,
    Step,
    MessageId,
    StaffId,
    ShowsLink,
    CreatedAt,
    EditedAt,
}

#[derive(DeriveIden)]
enum OutboxJobs {
    Table,
    ThreadId,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(DiscordLimits::Table)
                    .col(
                        ColumnDef::new(DiscordLimits::Name)
                            .string_len(16)
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(DiscordLimits::PausedUntil)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(DiscordLimits::WindowStart)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(DiscordLimits::InvalidCount)
                            .integer()
                            .not_null()
                            .default(0),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(TicketPosts::Table)
                    .col(
                        ColumnDef::new(TicketPosts::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(TicketPosts::OrderId)
                            .big_integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TicketPosts::EventId)
                            .big_integer()
                            .not_null(),
                    )
                    .col(ColumnDef::new(TicketPosts::Step).string_len(24).not_null())
                    .col(
                        ColumnDef::new(TicketPosts::MessageId)
                            .string_len(24)
                            .not_null(),
                    )
                    .col(ColumnDef::new(TicketPosts::StaffId).big_integer().null())
                    .col(
                        ColumnDef::new(TicketPosts::ShowsLink)
                            .boolean()
                            .not_null()
                            .default(false),
                    )
                    .col(
                        ColumnDef::new(TicketPosts::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TicketPosts::EditedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_ticket_posts_event")
                    .table(TicketPosts::Table)
                    .col(TicketPosts::EventId)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_ticket_posts_order")
                    .table(TicketPosts::Table)
                    .col(TicketPosts::OrderId)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(OutboxJobs::Table)
                    .add_column(ColumnDef::new(OutboxJobs::ThreadId).string_len(24).null())
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(OutboxJobs::Table)
                    .drop_column(OutboxJobs::ThreadId)
                    .to_owned(),
            )
            .await?;
        manager
            .drop_table(Table::drop().table(TicketPosts::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(DiscordLimits::Table).to_owned())
            .await
    }
}
