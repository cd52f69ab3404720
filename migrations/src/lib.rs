//! The schema. Each migration runs on SQLite and PostgreSQL alike.

pub use sea_orm_migration::prelude::*;

mod m20261121_000001_products;
mod m20261121_000002_accounts;
mod m20261121_000003_orders;
mod m20261121_000004_chat_proofs;
mod m20261121_000005_delivery_queue;
mod m20261123_000006_rate_limits;
mod m20261123_000007_accounts_abuse;
mod m20261123_000008_checkout_abuse;
mod m20261123_000009_chat_abuse;
mod m20261123_000010_demo_logins;
mod m20261123_000011_drop_inventory;
mod m20261124_000012_order_links_mail_jobs;
mod m20261124_000013_reviews;
mod m20261124_000014_refunds_disputes;
mod m20261124_000015_blocklist;
mod m20261125_000016_audit_log;
mod m20261125_000018_push_events;
mod m20261126_000019_handoff;
mod m20261126_000020_guild_joins;
mod m20261126_000021_event_notes;
mod m20261126_000022_blocklist_review;
mod m20261126_000023_checkout_idempotency;
mod m20261126_000024_promo_active;
mod m20261126_000025_erasable_orders;
mod m20261127_000026_drops;
mod m20261128_000027_order_line_parts;
mod m20261128_000028_discord_outbox;
mod m20261128_000029_sealed_tokens;
mod m20261128_000030_client_networks;
mod m20261129_000031_disputes;
mod m20261130_000032_prepared_evidence;
mod m20261130_000033_order_messages;
mod m20261130_000034_no_show;
mod m20261130_000036_languages;
mod m20261130_000037_currencies;
mod m20261201_000039_account_language;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261121_000001_products::Migration),
            Box::new(m20261121_000002_accounts::Migration),
            Box::new(m20261121_000003_orders::Migration),
            Box::new(m20261121_000004_chat_proofs::Migration),
            Box::new(m20261121_000005_delivery_queue::Migration),
            Box::new(m20261123_000006_rate_limits::Migration),
            Box::new(m20261123_000007_accounts_abuse::Migration),
            Box::new(m20261123_000008_checkout_abuse::Migration),
            Box::new(m20261123_000009_chat_abuse::Migration),
            Box::new(m20261123_000010_demo_logins::Migration),
            Box::new(m20261123_000011_drop_inventory::Migration),
            Box::new(m20261124_000012_order_links_mail_jobs::Migration),
            Box::new(m20261124_000013_reviews::Migration),
            Box::new(m20261124_000014_refunds_disputes::Migration),
            Box::new(m20261124_000015_blocklist::Migration),
            Box::new(m20261125_000016_audit_log::Migration),
            Box::new(m20261125_000018_push_events::Migration),
            Box::new(m20261126_000019_handoff::Migration),
            Box::new(m20261126_000020_guild_joins::Migration),
            Box::new(m20261126_000021_event_notes::Migration),
            Box::new(m20261126_000022_blocklist_review::Migration),
            Box::new(m20261126_000023_checkout_idempotency::Migration),
            Box::new(m20261126_000024_promo_active::Migration),
            Box::new(m20261126_000025_erasable_orders::Migration),
            Box::new(m20261127_000026_drops::Migration),
            Box::new(m20261128_000027_order_line_parts::Migration),
            Box::new(m20261128_000028_discord_outbox::Migration),
            Box::new(m20261128_000029_sealed_tokens::Migration),
            Box::new(m20261128_000030_client_networks::Migration),
            Box::new(m20261129_000031_disputes::Migration),
            Box::new(m20261130_000032_prepared_evidence::Migration),
            Box::new(m20261130_000033_order_messages::Migration),
            Box::new(m20261130_000034_no_show::Migration),
            Box::new(m20261130_000036_languages::Migration),
            Box::new(m20261130_000037_currencies::Migration),
            Box::new(m20261201_000039_account_language::Migration),
        ]
    }
}
