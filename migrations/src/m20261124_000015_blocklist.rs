//! The blocklist (issue 13): e-mails, Discord ids, Roblox usernames and IP addresses the shop
//! does not sell to. Values are stored normalised (see `orders::blocklist`), one entry per kind
//! and value; checkout looks them up by that pair.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Blocklist {
    Table,
    Id,
    Kind,
    Value,
    Reason,
    AddedBy,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Blocklist::Table)
                    .col(
                        ColumnDef::new(Blocklist::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(Blocklist::Kind).string_len(16).not_null())
                    .col(ColumnDef::new(Blocklist::Value).string_len(254).not_null())
                    .col(ColumnDef::new(Blocklist::Reason).string_len(500).not_null())
                    .col(ColumnDef::new(Blocklist::AddedBy).big_integer().null())
                    .col(
                        ColumnDef::new(Blocklist::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .check(Expr::col(Blocklist::Kind).is_in([
                        "email",
                        "discord_id",
                        "roblox_username",
                        "ip",
                    ]))
                    .foreign_key(
                        ForeignKey::create()
                            .from(Blocklist::Table, Blocklist::AddedBy)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::SetNull),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_blocklist_kind_value")
                    .table(Blocklist::Table)
                    .col(Blocklist::Kind)
                    .col(Blocklist::Value)
                    .unique()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(Blocklist::Table).to_owned())
            .await
    }
}
