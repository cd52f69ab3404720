//! Rate limit counters: one row per limited key and fixed window, raised by one upsert per
//! request (`INSERT .. ON CONFLICT DO UPDATE SET hits = hits + 1 RETURNING hits`), so every
//! instance shares the count and parallel requests cannot slip past a limit.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum RateLimits {
    Table,
    Bucket,
    WindowStart,
    Hits,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(RateLimits::Table)
                    .col(
                        ColumnDef::new(RateLimits::Bucket)
                            .string_len(400)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(RateLimits::WindowStart)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(ColumnDef::new(RateLimits::Hits).integer().not_null())
                    .primary_key(
                        Index::create()
                            .col(RateLimits::Bucket)
                            .col(RateLimits::WindowStart),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_rate_limits_window_start")
                    .table(RateLimits::Table)
                    .col(RateLimits::WindowStart)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(RateLimits::Table).to_owned())
            .await
    }
}
