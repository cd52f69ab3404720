//! Verified reviews: one per order (a unique key), 1 to 5 stars, kept when staff hide one (with
//! who hid it, when and why).

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Orders {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Reviews {
    Table,
    Id,
    OrderId,
    Rating,
    Text,
    Name,
    CreatedAt,
    HiddenAt,
    HiddenBy,
    HiddenReason,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Reviews::Table)
                    .col(
                        ColumnDef::new(Reviews::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(Reviews::OrderId).big_integer().not_null())
                    .col(ColumnDef::new(Reviews::Rating).small_integer().not_null())
                    .col(ColumnDef::new(Reviews::Text).text().not_null())
                    .col(ColumnDef::new(Reviews::Name).string_len(64).not_null())
                    .col(
                        ColumnDef::new(Reviews::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Reviews::HiddenAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(ColumnDef::new(Reviews::HiddenBy).big_integer().null())
                    .col(ColumnDef::new(Reviews::HiddenReason).text().null())
                    .foreign_key(
                        ForeignKey::create()
                            .from(Reviews::Table, Reviews::OrderId)
                            .to(Orders::Table, Orders::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_reviews_order")
                    .table(Reviews::Table)
                    .col(Reviews::OrderId)
                    .unique()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(Reviews::Table).to_owned())
            .await
    }
}
