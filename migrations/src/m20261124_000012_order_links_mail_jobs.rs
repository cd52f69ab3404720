//! After the sale: each order's link key (kept as a SHA-256 hash, never in plain), when staff
//! claimed it (the buyer's timeline), and `mail_jobs`, the outbox of intent for the mail to the
//! buyer: one row per order and kind (receipt, delivered, refunded), unique, so a repeated
//! provider event can never queue a second mail; the background loop sends the due ones with
//! retries.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Orders {
    Table,
    Id,
    AccessKeyHash,
    ClaimedAt,
}

#[derive(DeriveIden)]
enum MailJobs {
    Table,
    Id,
    OrderId,
    Kind,
    Status,
    Attempts,
    NextAttemptAt,
    LastError,
    CreatedAt,
    SentAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // one column per statement: SQLite alters one at a time
        manager
            .alter_table(
                Table::alter()
                    .table(Orders::Table)
                    .add_column(ColumnDef::new(Orders::AccessKeyHash).string_len(64).null())
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Orders::Table)
                    .add_column(
                        ColumnDef::new(Orders::ClaimedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(MailJobs::Table)
                    .col(
                        ColumnDef::new(MailJobs::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(MailJobs::OrderId).big_integer().not_null())
                    .col(ColumnDef::new(MailJobs::Kind).string_len(16).not_null())
                    .col(
                        ColumnDef::new(MailJobs::Status)
                            .string_len(16)
                            .not_null()
                            .default("pending"),
                    )
                    .col(
                        ColumnDef::new(MailJobs::Attempts)
                            .integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(MailJobs::NextAttemptAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(ColumnDef::new(MailJobs::LastError).text().null())
                    .col(
                        ColumnDef::new(MailJobs::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(MailJobs::SentAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from(MailJobs::Table, MailJobs::OrderId)
                            .to(Orders::Table, Orders::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_mail_jobs_order_kind")
                    .table(MailJobs::Table)
                    .col(MailJobs::OrderId)
                    .col(MailJobs::Kind)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_mail_jobs_due")
                    .table(MailJobs::Table)
                    .col(MailJobs::Status)
                    .col(MailJobs::NextAttemptAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(MailJobs::Table).to_owned())
            .await?;
        for column in [Orders::ClaimedAt, Orders::AccessKeyHash] {
            manager
                .alter_table(
                    Table::alter()
                        .table(Orders::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}
