use std::io::IsTerminal;

use tracing_subscriber::{fmt, EnvFilter};

use crate::settings::Environment;

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
        // colours only on a terminal: a log file or a collector gets plain text
        _ => fmt()
            .with_ansi(std::io::stdout().is_terminal())
            .with_env_filter(filter)
            .try_init(),
    };
    if result.is_err() {
        tracing::debug!("a tracing subscriber was already installed");
    }
}

/// The request span of every request, like tracing-actix-web's own but with the path alone as
/// `http.target`: query strings can hold secrets (the reset link's token), and span fields
/// reach every log line written inside the request.
pub struct ShopRootSpan;

impl tracing_actix_web::RootSpanBuilder for ShopRootSpan {
    fn on_request_start(request: &actix_web::dev::ServiceRequest) -> tracing::Span {
        use actix_web::HttpMessage;
        let route = request.match_pattern().unwrap_or_else(|| "default".into());
        let request_id = request
            .extensions()
            .get::<tracing_actix_web::RequestId>()
            .map(ToString::to_string)
            .unwrap_or_default();
        tracing::info_span!(
            "HTTP request",
            http.method = %request.method(),
            http.route = %route,
            http.target = %request.path(),
            http.status_code = tracing::field::Empty,
            otel.kind = "server",
            otel.status_code = tracing::field::Empty,
            request_id = %request_id,
            exception.message = tracing::field::Empty,
            exception.details = tracing::field::Empty,
        )
    }

    fn on_request_end<B: actix_web::body::MessageBody>(
        span: tracing::Span,
        outcome: &Result<actix_web::dev::ServiceResponse<B>, actix_web::Error>,
    ) {
        tracing_actix_web::DefaultRootSpanBuilder::on_request_end(span, outcome);
    }
}
