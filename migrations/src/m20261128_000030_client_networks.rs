//! Unpaid orders are capped per client network, not per whole address (issue 32 item 4):
//! `orders.client_net`, the key an order's `client_ip` counts under (`shared::network_key`: an
//! IPv6 client's /64, an IPv4 client's address), filled at placement and counted by the cap on
//! unpaid orders per address. `client_ip` stays whole (it is evidence). Personal data like the
//! address it comes from, and erased with it. Filled here for the orders there are; the cap's
//! index is on `(status, client_net)` (nothing reads orders by `client_ip` any more).

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, Statement};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Orders {
    Table,
    Status,
    ClientIp,
    ClientNet,
}

const OLD_INDEX: &str = "idx_orders_status_client_ip";
const NEW_INDEX: &str = "idx_orders_status_client_net";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Orders::Table)
                    .add_column(ColumnDef::new(Orders::ClientNet).string_len(64).null())
                    .to_owned(),
            )
            .await?;
        let db = manager.get_connection();
        // IPv4 addresses are their own key; IPv6 ones (a colon) become their /64 one by one
        db.execute_unprepared(
            "UPDATE orders SET client_net = client_ip \
             WHERE client_ip IS NOT NULL AND client_ip NOT LIKE '%:%'",
        )
        .await?;
        let backend = db.get_database_backend();
        let rows = db
            .query_all(Statement::from_string(
                backend,
                "SELECT id, client_ip FROM orders WHERE client_ip LIKE '%:%'",
            ))
            .await?;
        for row in rows {
            let id: i64 = row.try_get("", "id")?;
            let address: String = row.try_get("", "client_ip")?;
            let Ok(ip) = address.parse::<std::net::IpAddr>() else {
                continue; // not an address (the shop never wrote one): counted by nothing
            };
            db.execute(Statement::from_sql_and_values(
                backend,
                match backend {
                    sea_orm_migration::sea_orm::DbBackend::Postgres => {
                        "UPDATE orders SET client_net = $1 WHERE id = $2"
                    }
                    _ => "UPDATE orders SET client_net = ? WHERE id = ?",
                },
                [shared::network_key(ip).into(), id.into()],
            ))
            .await?;
        }
        manager
            .drop_index(
                Index::drop()
                    .name(OLD_INDEX)
                    .table(Orders::Table)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name(NEW_INDEX)
                    .table(Orders::Table)
                    .col(Orders::Status)
                    .col(Orders::ClientNet)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name(NEW_INDEX)
                    .table(Orders::Table)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name(OLD_INDEX)
                    .table(Orders::Table)
                    .col(Orders::Status)
                    .col(Orders::ClientIp)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Orders::Table)
                    .drop_column(Orders::ClientNet)
                    .to_owned(),
            )
            .await
    }
}
