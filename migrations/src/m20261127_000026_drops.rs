//! The drop (issue 25): a product may be released at a set time (`products.release_at`, UTC)
//! and capped per Discord account (`products.max_per_account`); `products.release_announced_at`
//! is the release time whose push event one instance claimed, so the release is announced once
//! whatever the number of instances. An order may carry its own payment deadline
//! (`orders.pay_by`): drop orders expire after `checkout.drop_payment_minutes`.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Products {
    Table,
    ReleaseAt,
    MaxPerAccount,
    ReleaseAnnouncedAt,
}

#[derive(DeriveIden)]
enum Orders {
    Table,
    PayBy,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // one column per statement: SQLite adds one at a time
        for column in [
            ColumnDef::new(Products::ReleaseAt)
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
            ColumnDef::new(Products::MaxPerAccount)
                .integer()
                .null()
                .to_owned(),
            ColumnDef::new(Products::ReleaseAnnouncedAt)
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(Products::Table)
                        .add_column(column)
                        .to_owned(),
                )
                .await?;
        }
        manager
            .alter_table(
                Table::alter()
                    .table(Orders::Table)
                    .add_column(
                        ColumnDef::new(Orders::PayBy)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Orders::Table)
                    .drop_column(Orders::PayBy)
                    .to_owned(),
            )
            .await?;
        for column in [
            Products::ReleaseAnnouncedAt,
            Products::MaxPerAccount,
            Products::ReleaseAt,
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(Products::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}
