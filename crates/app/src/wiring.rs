//! The composition root: every service and adapter is built here, once, from the settings.
//! Handlers and guards take the one they need as `web::Data<…>` (registered by
//! [`Services::register`]); nothing else builds a service or reaches into the store.

use std::sync::{
    atomic::{AtomicU64, Ordering},
    Arc,
};

use actix_web::{cookie::Key, web};
use anyhow::Context;
use media::MediaStore;
use store::Store;

use crate::{
    auth::{self, session::ShopSessionStore, AccountsService, AppClock},
    background::{self, Loops, Sweeper},
    checkout::{
        self, providers::ShopProviders, CardPayments, DiscordLink, PublicUrl, Roblox, ShopCheckout,
        ShopPromos,
    },
    client_ip::TrustedProxies,
    events::{streams::StreamLimits, ShopEvents},
    help_chat::HelpChat,
    limits::RateLimits,
    metrics::ShopMetrics,
    notices::ShopNotices,
    outbox::{Outbox, TicketService},
    routes::{discord_link::OAuthStateCookie, spa::StaticDir},
    seed,
    services::{
        AfterSaleService, AuditService, BlocklistService, CatalogAdminService,
        DeliveryQueueService, ProofService, ReviewService, SalesService, ShopCatalog,
        TrackingService,
    },
    settings::{Environment, EventsSettings, Settings, SiteSettings},
    snapshot::{ProductSnapshot, StockChanged},
};

/// One instance's services; cloning shares them.
#[derive(Clone)]
pub struct Services {
    /// For the health check's ping alone.
    pub database: web::Data<Store>,
    pub catalog: web::Data<ShopCatalog>,
    pub products: web::Data<ProductSnapshot>,
    pub stock: web::Data<StockChanged>,
    pub catalog_admin: web::Data<CatalogAdminService>,
    pub media: web::Data<MediaStore>,
    pub site: web::Data<SiteSettings>,
    pub accounts: web::Data<AccountsService>,
    /// What the shop keeps about a shopper (their export).
    pub privacy: web::Data<crate::services::PrivacyService>,
    /// The sales dashboard's delivery figures.
    pub delivery_times: web::Data<crate::services::DeliveryTimesService>,
    /// Checkout: the service, the promo rules, the payment providers (PayPal only when
    /// configured and enabled), the Stripe webhook's verifier (none without its secret), the
    /// Discord link, the Roblox lookup, the public address and the `checkout.*` limits.
    pub checkout: web::Data<ShopCheckout>,
    pub promos: web::Data<ShopPromos>,
    pub card: web::Data<CardPayments>,
    pub paypal: web::Data<Option<paypal::PayPalCheckout>>,
    pub stripe_webhook: web::Data<Option<stripe_adapter::WebhookVerifier>>,
    pub discord_link: web::Data<DiscordLink>,
    pub roblox: web::Data<Roblox>,
    pub public_url: web::Data<PublicUrl>,
    pub checkout_settings: web::Data<crate::settings::CheckoutSettings>,
    /// The payment providers this instance reaches (the orders domain's `PaymentProviders`).
    pub providers: web::Data<ShopProviders>,
    pub chat: web::Data<HelpChat>,
    pub proofs: web::Data<ProofService>,
    pub sales: web::Data<SalesService>,
    pub delivery: web::Data<DeliveryQueueService>,
    pub order_messages: web::Data<crate::services::OrderMessagesService>,
    pub aftersale: web::Data<AfterSaleService>,
    pub blocklist: web::Data<BlocklistService>,
    pub tracking: web::Data<TrackingService>,
    pub reviews: web::Data<ReviewService>,
    pub audit: web::Data<AuditService>,
    pub rate_limits: web::Data<RateLimits>,
    pub trusted_proxies: web::Data<TrustedProxies>,
    pub oauth_state_cookie: web::Data<OAuthStateCookie>,
    pub static_dir: web::Data<StaticDir>,
    /// Server push: the event bus, the open streams' limits and the `events` settings.
    pub events: web::Data<ShopEvents>,
    pub stream_limits: web::Data<StreamLimits>,
    pub events_settings: web::Data<EventsSettings>,
    /// Whether a stream's session still exists (checked at each heartbeat).
    pub live_sessions: web::Data<auth::session::LiveSessions>,
    pub delivery_settings: web::Data<crate::settings::DeliverySettings>,
    /// The Discord ticket of each paid order (none without Discord's ticket settings).
    pub tickets: web::Data<TicketService>,
    /// Where the Discord link queues the buyer's join to the shop's server.
    pub guild_joins: web::Data<crate::guild_join::GuildJoinQueue>,
    /// `/metrics` and the request measurements (off unless `metrics.enabled`).
    pub metrics: web::Data<ShopMetrics>,
    /// Where sessions live, and the cookie that names them.
    pub sessions: ShopSessionStore,
    pub session_key: Key,
    pub session_secure: bool,
    /// The clock every rule reads (the one `build` was given).
    pub clock: AppClock,
    pub sweeper: Sweeper,
    /// The queue of the help chat's staff notices (tests queue a last message to know the
    /// ones before it were sent).
    pub staff_notifier: discord::StaffNotifier,
    /// The background loops' rounds and the work detached from requests.
    pub rounds: web::Data<crate::rounds::Rounds>,
    /// How many statements this instance has sent to its database.
    pub db_queries: Arc<AtomicU64>,
    /// Disputes and their evidence, and the waker of their loop.
    pub disputes: web::Data<crate::disputes::DisputeService>,
    pub disputes_waker: web::Data<crate::disputes::DisputesWaker>,
}

impl Services {
    /// Opens and migrates the database, builds every service, seeds the demo catalog and staff
    /// where asked, and starts the background loops. `settings.site.public_url` is resolved.
    pub async fn build(settings: &Settings, clock: AppClock) -> anyhow::Result<Self> {
        let mut db = store::connect(&settings.database.url, settings.database.max_connections)
            .await
            .with_context(|| {
                format!(
                    "the database does not answer (database.url, or DATABASE_URL; each \
                     connection may take {} s)",
                    store::DATABASE_TIMEOUT.as_secs()
                )
            })?;
        let db_queries = Arc::new(AtomicU64::new(0));
        let counter = Arc::clone(&db_queries);
        db.set_metric_callback(move |_| {
            counter.fetch_add(1, Ordering::Relaxed);
        });
        let store = Store::new(db, clock.clone());
        let media = MediaStore::new(settings.media.root.clone());
        let catalog = ShopCatalog::new(store.clone());
        let sessions = ShopSessionStore::connect(
            settings.session.redis_url.as_deref(),
            store.clone(),
            &settings.database.url,
        )
        .await?;
        let mail_failures = auth::MailFailures::default();
        let accounts = Arc::new(
            auth::build_accounts(
                settings,
                store.clone(),
                clock.clone(),
                sessions.clone(),
                Arc::clone(&mail_failures),
            )
            .await?,
        );
        let session_key = auth::session::cookie_key(&settings.session)?;
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

        let products = ProductSnapshot::load(&catalog, clock.clone())
            .await
            .context("failed to load the catalog")?;
        let events = ShopEvents::new(store.clone(), settings.events.buffer)
            .await
            .context("failed to read the event log")?;
        let stock = StockChanged::new(
            products.clone(),
            catalog.clone(),
            events.clone(),
            std::time::Duration::from_millis(settings.events.products_every_ms),
        );
        let notifier = background::start_staff_notifier(settings);
        let rounds = crate::rounds::Rounds::default();
        let metrics = ShopMetrics::new(
            settings,
            mail_failures,
            notifier.clone(),
            clock.clone(),
            rounds.clone(),
        )
        .context("the metrics settings are not usable")?;
        let tracking = Arc::new(delivery::OrderTracking::new(
            store.clone(),
            auth::CountingMailer::new(
                auth::build_mailer(settings, &clock).context("the mail settings are not usable")?,
                metrics.buyer_mail_failures(),
            ),
            clock.clone(),
            checkout::order_keys(settings)?,
            &settings.site.public_url,
            settings.mail.retry(),
            delivery::HandoffSettings {
                delivery_minutes: settings.site.delivery_minutes,
                discord_invite: settings.site.discord_invite()?.map(str::to_owned),
                guild_id: Some(settings.discord.guild_id.trim().to_owned())
                    .filter(|guild| !guild.is_empty()),
                no_show_minutes: settings.delivery.no_show_minutes,
                tickets: settings.discord.tickets_configured(),
            },
        ));
        // what each service's changes are followed by: push, the snapshot, the metrics
        let notices = Arc::new(ShopNotices {
            store: store.clone(),
            events: events.clone(),
            stock: stock.clone(),
            metrics: metrics.clone(),
            tracking: Arc::clone(&tracking),
        });
        let checkout::CheckoutParts {
            service: checkout,
            promos,
            card,
            paypal,
            webhook: stripe_webhook,
            discord: discord_link,
            roblox,
            public_url,
        } = checkout::build(settings, store.clone(), notices.clone(), clock.clone())
            .context("the checkout settings are not usable")?;
        let (checkout, card, paypal) = (Arc::new(checkout), Arc::new(card), Arc::new(paypal));
        let providers = Arc::new(ShopProviders::new(
            card.as_ref().clone(),
            paypal.as_ref().clone(),
        ));
        let aftersale = aftersale::AfterSale::new(
            store.clone(),
            clock.clone(),
            crate::dispute_gateway::ShopRisk::build(settings)?,
            settings.payments.policy(),
        )
        .with_notices(notices.clone());
        let chat = Arc::new(
            HelpChat::build(
                settings,
                notices.clone(),
                products.clone(),
                notifier.clone(),
                clock.clone(),
                Arc::clone(&accounts),
            )
            .context("failed to set up the help chat")?,
        );
        let tickets = match discord::DiscordTickets::from_settings(&settings.discord)
            .context("the Discord ticket settings are not usable")?
        {
            Some(desk) => Some(orders::tickets::Tickets::new(
                store.clone(),
                desk,
                discord::ticket_settings(&settings.discord, &settings.site.public_url)
                    .context("the Discord ticket settings are not usable")?,
            )),
            None => None,
        };
        if let Some(tickets) = &tickets {
            metrics.watch_tickets(tickets.clone());
        }
        let guild_joins = crate::guild_join::build(settings, store.clone(), clock.clone())?;
        if let Some(joins) = &guild_joins {
            metrics.watch_guild_joins(joins.clone());
        }
        let outbox = Outbox::new(
            store.clone(),
            clock.clone(),
            Arc::clone(&tracking),
            notifier.clone(),
            tickets.clone(),
            settings,
        )
        .with_guild_joins(guild_joins.clone());
        let guild_joins = crate::guild_join::GuildJoinQueue::new(guild_joins, outbox.waker());
        let disputes = Arc::new(crate::disputes::build(
            settings,
            store.clone(),
            &media,
            &clock,
            tracking.clone(),
        )?);
        let disputes_waker = Arc::new(crate::disputes::DisputesWaker::default());
        let delivery = web::Data::new(
            DeliveryQueueService::new(store.clone(), clock.clone())
                .with_handoff(
                    settings.delivery.no_show_minutes,
                    Some(settings.discord.guild_id.trim().to_owned())
                        .filter(|guild| !guild.is_empty()),
                )
                .with_notices(notices.clone()),
        );
        let sweeper = background::start(
            Loops {
                delivery: delivery.clone(),
                outbox,
                checkout: Arc::clone(&checkout),
                providers: Arc::clone(&providers),
                chat: Arc::clone(&chat),
                stock: stock.clone(),
                store: store.clone(),
                clock: clock.clone(),
                events: events.clone(),
                rounds: rounds.clone(),
                disputes: Arc::clone(&disputes),
                disputes_waker: Arc::clone(&disputes_waker),
            },
            settings,
        );

        Ok(Services {
            audit: web::Data::new(AuditService::new(store.clone())),
            catalog_admin: web::Data::new(
                catalog::CatalogAdmin::new(
                    store.clone(),
                    media::MediaImages::products(media.clone()),
                    clock.clone(),
                )
                .with_notices(notices.clone()),
            ),
            proofs: web::Data::new(proofs::ProofService::new(
                store.clone(),
                media::MediaImages::proofs(media.clone()),
                clock.clone(),
            )),
            sales: web::Data::new(SalesService::new(store.clone(), clock.clone())),
            delivery: delivery.clone(),
            order_messages: web::Data::new(
                crate::services::OrderMessagesService::new(
                    store.clone(),
                    store.clone(),
                    clock.clone(),
                    settings.delivery.messages(),
                )
                .with_notices(notices),
            ),
            stream_limits: web::Data::new(StreamLimits::new(
                settings.events.max_streams_per_ip,
                settings.events.max_streams_per_user,
                settings.events.max_streams,
            )),
            events_settings: web::Data::new(settings.events.clone()),
            delivery_settings: web::Data::new(settings.delivery.clone()),
            tickets: web::Data::new(TicketService(tickets)),
            guild_joins: web::Data::new(guild_joins),
            events: web::Data::new(events),
            aftersale: web::Data::new(aftersale),
            blocklist: web::Data::new(BlocklistService::new(
                store.clone(),
                clock.clone(),
                settings.blocklist.limits(),
            )),
            tracking: web::Data::from(tracking),
            reviews: web::Data::new(ReviewService::new(store.clone(), clock.clone())),
            delivery_times: web::Data::new(crate::services::DeliveryTimesService::new(
                store.clone(),
                clock.clone(),
            )),
            privacy: web::Data::new(crate::services::PrivacyService::new(
                store.clone(),
                clock.clone(),
            )),
            rate_limits: web::Data::new(RateLimits::new(store.clone(), clock.clone())),
            trusted_proxies: web::Data::new(TrustedProxies::parse(
                &settings.server.trusted_proxies,
            )?),
            oauth_state_cookie: web::Data::new(OAuthStateCookie::new(
                &session_key,
                session_secure,
            )?),
            static_dir: web::Data::new(StaticDir(settings.server.static_dir.clone())),
            live_sessions: web::Data::new(auth::session::LiveSessions::new(
                sessions.clone(),
                session_key.clone(),
            )),
            metrics: web::Data::new(metrics),
            site: web::Data::new(settings.site.clone()),
            database: web::Data::new(store),
            catalog: web::Data::new(catalog),
            products: web::Data::new(products),
            stock: web::Data::new(stock),
            media: web::Data::new(media),
            accounts: web::Data::from(accounts),
            checkout: web::Data::from(checkout),
            promos: web::Data::new(promos),
            card: web::Data::from(card),
            paypal: web::Data::from(paypal),
            stripe_webhook: web::Data::new(stripe_webhook),
            discord_link: web::Data::new(discord_link),
            roblox: web::Data::new(roblox),
            public_url: web::Data::new(public_url),
            checkout_settings: web::Data::new(settings.checkout.clone()),
            providers: web::Data::from(providers),
            chat: web::Data::from(chat),
            sessions,
            session_key,
            session_secure,
            clock,
            sweeper,
            rounds: web::Data::new(rounds),
            staff_notifier: notifier,
            db_queries,
            disputes: web::Data::from(disputes),
            disputes_waker: web::Data::from(disputes_waker),
        })
    }

    /// Makes every service available to handlers and guards as `web::Data<…>`.
    pub fn register(&self, cfg: &mut web::ServiceConfig) {
        cfg.app_data(self.database.clone())
            .app_data(self.catalog.clone())
            .app_data(self.rounds.clone())
            .app_data(self.products.clone())
            .app_data(self.stock.clone())
            .app_data(self.catalog_admin.clone())
            .app_data(self.media.clone())
            .app_data(self.site.clone())
            .app_data(self.accounts.clone())
            .app_data(self.privacy.clone())
            .app_data(self.delivery_times.clone())
            .app_data(self.checkout.clone())
            .app_data(self.promos.clone())
            .app_data(self.card.clone())
            .app_data(self.paypal.clone())
            .app_data(self.stripe_webhook.clone())
            .app_data(self.discord_link.clone())
            .app_data(self.roblox.clone())
            .app_data(self.public_url.clone())
            .app_data(self.checkout_settings.clone())
            .app_data(web::Data::new(self.clock.clone()))
            .app_data(self.providers.clone())
            .app_data(self.chat.clone())
            .app_data(self.proofs.clone())
            .app_data(self.sales.clone())
            .app_data(self.delivery.clone())
            .app_data(self.order_messages.clone())
            .app_data(self.aftersale.clone())
            .app_data(self.disputes.clone())
            .app_data(self.disputes_waker.clone())
            .app_data(self.blocklist.clone())
            .app_data(self.tracking.clone())
            .app_data(self.reviews.clone())
            .app_data(self.audit.clone())
            .app_data(self.rate_limits.clone())
            .app_data(self.trusted_proxies.clone())
            .app_data(self.oauth_state_cookie.clone())
            .app_data(self.static_dir.clone())
            .app_data(self.events.clone())
            .app_data(self.stream_limits.clone())
            .app_data(self.events_settings.clone())
            .app_data(self.live_sessions.clone())
            .app_data(self.metrics.clone())
            .app_data(self.delivery_settings.clone())
            .app_data(self.tickets.clone())
            .app_data(self.guild_joins.clone())
            .app_data(web::Data::new(self.sessions.clone()));
    }
}

/// Seeds an empty database with the demo catalog and, together with it, the demo staff, under
/// the lock migrations take: instances starting together on one database seed it once.
async fn seed_demo_data(
    database_url: &str,
    store: &Store,
    catalog: &ShopCatalog,
    media: &MediaStore,
    accounts: &AccountsService,
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
