//! The help chat (chats and their messages) and proofs of delivery (with their pictures in
//! order).

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Chats {
    Table,
    Id,
    SessionId,
    UserId,
    UserName,
    AcceptedBy,
    Status,
    StaffReadThrough,
    UserReadThrough,
    Version,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum ChatMessages {
    Table,
    Id,
    ChatId,
    SenderType,
    Message,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Proofs {
    Table,
    Id,
    Items,
    CreatedAt,
}

#[derive(DeriveIden)]
enum ProofImages {
    Table,
    ProofId,
    Position,
    Path,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Chats::Table)
                    // a random UUID in its text form, never a counter
                    .col(
                        ColumnDef::new(Chats::Id)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(Chats::SessionId).string_len(128).not_null())
                    .col(ColumnDef::new(Chats::UserId).big_integer().null())
                    .col(ColumnDef::new(Chats::UserName).string_len(200).null())
                    .col(ColumnDef::new(Chats::AcceptedBy).big_integer().null())
                    .col(ColumnDef::new(Chats::Status).string_len(16).not_null())
                    // read watermarks: the id of the last message each side has read
                    .col(ColumnDef::new(Chats::StaffReadThrough).big_integer().null())
                    .col(ColumnDef::new(Chats::UserReadThrough).big_integer().null())
                    .col(
                        ColumnDef::new(Chats::Version)
                            .big_integer()
                            .not_null()
                            .default(1),
                    )
                    .col(
                        ColumnDef::new(Chats::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Chats::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .check(Expr::col(Chats::Status).is_in(["ai", "pending", "connected", "closed"]))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_chats_session")
                    .table(Chats::Table)
                    .col(Chats::SessionId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_chats_status")
                    .table(Chats::Table)
                    .col(Chats::Status)
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(ChatMessages::Table)
                    .col(
                        ColumnDef::new(ChatMessages::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(ChatMessages::ChatId)
                            .string_len(36)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(ChatMessages::SenderType)
                            .string_len(16)
                            .not_null(),
                    )
                    .col(ColumnDef::new(ChatMessages::Message).text().not_null())
                    .col(
                        ColumnDef::new(ChatMessages::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from(ChatMessages::Table, ChatMessages::ChatId)
                            .to(Chats::Table, Chats::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .check(Expr::col(ChatMessages::SenderType).is_in([
                        "admin",
                        "super_admin",
                        "user",
                        "guest",
                        "system",
                        "bot",
                    ]))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_chat_messages_chat")
                    .table(ChatMessages::Table)
                    .col(ChatMessages::ChatId)
                    .col(ChatMessages::Id)
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(Proofs::Table)
                    .col(
                        ColumnDef::new(Proofs::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(Proofs::Items).string_len(2000).not_null())
                    .col(
                        ColumnDef::new(Proofs::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(ProofImages::Table)
                    .col(
                        ColumnDef::new(ProofImages::ProofId)
                            .big_integer()
                            .not_null(),
                    )
                    .col(ColumnDef::new(ProofImages::Position).integer().not_null())
                    .col(ColumnDef::new(ProofImages::Path).string_len(500).not_null())
                    .primary_key(
                        Index::create()
                            .col(ProofImages::ProofId)
                            .col(ProofImages::Position),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from(ProofImages::Table, ProofImages::ProofId)
                            .to(Proofs::Table, Proofs::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_proof_images_path")
                    .table(ProofImages::Table)
                    .col(ProofImages::Path)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            ProofImages::Table.into_iden(),
            Proofs::Table.into_iden(),
            ChatMessages::Table.into_iden(),
            Chats::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(table).to_owned())
                .await?;
        }
        Ok(())
    }
}
