//! The blocklist blocks only what the shop verified (issue 22, items 3 and 4):
//! - `blocklist.status`: `active` (blocks) or `flagged` (recorded for staff to confirm or remove:
//!   what a buyer typed at a chargeback, which could be a stranger's).
//! - `blocklist.expires_at`: when an entry stops blocking (a chargeback's client address, after
//!   30 days); NULL: never.
//! - `blocklist.match_value`: what checkout compares: an e-mail's canonical form (no `+tag`; at
//!   Gmail no dots), an IPv6 address's /64, the value otherwise. Existing entries are backfilled
//!   with the rules as they are today (this file keeps its own copy: a migration never changes).

use std::net::IpAddr;

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, Statement, Value};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Blocklist {
    Table,
    Kind,
    Status,
    ExpiresAt,
    MatchValue,
}

/// The match form of `value` of `kind`, as `orders::blocklist` computed it on 2026-11-26.
fn match_value(kind: &str, value: &str) -> String {
    match kind {
        "email" => {
            let email = value.trim().to_lowercase();
            let Some((local, domain)) = email.rsplit_once('@') else {
                return email;
            };
            let local = local.split('+').next().unwrap_or(local);
            match domain {
                "gmail.com" | "googlemail.com" => {
                    format!("{}@gmail.com", local.replace('.', ""))
                }
                _ => format!("{local}@{domain}"),
            }
        }
        "ip" => match value.parse::<IpAddr>() {
            Ok(IpAddr::V6(v6)) => {
                let [a, b, c, d, ..] = v6.segments();
                format!("{a:x}:{b:x}:{c:x}:{d:x}::/64")
            }
            _ => value.to_owned(),
        },
        _ => value.to_owned(),
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // one column per statement: SQLite alters one at a time
        for column in [
            ColumnDef::new(Blocklist::Status)
                .string_len(16)
                .not_null()
                .default("active")
                .to_owned(),
            ColumnDef::new(Blocklist::ExpiresAt)
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
            ColumnDef::new(Blocklist::MatchValue)
                .string_len(254)
                .null()
                .to_owned(),
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(Blocklist::Table)
                        .add_column(column)
                        .to_owned(),
                )
                .await?;
        }
        let db = manager.get_connection();
        let backend = db.get_database_backend();
        let rows = db
            .query_all(Statement::from_string(
                backend,
                "SELECT id, kind, value FROM blocklist",
            ))
            .await?;
        for row in rows {
            let id: i64 = row.try_get("", "id")?;
            let kind: String = row.try_get("", "kind")?;
            let value: String = row.try_get("", "value")?;
            let update = match backend {
                sea_orm_migration::sea_orm::DatabaseBackend::Postgres => {
                    "UPDATE blocklist SET match_value = $1 WHERE id = $2"
                }
                _ => "UPDATE blocklist SET match_value = ? WHERE id = ?",
            };
            db.execute(Statement::from_sql_and_values(
                backend,
                update,
                [Value::from(match_value(&kind, &value)), Value::from(id)],
            ))
            .await?;
        }
        manager
            .create_index(
                Index::create()
                    .name("idx_blocklist_kind_match_value")
                    .table(Blocklist::Table)
                    .col(Blocklist::Kind)
                    .col(Blocklist::MatchValue)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name("idx_blocklist_kind_match_value")
                    .table(Blocklist::Table)
                    .to_owned(),
            )
            .await?;
        for column in [
            Blocklist::MatchValue.into_iden(),
            Blocklist::ExpiresAt.into_iden(),
            Blocklist::Status.into_iden(),
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(Blocklist::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}
