//! Drops `products.inventory`: a second count that was written alongside `stock` and read
//! nowhere. One count per product (DESIGN): the API's `inventory` is the stock, 0 when unlimited.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Products {
    Table,
    Inventory,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Products::Table)
                    .drop_column(Products::Inventory)
                    .to_owned(),
            )
            .await
    }

    /// Puts the column back as the shop last wrote it: the stock, 0 when unlimited.
    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Products::Table)
                    .add_column(
                        ColumnDef::new(Products::Inventory)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .get_connection()
            .execute_unprepared("UPDATE products SET inventory = COALESCE(stock, 0)")
            .await
            .map(|_| ())
    }
}
