//! The demo staff logins of a development or test database: their random passwords, kept so
//! every start of `just run` can print them. Production never writes a row (it never seeds).

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum DemoLogins {
    Table,
    Email,
    Password,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(DemoLogins::Table)
                    .col(
                        ColumnDef::new(DemoLogins::Email)
                            .string_len(254)
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(DemoLogins::Password)
                            .string_len(128)
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(DemoLogins::Table).to_owned())
            .await
    }
}
