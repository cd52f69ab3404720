//! The Garden Shop server: turns HTTP into domain calls and domain errors into HTTP answers.

pub mod auth;
pub mod chat_versions;
mod checkout;
mod cli;
pub mod client_ip;
mod dto;
mod error;
mod help_chat;
pub mod limits;
mod routes;
mod seed;
mod settings;
mod snapshot;
mod startup;
mod state;
pub mod telemetry;

pub use checkout::{Sweeper, DEMO_IDENTITIES};
pub use cli::{run_cli, Cli};
pub use settings::{default_discord, default_paypal, default_roblox, default_stripe};
pub use settings::{AccountsSettings, AssistantSettings, ChatSettings, CheckoutSettings};
pub use settings::{
    CatalogSettings, DatabaseSettings, Environment, MailSettings, MediaSettings, SeedSettings,
    ServerSettings, SessionSettings, Settings, SiteSettings, SmtpTls,
};
pub use startup::Application;
