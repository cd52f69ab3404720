//! Keep the money (issue 33): what a dispute's evidence needs, and disputes as records.
//!
//! - `disputes`: one row per provider dispute (Stripe's `du_...`), filled from its events: the
//!   order, amount and currency, the bank's reason, Stripe's status, the evidence deadline
//!   (`due_by`), the evidence's state (`none`, `staged`, `submitted`), the outcome, the staff
//!   note and the uploaded files' ids. `submit_claimed_at` is taken by one instance when the
//!   evidence is submitted (by staff or by the deadline job). The row is its own outbox job:
//!   `next_attempt_at` is set while its evidence is to be staged, leased by one instance at a
//!   time with a conditional update, retried with `attempts` and the `last_error` kept.
//! - `orders.server_link_shown` and `server_link_shown_at`: the private server link as the buyer
//!   was first shown it (staff change theirs), and when.
//! - `orders.refund_policy_version`: the refund policy's version the checkout showed.
//! - `orders.received_at`: the buyer's "I got my items"; `received_ip` and `buyer_ready_ip`: the
//!   client addresses of that press and of "I'm in the game" (personal data, for the evidence).
//! - `evidence_holds`: what a dispute's evidence needs of a buyer who erased their account (the
//!   names, the e-mail, the addresses), one row per order paid within
//!   `disputes.evidence_retention_days` or under an open dispute, kept for that legitimate
//!   interest and purged when the time is over and no dispute is open.
//! - `orders.hold_reason` and `held_at`: a risk hold (`fraud_warning`, `risk_level`) that keeps a
//!   paid order out of the delivery queue until staff refund or release it.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Disputes {
    Table,
    Id,
    Provider,
    DisputeId,
    OrderId,
    PaymentId,
    AmountMinor,
    Currency,
    Reason,
    Status,
    DueBy,
    Evidence,
    Outcome,
    StaffNote,
    Files,
    SubmitClaimedAt,
    Attempts,
    NextAttemptAt,
    LastError,
    CreatedAt,
    UpdatedAt,
    StagedAt,
    SubmittedAt,
    ClosedAt,
}

#[derive(DeriveIden)]
enum Orders {
    Table,
    Id,
    ServerLinkShown,
    ServerLinkShownAt,
    RefundPolicyVersion,
    ReceivedAt,
    ReceivedIp,
    BuyerReadyIp,
    HoldReason,
    HeldAt,
}

#[derive(DeriveIden)]
enum EvidenceHolds {
    Table,
    OrderId,
    Email,
    DiscordId,
    DiscordUsername,
    RobloxUsername,
    ClientIp,
    BuyerReadyIp,
    ReceivedIp,
    PaidAt,
    CreatedAt,
}

fn at(column: Disputes) -> ColumnDef {
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
                    .table(Disputes::Table)
                    .col(
                        ColumnDef::new(Disputes::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(Disputes::Provider).string_len(16).not_null())
                    .col(
                        ColumnDef::new(Disputes::DisputeId)
                            .string_len(255)
                            .not_null(),
                    )
                    .col(ColumnDef::new(Disputes::OrderId).big_integer().null())
                    .col(ColumnDef::new(Disputes::PaymentId).string_len(255).null())
                    .col(
                        ColumnDef::new(Disputes::AmountMinor)
                            .big_integer()
                            .not_null(),
                    )
                    .col(ColumnDef::new(Disputes::Currency).string_len(3).not_null())
                    .col(ColumnDef::new(Disputes::Reason).string_len(64).null())
                    .col(ColumnDef::new(Disputes::Status).string_len(32).not_null())
                    .col(at(Disputes::DueBy))
                    .col(
                        ColumnDef::new(Disputes::Evidence)
                            .string_len(16)
                            .not_null()
                            .default("none"),
                    )
                    .col(ColumnDef::new(Disputes::Outcome).string_len(16).null())
                    .col(ColumnDef::new(Disputes::StaffNote).text().null())
                    .col(ColumnDef::new(Disputes::Files).text().null())
                    .col(at(Disputes::SubmitClaimedAt))
                    .col(
                        ColumnDef::new(Disputes::Attempts)
                            .integer()
                            .not_null()
                            .default(0),
                    )
                    .col(at(Disputes::NextAttemptAt))
                    .col(ColumnDef::new(Disputes::LastError).string_len(300).null())
                    .col(
                        ColumnDef::new(Disputes::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Disputes::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(at(Disputes::StagedAt))
                    .col(at(Disputes::SubmittedAt))
                    .col(at(Disputes::ClosedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .from(Disputes::Table, Disputes::OrderId)
                            .to(Orders::Table, Orders::Id)
                            .on_delete(ForeignKeyAction::SetNull),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_disputes_provider_dispute")
                    .table(Disputes::Table)
                    .col(Disputes::Provider)
                    .col(Disputes::DisputeId)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_disputes_order")
                    .table(Disputes::Table)
                    .col(Disputes::OrderId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_disputes_next_attempt")
                    .table(Disputes::Table)
                    .col(Disputes::NextAttemptAt)
                    .to_owned(),
            )
            .await?;
        let text = |column: EvidenceHolds, len: u32| {
            ColumnDef::new(column).string_len(len).null().to_owned()
        };
        manager
            .create_table(
                Table::create()
                    .table(EvidenceHolds::Table)
                    .col(
                        ColumnDef::new(EvidenceHolds::OrderId)
                            .big_integer()
                            .not_null()
                            .primary_key(),
                    )
                    .col(text(EvidenceHolds::Email, 320))
                    .col(text(EvidenceHolds::DiscordId, 32))
                    .col(text(EvidenceHolds::DiscordUsername, 255))
                    .col(text(EvidenceHolds::RobloxUsername, 255))
                    .col(text(EvidenceHolds::ClientIp, 45))
                    .col(text(EvidenceHolds::BuyerReadyIp, 45))
                    .col(text(EvidenceHolds::ReceivedIp, 45))
                    .col(
                        ColumnDef::new(EvidenceHolds::PaidAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(EvidenceHolds::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from(EvidenceHolds::Table, EvidenceHolds::OrderId)
                            .to(Orders::Table, Orders::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        // SQLite adds one column per ALTER TABLE
        for column in [
            ColumnDef::new(Orders::ServerLinkShown)
                .string_len(512)
                .null()
                .to_owned(),
            ColumnDef::new(Orders::ServerLinkShownAt)
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
            ColumnDef::new(Orders::RefundPolicyVersion)
                .string_len(32)
                .null()
                .to_owned(),
            ColumnDef::new(Orders::ReceivedAt)
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
            ColumnDef::new(Orders::ReceivedIp)
                .string_len(45)
                .null()
                .to_owned(),
            ColumnDef::new(Orders::BuyerReadyIp)
                .string_len(45)
                .null()
                .to_owned(),
            ColumnDef::new(Orders::HoldReason)
                .string_len(32)
                .null()
                .to_owned(),
            ColumnDef::new(Orders::HeldAt)
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(Orders::Table)
                        .add_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for column in [
            Orders::HeldAt,
            Orders::HoldReason,
            Orders::BuyerReadyIp,
            Orders::ReceivedIp,
            Orders::ReceivedAt,
            Orders::RefundPolicyVersion,
            Orders::ServerLinkShownAt,
            Orders::ServerLinkShown,
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(Orders::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        manager
            .drop_table(Table::drop().table(EvidenceHolds::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(Disputes::Table).to_owned())
            .await
    }
}
