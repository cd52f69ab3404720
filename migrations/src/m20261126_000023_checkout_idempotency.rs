//! Checkout's `Idempotency-Key` (issue 22, item 15): the order a key placed, so a retried
//! checkout answers that order instead of placing a second one.
//! - `orders.idempotency_key`: SHA-256 (hex) of the browser session and the key the storefront
//!   sent, set in the transaction that places the order; unique, so one key places one order.
//!   NULL for orders placed without a key, and cleared when a key is used again after 24 hours.
//! - `orders.request_fingerprint`: SHA-256 (hex) of the request as the server read it, so the
//!   same key with another cart answers 422 instead of the first order.
//! - `orders.payment_url`: where the payment page of the order is (Stripe Checkout's or PayPal's
//!   page, the dev page), recorded with the provider's reference, for the repeated answer.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Orders {
    Table,
    IdempotencyKey,
    RequestFingerprint,
    PaymentUrl,
}

const INDEX: &str = "idx_orders_idempotency_key";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // one column per statement: SQLite alters one at a time
        for column in [
            ColumnDef::new(Orders::IdempotencyKey)
                .string_len(64)
                .null()
                .to_owned(),
            ColumnDef::new(Orders::RequestFingerprint)
                .string_len(64)
                .null()
                .to_owned(),
            ColumnDef::new(Orders::PaymentUrl).text().null().to_owned(),
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
        manager
            .create_index(
                Index::create()
                    .name(INDEX)
                    .table(Orders::Table)
                    .col(Orders::IdempotencyKey)
                    .unique()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(Index::drop().name(INDEX).table(Orders::Table).to_owned())
            .await?;
        for column in [
            Orders::PaymentUrl.into_iden(),
            Orders::RequestFingerprint.into_iden(),
            Orders::IdempotencyKey.into_iden(),
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
        Ok(())
    }
}
