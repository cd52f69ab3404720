//! Prices and payment in the shopper's currency (issue 36):
//! - `orders.currency`, `orders.rate` (units of it per unit of the base currency, a decimal
//!   string), `orders.minor_units` and `orders.amount_paid` (the grand total in its minor
//!   units); `order_lines.unit_price_paid` (the unit price in them). Orders placed before were
//!   all in US dollars, the base currency then: rate 1, their own totals.
//! - `exchange_rates`: the day's reference rates, one row per currency, as rates against the
//!   euro (the ECB's), with their date and whether they come from the development sample.
//! - `exchange_rate_fetch`: one row, when the next fetch is due; an instance leases it with a
//!   conditional update, so of every instance one fetches a day.
//!
//! Nothing personal.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Orders {
    Table,
    Currency,
    Rate,
    MinorUnits,
    AmountPaid,
}

#[derive(DeriveIden)]
enum OrderLines {
    Table,
    UnitPricePaid,
}

#[derive(DeriveIden)]
enum ExchangeRates {
    Table,
    Currency,
    PerEuro,
    AsOf,
    Sample,
    FetchedAt,
}

#[derive(DeriveIden)]
enum ExchangeRateFetch {
    Table,
    Id,
    DueAt,
    Failures,
    LastError,
}

async fn add(
    manager: &SchemaManager<'_>,
    table: impl IntoIden + 'static,
    column: ColumnDef,
) -> Result<(), DbErr> {
    manager
        .alter_table(Table::alter().table(table).add_column(column).to_owned())
        .await
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let mut currency = ColumnDef::new(Orders::Currency);
        add(
            manager,
            Orders::Table,
            currency.string_len(3).not_null().default("USD").to_owned(),
        )
        .await?;
        let mut rate = ColumnDef::new(Orders::Rate);
        add(
            manager,
            Orders::Table,
            rate.string_len(40).not_null().default("1").to_owned(),
        )
        .await?;
        let mut minor = ColumnDef::new(Orders::MinorUnits);
        add(
            manager,
            Orders::Table,
            minor.integer().not_null().default(2).to_owned(),
        )
        .await?;
        let mut paid = ColumnDef::new(Orders::AmountPaid);
        add(
            manager,
            Orders::Table,
            paid.big_integer().not_null().default(0).to_owned(),
        )
        .await?;
        let mut unit = ColumnDef::new(OrderLines::UnitPricePaid);
        add(
            manager,
            OrderLines::Table,
            unit.big_integer().not_null().default(0).to_owned(),
        )
        .await?;
        let db = manager.get_connection();
        db.execute_unprepared("UPDATE orders SET amount_paid = total_cents")
            .await?;
        db.execute_unprepared("UPDATE order_lines SET unit_price_paid = unit_price_cents")
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(ExchangeRates::Table)
                    .col(
                        ColumnDef::new(ExchangeRates::Currency)
                            .string_len(3)
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(ExchangeRates::PerEuro)
                            .string_len(40)
                            .not_null(),
                    )
                    .col(ColumnDef::new(ExchangeRates::AsOf).date().not_null())
                    .col(ColumnDef::new(ExchangeRates::Sample).boolean().not_null())
                    .col(
                        ColumnDef::new(ExchangeRates::FetchedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(ExchangeRateFetch::Table)
                    .col(
                        ColumnDef::new(ExchangeRateFetch::Id)
                            .integer()
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(ExchangeRateFetch::DueAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(ExchangeRateFetch::Failures)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .col(ColumnDef::new(ExchangeRateFetch::LastError).text().null())
                    .to_owned(),
            )
            .await?;
        db.execute_unprepared(
            "INSERT INTO exchange_rate_fetch (id, due_at, failures) VALUES (1, '2000-01-01 00:00:00+00:00', 0)",
        )
        .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(ExchangeRateFetch::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(ExchangeRates::Table).to_owned())
            .await?;
        let drop = |table: DynIden, column: DynIden| {
            Table::alter().table(table).drop_column(column).to_owned()
        };
        manager
            .alter_table(drop(
                OrderLines::Table.into_iden(),
                OrderLines::UnitPricePaid.into_iden(),
            ))
            .await?;
        for column in [
            Orders::AmountPaid,
            Orders::MinorUnits,
            Orders::Rate,
            Orders::Currency,
        ] {
            manager
                .alter_table(drop(Orders::Table.into_iden(), column.into_iden()))
                .await?;
        }
        Ok(())
    }
}
