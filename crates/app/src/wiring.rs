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
    outbox::{Outbox, ShopTickets, TicketService},
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

/// One instance's services, by area (as docs/architecture.md lists them); cloning shares them.
#[derive(Clone)]
pub struct Services {
    /// For the health check's ping alone.
    pub database: web::Data<Store>,
    pub catalog: CatalogServices,
    pub accounts: AccountServices,
    pub checkout: CheckoutServices,
    pub after_sale: AfterSaleServices,
    pub staff: StaffServices,
    pub chat: ChatServices,
    pub site: web::Data<SiteSettings>,
    pub static_dir: web::Data<StaticDir>,
    /// `/metrics` and the request measurements (off unless `metrics.enabled`).
    pub metrics: web::Data<ShopMetrics>,
    /// The currencies offered at the day's rates.
    pub currencies: web::Data<crate::currencies::Currencies>,
    /// The background loops' rounds and the work detached from requests.
    pub rounds: web::Data<crate::rounds::Rounds>,
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
    /// How many statements this instance has sent to its database.
    pub db_queries: Arc<AtomicU64>,
}

/// The catalog: the storefront's reads, the list served from memory, the one stock hook, the
/// super_admin's writes and the pictures.
#[derive(Clone)]
pub struct CatalogServices {
    pub catalog: web::Data<ShopCatalog>,
    pub products: web::Data<ProductSnapshot>,
    pub stock: web::Data<StockChanged>,
    pub catalog_admin: web::Data<CatalogAdminService>,
    pub media: web::Data<MediaStore>,
}

/// Accounts: sign-in and the shopper's data, the sessions a stream checks, the rate limits,
/// the proxies trusted for the client's address and the Discord sign-in's state cookie.
#[derive(Clone)]
pub struct AccountServices {
    pub accounts: web::Data<AccountsService>,
    /// What the shop keeps about a shopper (their export).
    pub privacy: web::Data<crate::services::PrivacyService>,
    /// Whether a stream's session still exists (checked at each heartbeat).
    pub live_sessions: web::Data<auth::session::LiveSessions>,
    pub rate_limits: web::Data<RateLimits>,
    pub trusted_proxies: web::Data<TrustedProxies>,
    pub oauth_state_cookie: web::Data<OAuthStateCookie>,
}

/// Checkout: the service, the promo rules, the payment providers (PayPal only when configured
/// and enabled), the Stripe webhook's verifier (none without its secret), the Discord link, the
/// Roblox lookup, the public address and the `checkout.*` limits.
#[derive(Clone)]
pub struct CheckoutServices {
    pub checkout: web::Data<ShopCheckout>,
    pub promos: web::Data<ShopPromos>,
    pub card: web::Data<CardPayments>,
    pub paypal: web::Data<Option<paypal::PayPalCheckout>>,
    pub stripe_webhook: web::Data<Option<stripe_adapter::WebhookVerifier>>,
    /// The payment providers this instance reaches (the orders domain's `PaymentProviders`).
    pub providers: web::Data<ShopProviders>,
    pub discord_link: web::Data<DiscordLink>,
    pub roblox: web::Data<Roblox>,
    pub public_url: web::Data<PublicUrl>,
    pub checkout_settings: web::Data<crate::settings::CheckoutSettings>,
}

/// After the sale: the buyer's page, reviews, refunds, disputes, the blocklist, the delivery
/// queue and the order's messages, the Discord ticket and the server joins.
#[derive(Clone)]
pub struct AfterSaleServices {
    pub tracking: web::Data<TrackingService>,
    pub reviews: web::Data<ReviewService>,
    pub aftersale: web::Data<AfterSaleService>,
    /// Disputes and their evidence, and the waker of their loop.
    pub disputes: web::Data<crate::disputes::DisputeService>,
    pub disputes_waker: web::Data<crate::disputes::DisputesWaker>,
    pub blocklist: web::Data<BlocklistService>,
    pub delivery: web::Data<DeliveryQueueService>,
    pub order_messages: web::Data<crate::services::OrderMessagesService>,
    pub delivery_settings: web::Data<crate::settings::DeliverySettings>,
    /// The Discord ticket of each paid order (none without Discord's ticket settings).
    pub tickets: web::Data<TicketService>,
    /// Where the Discord link queues the buyer's join to the shop's server.
    pub guild_joins: web::Data<crate::guild_join::GuildJoinQueue>,
}

/// Staff's pages: sales, the dashboard's delivery figures, the audit and proofs of delivery.
#[derive(Clone)]
pub struct StaffServices {
    pub sales: web::Data<SalesService>,
    pub delivery_times: web::Data<crate::services::DeliveryTimesService>,
    pub audit: web::Data<AuditService>,
    pub proofs: web::Data<ProofService>,
}

/// The help chat and server push: the event bus, the open streams' limits and the `events`
/// settings.
#[derive(Clone)]
pub struct ChatServices {
    pub chat: web::Data<HelpChat>,
    pub events: web::Data<ShopEvents>,
    pub stream_limits: web::Data<StreamLimits>,
    pub events_settings: web::Data<EventsSettings>,
}

/// What every area is built on: the store, the sessions and accounts, the demo data, the
/// catalog's snapshot, push, the metrics and what every service's changes are followed by.
struct Core<'a> {
    settings: &'a Settings,
    store: Store,
    db_queries: Arc<AtomicU64>,
    clock: AppClock,
    media: MediaStore,
    catalog: ShopCatalog,
    sessions: ShopSessionStore,
    session_key: Key,
    session_secure: bool,
    accounts: Arc<AccountsService>,
    products: ProductSnapshot,
    notifier: discord::StaffNotifier,
    rounds: crate::rounds::Rounds,
    /// With the store, push, the stock hook, the metrics and the buyer's page of an order.
    notices: Arc<ShopNotices>,
}

impl Services {
    /// Opens and migrates the database, builds every service, seeds the demo catalog and staff
    /// where asked, and starts the background loops. `settings.site.public_url` is resolved.
    pub async fn build(settings: &Settings, clock: AppClock) -> anyhow::Result<Self> {
        let core = Core::open(settings, clock).await?;
        let checkout = core.checkout()?;
        let chat = Arc::new(
            HelpChat::build(
                settings,
                core.notices.clone(),
                core.products.clone(),
                core.notifier.clone(),
                core.clock.clone(),
                Arc::clone(&core.accounts),
            )
            .context("failed to set up the help chat")?,
        );
        let (after_sale, outbox) = core.after_sale()?;
        let accounts = core.account_services()?;
        let currencies = web::Data::new(
            crate::currencies::Currencies::new(
                &settings.currency,
                core.store.clone(),
                core.clock.clone(),
            )
            .context("the currency settings are not usable")?,
        );
        currencies.load().await;
        core.notices
            .metrics
            .watch_currencies(currencies.clone().into_inner());
        let sweeper = background::start(
            Loops {
                delivery: after_sale.delivery.clone(),
                outbox,
                checkout: checkout.checkout.clone().into_inner(),
                providers: checkout.providers.clone().into_inner(),
                chat: Arc::clone(&chat),
                stock: core.notices.stock.clone(),
                store: core.store.clone(),
                clock: core.clock.clone(),
                events: core.notices.events.clone(),
                rounds: core.rounds.clone(),
                disputes: after_sale.disputes.clone().into_inner(),
                disputes_waker: after_sale.disputes_waker.clone().into_inner(),
                currencies: currencies.clone().into_inner(),
            },
            settings,
        );
        Ok(Services {
            database: web::Data::new(core.store.clone()),
            catalog: core.catalog_services(),
            accounts,
            checkout,
            after_sale,
            staff: core.staff(),
            chat: ChatServices {
                chat: web::Data::from(chat),
                events: web::Data::new(core.notices.events.clone()),
                stream_limits: web::Data::new(StreamLimits::new(
                    settings.events.max_streams_per_ip,
                    settings.events.max_streams_per_user,
                    settings.events.max_streams,
                )),
                events_settings: web::Data::new(settings.events.clone()),
            },
            site: web::Data::new(settings.site.clone()),
            static_dir: web::Data::new(StaticDir(settings.server.static_dir.clone())),
            metrics: web::Data::new(core.notices.metrics.clone()),
            currencies,
            rounds: web::Data::new(core.rounds),
            sessions: core.sessions,
            session_key: core.session_key,
            session_secure: core.session_secure,
            clock: core.clock,
            sweeper,
            staff_notifier: core.notifier,
            db_queries: core.db_queries,
        })
    }

    /// Makes every service available to handlers and guards as `web::Data<…>`.
    pub fn register(&self, cfg: &mut web::ServiceConfig) {
        let (catalog, accounts, checkout) = (&self.catalog, &self.accounts, &self.checkout);
        let (after_sale, staff, chat) = (&self.after_sale, &self.staff, &self.chat);
        cfg.app_data(self.database.clone())
            .app_data(catalog.catalog.clone())
            .app_data(catalog.products.clone())
            .app_data(catalog.stock.clone())
            .app_data(catalog.catalog_admin.clone())
            .app_data(catalog.media.clone())
            .app_data(accounts.accounts.clone())
            .app_data(accounts.privacy.clone())
            .app_data(accounts.live_sessions.clone())
            .app_data(accounts.rate_limits.clone())
            .app_data(accounts.trusted_proxies.clone())
            .app_data(accounts.oauth_state_cookie.clone())
            .app_data(checkout.checkout.clone())
            .app_data(checkout.promos.clone())
            .app_data(checkout.card.clone())
            .app_data(checkout.paypal.clone())
            .app_data(checkout.stripe_webhook.clone())
            .app_data(checkout.providers.clone())
            .app_data(checkout.discord_link.clone())
            .app_data(checkout.roblox.clone())
            .app_data(checkout.public_url.clone())
            .app_data(checkout.checkout_settings.clone())
            .app_data(after_sale.tracking.clone())
            .app_data(after_sale.reviews.clone())
            .app_data(after_sale.aftersale.clone())
            .app_data(after_sale.disputes.clone())
            .app_data(after_sale.disputes_waker.clone())
            .app_data(after_sale.blocklist.clone())
            .app_data(after_sale.delivery.clone())
            .app_data(after_sale.order_messages.clone())
            .app_data(after_sale.delivery_settings.clone())
            .app_data(after_sale.tickets.clone())
            .app_data(after_sale.guild_joins.clone())
            .app_data(staff.sales.clone())
            .app_data(staff.delivery_times.clone())
            .app_data(staff.audit.clone())
            .app_data(staff.proofs.clone())
            .app_data(chat.chat.clone())
            .app_data(chat.events.clone())
            .app_data(chat.stream_limits.clone())
            .app_data(chat.events_settings.clone())
            .app_data(self.rounds.clone())
            .app_data(self.site.clone())
            .app_data(web::Data::new(self.clock.clone()))
            .app_data(self.static_dir.clone())
            .app_data(self.metrics.clone())
            .app_data(self.currencies.clone())
            .app_data(web::Data::new(self.sessions.clone()));
    }
}

impl<'a> Core<'a> {
    /// Opens the store, the sessions and the accounts, seeds the demo data where asked, loads
    /// the catalog's snapshot and the event log, and starts the staff notifier.
    async fn open(settings: &'a Settings, clock: AppClock) -> anyhow::Result<Core<'a>> {
        let (store, db_queries) = open_store(settings, clock.clone()).await?;
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
        seed_outside_production(settings, &store, &catalog, &media, &accounts).await?;
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
        let tracking = Arc::new(order_tracking(settings, &store, &clock, &metrics)?);
        // what each service's changes are followed by: push, the snapshot, the metrics
        let notices = Arc::new(ShopNotices {
            store: store.clone(),
            events,
            stock,
            metrics,
            tracking,
        });
        Ok(Core {
            settings,
            store,
            db_queries,
            clock,
            media,
            catalog,
            sessions,
            session_key,
            session_secure,
            accounts,
            products,
            notifier,
            rounds,
            notices,
        })
    }

    fn checkout(&self) -> anyhow::Result<CheckoutServices> {
        let (settings, store, clock) = (self.settings, &self.store, &self.clock);
        let parts = checkout::build(settings, store.clone(), self.notices.clone(), clock.clone())
            .context("the checkout settings are not usable")?;
        let providers = ShopProviders::new(parts.card.clone(), parts.paypal.clone());
        Ok(CheckoutServices {
            checkout: web::Data::new(parts.service),
            promos: web::Data::new(parts.promos),
            card: web::Data::new(parts.card),
            paypal: web::Data::new(parts.paypal),
            stripe_webhook: web::Data::new(parts.webhook),
            providers: web::Data::new(providers),
            discord_link: web::Data::new(parts.discord),
            roblox: web::Data::new(parts.roblox),
            public_url: web::Data::new(parts.public_url),
            checkout_settings: web::Data::new(settings.checkout.clone()),
        })
    }

    /// After the sale's services, and the outbox the background loops send.
    fn after_sale(&self) -> anyhow::Result<(AfterSaleServices, Outbox)> {
        let (settings, store, clock) = (self.settings, &self.store, &self.clock);
        let aftersale = aftersale::AfterSale::new(
            store.clone(),
            clock.clone(),
            crate::dispute_gateway::ShopRisk::build(settings)?,
            settings.payments.policy(),
        )
        .with_notices(self.notices.clone());
        let (outbox, tickets, guild_joins) = self.outbox()?;
        let disputes = crate::disputes::build(
            settings,
            store.clone(),
            &self.media,
            clock,
            self.notices.tracking.clone(),
        )?;
        let delivery = DeliveryQueueService::new(store.clone(), clock.clone())
            .with_handoff(
                settings.delivery.no_show_minutes,
                Some(settings.discord.guild_id.trim().to_owned()).filter(|guild| !guild.is_empty()),
            )
            .with_notices(self.notices.clone());
        let order_messages = crate::services::OrderMessagesService::new(
            store.clone(),
            store.clone(),
            clock.clone(),
            settings.delivery.messages(),
        )
        .with_notices(self.notices.clone());
        let blocklist =
            BlocklistService::new(store.clone(), clock.clone(), settings.blocklist.limits());
        let services = AfterSaleServices {
            tracking: web::Data::from(Arc::clone(&self.notices.tracking)),
            reviews: web::Data::new(ReviewService::new(store.clone(), clock.clone())),
            aftersale: web::Data::new(aftersale),
            disputes: web::Data::new(disputes),
            disputes_waker: web::Data::new(crate::disputes::DisputesWaker::default()),
            blocklist: web::Data::new(blocklist),
            delivery: web::Data::new(delivery),
            order_messages: web::Data::new(order_messages),
            delivery_settings: web::Data::new(settings.delivery.clone()),
            tickets: web::Data::new(TicketService(tickets)),
            guild_joins: web::Data::new(guild_joins),
        };
        Ok((services, outbox))
    }

    /// The outbox and the Discord channels it sends to (watched by the metrics): the tickets
    /// (none without their settings), and the server joins with the queue the Discord link
    /// adds to.
    fn outbox(
        &self,
    ) -> anyhow::Result<(
        Outbox,
        Option<ShopTickets>,
        crate::guild_join::GuildJoinQueue,
    )> {
        let (settings, store, clock) = (self.settings, &self.store, &self.clock);
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
            self.notices.metrics.watch_tickets(tickets.clone());
        }
        let guild_joins = crate::guild_join::build(settings, store.clone(), clock.clone())?;
        if let Some(joins) = &guild_joins {
            self.notices.metrics.watch_guild_joins(joins.clone());
        }
        let outbox = Outbox::new(
            store.clone(),
            clock.clone(),
            Arc::clone(&self.notices.tracking),
            self.notifier.clone(),
            tickets.clone(),
            settings,
        )
        .with_guild_joins(guild_joins.clone());
        let queue = crate::guild_join::GuildJoinQueue::new(guild_joins, outbox.waker());
        Ok((outbox, tickets, queue))
    }

    fn account_services(&self) -> anyhow::Result<AccountServices> {
        let (settings, store, clock) = (self.settings, &self.store, &self.clock);
        Ok(AccountServices {
            accounts: web::Data::from(Arc::clone(&self.accounts)),
            privacy: web::Data::new(crate::services::PrivacyService::new(
                store.clone(),
                clock.clone(),
            )),
            live_sessions: web::Data::new(auth::session::LiveSessions::new(
                self.sessions.clone(),
                self.session_key.clone(),
            )),
            rate_limits: web::Data::new(RateLimits::new(store.clone(), clock.clone())),
            trusted_proxies: web::Data::new(TrustedProxies::parse(
                &settings.server.trusted_proxies,
            )?),
            oauth_state_cookie: web::Data::new(OAuthStateCookie::new(
                &self.session_key,
                self.session_secure,
            )?),
        })
    }

    fn catalog_services(&self) -> CatalogServices {
        let admin = catalog::CatalogAdmin::new(
            self.store.clone(),
            media::MediaImages::products(self.media.clone()),
            self.clock.clone(),
        )
        .with_notices(self.notices.clone());
        CatalogServices {
            catalog: web::Data::new(self.catalog.clone()),
            products: web::Data::new(self.products.clone()),
            stock: web::Data::new(self.notices.stock.clone()),
            catalog_admin: web::Data::new(admin),
            media: web::Data::new(self.media.clone()),
        }
    }

    fn staff(&self) -> StaffServices {
        let (store, clock) = (&self.store, &self.clock);
        StaffServices {
            sales: web::Data::new(SalesService::new(store.clone(), clock.clone())),
            delivery_times: web::Data::new(crate::services::DeliveryTimesService::new(
                store.clone(),
                clock.clone(),
            )),
            audit: web::Data::new(AuditService::new(store.clone())),
            proofs: web::Data::new(proofs::ProofService::new(
                store.clone(),
                media::MediaImages::proofs(self.media.clone()),
                clock.clone(),
            )),
        }
    }
}

/// Opens and migrates the database, counting every statement this instance sends.
async fn open_store(
    settings: &Settings,
    clock: AppClock,
) -> anyhow::Result<(Store, Arc<AtomicU64>)> {
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
    Ok((Store::new(db, clock), db_queries))
}

/// The buyer's page of an order and its mail.
fn order_tracking(
    settings: &Settings,
    store: &Store,
    clock: &AppClock,
    metrics: &ShopMetrics,
) -> anyhow::Result<TrackingService> {
    Ok(delivery::OrderTracking::new(
        store.clone(),
        auth::CountingMailer::new(
            auth::build_mailer(settings, clock).context("the mail settings are not usable")?,
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
    ))
}

/// Outside production: seeds the demo data where asked and prints the demo staff's logins.
async fn seed_outside_production(
    settings: &Settings,
    store: &Store,
    catalog: &ShopCatalog,
    media: &MediaStore,
    accounts: &AccountsService,
) -> anyhow::Result<()> {
    if settings.environment == Environment::Production {
        if settings.seed.demo_data {
            tracing::warn!("seed.demo_data is ignored in production");
        }
        return Ok(());
    }
    if settings.seed.demo_data {
        seed_demo_data(&settings.database.url, store, catalog, media, accounts).await?;
    }
    seed::print_demo_logins(store)
        .await
        .context("failed to read the demo staff logins")
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
