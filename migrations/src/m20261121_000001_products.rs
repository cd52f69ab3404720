use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Products {
    Table,
    Id,
    Name,
    Description,
    PriceCents,
    Category,
    Image,
    Stock,
    Weight,
    Mutation,
    SavingsCents,
    SortOrder,
    DeleteAfterOutOfStock,
    Inventory,
    DupeWarning,
    Archived,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum BundleItems {
    Table,
    BundleId,
    ProductId,
    Position,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Products::Table)
                    .col(
                        ColumnDef::new(Products::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(Products::Name).string_len(200).not_null())
                    .col(
                        ColumnDef::new(Products::Description)
                            .text()
                            .not_null()
                            .default(""),
                    )
                    .col(
                        ColumnDef::new(Products::PriceCents)
                            .big_integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Products::Category)
                            .string_len(200)
                            .not_null(),
                    )
                    .col(ColumnDef::new(Products::Image).string_len(500).null())
                    .col(ColumnDef::new(Products::Stock).big_integer().null())
                    .col(ColumnDef::new(Products::Weight).double().null())
                    .col(ColumnDef::new(Products::Mutation).string_len(200).null())
                    .col(ColumnDef::new(Products::SavingsCents).big_integer().null())
                    .col(ColumnDef::new(Products::SortOrder).integer().null())
                    .col(
                        ColumnDef::new(Products::DeleteAfterOutOfStock)
                            .boolean()
                            .not_null()
                            .default(false),
                    )
                    .col(
                        ColumnDef::new(Products::Inventory)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(Products::DupeWarning)
                            .boolean()
                            .not_null()
                            .default(false),
                    )
                    .col(
                        ColumnDef::new(Products::Archived)
                            .boolean()
                            .not_null()
                            .default(false),
                    )
                    .col(
                        ColumnDef::new(Products::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Products::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .check(Expr::col(Products::PriceCents).gte(0))
                    .check(Expr::col(Products::Stock).gte(0))
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(BundleItems::Table)
                    .col(
                        ColumnDef::new(BundleItems::BundleId)
                            .big_integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(BundleItems::ProductId)
                            .big_integer()
                            .not_null(),
                    )
                    .col(ColumnDef::new(BundleItems::Position).integer().not_null())
                    .primary_key(
                        Index::create()
                            .col(BundleItems::BundleId)
                            .col(BundleItems::ProductId),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from(BundleItems::Table, BundleItems::BundleId)
                            .to(Products::Table, Products::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from(BundleItems::Table, BundleItems::ProductId)
                            .to(Products::Table, Products::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;

        manager
            .create_index(
                Index::create()
                    .name("idx_bundle_items_product")
                    .table(BundleItems::Table)
                    .col(BundleItems::ProductId)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(BundleItems::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(Products::Table).to_owned())
            .await
    }
}
