//! Prometheus metrics (`metrics.enabled`): every request counted and timed per route pattern
//! (never the raw path) and status by a middleware, and on each scrape the shop's own numbers
//! read fresh with a few aggregate queries (`store::ShopCounts`), the pool's use, and the
//! failures the mail and the staff webhook have counted. Every name starts with `shop_`, but
//! the Prometheus process collector's (`process_resident_memory_bytes`, `process_cpu_seconds_total`,
//! …). `promtool check metrics` finds nothing to say about the page (an API test runs it).

use std::sync::{
    atomic::{AtomicU64, Ordering},
    Arc,
};
use std::time::Instant;

use actix_web::{
    body::MessageBody,
    dev::{ServiceRequest, ServiceResponse},
    http::{Method, StatusCode},
    middleware::Next,
    web, HttpRequest,
};
use anyhow::Context;
use discord::StaffNotifier;
use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts,
    Registry, TextEncoder,
};
use secrecy::ExposeSecret;
use sha2::{Digest, Sha256};
use shared::Clock;
use store::{ShopCounts, Store};

use crate::{
    auth::{AppClock, MailFailures},
    error::ApiError,
    settings::{Environment, Settings},
};

/// Request latency buckets, in seconds: a poll answered from memory to a slow checkout.
const LATENCY_BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
];

/// Delivery time buckets, in seconds: a minute to a day.
const DELIVERY_BUCKETS: [f64; 12] = [
    60.0, 120.0, 300.0, 600.0, 900.0, 1200.0, 1800.0, 3600.0, 7200.0, 14400.0, 43200.0, 86400.0,
];

/// One instance's metrics. Cloning shares them.
#[derive(Clone)]
pub struct ShopMetrics {
    enabled: bool,
    /// The SHA-256 of the bearer token scrapers send; `None`: open (never in production).
    token_digest: Option<[u8; 32]>,
    registry: Registry,
    requests: IntCounterVec,
    latency: HistogramVec,
    /// Paid → claimed → delivered of the deliveries this instance made, by step.
    delivery: HistogramVec,
    /// The tickets' failed Discord calls (set once at wiring when tickets are on).
    tickets: Arc<std::sync::OnceLock<crate::outbox::ShopTickets>>,
    /// The exchange rates' fetches (set once at wiring).
    currencies: Arc<std::sync::OnceLock<Arc<crate::currencies::Currencies>>>,
    /// The joins to the shop's server given up (set once at wiring when they are on).
    guild_joins: Arc<std::sync::OnceLock<crate::guild_join::ShopGuildJoins>>,
    /// Stripe webhook deliveries this instance refused (4xx or 5xx).
    webhooks_refused: Arc<AtomicU64>,
    mail_failures: MailFailures,
    notifier: StaffNotifier,
    clock: AppClock,
    pool_max: u32,
    /// Changes of orders' payments this instance applied, by provider and outcome.
    payments: IntCounterVec,
    /// Failed attempts at the buyer's mail (receipt, delivered, refunded) on this instance.
    buyer_mail_failures: MailFailures,
    /// The background loops' finished rounds.
    rounds: crate::rounds::Rounds,
}

/// The `method` label: one of the standard methods, or `other` for any method a client made
/// up (each would otherwise be a new series).
fn method_label(method: &Method) -> &'static str {
    const STANDARD: [Method; 9] = [
        Method::GET,
        Method::HEAD,
        Method::POST,
        Method::PUT,
        Method::DELETE,
        Method::PATCH,
        Method::OPTIONS,
        Method::CONNECT,
        Method::TRACE,
    ];
    STANDARD
        .iter()
        .find(|standard| *standard == method)
        .map_or("other", |standard| standard.as_str())
}

/// The `status` label: the code when it is a registered one (the shop only answers those), or
/// `other`.
fn status_label(status: StatusCode) -> String {
    match status.canonical_reason() {
        Some(_) => status.as_u16().to_string(),
        None => "other".to_owned(),
    }
}

/// The `outcome` label values of `shop_payments_total`, each listed at 0 from the start.
const PAYMENT_OUTCOMES: [&str; 9] = [
    "awaiting_payment",
    "paid",
    "paid_after_expiry",
    "cancelled",
    "expired",
    "refunded",
    "disputed",
    "dispute_won",
    "dispute_lost",
];

/// The `kind` label values of `shop_jobs` listed at 0 when none waits: the buyer's mail and
/// the outbox's channels (staff notifications, Discord tickets).
const JOB_KINDS: [&str; 3] = ["mail", "staff", "ticket"];
const JOB_STATES: [&str; 3] = ["queued", "retrying", "failed"];

/// The commit this binary was built from (`build.rs`: `GARDEN_SHOP_COMMIT` or `git`).
const BUILD_COMMIT: &str = env!("GARDEN_SHOP_COMMIT");

/// The path of Stripe's webhook, whose refusals are counted as incoming webhook failures.
const STRIPE_WEBHOOK_ROUTE: &str = "/api/stripe/webhook";

impl ShopMetrics {
    /// Refuses production settings that enable metrics without a token: anyone could read
    /// the shop's numbers.
    pub fn new(
        settings: &Settings,
        mail_failures: MailFailures,
        notifier: StaffNotifier,
        clock: AppClock,
        rounds: crate::rounds::Rounds,
    ) -> anyhow::Result<Self> {
        let config = &settings.metrics;
        let token = config.token.expose_secret().trim();
        if config.enabled && token.is_empty() && settings.environment == Environment::Production {
            anyhow::bail!(
                "metrics.enabled is set without metrics.token: production does not serve \
                 /metrics to anyone, set SHOP__METRICS__TOKEN to a long random secret"
            );
        }
        let registry = Registry::new();
        let labels = ["method", "route", "status"];
        let requests = Opts::new(
            "shop_http_requests_total",
            "HTTP requests answered, by method, route pattern and status",
        );
        let requests = registered(&registry, IntCounterVec::new(requests, &labels)?)?;
        let latency = HistogramOpts::new(
            "shop_http_request_duration_seconds",
            "Time to answer an HTTP request, by method, route pattern and status",
        );
        let latency = HistogramVec::new(latency.buckets(LATENCY_BUCKETS.to_vec()), &labels)?;
        let latency = registered(&registry, latency)?;
        let delivery = HistogramOpts::new(
            "shop_delivery_seconds",
            "Delivery times of the orders delivered, by step (paid_to_claimed, \
             claimed_to_delivered, paid_to_delivered)",
        );
        let delivery = HistogramVec::new(delivery.buckets(DELIVERY_BUCKETS.to_vec()), &["step"])?;
        let delivery = registered(&registry, delivery)?;
        let payments = Opts::new(
            "shop_payments_total",
            "Changes of orders' payments this instance applied, by the order's provider \
             (stripe, paypal, dev) and outcome (awaiting_payment, paid, paid_after_expiry, \
             cancelled, expired, refunded, disputed, dispute_won, dispute_lost)",
        );
        let labels = ["provider", "outcome"];
        let payments = registered(&registry, IntCounterVec::new(payments, &labels)?)?;
        for provider in orders::PaymentProvider::ALL.map(|provider| provider.as_str()) {
            for outcome in PAYMENT_OUTCOMES {
                payments.with_label_values(&[provider, outcome]);
            }
        }
        let help = "The version and commit of the running binary (always 1)";
        let labels = ["version", "commit"];
        let version = [env!("CARGO_PKG_VERSION"), BUILD_COMMIT];
        gauges(&registry, "shop_build_info", help, labels, [(version, 1)])?;
        #[cfg(target_os = "linux")]
        registry.register(Box::new(
            prometheus::process_collector::ProcessCollector::for_self(),
        ))?;
        Ok(ShopMetrics {
            enabled: config.enabled,
            token_digest: (!token.is_empty()).then(|| Sha256::digest(token.as_bytes()).into()),
            registry,
            requests,
            latency,
            delivery,
            tickets: Arc::default(),
            currencies: Arc::default(),
            guild_joins: Arc::default(),
            webhooks_refused: Arc::default(),
            mail_failures,
            notifier,
            clock,
            pool_max: settings.database.max_connections,
            payments,
            buyer_mail_failures: MailFailures::default(),
            rounds,
        })
    }

    /// The counter the buyer's mailer adds its failed attempts to.
    pub fn buyer_mail_failures(&self) -> MailFailures {
        Arc::clone(&self.buyer_mail_failures)
    }

    /// Counts a change of an order's payment (`store::dispatch::PaymentWatch`).
    pub fn observe_payment(&self, provider: orders::PaymentProvider, outcome: &str) {
        if !self.enabled {
            return;
        }
        self.payments
            .with_label_values(&[provider.as_str(), outcome])
            .inc();
    }

    /// Counts one answer. Every label comes from a fixed set, so no client can grow the series:
    /// the method is a standard one or `other`, the route a registered pattern or `unmatched`,
    /// the status a registered status code or `other`.
    fn observe(&self, method: &Method, route: &str, code: StatusCode, seconds: f64) {
        let status = status_label(code);
        let labels = [method_label(method), route, status.as_str()];
        self.requests.with_label_values(&labels).inc();
        self.latency.with_label_values(&labels).observe(seconds);
        if route == STRIPE_WEBHOOK_ROUTE && code.as_u16() >= 400 {
            self.webhooks_refused.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Counts the exchange rates' fetches on `/metrics`.
    pub fn watch_currencies(&self, currencies: Arc<crate::currencies::Currencies>) {
        let _ = self.currencies.set(currencies);
    }

    /// Counts the tickets' failed Discord calls on `/metrics`.
    pub fn watch_tickets(&self, tickets: crate::outbox::ShopTickets) {
        let _ = self.tickets.set(tickets);
    }

    /// Counts the joins to the shop's server given up on `/metrics` (reason
    /// `guild_join_{missing_permission, invalid_token, expired, other}`).
    pub fn watch_guild_joins(&self, joins: crate::guild_join::ShopGuildJoins) {
        let _ = self.guild_joins.set(joins);
    }

    /// Records the times of a delivery just made (each step once: the instance that made the
    /// delivery observes it).
    pub fn observe_delivery(&self, order: &delivery::DeliveredOrder) {
        if !self.enabled {
            return;
        }
        for step in delivery::DeliveryStep::ALL {
            if let Some(seconds) = order.seconds(step) {
                self.delivery
                    .with_label_values(&[step.as_str()])
                    .observe(seconds as f64);
            }
        }
    }

    /// Whether `Authorization` carries the token (compared as digests, in constant time).
    fn authorized(&self, request: &HttpRequest) -> bool {
        let Some(expected) = &self.token_digest else {
            return true;
        };
        let Some(sent) = request
            .headers()
            .get(actix_web::http::header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.strip_prefix("Bearer "))
        else {
            return false;
        };
        let sent: [u8; 32] = Sha256::digest(sent.trim().as_bytes()).into();
        sent.iter()
            .zip(expected.iter())
            .fold(0u8, |diff, (a, b)| diff | (a ^ b))
            == 0
    }

    /// The text exposition of everything: the request metrics and the numbers of now
    /// (`streams`: the event streams open on this instance).
    async fn render(&self, store: &Store, streams: usize) -> anyhow::Result<String> {
        let counts = store.shop_counts().await?;
        let jobs = store.job_counts().await?;
        let mut families = self.registry.gather();
        let fresh = Registry::new();
        self.shop_numbers(&fresh, &counts, &jobs)?;
        self.instance_numbers(&fresh, store, streams)?;
        families.extend(fresh.gather());
        let mut out = Vec::new();
        TextEncoder::new()
            .encode(&families, &mut out)
            .context("failed to encode the metrics")?;
        String::from_utf8(out).context("the metrics are not UTF-8")
    }

    /// The database's numbers, every instance's: orders, holds, disputes, reservations, the
    /// delivery queue and live chats waiting, and the jobs (`job_numbers`).
    fn shop_numbers(
        &self,
        registry: &Registry,
        counts: &ShopCounts,
        jobs: &[store::JobCount],
    ) -> anyhow::Result<()> {
        let zeros = orders::OrderStatus::ALL.map(|status| ([status.as_str()], 0));
        let found = counts.orders_by_status.iter();
        let values = zeros
            .into_iter()
            .chain(found.map(|(s, n)| ([s.as_str()], *n)));
        let help = "Orders in the database, by status";
        gauges(registry, "shop_orders", help, ["status"], values)?;
        let zeros = orders::HoldReason::ALL.map(|reason| ([reason.as_str()], 0));
        let values = zeros
            .into_iter()
            .chain(counts.held.iter().map(|(r, n)| ([r.as_str()], *n)));
        let help = "Paid orders on a risk hold, out of the delivery queue, by reason";
        gauges(registry, "shop_orders_held", help, ["reason"], values)?;
        let help = "Disputes of payments, by the bank's reason and outcome (won, lost, pending)";
        let values = counts.disputes.iter().map(|(reason, outcome, n)| {
            (
                [reason.as_str(), outcome.as_str()],
                u64::try_from(*n).unwrap_or(0),
            )
        });
        counters(
            registry,
            "shop_disputes_total",
            help,
            ["reason", "outcome"],
            values,
        )?;
        let oldest = counts.oldest_paid_at.map_or(0, |paid_at| {
            (self.clock.now() - paid_at).num_seconds().max(0)
        });
        for (name, help, value) in [
            (
                "shop_unpaid_reservations",
                "Unpaid (pending) orders holding stock",
                counts.unpaid_reservations,
            ),
            (
                "shop_unpaid_reserved_units",
                "Units of stock held by unpaid orders",
                counts.unpaid_reserved_units,
            ),
            (
                "shop_paid_orders_waiting",
                "Paid orders waiting for delivery",
                counts.paid_waiting,
            ),
            (
                "shop_live_chats_waiting",
                "Help chats waiting for a member of staff to accept them",
                counts.live_chats_waiting,
            ),
            (
                "shop_oldest_paid_order_waiting_seconds",
                "Seconds the oldest paid order has waited for delivery (0 when none waits)",
                oldest,
            ),
        ] {
            gauges(registry, name, help, [], [([], value)])?;
        }
        job_numbers(registry, jobs)
    }

    /// This instance's numbers: its pool and its open event streams, and its `failures`.
    fn instance_numbers(
        &self,
        registry: &Registry,
        store: &Store,
        streams: usize,
    ) -> anyhow::Result<()> {
        let pool = store.pool_use();
        let help = "Database connections of this instance's pool, by state";
        let values = [
            (["in_use"], i64::from(pool.open.saturating_sub(pool.idle))),
            (["idle"], i64::from(pool.idle)),
        ];
        gauges(
            registry,
            "shop_db_pool_connections",
            help,
            ["state"],
            values,
        )?;
        let help = "The most connections this instance's pool opens (database.max_connections)";
        let max = i64::from(self.pool_max);
        gauges(
            registry,
            "shop_db_pool_max_connections",
            help,
            [],
            [([], max)],
        )?;
        let help = "Server-push event streams (GET /api/events) open on this instance";
        let open = i64::try_from(streams).unwrap_or(i64::MAX);
        gauges(registry, "shop_event_streams", help, [], [([], open)])?;

        self.failures(registry)
    }

    /// What failed on this instance (webhooks, mail, Discord) and its loops' rounds.
    fn failures(&self, registry: &Registry) -> anyhow::Result<()> {
        let notifier = self.notifier.failures();
        let help = "Webhook failures on this instance: incoming Stripe deliveries refused; \
                    outgoing staff notifications retried, given up or dropped";
        let refused = self.webhooks_refused.load(Ordering::Relaxed);
        let values = [
            (["incoming", "refused"], refused),
            (["outgoing", "retried"], notifier.retried),
            (["outgoing", "given_up"], notifier.given_up),
            (["outgoing", "dropped"], notifier.dropped),
        ];
        counters(
            registry,
            "shop_webhook_failures_total",
            help,
            ["direction", "outcome"],
            values,
        )?;
        let help = "Mail sends that failed on this instance; nothing is queued, the shopper is \
                    asked to try again (each is a retry)";
        let mail = self.mail_failures.load(Ordering::Relaxed);
        counters(registry, "shop_mail_failures_total", help, [], [([], mail)])?;
        let help = "Failed attempts at the buyer's mail (receipt, delivered, refunded) on this \
                    instance; each is tried again until mail.retry_max_attempts, then given up \
                    (shop_jobs{kind=\"mail\",state=\"failed\"})";
        let mail = self.buyer_mail_failures.load(Ordering::Relaxed);
        counters(
            registry,
            "shop_buyer_mail_failures_total",
            help,
            [],
            [([], mail)],
        )?;

        let tickets = self
            .tickets
            .get()
            .into_iter()
            .flat_map(|tickets| tickets.failures());
        let joins: Vec<_> = (self.guild_joins.get().into_iter())
            .flat_map(|joins| joins.failures())
            .map(|(reason, n)| (format!("guild_join_{reason}"), n))
            .collect();
        let values = tickets.map(|(reason, n)| ([reason], n));
        let values = values.chain(joins.iter().map(|(reason, n)| ([reason.as_str()], *n)));
        let help = "Discord calls for the tickets that failed on this instance, by reason \
                    (missing_permission, unknown_member, not_found, unavailable, other), and the \
                    buyers' joins to the shop's server given up (guild_join_missing_permission, \
                    guild_join_invalid_token, guild_join_expired, guild_join_other)";
        counters(
            registry,
            "shop_discord_failures_total",
            help,
            ["reason"],
            values,
        )?;
        let (fetched, failed) = self
            .currencies
            .get()
            .map_or((0, 0), |currencies| currencies.fetch_counts());
        let help = "Fetches of the day's exchange rates this instance made (one instance a \
                    day), by outcome (fetched; failed: the last rates stay, tried again after \
                    currency.retry_minutes)";
        let values = [(["fetched"], fetched), (["failed"], failed)];
        counters(
            registry,
            "shop_exchange_rate_fetches_total",
            help,
            ["outcome"],
            values,
        )?;
        let help = "Rounds this instance's background loops finished, by loop (sweep, outbox, \
                    catalog_refresh, chat_versions, chat_purge, event_purge, exchange_rates, …): \
                    one that stops growing has stopped";
        let values =
            crate::rounds::Loop::ALL.map(|which| ([which.as_str()], self.rounds.count(which)));
        counters(registry, "shop_loop_rounds_total", help, ["loop"], values)
    }
}

fn registered<T: prometheus::core::Collector + Clone + 'static>(
    registry: &Registry,
    metric: T,
) -> anyhow::Result<T> {
    registry.register(Box::new(metric.clone()))?;
    Ok(metric)
}

/// The jobs waiting or given up, in the database, every kind and state listed.
fn job_numbers(registry: &Registry, jobs: &[store::JobCount]) -> anyhow::Result<()> {
    let zeros = JOB_KINDS
        .iter()
        .flat_map(|kind| JOB_STATES.map(|state| ([*kind, state], 0)));
    let found = jobs
        .iter()
        .map(|job| ([job.kind.as_str(), job.state.as_str()], job.count));
    let help = "Jobs not sent yet or given up, in the database (every instance's), by kind \
                (mail: the buyer's mail; staff, ticket: the outbox's Discord channels) and \
                state (queued: not tried yet; retrying: failed and due again; failed: given up)";
    let labels = ["kind", "state"];
    gauges(registry, "shop_jobs", help, labels, zeros.chain(found))
}

/// Registers a family of gauges, one per label set, set to its values in order (so a set listed
/// at 0 first shows even when nothing was counted for it). No labels: one plain gauge.
fn gauges<'a, const N: usize>(
    registry: &Registry,
    name: &str,
    help: &str,
    labels: [&str; N],
    values: impl IntoIterator<Item = ([&'a str; N], i64)>,
) -> anyhow::Result<()> {
    if N == 0 {
        let gauge = IntGauge::new(name, help)?;
        values.into_iter().for_each(|(_, value)| gauge.set(value));
        registry.register(Box::new(gauge))?;
        return Ok(());
    }
    let family = IntGaugeVec::new(Opts::new(name, help), &labels)?;
    for (set, value) in values {
        family.with_label_values(&set).set(value);
    }
    registry.register(Box::new(family))?;
    Ok(())
}

/// Registers a family of counters, one per label set, at the sum of its values. No labels: one
/// plain counter.
fn counters<'a, const N: usize>(
    registry: &Registry,
    name: &str,
    help: &str,
    labels: [&str; N],
    values: impl IntoIterator<Item = ([&'a str; N], u64)>,
) -> anyhow::Result<()> {
    if N == 0 {
        let counter = IntCounter::new(name, help)?;
        values.into_iter().for_each(|(_, n)| counter.inc_by(n));
        registry.register(Box::new(counter))?;
        return Ok(());
    }
    let family = IntCounterVec::new(Opts::new(name, help), &labels)?;
    for (set, n) in values {
        family.with_label_values(&set).inc_by(n);
    }
    registry.register(Box::new(family))?;
    Ok(())
}

/// The middleware, for `actix_web::middleware::from_fn`: times and counts every request when
/// metrics are enabled.
pub async fn measure(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let metrics = req
        .app_data::<web::Data<ShopMetrics>>()
        .filter(|metrics| metrics.enabled)
        .cloned();
    let Some(metrics) = metrics else {
        return next.call(req).await;
    };
    let started = Instant::now();
    let method = req.method().clone();
    let answered = next.call(req).await;
    let seconds = started.elapsed().as_secs_f64();
    match &answered {
        Ok(response) => {
            // the pattern of a registered route (`/api/orders/{id}`), never the path itself
            let route = response
                .request()
                .match_pattern()
                .unwrap_or_else(|| "unmatched".to_owned());
            metrics.observe(&method, &route, response.status(), seconds);
        }
        Err(error) => {
            let status = error.as_response_error().status_code();
            metrics.observe(&method, "unmatched", status, seconds);
        }
    }
    answered
}

/// `GET /metrics`: 404 when metrics are off, 401 without the token.
pub async fn scrape(
    request: HttpRequest,
    metrics: web::Data<ShopMetrics>,
    store: web::Data<Store>,
    streams: web::Data<crate::events::streams::StreamLimits>,
) -> Result<actix_web::HttpResponse, ApiError> {
    if !metrics.enabled {
        return Err(ApiError::NotFound(
            l10n::Text::new("error-not-found").into(),
        ));
    }
    if !metrics.authorized(&request) {
        return Err(ApiError::Unauthorized(
            "Send the metrics token as Authorization: Bearer.".into(),
        ));
    }
    let body = metrics
        .render(&store, streams.open())
        .await
        .map_err(ApiError::internal)?;
    Ok(actix_web::HttpResponse::Ok()
        .content_type(TextEncoder::new().format_type())
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .body(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_up_methods_and_unregistered_statuses_share_one_label() {
        assert_eq!(method_label(&Method::GET), "GET");
        assert_eq!(method_label(&Method::PATCH), "PATCH");
        for made_up in ["FOO", "get", "PROPFIND", "X-1234"] {
            let method = Method::from_bytes(made_up.as_bytes()).unwrap_or(Method::GET);
            assert_eq!(method_label(&method), "other", "{made_up}");
        }
        assert_eq!(status_label(StatusCode::NOT_FOUND), "404");
        let odd = StatusCode::from_u16(599).unwrap_or(StatusCode::OK);
        assert_eq!(status_label(odd), "other");
    }
}
