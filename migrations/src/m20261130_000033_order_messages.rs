//! `order_messages` (issue 34 item 5): the short messages between an order's buyer and the
//! shop's staff on the order page ("I can't join the server", a question, an answer). One row
//! per message: who wrote it (`sender`: `buyer` or `staff`, and the member of staff's user id),
//! the text as written (trimmed, at most 1,000 characters) and when. The author's name is read
//! with the message (the order's Roblox name, the staff member's name), so an erasure that
//! forgets the buyer's name leaves none behind here; the rows themselves go with the buyer's
//! data. Read in order of id per order.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum OrderMessages {
    Table,
    Id,
    OrderId,
    Sender,
    StaffId,
    Text,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Orders {
    Table,
    Id,
}

const ORDER_INDEX: &str = "idx_order_messages_order";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(OrderMessages::Table)
                    .col(
                        ColumnDef::new(OrderMessages::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(OrderMessages::OrderId)
                            .big_integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(OrderMessages::Sender)
                            .string_len(8)
                            .not_null(),
                    )
                    .col(ColumnDef::new(OrderMessages::StaffId).big_integer().null())
                    .col(ColumnDef::new(OrderMessages::Text).text().not_null())
                    .col(
                        ColumnDef::new(OrderMessages::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_order_messages_order")
                            .from(OrderMessages::Table, OrderMessages::OrderId)
                            .to(Orders::Table, Orders::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name(ORDER_INDEX)
                    .table(OrderMessages::Table)
                    .col(OrderMessages::OrderId)
                    .col(OrderMessages::Id)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(OrderMessages::Table).to_owned())
            .await
    }
}
