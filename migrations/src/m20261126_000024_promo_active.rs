//! Promo codes can be switched off (issue 23 item 8): `promo_codes.active`, true for every
//! code there is. An inactive code is refused at checkout like an expired one and kept for the
//! orders that used it.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum PromoCodes {
    Table,
    Active,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(PromoCodes::Table)
                    .add_column(
                        ColumnDef::new(PromoCodes::Active)
                            .boolean()
                            .not_null()
                            .default(true),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(PromoCodes::Table)
                    .drop_column(PromoCodes::Active)
                    .to_owned(),
            )
            .await
    }
}
