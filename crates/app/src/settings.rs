//! The typed settings: `config/default.toml`, then `config/{SHOP_ENV}.toml`, then
//! `SHOP__SECTION__KEY` environment variables and `DATABASE_URL` ([`Settings::load`]); and the
//! production check that names every missing or invalid required setting at once
//! ([`Settings::check_production`]).
//!
//! Every setting's default is written once, in `config/default.toml`, which is always read:
//! nothing here repeats a default, and a setting missing from it stops the start with its name.

use std::path::PathBuf;

use serde::Deserialize;

pub use crate::auth::session::SessionSettings;

/// Where the shop runs: each has its own file in `config/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Environment {
    Development,
    Test,
    Production,
}

impl Environment {
    /// `SHOP_ENV`'s value; unset or empty: development.
    fn from_name(name: Option<&str>) -> Result<Self, SettingsError> {
        match name {
            None | Some("") | Some("development") => Ok(Environment::Development),
            Some("test") => Ok(Environment::Test),
            Some("production") => Ok(Environment::Production),
            Some(other) => Err(SettingsError::UnknownEnvironment(other.to_owned())),
        }
    }

    fn as_str(&self) -> &'static str {
        match self {
            Environment::Development => "development",
            Environment::Test => "test",
            Environment::Production => "production",
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct Settings {
    #[serde(skip_deserializing, default = "default_environment")]
    pub environment: Environment,
    pub server: ServerSettings,
    pub database: DatabaseSettings,
    pub media: MediaSettings,
    pub seed: SeedSettings,
    pub site: SiteSettings,
    pub catalog: CatalogSettings,
    pub mail: MailSettings,
    pub session: SessionSettings,
    /// Stripe Checkout; empty keys: the dev payment page (never in production).
    pub stripe: stripe_adapter::StripeSettings,
    /// PayPal Orders v2, offered only when configured and enabled.
    pub paypal: paypal::PayPalSettings,
    /// Discord OAuth and staff notifications; no client id: the dev sign-in page.
    pub discord: discord::DiscordSettings,
    /// The Roblox web APIs (the offline stand-in when `users_api_base` is empty).
    pub roblox: roblox::RobloxSettings,
    /// The help chat's assistant: an OpenAI-compatible endpoint when api_base, model and
    /// api_key are set; the built-in assistant otherwise (and always as the fallback).
    pub assistant: AssistantSettings,
    /// The help chat's poll cache.
    pub chat: ChatSettings,
    /// Sign-up, login and password reset limits.
    pub accounts: AccountsSettings,
    /// Checkout's limits against hoarding and promo abuse.
    pub checkout: CheckoutSettings,
    /// Server push (`GET /api/events`): heartbeat, replay and stream limits.
    pub events: EventsSettings,
    /// The blocklist's limits.
    pub blocklist: BlocklistSettings,
    /// Prometheus metrics at `/metrics`.
    pub metrics: MetricsSettings,
    /// The handoff from paid to delivered.
    pub delivery: DeliverySettings,
    /// Disputes: when the evidence goes to the bank.
    pub disputes: DisputesSettings,
    /// Risky payments and fraud warnings: which hold an order before delivery.
    pub payments: PaymentsSettings,
    /// The shop's base currency and the others it offers at the day's rates.
    pub currency: CurrencySettings,
}

/// The `payments` section: which payments are held before delivery.
#[derive(Debug, Clone, Deserialize)]
pub struct PaymentsSettings {
    /// Stripe's risk levels of a payment's charge (`normal`, `elevated`, `highest`) that put a
    /// just-paid order on a risk hold before it enters the delivery queue.
    pub hold_risk_levels: Vec<String>,
    /// Refund a paid order at once when the card's issuer warns of fraud, instead of holding
    /// it for staff.
    pub refund_on_fraud_warning: bool,
    /// The deadline of reading a payment's risk from Stripe while its webhook waits; past it the
    /// order is paid without a hold (and a warning logged).
    pub risk_read_timeout_ms: u64,
    /// How long an order paid with a method that confirms later (a voucher such as OXXO or
    /// Boleto, a bank debit) holds its stock when Stripe names no deadline of the method's own.
    pub delayed_payment_hold_hours: u32,
}

impl PaymentsSettings {
    pub fn policy(&self) -> aftersale::RiskPolicy {
        aftersale::RiskPolicy {
            hold_risk_levels: self.hold_risk_levels.clone(),
            refund_on_fraud_warning: self.refund_on_fraud_warning,
            delayed_payment_hold_hours: self.delayed_payment_hold_hours,
        }
    }

    pub fn risk_read_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.risk_read_timeout_ms.max(1))
    }
}

/// The `disputes` section: how a dispute's evidence reaches the bank.
#[derive(Debug, Clone, Deserialize)]
pub struct DisputesSettings {
    /// Without a staff action, the staged evidence is submitted this many hours before the
    /// bank's deadline.
    pub submit_hours_before_due: u32,
    /// Submit the evidence as soon as it is staged, without waiting for staff.
    pub auto_submit: bool,
    /// How often each instance looks for evidence to stage and deadlines to meet.
    pub check_every_seconds: u64,
    /// The dispute rate (disputes per paid order, last 30 days, in percent) the sales
    /// dashboard warns at.
    pub warn_rate_percent: f64,
    /// An erased buyer's order keeps what a dispute's evidence needs this many days after its
    /// payment (and while a dispute of it is open).
    pub evidence_retention_days: u32,
}

impl DisputesSettings {
    pub fn domain(&self) -> disputes::DisputeSettings {
        disputes::DisputeSettings {
            submit_hours_before_due: self.submit_hours_before_due,
            auto_submit: self.auto_submit,
            // in basis points, within 0 and 100 %
            warn_rate_basis_points: (self.warn_rate_percent * 100.0)
                .round()
                .clamp(0.0, 10_000.0) as u32,
            evidence_retention_days: self.evidence_retention_days,
        }
    }
}

/// The `delivery` section: the handoff from paid to delivered.
#[derive(Debug, Clone, Deserialize)]
pub struct DeliverySettings {
    /// A claimed order whose buyer has not said "I'm in the game" this many minutes after the
    /// claim shows "no show" on the staff queue.
    pub no_show_minutes: u32,
    /// `POST /api/orders/{id}/ready` (and, counted apart, `…/received`) per order per hour;
    /// more: 429.
    pub ready_per_order_per_hour: u32,
    /// Messages on an order's page per order and side (the buyer, staff) per minute; more: 429.
    pub messages_per_order_per_minute: u32,
    /// How many days after its delivery an order's buyer and staff can still write on its page.
    pub messages_days_after_delivery: u32,
}

impl DeliverySettings {
    /// What the line between an order's buyer and staff takes from these settings.
    pub fn messages(&self) -> delivery::MessageSettings {
        delivery::MessageSettings {
            per_minute: self.messages_per_order_per_minute,
            days_after_delivery: self.messages_days_after_delivery,
        }
    }
}

/// The `metrics` section: `/metrics` in Prometheus' text format.
#[derive(Debug, Clone, Deserialize)]
pub struct MetricsSettings {
    /// Off: `/metrics` answers 404 and nothing is measured.
    pub enabled: bool,
    /// Scrapers send `Authorization: Bearer {token}`. Required in production when enabled (the
    /// shop refuses to start without it); empty elsewhere: `/metrics` is open.
    pub token: secrecy::SecretString,
}

/// The `accounts` section: how often sign-up, login and password reset may be tried. Every
/// count is shared by all instances and taken before any password is hashed.
#[derive(Debug, Clone, Deserialize)]
pub struct AccountsSettings {
    /// Login attempts per e-mail address per `login_window_minutes`; a success forgets them.
    pub login_per_address: u32,
    /// Login attempts per client address per `login_window_minutes`.
    pub login_per_ip: u32,
    pub login_window_minutes: u64,
    /// Sign-up code requests per e-mail address per `code_window_minutes`.
    pub code_per_address: u32,
    /// Sign-up code requests per client address per `code_window_minutes`.
    pub code_per_ip: u32,
    /// Code checks (right or wrong) per client address per `code_window_minutes`.
    pub code_checks_per_ip: u32,
    pub code_window_minutes: u64,
    /// How long before another code may be sent to the same address.
    pub code_resend_seconds: u64,
    /// Reset links mailed per account per hour; past it the answer stays the same, nothing is
    /// sent.
    pub reset_per_address_per_hour: u32,
    /// How long before another reset link may be mailed to the same account.
    pub reset_resend_seconds: u64,
    /// Forgot-password requests per client address per hour; past it, 429.
    pub reset_per_ip_per_hour: u32,
}

/// The `blocklist` section.
#[derive(Debug, Clone, Deserialize)]
pub struct BlocklistSettings {
    /// The longest reason an entry may carry, in characters; longer: 422 on `reason`.
    pub max_reason_chars: usize,
    /// How many entries `GET /api/admin/blocklist` answers at most (newest first).
    pub list_limit: u64,
}

impl BlocklistSettings {
    pub fn limits(&self) -> blocklist::BlocklistLimits {
        blocklist::BlocklistLimits {
            max_reason_chars: self.max_reason_chars,
            list_limit: self.list_limit,
        }
    }
}

/// The `checkout` section.
#[derive(Debug, Clone, Deserialize)]
pub struct CheckoutSettings {
    /// Of one product in one order (its lines added up); more: 422 on `qty`.
    pub max_quantity_per_product: u32,
    /// Different products (lines) in one order; more: 422 on `items`.
    pub max_lines: usize,
    /// Unpaid orders at once per Discord account and per browser session; more: 429.
    pub max_pending_orders: u32,
    /// Unpaid orders at once per client address; more: 429.
    pub max_pending_per_ip: u32,
    /// `POST /api/validate-promo` per client address and minute; more: 429.
    pub promo_checks_per_minute: u32,
    /// Roblox username lookups (`POST /api/roblox/avatar`) per client address and minute.
    pub roblox_lookups_per_minute: u32,
    /// An unpaid order holding a drop's units expires this many minutes after it was placed
    /// (other orders: the 30-minute payment window and the sweeper's grace).
    pub drop_payment_minutes: u32,
}

impl CheckoutSettings {
    /// The checkout service's limits.
    pub fn limits(&self) -> orders::CheckoutLimits {
        orders::CheckoutLimits {
            drop_payment_minutes: self.drop_payment_minutes,
            max_lines: self.max_lines,
            max_quantity_per_product: self.max_quantity_per_product,
            pending: orders::PendingCaps {
                per_account: self.max_pending_orders,
                per_session: self.max_pending_orders,
                per_address: self.max_pending_per_ip,
            },
        }
    }
}

/// The `assistant` section.
#[derive(Debug, Clone, Deserialize)]
pub struct AssistantSettings {
    /// e.g. `https://api.openai.com/v1`; the adapter posts to `{api_base}/chat/completions`.
    pub api_base: String,
    pub model: String,
    pub api_key: secrecy::SecretString,
    /// Past this the built-in assistant answers instead.
    pub timeout_ms: u64,
}

/// The `chat` section.
#[derive(Debug, Clone, Deserialize)]
pub struct ChatSettings {
    /// How often each instance looks for chat writes made by other instances (one small read
    /// of the chats changed since the last look, and a count).
    pub version_refresh_ms: u64,
    /// Live-agent requests per client address per hour (429 beyond).
    pub max_live_per_ip_per_hour: u32,
    /// Messages a chat session may send per minute (429 beyond).
    pub max_messages_per_minute: u32,
    /// Chats still with the assistant are deleted this long after their last message.
    pub idle_purge_hours: u32,
    /// Closed chats are deleted this long after they ended.
    pub closed_retention_days: u32,
    /// How often each instance deletes what the two settings above no longer keep.
    pub purge_every_seconds: u64,
}

/// The `events` section: the browsers' event streams (`GET /api/events`).
#[derive(Debug, Clone, Deserialize)]
pub struct EventsSettings {
    /// A comment line every this many seconds keeps proxies from closing an idle stream.
    pub heartbeat_seconds: u64,
    /// How long a browser waits before reconnecting a dropped stream.
    pub retry_ms: u64,
    /// Open streams per client address on one instance (429 beyond).
    pub max_streams_per_ip: usize,
    /// Open streams per logged-in account on one instance (429 beyond).
    pub max_streams_per_user: usize,
    /// Open streams on one instance in all (503 beyond).
    pub max_streams: usize,
    /// How many missed events a reconnecting stream is sent at most; more: "resync".
    pub replay_max: u64,
    /// How long events are kept for reconnecting streams.
    pub retention_seconds: u64,
    /// How many events a slow stream may fall behind before it is told to resync.
    pub buffer: usize,
    /// An instance publishes `products` at once after a quiet spell, then at most once per
    /// this many milliseconds (the last change of a rush is always published).
    pub products_every_ms: u64,
}

fn default_environment() -> Environment {
    Environment::Development
}

#[derive(Debug, Clone, Deserialize)]
pub struct ServerSettings {
    pub host: String,
    pub port: u16,
    /// The built frontend (`frontend/dist`), served with the SPA fallback.
    pub static_dir: PathBuf,
    /// Proxies (CIDR blocks or addresses, e.g. the load balancer) whose `X-Forwarded-For` is
    /// read for the client's address. Empty: the TCP peer is the client.
    pub trusted_proxies: Vec<String>,
    /// glibc's malloc only (Linux): allocations of at least this many bytes get memory of their
    /// own that goes back to the system when freed. 0 leaves glibc's default, which raises the
    /// threshold to the largest block freed so far (argon2's 19 MiB per password hash) and
    /// then keeps up to twice that per arena after it is freed. See `crate::malloc`.
    pub malloc_mmap_threshold: usize,
    /// How long an idle client connection stays open for its next request. Longer than a
    /// client's own reuse window (nginx keeps upstream connections 60 s, browsers ~60-300 s),
    /// so a reused connection is not closed under a request being sent.
    pub keep_alive_seconds: u64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct DatabaseSettings {
    /// `sqlite://data/shop.db?mode=rwc` or `postgres://user:password@host/db`.
    pub url: String,
    pub max_connections: u32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct MediaSettings {
    /// Where product images and proofs are stored, by content hash.
    pub root: PathBuf,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SeedSettings {
    /// Fill an empty database with the demo catalog. Never honoured in production.
    pub demo_data: bool,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SiteSettings {
    pub name: String,
    pub reviews_url: String,
    /// Where shoppers reach the shop: links in mail, payment return URLs, the Origin check.
    /// Empty: unset, which production refuses and development and test replace with the
    /// address the server listens on (`Settings::resolve_public_url`).
    pub public_url: String,
    /// The shop's Discord server invite (`https://discord.gg/…` or
    /// `https://discord.com/invite/…`); empty: the pages that say "join our Discord server"
    /// point to the help chat instead.
    pub discord_invite_url: String,
    /// "Usually delivered in under N minutes" while fewer than 10 orders were delivered in the
    /// last 7 days (afterwards their 75th percentile, rounded up to 5 minutes).
    pub delivery_minutes: u32,
}

impl SiteSettings {
    /// The invite link, or `None` when unset. Anything but an https Discord invite is refused
    /// at start with the setting's name.
    pub fn discord_invite(&self) -> anyhow::Result<Option<&str>> {
        let url = self.discord_invite_url.trim();
        if url.is_empty() {
            return Ok(None);
        }
        if shared::links::is_discord_invite(url) {
            Ok(Some(url))
        } else {
            anyhow::bail!(
                "site.discord_invite_url must be an https Discord invite \
                 (https://discord.gg/CODE or https://discord.com/invite/CODE), not {url:?}"
            )
        }
    }
}

impl Settings {
    /// Gives an unset `site.public_url` the address the server listens on (`port` is the bound
    /// one, so port 0 gets the port picked), so every link, return URL and the Origin check
    /// reach this server. Production refuses to start without it: behind a proxy or TLS only
    /// the operator knows the shop's address.
    pub fn resolve_public_url(&mut self, port: u16) -> anyhow::Result<()> {
        if !self.site.public_url.trim().is_empty() {
            return Ok(());
        }
        if self.environment == Environment::Production {
            anyhow::bail!(
                "site.public_url is not set: production needs the address shoppers use, e.g. \
                 SHOP__SITE__PUBLIC_URL=https://shop.example.com"
            );
        }
        self.site.public_url = format!("http://{}:{port}", browser_host(&self.server.host));
        Ok(())
    }
}

/// The host a browser on this machine uses to reach a server bound to `host`.
pub fn browser_host(host: &str) -> String {
    match host {
        "127.0.0.1" | "0.0.0.0" | "::" | "" => "localhost".to_owned(),
        host if host.contains(':') && !host.starts_with('[') => format!("[{host}]"),
        host => host.to_owned(),
    }
}

/// How the SMTP connection is secured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SmtpTls {
    None,
    Starttls,
    Tls,
}

/// Outgoing mail. With `smtp_host` empty, mail goes to the outbox directory instead (never in
/// production, which refuses to start without an SMTP host).
#[derive(Debug, Clone, Deserialize)]
pub struct MailSettings {
    pub smtp_host: String,
    pub smtp_port: u16,
    pub smtp_tls: SmtpTls,
    pub smtp_username: String,
    pub smtp_password: secrecy::SecretString,
    /// The sender, e.g. `Garden Shop <no-reply@gardenshop.gg>`.
    pub from: String,
    pub outbox_dir: PathBuf,
    /// The buyer's mail (receipt, delivered, refunded) is tried this many times in all.
    pub retry_max_attempts: u32,
    /// The wait after a failed attempt, doubled after each further failure...
    pub retry_base_seconds: u64,
    /// ...up to this.
    pub retry_max_seconds: u64,
    /// How often each instance looks for buyer mail due to be sent.
    pub queue_poll_ms: u64,
}

impl MailSettings {
    pub fn retry(&self) -> orders::MailRetry {
        orders::MailRetry {
            max_attempts: self.retry_max_attempts.max(1),
            base_delay_seconds: self.retry_base_seconds.max(1),
            max_delay_seconds: self.retry_max_seconds.max(1),
        }
    }
}

/// `[currency]`: see config/default.toml.
#[derive(Debug, Clone, Deserialize)]
pub struct CurrencySettings {
    /// The currency of record (prices, the dashboard).
    pub base: String,
    /// The currencies shoppers may pay in (the base is always offered).
    pub offered: Vec<String>,
    /// The ECB's daily reference rates (XML), or `file:PATH` for the development sample;
    /// empty: no rates, the base currency only.
    pub rates_url: String,
    /// Rates older than this stop the other currencies from being offered.
    pub max_age_hours: i64,
    /// After a failed fetch, the next try.
    pub retry_minutes: i64,
    /// How often each instance reads the stored rates and looks whether the fetch is due.
    pub check_every_seconds: u64,
    /// Per currency: "minor" (half-up to the minor unit) or a price ending such as "0.99".
    #[serde(default)]
    pub rounding: std::collections::BTreeMap<String, String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct CatalogSettings {
    /// How often each instance re-reads the catalog, to see writes made by other instances.
    pub refresh_seconds: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("SHOP_ENV must be development, test or production, not {0:?}")]
    UnknownEnvironment(String),
    #[error("invalid configuration")]
    Config(#[from] config::ConfigError),
    /// Every required production setting that is missing or invalid, each with its variable.
    #[error(
        "production does not start: {} setting(s) missing or invalid:\n  - {}",
        .0.len(),
        .0.join("\n  - ")
    )]
    Production(Vec<String>),
}

/// The environment variables that hold a list, split on commas by [`Settings::load`], with
/// the setting each sets.
const LIST_VARS: [(&str, &str); 3] = [
    ("SHOP__SERVER__TRUSTED_PROXIES", "server.trusted_proxies"),
    ("SHOP__CURRENCY__OFFERED", "currency.offered"),
    (
        "SHOP__PAYMENTS__HOLD_RISK_LEVELS",
        "payments.hold_risk_levels",
    ),
];

fn is_list_var(key: &str) -> bool {
    LIST_VARS
        .iter()
        .any(|(var, _)| key.eq_ignore_ascii_case(var))
}

impl Settings {
    /// Reads `config/default.toml`, then `config/{SHOP_ENV}.toml`, then `SHOP__SECTION__KEY`
    /// variables, then `DATABASE_URL`. The config directory is `SHOP_CONFIG_DIR` or `config`.
    pub fn load() -> Result<Self, SettingsError> {
        Self::load_from(
            std::env::vars_os().filter_map(|(key, value)| {
                Some((key.into_string().ok()?, value.into_string().ok()?))
            }),
        )
    }

    /// [`Settings::load`] with these environment variables instead of the process'.
    ///
    /// A variable's value stays text until the setting's type asks for a number or a boolean
    /// (`SHOP__SITE__NAME=007` is the name "007"; `SHOP__SERVER__PORT=9000` the port 9000):
    /// the config crate's own guessing would turn "007" into the number 7 before it knows the
    /// setting is a string. The one list, `SHOP__SERVER__TRUSTED_PROXIES`, is split on commas
    /// here.
    pub fn load_from(
        vars: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Self, SettingsError> {
        let vars: std::collections::HashMap<String, String> = vars.into_iter().collect();
        let environment = Environment::from_name(vars.get("SHOP_ENV").map(String::as_str))?;
        let dir = vars
            .get("SHOP_CONFIG_DIR")
            .map_or_else(config_dir, PathBuf::from);
        let shop_vars: config::Map<String, String> = vars
            .iter()
            .filter(|(key, _)| !is_list_var(key))
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        let mut builder = config::Config::builder()
            .add_source(config::File::from(dir.join("default.toml")))
            .add_source(
                config::File::from(dir.join(format!("{}.toml", environment.as_str())))
                    .required(false),
            )
            .add_source(
                config::Environment::with_prefix("SHOP")
                    .prefix_separator("__")
                    .separator("__")
                    .try_parsing(false)
                    .source(Some(shop_vars)),
            );
        for (var, setting) in LIST_VARS {
            let Some(value) = vars
                .iter()
                .find(|(key, _)| key.eq_ignore_ascii_case(var))
                .map(|(_, value)| value)
            else {
                continue;
            };
            let list: Vec<String> = value
                .split(',')
                .map(str::trim)
                .filter(|entry| !entry.is_empty())
                .map(str::to_owned)
                .collect();
            builder = builder.set_override(setting, list)?;
        }
        if let Some(url) = vars.get("DATABASE_URL").filter(|url| !url.is_empty()) {
            builder = builder.set_override("database.url", url.as_str())?;
        }
        let mut settings: Settings = builder.build()?.try_deserialize()?;
        settings.environment = environment;
        Ok(settings)
    }

    /// In production, every required setting that is missing or invalid, named with its
    /// environment variable, in one error (so one restart shows them all); elsewhere nothing.
    /// Production refuses the local stand-ins (the outbox, the dev payment page, the dev
    /// Discord sign-in, the offline Roblox stand-in): their mail and payments reach no one.
    pub fn check_production(&self) -> Result<(), SettingsError> {
        if self.environment != Environment::Production {
            return Ok(());
        }
        let blank = |text: &str| text.trim().is_empty();
        let secret_blank = |secret: &secrecy::SecretString| {
            use secrecy::ExposeSecret;
            blank(secret.expose_secret())
        };
        let mut problems = Vec::new();
        let mut missing = |unset: bool, setting: &str, hint: &str| {
            if unset {
                let var = format!("SHOP__{}", setting.replace('.', "__").to_uppercase());
                problems.push(format!("{setting} is not set ({var}){hint}"));
            }
        };
        missing(
            blank(&self.site.public_url),
            "site.public_url",
            ": the address shoppers use, e.g. https://shop.example.com",
        );
        missing(
            blank(&self.mail.smtp_host),
            "mail.smtp_host",
            ": production does not send mail to the outbox",
        );
        missing(
            secret_blank(&self.stripe.secret_key),
            "stripe.secret_key",
            "",
        );
        missing(
            secret_blank(&self.stripe.webhook_secret),
            "stripe.webhook_secret",
            "",
        );
        missing(blank(&self.discord.client_id), "discord.client_id", "");
        missing(
            secret_blank(&self.discord.client_secret),
            "discord.client_secret",
            "",
        );
        missing(
            blank(&self.roblox.users_api_base),
            "roblox.users_api_base",
            ": e.g. https://users.roblox.com",
        );
        missing(
            self.metrics.enabled && secret_blank(&self.metrics.token),
            "metrics.token",
            ": metrics.enabled is set, and production does not serve /metrics to anyone",
        );
        let mut invalid = |result: anyhow::Result<()>| {
            if let Err(error) = result {
                problems.push(format!("{error:#}"));
            }
        };
        invalid(crate::auth::session::cookie_key(&self.session).map(drop));
        invalid(if self.currency.rates_url.trim().starts_with("file:") {
            Err(anyhow::anyhow!(
                "currency.rates_url reads a file, a sample exempt from the age limit \
                 (SHOP__CURRENCY__RATES_URL): production fetches the day's rates, e.g. \
                 https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"
            ))
        } else {
            Ok(())
        });
        invalid(match public_session_key(&self.session) {
            Some(file) => Err(anyhow::anyhow!(
                "session.key is the public key of config/{file}, which anyone can read in the \
                 repository (SHOP__SESSION__KEY): give 64 or more random bytes of your own in \
                 base64, e.g. SHOP__SESSION__KEY=$(openssl rand -base64 64 | tr -d '\\n')"
            )),
            None => Ok(()),
        });
        invalid(self.site.discord_invite().map(drop));
        invalid(crate::client_ip::TrustedProxies::parse(&self.server.trusted_proxies).map(drop));
        if problems.is_empty() {
            Ok(())
        } else {
            Err(SettingsError::Production(problems))
        }
    }
}

/// The config files whose `session.key` is public (committed to the repository), as they were
/// when the binary was built: production refuses those keys wherever its own config folder is.
const PUBLIC_KEY_FILES: [(&str, &str); 2] = [
    (
        "development.toml",
        include_str!("../../../config/development.toml"),
    ),
    ("test.toml", include_str!("../../../config/test.toml")),
];

/// The file whose public `session.key` these settings use, if any: the same key bytes (base64
/// written otherwise, or with spaces around it, is still the same key).
fn public_session_key(session: &SessionSettings) -> Option<&'static str> {
    use base64::Engine;
    use secrecy::ExposeSecret;
    let decode = |text: &str| {
        let text = text.trim();
        base64::engine::general_purpose::STANDARD
            .decode(text)
            .unwrap_or_else(|_| text.as_bytes().to_vec())
    };
    let ours = session.key.expose_secret();
    if ours.trim().is_empty() {
        return None;
    }
    let ours = decode(ours);
    PUBLIC_KEY_FILES.iter().find_map(|(name, contents)| {
        let key = config::Config::builder()
            .add_source(config::File::from_str(contents, config::FileFormat::Toml))
            .build()
            .and_then(|file| file.get_string("session.key"))
            .ok()?;
        (!key.trim().is_empty() && decode(&key) == ours).then_some(*name)
    })
}

/// `config/` next to the working directory, or the workspace's when run from a crate folder.
fn config_dir() -> PathBuf {
    let here = PathBuf::from("config");
    if here.join("default.toml").exists() {
        return here;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../config")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn load(vars: &[(&str, &str)]) -> Result<Settings, SettingsError> {
        Settings::load_from(
            vars.iter()
                .map(|(key, value)| ((*key).to_owned(), (*value).to_owned())),
        )
    }

    #[test]
    fn a_setting_missing_from_the_shipped_defaults_stops_the_start_with_its_name() {
        let shipped = std::fs::read_to_string(config_dir().join("default.toml")).unwrap();
        assert!(load(&[]).is_ok(), "config/default.toml holds every setting");
        let folder = tempfile::tempdir().unwrap();
        let without = shipped.replace("no_show_minutes = ", "# no_show_minutes = ");
        assert_ne!(without, shipped);
        std::fs::write(folder.path().join("default.toml"), without).unwrap();
        let dir = folder.path().to_str().unwrap();
        let cause = match load(&[("SHOP_CONFIG_DIR", dir)]) {
            Err(SettingsError::Config(cause)) => cause.to_string(),
            other => panic!("not a config error: {other:?}"),
        };
        assert!(cause.contains("no_show_minutes"), "{cause}");
    }

    #[test]
    fn stripe_at_another_address_still_uploads_evidence_to_stripes_files_host() {
        let settings = load(&[("SHOP__STRIPE__API_BASE", "http://127.0.0.1:1")]).unwrap();
        assert_eq!(settings.stripe.api_base, "http://127.0.0.1:1");
        assert_eq!(settings.stripe.files_api_base, "https://files.stripe.com");
    }

    #[test]
    fn a_numeric_looking_value_for_a_string_setting_keeps_its_text() {
        let settings = load(&[
            ("SHOP__SITE__NAME", "007"),
            ("SHOP__MAIL__SMTP_USERNAME", "0123"),
            ("SHOP__MAIL__SMTP_PASSWORD", "0123"),
            ("SHOP__DISCORD__CLIENT_ID", "00042"),
            ("SHOP__SERVER__PORT", "9000"),
            ("SHOP__SESSION__SECURE", "true"),
            ("SHOP__METRICS__ENABLED", "TRUE"),
            ("SHOP__MAIL__RETRY_MAX_ATTEMPTS", "3"),
        ])
        .unwrap();
        use secrecy::ExposeSecret;
        assert_eq!(settings.site.name, "007");
        assert_eq!(settings.mail.smtp_username, "0123");
        assert_eq!(settings.mail.smtp_password.expose_secret(), "0123");
        assert_eq!(settings.discord.client_id, "00042");
        // numbers and booleans are still read as such
        assert_eq!(settings.server.port, 9000);
        assert!(settings.session.secure);
        assert!(settings.metrics.enabled);
        assert_eq!(settings.mail.retry_max_attempts, 3);
    }

    #[test]
    fn trusted_proxies_from_the_environment_are_a_comma_separated_list() {
        let settings =
            load(&[("SHOP__SERVER__TRUSTED_PROXIES", "10.0.0.0/8, 192.168.1.7")]).unwrap();
        assert_eq!(
            settings.server.trusted_proxies,
            vec!["10.0.0.0/8".to_owned(), "192.168.1.7".to_owned()]
        );
        let one = load(&[("SHOP__SERVER__TRUSTED_PROXIES", "127.0.0.1")]).unwrap();
        assert_eq!(one.server.trusted_proxies, vec!["127.0.0.1".to_owned()]);
        let none = load(&[("SHOP__SERVER__TRUSTED_PROXIES", "")]).unwrap();
        assert!(none.server.trusted_proxies.is_empty());
    }

    #[test]
    fn risky_payments_are_held_by_default_and_the_levels_are_a_comma_separated_list() {
        let settings = load(&[]).unwrap();
        assert_eq!(settings.payments.hold_risk_levels, ["elevated", "highest"]);
        assert!(!settings.payments.refund_on_fraud_warning);
        assert_eq!(
            settings.payments.risk_read_timeout(),
            std::time::Duration::from_secs(3)
        );
        let strict = load(&[
            ("SHOP__PAYMENTS__HOLD_RISK_LEVELS", "highest"),
            ("SHOP__PAYMENTS__REFUND_ON_FRAUD_WARNING", "true"),
        ])
        .unwrap();
        assert_eq!(strict.payments.policy().hold_risk_levels, ["highest"]);
        assert!(strict.payments.policy().refund_on_fraud_warning);
        let none = load(&[("SHOP__PAYMENTS__HOLD_RISK_LEVELS", "")]).unwrap();
        assert!(none.payments.hold_risk_levels.is_empty());
    }

    #[test]
    fn the_offered_currencies_from_the_environment_are_a_comma_separated_list() {
        let settings = load(&[("SHOP__CURRENCY__OFFERED", "USD,EUR, BRL")]).unwrap();
        assert_eq!(settings.currency.offered, ["USD", "EUR", "BRL"]);
        assert_eq!(load(&[]).unwrap().currency.offered.len(), 9);
    }

    #[test]
    fn a_number_where_a_number_belongs_is_still_checked() {
        let error = load(&[("SHOP__SERVER__PORT", "eighty")]).unwrap_err();
        let message = format!("{:#}", anyhow::Error::new(error));
        assert!(message.contains("server.port"), "{message}");
    }

    #[test]
    fn production_names_every_missing_or_invalid_setting_in_one_error() {
        let settings = load(&[
            ("SHOP_ENV", "production"),
            ("SHOP__SESSION__KEY", "not base64!"),
            ("SHOP__SITE__DISCORD_INVITE_URL", "http://evil.example/x"),
            ("SHOP__SERVER__TRUSTED_PROXIES", "10.0.0.0/8,the proxy"),
            ("SHOP__METRICS__ENABLED", "true"),
            (
                "SHOP__CURRENCY__RATES_URL",
                "file:config/rates/ecb-sample-2026-11-27.xml",
            ),
        ])
        .unwrap();
        let message = settings.check_production().unwrap_err().to_string();
        for expected in [
            "site.public_url is not set (SHOP__SITE__PUBLIC_URL)",
            "mail.smtp_host is not set (SHOP__MAIL__SMTP_HOST)",
            "stripe.secret_key is not set (SHOP__STRIPE__SECRET_KEY)",
            "stripe.webhook_secret is not set (SHOP__STRIPE__WEBHOOK_SECRET)",
            "discord.client_id is not set (SHOP__DISCORD__CLIENT_ID)",
            "discord.client_secret is not set (SHOP__DISCORD__CLIENT_SECRET)",
            "metrics.token is not set (SHOP__METRICS__TOKEN)",
            "session.key is not valid base64",
            "site.discord_invite_url must be an https Discord invite",
            "server.trusted_proxies: \"the proxy\"",
            "currency.rates_url reads a file",
        ] {
            assert!(message.contains(expected), "{expected:?} in {message}");
        }
        assert!(message.contains("11 setting(s)"), "{message}");

        let fixed = load(&[
            ("SHOP_ENV", "production"),
            ("SHOP__SESSION__KEY", &"a".repeat(88)),
            ("SHOP__SITE__PUBLIC_URL", "https://shop.example.com"),
            ("SHOP__MAIL__SMTP_HOST", "smtp.example.com"),
            ("SHOP__STRIPE__SECRET_KEY", "sk_live_x"),
            ("SHOP__STRIPE__WEBHOOK_SECRET", "whsec_x"),
            ("SHOP__DISCORD__CLIENT_ID", "123"),
            ("SHOP__DISCORD__CLIENT_SECRET", "secret"),
            ("SHOP__ROBLOX__USERS_API_BASE", "https://users.roblox.com"),
        ])
        .unwrap();
        fixed.check_production().unwrap();
        // elsewhere the local stand-ins are welcome
        load(&[]).unwrap().check_production().unwrap();
    }

    #[test]
    fn production_refuses_the_development_and_test_session_keys() {
        let with_key = |key: &str| {
            load(&[
                ("SHOP_ENV", "production"),
                ("SHOP__SESSION__KEY", key),
                ("SHOP__SITE__PUBLIC_URL", "https://shop.example.com"),
                ("SHOP__MAIL__SMTP_HOST", "smtp.example.com"),
                ("SHOP__STRIPE__SECRET_KEY", "sk_live_x"),
                ("SHOP__STRIPE__WEBHOOK_SECRET", "whsec_x"),
                ("SHOP__DISCORD__CLIENT_ID", "123"),
                ("SHOP__DISCORD__CLIENT_SECRET", "secret"),
                ("SHOP__ROBLOX__USERS_API_BASE", "https://users.roblox.com"),
            ])
            .unwrap()
        };
        let key_of = |file: &str| {
            let text = std::fs::read_to_string(config_dir().join(file)).unwrap();
            let line = text.lines().find(|l| l.starts_with("key = ")).unwrap();
            line.trim_start_matches("key = ")
                .trim_matches('"')
                .to_owned()
        };
        for file in ["development.toml", "test.toml"] {
            let key = key_of(file);
            // as written, and with spaces around it
            for given in [key.clone(), format!("  {key}\n")] {
                let message = with_key(&given).check_production().unwrap_err().to_string();
                assert!(message.contains("1 setting(s)"), "{message}");
                assert!(
                    message.contains(&format!("session.key is the public key of config/{file}"))
                        && message.contains("(SHOP__SESSION__KEY)"),
                    "{message}"
                );
                assert!(
                    !message.contains(&key),
                    "the key itself is not repeated: {message}"
                );
            }
        }
        // a key of one's own starts
        with_key(&"a".repeat(88)).check_production().unwrap();
        // development and test keep their keys
        load(&[("SHOP_ENV", "development")])
            .unwrap()
            .check_production()
            .unwrap();
    }

    /// The example names every Stripe event the webhook handles, so the operator subscribes
    /// the endpoint to all of them.
    #[test]
    fn the_production_example_lists_every_stripe_event_the_shop_handles() {
        let example =
            std::fs::read_to_string(config_dir().join("production.example.toml")).unwrap();
        for event in stripe_adapter::HANDLED_EVENTS {
            assert!(
                example.contains(event),
                "{event} in production.example.toml"
            );
        }
    }
}
