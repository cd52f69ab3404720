//! The Garden Shop server: turns HTTP into domain calls and domain errors into HTTP answers.

pub mod auth;
mod background;
mod checkout;
mod cli;
pub mod client_ip;
pub mod currencies;
mod discord_gate;
mod dispute_gateway;
mod disputes;
mod error;
pub mod events;
mod guild_join;
mod help_chat;
pub mod language;
pub mod limits;
pub mod malloc;
mod metrics;
mod notices;
mod openapi;
mod outbox;
mod public_get;
mod refund_policy;
mod rounds;
mod routes;
mod seed;
mod services;
mod settings;
mod snapshot;
mod startup;
pub mod telemetry;
mod wiring;

pub use background::Sweeper;
pub use checkout::DEMO_IDENTITIES;
pub use cli::{openapi_json, run_cli, Cli, Command};
pub use rounds::{Loop, Rounds};
pub use settings::{
    AccountsSettings, AssistantSettings, ChatSettings, CheckoutSettings, EventsSettings,
};
pub use settings::{BlocklistSettings, DeliverySettings, DisputesSettings, PaymentsSettings};
pub use settings::{
    CatalogSettings, DatabaseSettings, Environment, MailSettings, MediaSettings, MetricsSettings,
    SeedSettings, ServerSettings, SessionSettings, Settings, SiteSettings, SmtpTls,
};
pub use startup::{Application, Shutdown};
