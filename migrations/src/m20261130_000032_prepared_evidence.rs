//! Evidence prepared before a dispute (issue 33, item 6): an early fraud warning on a delivered
//! order builds its three evidence files and uploads them to the provider at once, so that the
//! dispute that may follow is staged without waiting for uploads.
//!
//! - `prepared_evidence`: one row per warned, delivered order; the warning's time and kind, the
//!   uploaded files' ids (`files`, JSON like `disputes.files`) and the fingerprint of the
//!   delivery record they were built from (a dispute reuses them only while the record is the
//!   same). The row is its own outbox job, like a dispute's staging: `next_attempt_at` while the
//!   files are to be built, leased by one instance at a time, retried with `attempts` and the
//!   `last_error` kept. No personal data: ids, times and the provider's file ids.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum PreparedEvidence {
    Table,
    OrderId,
    WarnedAt,
    FraudType,
    Files,
    Fingerprint,
    PreparedAt,
    Attempts,
    NextAttemptAt,
    LastError,
}

#[derive(DeriveIden)]
enum Orders {
    Table,
    Id,
}

fn at(column: PreparedEvidence) -> ColumnDef {
    ColumnDef::new(column)
        .timestamp_with_time_zone()
        .null()
        .to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(PreparedEvidence::Table)
                    .col(
                        ColumnDef::new(PreparedEvidence::OrderId)
                            .big_integer()
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(PreparedEvidence::WarnedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(PreparedEvidence::FraudType)
                            .string_len(64)
                            .null(),
                    )
                    .col(ColumnDef::new(PreparedEvidence::Files).text().null())
                    .col(
                        ColumnDef::new(PreparedEvidence::Fingerprint)
                            .string_len(64)
                            .null(),
                    )
                    .col(at(PreparedEvidence::PreparedAt))
                    .col(
                        ColumnDef::new(PreparedEvidence::Attempts)
                            .integer()
                            .not_null()
                            .default(0),
                    )
                    .col(at(PreparedEvidence::NextAttemptAt))
                    .col(
                        ColumnDef::new(PreparedEvidence::LastError)
                            .string_len(300)
                            .null(),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from(PreparedEvidence::Table, PreparedEvidence::OrderId)
                            .to(Orders::Table, Orders::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_prepared_evidence_next_attempt")
                    .table(PreparedEvidence::Table)
                    .col(PreparedEvidence::NextAttemptAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(PreparedEvidence::Table).to_owned())
            .await
    }
}
