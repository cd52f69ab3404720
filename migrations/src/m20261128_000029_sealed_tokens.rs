//! The guild joins' access tokens are sealed at rest from now on (issue 32): the store writes
//! `v1:` and the hex of an AES-256-GCM seal keyed from `session.key`. Tokens written before
//! are in plain text and are dropped here rather than sealed (the migration does not hold the
//! session key): a pending join exists only while Discord refused or failed the first attempt,
//! and its buyer can still join through the shop's invite link.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .get_connection()
            .execute_unprepared("DELETE FROM guild_joins WHERE access_token NOT LIKE 'v1:%'")
            .await?;
        Ok(())
    }

    async fn down(&self, _manager: &SchemaManager) -> Result<(), DbErr> {
        // sealed tokens stay sealed: an older shop would send them as they are, Discord would
        // refuse them and the join would be given up (deleted)
        Ok(())
    }
}
