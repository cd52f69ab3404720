//! The staff audit log (issue 15): one row per staff action, written in the same transaction
//! as the change. `actor_id` is not a foreign key: the row keeps the actor's name at the time
//! (`command line` for the CLI) and outlives the account. Append-only: a trigger on each
//! database refuses UPDATE and DELETE; only dropping the table (a restore) removes rows.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden, Clone, Copy)]
enum AuditLog {
    Table,
    Id,
    At,
    ActorId,
    ActorName,
    Kind,
    Target,
    Before,
    After,
    Ip,
}

const POSTGRES_APPEND_ONLY: &str = "\
CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only';
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();";

const SQLITE_APPEND_ONLY: &str = "\
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(AuditLog::Table)
                    .col(
                        ColumnDef::new(AuditLog::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(AuditLog::At)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(ColumnDef::new(AuditLog::ActorId).big_integer().null())
                    .col(
                        ColumnDef::new(AuditLog::ActorName)
                            .string_len(120)
                            .not_null(),
                    )
                    .col(ColumnDef::new(AuditLog::Kind).string_len(40).not_null())
                    .col(ColumnDef::new(AuditLog::Target).string_len(300).not_null())
                    .col(ColumnDef::new(AuditLog::Before).text().null())
                    .col(ColumnDef::new(AuditLog::After).text().null())
                    .col(ColumnDef::new(AuditLog::Ip).string_len(64).null())
                    .to_owned(),
            )
            .await?;
        for (name, columns) in [
            ("idx_audit_log_at", &[AuditLog::At, AuditLog::Id][..]),
            (
                "idx_audit_log_actor",
                &[AuditLog::ActorId, AuditLog::Id][..],
            ),
            ("idx_audit_log_kind", &[AuditLog::Kind, AuditLog::Id][..]),
        ] {
            let mut index = Index::create();
            index.name(name).table(AuditLog::Table);
            for column in columns {
                index.col(*column);
            }
            manager.create_index(index.to_owned()).await?;
        }
        let db = manager.get_connection();
        match db.get_database_backend() {
            DatabaseBackend::Postgres => db.execute_unprepared(POSTGRES_APPEND_ONLY).await?,
            _ => db.execute_unprepared(SQLITE_APPEND_ONLY).await?,
        };
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(AuditLog::Table).to_owned())
            .await?;
        let db = manager.get_connection();
        if db.get_database_backend() == DatabaseBackend::Postgres {
            db.execute_unprepared("DROP FUNCTION IF EXISTS audit_log_append_only()")
                .await?;
        }
        Ok(())
    }
}
