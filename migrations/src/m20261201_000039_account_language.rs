//! Languages (issue 36), a BCP 47 code of `shared::Language` each:
//! - `users.language`, the language an account chose (its mail is written in it, else in the
//!   language of the request that sends it); NULL: never chosen (existing accounts);
//! - `chats.language`, the language a help chat was started in (its notices, the agent's
//!   joining included, are written in it); existing chats are English.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Users {
    Table,
    Language,
}

#[derive(DeriveIden)]
enum Chats {
    Table,
    Language,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Users::Table)
                    .add_column(ColumnDef::new(Users::Language).string_len(16).null())
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Chats::Table)
                    .add_column(
                        ColumnDef::new(Chats::Language)
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
                    .table(Chats::Table)
                    .drop_column(Chats::Language)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Users::Table)
                    .drop_column(Users::Language)
                    .to_owned(),
            )
            .await
    }
}
