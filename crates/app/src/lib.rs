//! The Garden Shop server: turns HTTP into domain calls and domain errors into HTTP answers.

mod error;
mod routes;
mod seed;
mod settings;
mod snapshot;
mod startup;
mod state;
pub mod telemetry;

pub use settings::{
    CatalogSettings, DatabaseSettings, Environment, MediaSettings, SeedSettings, ServerSettings,
    Settings, SiteSettings,
};
pub use startup::Application;
