//! `order_events.note`: what the payment provider said with a step (a dispute's reason, at
//! most 200 characters), for the staff channel's message sent from the outbox.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum OrderEvents {
    Table,
    Note,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(OrderEvents::Table)
                    .add_column(ColumnDef::new(OrderEvents::Note).string_len(200).null())
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(OrderEvents::Table)
                    .drop_column(OrderEvents::Note)
                    .to_owned(),
            )
            .await
    }
}
