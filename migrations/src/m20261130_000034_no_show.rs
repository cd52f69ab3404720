//! Honest waiting (issue 34, item 4): `orders.no_show_at`, when the buyer's time to join the
//! member of staff's private server ran out under the current claim. A background job sets it
//! once per claim with a conditional update (one instance wins), in the same transaction as the
//! order's `no_show` step (which mails the buyer and tells their page); a claim or a release
//! clears it. Not personal: a time.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Orders {
    Table,
    NoShowAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Orders::Table)
                    .add_column(
                        ColumnDef::new(Orders::NoShowAt)
                            .timestamp_with_time_zone()
                            .null(),
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
                    .drop_column(Orders::NoShowAt)
                    .to_owned(),
            )
            .await
    }
}
