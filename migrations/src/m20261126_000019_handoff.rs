//! The handoff from paid to delivered (issue 21):
//! - `order_events`: every change of an order, one row per occurrence, written in the same
//!   transaction as the change (a claim after a release is a second `claimed` row). It is the
//!   outbox: the dispatcher turns each row into the jobs that leave the shop (mail, Discord)
//!   and stamps `dispatched_at`, so a crash between a change and its side effects loses
//!   nothing.
//! - `outbox_jobs`: the Discord work of each event (ticket steps), one row per event and
//!   channel, unique, sent with retries by whichever instance leases it first.
//! - `orders.buyer_ready_at` ("I'm in the game"), `orders.ticket_thread_id` (the Discord
//!   thread, so no second one is ever made) and `orders.ticket_problem` (why it is missing).
//! - `users.private_server_url`: each member of staff's private game server link.
//! - `mail_jobs.occurrence`: a mail sent once per occurrence (the claim mail, once per claim)
//!   instead of once per order; 0 for the once-per-order kinds.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Orders {
    Table,
    Id,
    BuyerReadyAt,
    TicketThreadId,
    TicketProblem,
}

#[derive(DeriveIden)]
enum Users {
    Table,
    PrivateServerUrl,
}

#[derive(DeriveIden)]
enum MailJobs {
    Table,
    OrderId,
    Kind,
    Occurrence,
}

#[derive(DeriveIden)]
enum OrderEvents {
    Table,
    Id,
    OrderId,
    Step,
    StaffId,
    At,
    DispatchedAt,
}

#[derive(DeriveIden)]
enum OutboxJobs {
    Table,
    Id,
    EventId,
    OrderId,
    Channel,
    Status,
    Attempts,
    NextAttemptAt,
    LastError,
    CreatedAt,
    SentAt,
}

fn add_column(table: impl IntoIden + 'static, column: ColumnDef) -> TableAlterStatement {
    Table::alter().table(table).add_column(column).to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // one column per statement: SQLite alters one at a time
        for column in [
            ColumnDef::new(Orders::BuyerReadyAt)
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
            ColumnDef::new(Orders::TicketThreadId)
                .string_len(32)
                .null()
                .to_owned(),
            ColumnDef::new(Orders::TicketProblem)
                .string_len(300)
                .null()
                .to_owned(),
        ] {
            manager
                .alter_table(add_column(Orders::Table, column))
                .await?;
        }
        manager
            .alter_table(add_column(
                Users::Table,
                ColumnDef::new(Users::PrivateServerUrl)
                    .string_len(300)
                    .null()
                    .to_owned(),
            ))
            .await?;
        manager
            .alter_table(add_column(
                MailJobs::Table,
                ColumnDef::new(MailJobs::Occurrence)
                    .big_integer()
                    .not_null()
                    .default(0)
                    .to_owned(),
            ))
            .await?;
        manager
            .drop_index(
                Index::drop()
                    .name("idx_mail_jobs_order_kind")
                    .table(MailJobs::Table)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_mail_jobs_order_kind_occurrence")
                    .table(MailJobs::Table)
                    .col(MailJobs::OrderId)
                    .col(MailJobs::Kind)
                    .col(MailJobs::Occurrence)
                    .unique()
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(OrderEvents::Table)
                    .col(
                        ColumnDef::new(OrderEvents::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(OrderEvents::OrderId)
                            .big_integer()
                            .not_null(),
                    )
                    .col(ColumnDef::new(OrderEvents::Step).string_len(24).not_null())
                    .col(ColumnDef::new(OrderEvents::StaffId).big_integer().null())
                    .col(
                        ColumnDef::new(OrderEvents::At)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(OrderEvents::DispatchedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from(OrderEvents::Table, OrderEvents::OrderId)
                            .to(Orders::Table, Orders::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_order_events_order")
                    .table(OrderEvents::Table)
                    .col(OrderEvents::OrderId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_order_events_undispatched")
                    .table(OrderEvents::Table)
                    .col(OrderEvents::DispatchedAt)
                    .col(OrderEvents::Id)
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(OutboxJobs::Table)
                    .col(
                        ColumnDef::new(OutboxJobs::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(OutboxJobs::EventId).big_integer().not_null())
                    .col(ColumnDef::new(OutboxJobs::OrderId).big_integer().not_null())
                    .col(
                        ColumnDef::new(OutboxJobs::Channel)
                            .string_len(16)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(OutboxJobs::Status)
                            .string_len(16)
                            .not_null()
                            .default("pending"),
                    )
                    .col(
                        ColumnDef::new(OutboxJobs::Attempts)
                            .integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(OutboxJobs::NextAttemptAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(ColumnDef::new(OutboxJobs::LastError).text().null())
                    .col(
                        ColumnDef::new(OutboxJobs::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(OutboxJobs::SentAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from(OutboxJobs::Table, OutboxJobs::EventId)
                            .to(OrderEvents::Table, OrderEvents::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_outbox_jobs_event_channel")
                    .table(OutboxJobs::Table)
                    .col(OutboxJobs::EventId)
                    .col(OutboxJobs::Channel)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_outbox_jobs_due")
                    .table(OutboxJobs::Table)
                    .col(OutboxJobs::Status)
                    .col(OutboxJobs::NextAttemptAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(OutboxJobs::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(OrderEvents::Table).to_owned())
            .await?;
        manager
            .drop_index(
                Index::drop()
                    .name("idx_mail_jobs_order_kind_occurrence")
                    .table(MailJobs::Table)
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
        for (table, column) in [
            (
                MailJobs::Table.into_iden(),
                MailJobs::Occurrence.into_iden(),
            ),
            (
                Users::Table.into_iden(),
                Users::PrivateServerUrl.into_iden(),
            ),
            (Orders::Table.into_iden(), Orders::TicketProblem.into_iden()),
            (
                Orders::Table.into_iden(),
                Orders::TicketThreadId.into_iden(),
            ),
            (Orders::Table.into_iden(), Orders::BuyerReadyAt.into_iden()),
        ] {
            manager
                .alter_table(Table::alter().table(table).drop_column(column).to_owned())
                .await?;
        }
        Ok(())
    }
}
