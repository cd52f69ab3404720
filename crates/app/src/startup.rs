use std::{
    net::TcpListener,
    sync::{atomic::AtomicU64, Arc},
};

use actix_web::{dev::Server, http::header, middleware, App, HttpServer};
use anyhow::Context;
use tracing_actix_web::TracingLogger;

use crate::{
    auth::{self, AppClock},
    background::Sweeper,
    error, openapi,
    public_get::{is_product_list, ProductListLane, SkipWhen},
    routes,
    settings::{Environment, Settings},
    telemetry::ShopRootSpan,
    wiring::Services,
};

pub struct Application {
    port: u16,
    host: String,
    server: Server,
    events: crate::events::ShopEvents,
    sweeper: Sweeper,
    rounds: crate::rounds::Rounds,
    staff_notifier: discord::StaffNotifier,
    db_queries: Arc<AtomicU64>,
}

impl Application {
    /// Binds the listener (port 0 picks a free one), then builds the shop's services
    /// ([`Services::build`]: database, seed, background loops) and the HTTP server on them, on
    /// the system's clock.
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        Self::build_on(settings, AppClock::system()).await
    }

    /// [`Application::build`] on another clock: the API tests' own, which they move forward.
    pub async fn build_on(mut settings: Settings, clock: AppClock) -> anyhow::Result<Self> {
        // Before the port is taken: production names every missing setting in one error.
        settings.check_production()?;
        let listener = TcpListener::bind((settings.server.host.as_str(), settings.server.port))
            .with_context(|| {
                format!(
                    "could not listen on {}:{}",
                    settings.server.host, settings.server.port
                )
            })?;
        let port = listener.local_addr()?.port();
        // Before anything reads it: mail links, payment return URLs, the Origin check.
        settings.resolve_public_url(port)?;
        settings.site.discord_invite()?;
        let services = Services::build(&settings, clock).await?;
        let production = settings.environment == Environment::Production;
        let staff_notifier = services.staff_notifier.clone();
        let (sweeper, rounds, db_queries, events) = (
            services.sweeper.clone(),
            services.rounds.get_ref().clone(),
            Arc::clone(&services.db_queries),
            services.chat.events.get_ref().clone(),
        );
        let api_document = actix_web::web::Data::new(routes::meta::ApiDocument::new(
            openapi::document_json(),
            &openapi::document(),
        ));
        let server = HttpServer::new(move || {
            App::new()
                // health, the site's settings, the catalogue's reads and the storefront's files
                // never wait on the session store (a Redis outage leaves them up)
                .wrap(SkipWhen::new(
                    auth::session::needs_no_session,
                    auth::session::middleware(
                        services.sessions.clone(),
                        services.session_key.clone(),
                        services.session_secure,
                    ),
                ))
                .wrap(middleware::from_fn(auth::session::store_unavailable))
                .wrap(middleware::from_fn(auth::origin::check_origin))
                .wrap(error::api_method_not_allowed())
                // error bodies in the request's language, before the request id joins a 5xx's
                .wrap(middleware::from_fn(crate::language::localize_errors))
                .wrap(
                    security_headers(production)
                        .into_iter()
                        .fold(middleware::DefaultHeaders::new(), |all, header| {
                            all.add(header)
                        }),
                )
                // a 5xx's body gets its request id before it is compressed
                .wrap(middleware::from_fn(crate::telemetry::request_id_in_body))
                .wrap(middleware::Compress::default())
                // The product-list poll is answered here, from the snapshot, past the session,
                // the Origin check, compression (its bodies are compressed once per snapshot)
                // and the router; and it skips the request span (it logs nothing: no
                // statement, no error path); the metrics still count it: `public_get`.
                .wrap(ProductListLane::new(security_headers(production)))
                .wrap(middleware::from_fn(crate::metrics::measure))
                // one log line per request, X-Request-Id on every answer (not the lane's)
                .wrap(SkipWhen::new(
                    is_product_list,
                    middleware::from_fn(crate::telemetry::request_log),
                ))
                .wrap(SkipWhen::new(
                    is_product_list,
                    TracingLogger::<ShopRootSpan>::new(),
                ))
                .configure(|cfg| services.register(cfg))
                .configure(error::extractor_configs)
                .app_data(api_document.clone())
                .configure(|cfg| routes::configure(cfg, openapi::api_routes))
        })
        .keep_alive(std::time::Duration::from_secs(
            settings.server.keep_alive_seconds,
        ))
        .listen(listener)?
        // SIGTERM and Ctrl-C are handled in `run_until_stopped`: the streams end first
        .disable_signals()
        .run();
        Ok(Application {
            port,
            host: settings.server.host,
            server,
            events,
            sweeper,
            rounds,
            staff_notifier,
            db_queries,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// How many statements this instance has sent to its database so far.
    pub fn database_queries(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.db_queries)
    }

    /// Expires stale pending orders now (the background task does it every minute).
    pub fn sweeper(&self) -> Sweeper {
        self.sweeper.clone()
    }

    /// The background loops' finished rounds and the work detached from requests; tests wait
    /// on them instead of the clock.
    pub fn rounds(&self) -> crate::rounds::Rounds {
        self.rounds.clone()
    }

    /// The instance's server push: what it has heard of the event log.
    pub fn events(&self) -> crate::events::ShopEvents {
        self.events.clone()
    }

    /// The queue of the help chat's staff notices: one queue, sent in order.
    pub fn staff_notifier(&self) -> discord::StaffNotifier {
        self.staff_notifier.clone()
    }

    /// What stops this instance gracefully (as SIGTERM does).
    pub fn shutdown(&self) -> Shutdown {
        Shutdown {
            server: self.server.handle(),
            events: self.events.clone(),
            rounds: self.rounds.clone(),
        }
    }

    /// Serves until SIGTERM or Ctrl-C (or [`Shutdown::now`]).
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        tracing::info!(
            "Garden Shop is running at http://{}:{}",
            crate::settings::browser_host(&self.host),
            self.port
        );
        let shutdown = self.shutdown();
        let signals = tokio::spawn(async move {
            if stop_signal().await {
                shutdown.now().await;
            }
        });
        let served = self.server.await;
        signals.abort();
        served
    }
}

/// Stops an instance: its event streams end at once (browsers reconnect to another instance
/// after their retry hint), it takes no new connections, the requests in flight finish, and
/// the process exits as soon as none is left (at most the server's 30 s shutdown timeout).
/// Before that, the work detached from requests (a password reset's mail) may end, for at
/// most [`DETACHED_GRACE`].
#[derive(Clone)]
pub struct Shutdown {
    server: actix_web::dev::ServerHandle,
    events: crate::events::ShopEvents,
    rounds: crate::rounds::Rounds,
}

/// How long a stopping instance waits for detached work after its last request.
const DETACHED_GRACE: std::time::Duration = std::time::Duration::from_secs(3);

impl Shutdown {
    pub async fn now(self) {
        tracing::info!("shutting down: ending the event streams, finishing the requests in flight");
        self.events.close_streams();
        // detached work runs on the workers, which stopping ends: let it finish first
        self.server.pause().await;
        if tokio::time::timeout(DETACHED_GRACE, self.rounds.detached_idle())
            .await
            .is_err()
        {
            tracing::warn!("stopping with detached work still running (a reset mail may be lost)");
        }
        self.server.stop(true).await;
    }
}

/// Waits for SIGTERM or Ctrl-C; `false` when no handler could be installed (the server then
/// runs until stopped otherwise).
async fn stop_signal() -> bool {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let Ok(mut term) = signal(SignalKind::terminate()) else {
            tracing::warn!("could not listen for SIGTERM");
            return false;
        };
        tokio::select! {
            _ = term.recv() => true,
            interrupted = tokio::signal::ctrl_c() => interrupted.is_ok(),
        }
    }
    #[cfg(not(unix))]
    {
        tokio::signal::ctrl_c().await.is_ok()
    }
}

/// The same on every answer; HSTS only in production (development and test run plain HTTP on
/// localhost, where a pinned HTTPS would break every other local site on that name).
fn security_headers(production: bool) -> Vec<(header::HeaderName, header::HeaderValue)> {
    let mut headers = vec![
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "strict-origin-when-cross-origin"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; img-src 'self' data: blob: https:; style-src 'self' 'unsafe-inline'; \
             script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; \
             form-action 'self'",
        ),
    ];
    if production {
        headers.push((
            header::STRICT_TRANSPORT_SECURITY,
            "max-age=31536000; includeSubDomains",
        ));
    }
    headers
        .into_iter()
        .map(|(name, value)| (name, header::HeaderValue::from_static(value)))
        .collect()
}
