//! Orders and what they hold (lines, the stock they reserve), promo codes and their
//! redemptions, and the payment providers' events already applied.
//!
//! `products.stock >= 0` is already a CHECK constraint of the products table (000001): the
//! second wall behind checkout's conditional decrement, on both databases.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum PromoCodes {
    Table,
    Id,
    Code,
    DiscountPercent,
    ExpiresAt,
    MaxUses,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Orders {
    Table,
    Id,
    Status,
    UserId,
    DiscordId,
    DiscordUsername,
    DiscordAvatar,
    RobloxUsername,
    Email,
    SubtotalCents,
    DiscountCents,
    FeeCents,
    TotalCents,
    PromoCodeId,
    PromoCode,
    DiscountPercent,
    PaymentMethod,
    Provider,
    ProviderReference,
    CreatedAt,
    PaidAt,
    DeliveredAt,
    ClosedAt,
    ClaimedBy,
}

#[derive(DeriveIden)]
enum OrderLines {
    Table,
    OrderId,
    Position,
    ProductId,
    Name,
    UnitPriceCents,
    Quantity,
}

#[derive(DeriveIden)]
enum OrderReservations {
    Table,
    OrderId,
    ProductId,
    Quantity,
}

#[derive(DeriveIden)]
enum PromoRedemptions {
    Table,
    PromoCodeId,
    DiscordId,
    OrderId,
    RedeemedAt,
}

#[derive(DeriveIden)]
enum ProcessedEvents {
    Table,
    Provider,
    EventId,
    ProcessedAt,
}

const STATUSES: [&str; 6] = [
    "pending",
    "paid",
    "delivered",
    "expired",
    "cancelled",
    "refunded",
];

fn timestamp(column: impl IntoIden) -> ColumnDef {
    ColumnDef::new(column)
        .timestamp_with_time_zone()
        .not_null()
        .to_owned()
}

fn optional_timestamp(column: impl IntoIden) -> ColumnDef {
    ColumnDef::new(column)
        .timestamp_with_time_zone()
        .null()
        .to_owned()
}

fn cents(column: impl IntoIden) -> ColumnDef {
    ColumnDef::new(column).big_integer().not_null().to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(PromoCodes::Table)
                    .col(
                        ColumnDef::new(PromoCodes::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(PromoCodes::Code)
                            .string_len(32)
                            .not_null()
                            .unique_key(),
                    )
                    .col(
                        ColumnDef::new(PromoCodes::DiscountPercent)
                            .integer()
                            .not_null(),
                    )
                    .col(optional_timestamp(PromoCodes::ExpiresAt))
                    .col(ColumnDef::new(PromoCodes::MaxUses).integer().null())
                    .col(timestamp(PromoCodes::CreatedAt))
                    .check(Expr::col(PromoCodes::DiscountPercent).between(1, 100))
                    .check(Expr::col(PromoCodes::MaxUses).gte(1))
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(Orders::Table)
                    .col(
                        ColumnDef::new(Orders::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(Orders::Status).string_len(16).not_null())
                    .col(ColumnDef::new(Orders::UserId).big_integer().null())
                    .col(ColumnDef::new(Orders::DiscordId).string_len(20).not_null())
                    .col(
                        ColumnDef::new(Orders::DiscordUsername)
                            .string_len(100)
                            .not_null(),
                    )
                    .col(ColumnDef::new(Orders::DiscordAvatar).string_len(500).null())
                    .col(
                        ColumnDef::new(Orders::RobloxUsername)
                            .string_len(20)
                            .not_null(),
                    )
                    .col(ColumnDef::new(Orders::Email).string_len(254).not_null())
                    .col(cents(Orders::SubtotalCents))
                    .col(cents(Orders::DiscountCents))
                    .col(cents(Orders::FeeCents))
                    .col(cents(Orders::TotalCents))
                    .col(ColumnDef::new(Orders::PromoCodeId).big_integer().null())
                    .col(ColumnDef::new(Orders::PromoCode).string_len(32).null())
                    .col(ColumnDef::new(Orders::DiscountPercent).integer().null())
                    .col(
                        ColumnDef::new(Orders::PaymentMethod)
                            .string_len(16)
                            .not_null(),
                    )
                    .col(ColumnDef::new(Orders::Provider).string_len(16).not_null())
                    .col(
                        ColumnDef::new(Orders::ProviderReference)
                            .string_len(255)
                            .null(),
                    )
                    .col(timestamp(Orders::CreatedAt))
                    .col(optional_timestamp(Orders::PaidAt))
                    .col(optional_timestamp(Orders::DeliveredAt))
                    .col(optional_timestamp(Orders::ClosedAt))
                    .col(ColumnDef::new(Orders::ClaimedBy).big_integer().null())
                    .check(Expr::col(Orders::Status).is_in(STATUSES))
                    .check(Expr::col(Orders::TotalCents).gte(0))
                    .foreign_key(
                        ForeignKey::create()
                            .from(Orders::Table, Orders::PromoCodeId)
                            .to(PromoCodes::Table, PromoCodes::Id),
                    )
                    .to_owned(),
            )
            .await?;

        for index in [
            Index::create()
                .name("idx_orders_paid_at")
                .table(Orders::Table)
                .col(Orders::PaidAt)
                .to_owned(),
            Index::create()
                .name("idx_orders_status_created_at")
                .table(Orders::Table)
                .col(Orders::Status)
                .col(Orders::CreatedAt)
                .to_owned(),
            Index::create()
                .name("idx_orders_user_id")
                .table(Orders::Table)
                .col(Orders::UserId)
                .to_owned(),
            Index::create()
                .name("idx_orders_provider_reference")
                .table(Orders::Table)
                .col(Orders::Provider)
                .col(Orders::ProviderReference)
                .unique()
                .to_owned(),
        ] {
            manager.create_index(index).await?;
        }

        manager
            .create_table(
                Table::create()
                    .table(OrderLines::Table)
                    .col(ColumnDef::new(OrderLines::OrderId).big_integer().not_null())
                    .col(ColumnDef::new(OrderLines::Position).integer().not_null())
                    .col(
                        ColumnDef::new(OrderLines::ProductId)
                            .big_integer()
                            .not_null(),
                    )
                    .col(ColumnDef::new(OrderLines::Name).string_len(200).not_null())
                    .col(cents(OrderLines::UnitPriceCents))
                    .col(ColumnDef::new(OrderLines::Quantity).integer().not_null())
                    .primary_key(
                        Index::create()
                            .col(OrderLines::OrderId)
                            .col(OrderLines::Position),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from(OrderLines::Table, OrderLines::OrderId)
                            .to(Orders::Table, Orders::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .check(Expr::col(OrderLines::Quantity).gte(1))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_order_lines_product_id")
                    .table(OrderLines::Table)
                    .col(OrderLines::ProductId)
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(OrderReservations::Table)
                    .col(
                        ColumnDef::new(OrderReservations::OrderId)
                            .big_integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(OrderReservations::ProductId)
                            .big_integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(OrderReservations::Quantity)
                            .big_integer()
                            .not_null(),
                    )
                    .primary_key(
                        Index::create()
                            .col(OrderReservations::OrderId)
                            .col(OrderReservations::ProductId),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from(OrderReservations::Table, OrderReservations::OrderId)
                            .to(Orders::Table, Orders::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .check(Expr::col(OrderReservations::Quantity).gte(1))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_order_reservations_product_id")
                    .table(OrderReservations::Table)
                    .col(OrderReservations::ProductId)
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(PromoRedemptions::Table)
                    .col(
                        ColumnDef::new(PromoRedemptions::PromoCodeId)
                            .big_integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(PromoRedemptions::DiscordId)
                            .string_len(20)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(PromoRedemptions::OrderId)
                            .big_integer()
                            .not_null(),
                    )
                    .col(timestamp(PromoRedemptions::RedeemedAt))
                    // one redemption per code and Discord account
                    .primary_key(
                        Index::create()
                            .col(PromoRedemptions::PromoCodeId)
                            .col(PromoRedemptions::DiscordId),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from(PromoRedemptions::Table, PromoRedemptions::PromoCodeId)
                            .to(PromoCodes::Table, PromoCodes::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from(PromoRedemptions::Table, PromoRedemptions::OrderId)
                            .to(Orders::Table, Orders::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(ProcessedEvents::Table)
                    .col(
                        ColumnDef::new(ProcessedEvents::Provider)
                            .string_len(16)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(ProcessedEvents::EventId)
                            .string_len(255)
                            .not_null(),
                    )
                    .col(timestamp(ProcessedEvents::ProcessedAt))
                    .primary_key(
                        Index::create()
                            .col(ProcessedEvents::Provider)
                            .col(ProcessedEvents::EventId),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            ProcessedEvents::Table.into_iden(),
            PromoRedemptions::Table.into_iden(),
            OrderReservations::Table.into_iden(),
            OrderLines::Table.into_iden(),
            Orders::Table.into_iden(),
            PromoCodes::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(table).to_owned())
                .await?;
        }
        Ok(())
    }
}
