//! The help chat under abuse: at most one open chat per browser session (a partial unique
//! index, so parallel `start-ai` calls cannot make two), a once-only staff notification per chat
//! (`staff_notified_at`, claimed by a conditional update), and an index on `updated_at` for the
//! staff list's newest-activity-first pages, the purge of idle chats and the poll cache's check
//! for other instances' writes.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Chats {
    Table,
    StaffNotifiedAt,
    UpdatedAt,
    Id,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Chats::Table)
                    .add_column(
                        ColumnDef::new(Chats::StaffNotifiedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await?;
        let db = manager.get_connection();
        // Chats that were already asked for an agent have had their notification.
        db.execute_unprepared(
            "UPDATE chats SET staff_notified_at = updated_at WHERE status <> 'ai'",
        )
        .await?;
        // Before the unique index: of a session's open chats only the newest stays open.
        db.execute_unprepared(
            "UPDATE chats SET status = 'closed' WHERE status <> 'closed' AND EXISTS ( \
               SELECT 1 FROM chats newer WHERE newer.session_id = chats.session_id \
               AND newer.status <> 'closed' AND (newer.created_at > chats.created_at \
               OR (newer.created_at = chats.created_at AND newer.id > chats.id)))",
        )
        .await?;
        // The same statement on SQLite and PostgreSQL (sea-query builds no partial index).
        db.execute_unprepared(
            "CREATE UNIQUE INDEX idx_chats_one_open_per_session ON chats (session_id) \
             WHERE status <> 'closed'",
        )
        .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_chats_updated_at")
                    .table(Chats::Table)
                    .col(Chats::UpdatedAt)
                    .col(Chats::Id)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name("idx_chats_updated_at")
                    .table(Chats::Table)
                    .to_owned(),
            )
            .await?;
        manager
            .get_connection()
            .execute_unprepared("DROP INDEX idx_chats_one_open_per_session")
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Chats::Table)
                    .drop_column(Chats::StaffNotifiedAt)
                    .to_owned(),
            )
            .await
    }
}
