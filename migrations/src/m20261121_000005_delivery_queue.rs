//! The staff delivery queue: the proof of delivery an order was delivered with, and an index
//! for the queue's list (status, then the time it was paid) that also serves the sales
//! statistics' range scan over `paid_at` (`idx_orders_paid_at`, created with the orders table).

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Orders {
    Table,
    Status,
    PaidAt,
    ProofId,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Orders::Table)
                    .add_column(ColumnDef::new(Orders::ProofId).big_integer().null())
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_orders_status_paid_at")
                    .table(Orders::Table)
                    .col(Orders::Status)
                    .col(Orders::PaidAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name("idx_orders_status_paid_at")
                    .table(Orders::Table)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Orders::Table)
                    .drop_column(Orders::ProofId)
                    .to_owned(),
            )
            .await
    }
}
