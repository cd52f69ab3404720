use std::{
    net::TcpListener,
    path::PathBuf,
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc,
    },
    time::Duration,
};

use actix_web::{dev::Server, http::header, middleware, web, App, HttpServer};
use anyhow::Context;
use catalog::Catalog;
use media::MediaStore;
use store::Store;
use tracing_actix_web::TracingLogger;

use crate::{
    auth::{self, session::ShopSessionStore, AppClock},
    checkout::{self, CheckoutKit, Sweeper},
    client_ip::TrustedProxies,
    error,
    help_chat::HelpChat,
    limits::RateLimits,
    routes, seed,
    settings::Environment,
    snapshot::ProductSnapshot,
    state::AppState,
    Settings,
};

/// The built frontend's directory.
pub struct StaticDir(pub PathBuf);

pub struct Application {
    port: u16,
    host: String,
    server: Server,
    clock: AppClock,
    sweeper: Sweeper,
    db_queries: Arc<AtomicU64>,
}

impl Application {
    /// Binds the listener (port 0 picks a free one), opens and migrates the database, and
    /// seeds the demo catalog and staff where asked.
    pub async fn build(mut settings: Settings) -> anyhow::Result<Self> {
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
        let mut db =
            store::connect(&settings.database.url, settings.database.max_connections).await?;
        let db_queries = Arc::new(AtomicU64::new(0));
        let counter = Arc::clone(&db_queries);
        db.set_metric_callback(move |_| {
            counter.fetch_add(1, Ordering::Relaxed);
        });
        let store = Store::new(db);
        let media = MediaStore::new(settings.media.root.clone());
        let catalog = Catalog::new(store.clone());
        let clock = AppClock::default();
        let accounts =
            Arc::new(auth::build_accounts(&settings, store.clone(), clock.clone()).await?);
        let session_key = auth::session::cookie_key(&settings.session)?;
        let session_store = ShopSessionStore::from_settings(
            &settings.session,
            store.clone(),
            &settings.database.url,
        )
        .await?;
        // One staff notifier (one delivery queue) for checkout and the help chat.
        let notifier = discord::StaffNotifier::start(
            settings.discord.notify_webhook(),
            discord::RetryPolicy::default(),
        );
        let checkout = Arc::new(
            CheckoutKit::build(&settings, store.clone(), clock.clone(), notifier.clone())
                .context("the checkout settings are not usable")?,
        );
        let session_secure =
            settings.session.secure || settings.environment == Environment::Production;

        if settings.environment == Environment::Production {
            if settings.seed.demo_data {
                tracing::warn!("seed.demo_data is ignored in production");
            }
        } else {
            if settings.seed.demo_data {
                seed_demo_data(&settings.database.url, &store, &catalog, &media, &accounts).await?;
            }
            seed::print_demo_logins(&store)
                .await
                .context("failed to read the demo staff logins")?;
        }

        let products = ProductSnapshot::load(&catalog)
            .await
            .context("failed to load the catalog")?;
        let help_chat = HelpChat::build(&settings, store.clone(), products.clone(), notifier)
            .context("failed to set up the help chat")?;
        let store_for_proofs = store.clone();
        let media_for_proofs = media.clone();
        let catalog_admin =
            catalog::CatalogAdmin::new(store.clone(), media::ProductImageStore::new(media.clone()));
        let state = web::Data::new(AppState {
            catalog_admin,
            store,
            catalog,
            products,
            media,
            site: settings.site.clone(),
            accounts,
            checkout,
            chat: Arc::new(help_chat),
            proofs: proofs::ProofService::new(
                store_for_proofs,
                media::ProofImageStore::new(media_for_proofs),
                proofs::SystemClock,
            ),
        });
        spawn_chat_version_refresh(
            state.clone(),
            Duration::from_millis(settings.chat.version_refresh_ms.max(100)),
        );
        let sweeper = Sweeper::new(state.clone());
        checkout::spawn_sweeper(sweeper.clone(), checkout::SWEEP_EVERY);
        crate::help_chat::spawn_purge(state.clone(), clock.clone());
        spawn_catalog_refresh(
            state.clone(),
            Duration::from_secs(settings.catalog.refresh_seconds.max(1)),
        );

        let static_dir = web::Data::new(StaticDir(settings.server.static_dir.clone()));
        let trusted_proxies =
            web::Data::new(TrustedProxies::parse(&settings.server.trusted_proxies)?);
        let rate_limits = web::Data::new(RateLimits::new(state.store.clone(), clock.clone()));
        let production = settings.environment == Environment::Production;
        let oauth_state_cookie = web::Data::new(routes::discord::OAuthStateCookie::new(
            &session_key,
            session_secure,
        )?);
        let server = HttpServer::new(move || {
            App::new()
                .wrap(auth::session::middleware(
                    session_store.clone(),
                    session_key.clone(),
                    session_secure,
                ))
                .wrap(middleware::from_fn(auth::origin::check_origin))
                .wrap(error::api_method_not_allowed())
                .wrap(security_headers(production))
                .wrap(middleware::Compress::default())
                .wrap(TracingLogger::<crate::telemetry::ShopRootSpan>::new())
                .app_data(state.clone())
                .app_data(static_dir.clone())
                .app_data(trusted_proxies.clone())
                .app_data(rate_limits.clone())
                .app_data(oauth_state_cookie.clone())
                .configure(error::extractor_configs)
                .configure(routes::configure)
        })
        .listen(listener)?
        .run();
        Ok(Application {
            port,
            host: settings.server.host,
            server,
            clock,
            sweeper,
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

    /// The clock the accounts rules read; tests move it forward.
    pub fn clock(&self) -> AppClock {
        self.clock.clone()
    }

    /// Expires stale pending orders now (the background task does it every minute).
    pub fn sweeper(&self) -> Sweeper {
        self.sweeper.clone()
    }

    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        tracing::info!(
            "Garden Shop is running at http://{}:{}",
            crate::settings::browser_host(&self.host),
            self.port
        );
        self.server.await
    }
}

/// Keeps this instance's chat poll cache in step with chat writes made by other instances.
fn spawn_chat_version_refresh(state: web::Data<AppState>, every: Duration) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(every);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        ticker.tick().await;
        loop {
            ticker.tick().await;
            if let Err(error) = state.chat.versions.refresh(&state.store).await {
                tracing::warn!(error = ?error, "could not refresh the chat versions");
            }
        }
    });
}

/// Keeps this instance's snapshot in step with writes made by other instances.
fn spawn_catalog_refresh(state: web::Data<AppState>, every: Duration) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(every);
        ticker.tick().await;
        loop {
            ticker.tick().await;
            if let Err(error) = state.products.refresh(&state.catalog).await {
                tracing::warn!(error = ?error, "could not refresh the product snapshot");
            }
        }
    });
}

/// Seeds an empty database with the demo catalog and, together with it, the demo staff, under
/// the lock migrations take: instances starting together on one database seed it once.
async fn seed_demo_data(
    database_url: &str,
    store: &Store,
    catalog: &Catalog<Store>,
    media: &MediaStore,
    accounts: &auth::AccountsService,
) -> anyhow::Result<()> {
    let lock = store::SetupLock::acquire(database_url).await?;
    let seeded = async {
        let fresh = seed::demo_catalog(catalog, media)
            .await
            .context("failed to seed the demo catalog")?;
        if fresh {
            seed::demo_staff(store, accounts)
                .await
                .context("failed to seed the demo staff accounts")?;
        }
        anyhow::Ok(())
    }
    .await;
    let released = lock.release().await;
    seeded?;
    released?;
    Ok(())
}

/// The same on every answer; HSTS only in production (development and test run plain HTTP on
/// localhost, where a pinned HTTPS would break every other local site on that name).
fn security_headers(production: bool) -> middleware::DefaultHeaders {
    let headers = if production {
        middleware::DefaultHeaders::new().add((
            header::STRICT_TRANSPORT_SECURITY,
            "max-age=31536000; includeSubDomains",
        ))
    } else {
        middleware::DefaultHeaders::new()
    };
    headers
        .add((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .add((header::REFERRER_POLICY, "strict-origin-when-cross-origin"))
        .add((header::X_FRAME_OPTIONS, "DENY"))
        .add((
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; img-src 'self' data: https:; style-src 'self' 'unsafe-inline'; \
             script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; \
             form-action 'self'",
        ))
}
