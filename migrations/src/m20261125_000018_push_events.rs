//! The server-push event log: every event an instance publishes gets a number here, so a
//! browser's stream resumes after a reconnect (`Last-Event-ID`) on any instance without loss.
//! Rows are kept for `events.retention_seconds`; the routing columns say who may see each
//! event and never reach a browser.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum PushEvents {
    Table,
    Id,
    Topic,
    Data,
    Public,
    Staff,
    ChatSession,
    OrderId,
    UserId,
    CreatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(PushEvents::Table)
                    .col(
                        ColumnDef::new(PushEvents::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(PushEvents::Topic).string_len(32).not_null())
                    .col(ColumnDef::new(PushEvents::Data).text().not_null())
                    .col(ColumnDef::new(PushEvents::Public).boolean().not_null())
                    .col(ColumnDef::new(PushEvents::Staff).boolean().not_null())
                    .col(
                        ColumnDef::new(PushEvents::ChatSession)
                            .string_len(128)
                            .null(),
                    )
                    .col(ColumnDef::new(PushEvents::OrderId).big_integer().null())
                    .col(ColumnDef::new(PushEvents::UserId).big_integer().null())
                    .col(
                        ColumnDef::new(PushEvents::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_push_events_created_at")
                    .table(PushEvents::Table)
                    .col(PushEvents::CreatedAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(PushEvents::Table).to_owned())
            .await
    }
}
