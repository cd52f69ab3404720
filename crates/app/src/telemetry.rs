use tracing_subscriber::{fmt, EnvFilter};

use crate::Environment;

/// Logs as JSON lines in production and readable text elsewhere. `RUST_LOG` overrides the
/// default level (info; warn in tests).
pub fn init(environment: Environment) {
    let default_level = match environment {
        Environment::Test => "warn",
        _ => "info,sqlx=warn,sea_orm=warn",
    };
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default_level));
    let result = match environment {
        Environment::Production => fmt().json().with_env_filter(filter).try_init(),
        _ => fmt().with_env_filter(filter).try_init(),
    };
    if result.is_err() {
        tracing::debug!("a tracing subscriber was already installed");
    }
}
