//! Checkout against hoarding and promo abuse (issue 11):
//! - `orders.buyer_token` (a random token of the browser session that placed the order) and
//!   `orders.client_ip`: unpaid orders are capped per Discord account, per browser session and
//!   per client address, counted among the pending orders (indexed by status first);
//! - `orders.review_reason`: a pending order held for staff (a PayPal capture that is still
//!   pending or does not match the order); the sweeper leaves it alone;
//! - `promo_codes.uses`: the pending and paid redemptions of the code, raised by a conditional
//!   UPDATE (`uses < max_uses`) in the transaction that places the order and lowered when the
//!   order expires or is cancelled. Filled from the redemptions counted so far.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Orders {
    Table,
    Status,
    DiscordId,
    BuyerToken,
    ClientIp,
    ReviewReason,
}

#[derive(DeriveIden)]
enum PromoCodes {
    Table,
    Uses,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // SQLite adds one column per ALTER TABLE.
        for column in [
            ColumnDef::new(Orders::BuyerToken)
                .string_len(64)
                .null()
                .to_owned(),
            ColumnDef::new(Orders::ClientIp)
                .string_len(64)
                .null()
                .to_owned(),
            ColumnDef::new(Orders::ReviewReason)
                .string_len(255)
                .null()
                .to_owned(),
        ] {
            let mut column = column;
            manager
                .alter_table(
                    Table::alter()
                        .table(Orders::Table)
                        .add_column(&mut column)
                        .to_owned(),
                )
                .await?;
        }
        for (name, column) in [
            ("idx_orders_status_discord", Orders::DiscordId),
            ("idx_orders_status_buyer_token", Orders::BuyerToken),
            ("idx_orders_status_client_ip", Orders::ClientIp),
        ] {
            manager
                .create_index(
                    Index::create()
                        .name(name)
                        .table(Orders::Table)
                        .col(Orders::Status)
                        .col(column)
                        .to_owned(),
                )
                .await?;
        }
        manager
            .alter_table(
                Table::alter()
                    .table(PromoCodes::Table)
                    .add_column(
                        ColumnDef::new(PromoCodes::Uses)
                            .integer()
                            .not_null()
                            .default(0),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .get_connection()
            .execute_unprepared(
                "UPDATE promo_codes SET uses = (SELECT COUNT(*) FROM promo_redemptions r \
                 WHERE r.promo_code_id = promo_codes.id)",
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(PromoCodes::Table)
                    .drop_column(PromoCodes::Uses)
                    .to_owned(),
            )
            .await?;
        for name in [
            "idx_orders_status_discord",
            "idx_orders_status_buyer_token",
            "idx_orders_status_client_ip",
        ] {
            manager
                .drop_index(Index::drop().name(name).table(Orders::Table).to_owned())
                .await?;
        }
        for column in [Orders::BuyerToken, Orders::ClientIp, Orders::ReviewReason] {
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
