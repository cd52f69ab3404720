//! Languages (issue 36): `orders.language`, the language an order was placed in (its mails are
//! written in it): a BCP 47 code of `shared::Language`; existing orders are English.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Orders {
    Table,
    Language,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Orders::Table)
                    .add_column(
                        ColumnDef::new(Orders::Language)
                            .string_len(16)
                            .not_null()
                            .default("en"),
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
                    .drop_column(Orders::Language)
                    .to_owned(),
            )
            .await
    }
}
