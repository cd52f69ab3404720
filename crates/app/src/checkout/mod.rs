//! Checkout as the app wires it: the checkout service on the store, and the outside systems
//! chosen from the settings — the real adapter when its credentials are set, the local
//! stand-in otherwise (never in production, which refuses to start without Stripe and
//! Discord).

pub mod providers;

use anyhow::Context;
use discord::DiscordOAuth;
use orders::gateways::{
    DiscordIdentityProvider, DiscordLinkError, HostedCheckout, HostedCheckoutRequest,
    LinkedDiscord, PaymentError, PaymentGateway, RefundReceipt, RefundRequest, RobloxDirectory,
    RobloxLookupError, RobloxProfile, RobloxUsername, SessionClosing,
};
use orders::PaymentProvider;
use paypal::PayPalCheckout;
use roblox::{LocalRoblox, RobloxApi};
use secrecy::ExposeSecret;
use store::Store;
use stripe_adapter::{StripeCheckout, WebhookVerifier};

pub use devpay::{random_token, DevDiscord, DevPayments, DEMO_IDENTITIES};

use crate::auth::AppClock;
use crate::settings::Settings;

/// The checkout service over the shop's store and clock.
pub type ShopCheckout = orders::Checkout<ShopCheckoutPorts>;

/// The ports of the app's checkout: the store (orders, catalog, promo codes, blocklist) and the
/// shop's clock.
#[derive(Debug)]
pub struct ShopCheckoutPorts;

impl orders::CheckoutPorts for ShopCheckoutPorts {
    type Orders = Store;
    type Products = Store;
    type Promos = Store;
    type Clock = AppClock;
    type Blocklist = Store;
}
/// The promo rules over the shop's store and clock.
pub type ShopPromos = promo::Promos<Store, AppClock>;

/// The card payment provider: Stripe Checkout, or the dev payment page.
#[derive(Debug, Clone)]
pub enum CardPayments {
    Stripe(Box<StripeCheckout>),
    Dev(DevPayments),
}

impl CardPayments {
    pub fn provider(&self) -> PaymentProvider {
        match self {
            CardPayments::Stripe(_) => PaymentProvider::Stripe,
            CardPayments::Dev(_) => PaymentProvider::Dev,
        }
    }

    pub fn is_dev(&self) -> bool {
        matches!(self, CardPayments::Dev(_))
    }
}

impl PaymentGateway for CardPayments {
    async fn create_checkout(
        &self,
        request: HostedCheckoutRequest,
    ) -> Result<HostedCheckout, PaymentError> {
        match self {
            CardPayments::Stripe(stripe) => stripe.create_checkout(request).await,
            CardPayments::Dev(dev) => dev.create_checkout(request).await,
        }
    }

    async fn close_checkout(&self, reference: String) -> Result<SessionClosing, PaymentError> {
        match self {
            CardPayments::Stripe(stripe) => stripe.close_checkout(reference).await,
            CardPayments::Dev(dev) => dev.close_checkout(reference).await,
        }
    }

    async fn refund(&self, request: RefundRequest) -> Result<RefundReceipt, PaymentError> {
        match self {
            CardPayments::Stripe(stripe) => stripe.refund(request).await,
            CardPayments::Dev(dev) => dev.refund(request).await,
        }
    }
}

/// Where shoppers link Discord: real OAuth, or the dev sign-in page.
#[derive(Debug, Clone)]
pub enum DiscordLink {
    OAuth(Box<DiscordOAuth>),
    Dev(DevDiscord),
}

impl DiscordLink {
    pub fn is_dev(&self) -> bool {
        matches!(self, DiscordLink::Dev(_))
    }
}

impl DiscordIdentityProvider for DiscordLink {
    fn authorize_url(&self, state: &str) -> String {
        match self {
            DiscordLink::OAuth(oauth) => oauth.authorize_url(state),
            DiscordLink::Dev(dev) => dev.authorize_url(state),
        }
    }

    async fn exchange_code(&self, code: String) -> Result<LinkedDiscord, DiscordLinkError> {
        match self {
            DiscordLink::OAuth(oauth) => oauth.exchange_code(code).await,
            DiscordLink::Dev(dev) => dev.exchange_code(code).await,
        }
    }
}

/// Where Roblox usernames are looked up: the Roblox APIs, or the offline stand-in.
#[derive(Debug, Clone)]
pub enum Roblox {
    Api(Box<RobloxApi>),
    Local(LocalRoblox),
}

impl Roblox {
    pub fn is_local(&self) -> bool {
        matches!(self, Roblox::Local(_))
    }
}

impl RobloxDirectory for Roblox {
    async fn lookup(
        &self,
        username: RobloxUsername,
    ) -> Result<Option<RobloxProfile>, RobloxLookupError> {
        match self {
            Roblox::Api(api) => api.lookup(username).await,
            Roblox::Local(local) => local.lookup(username).await,
        }
    }
}

/// Checkout's parts as [`build`] makes them from the settings. The composition root
/// (`wiring`) registers each as its own `web::Data`; a handler takes the ones it uses.
pub struct CheckoutParts {
    pub service: ShopCheckout,
    pub promos: ShopPromos,
    pub card: CardPayments,
    /// `None` unless PayPal is configured and enabled.
    pub paypal: Option<PayPalCheckout>,
    /// `None` without a Stripe webhook secret: the webhook endpoint refuses every delivery.
    pub webhook: Option<WebhookVerifier>,
    pub discord: DiscordLink,
    pub roblox: Roblox,
    pub public_url: PublicUrl,
}

/// `site.public_url` without a trailing slash: where the payment pages send the buyer back.
#[derive(Debug, Clone)]
pub struct PublicUrl(String);

impl PublicUrl {
    pub fn new(public_url: &str) -> Self {
        PublicUrl(public_url.trim_end_matches('/').to_owned())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn is_set(secret: &secrecy::SecretString) -> bool {
    !secret.expose_secret().trim().is_empty()
}

/// Builds checkout's parts, choosing every adapter from the settings (the start has already
/// refused a production setup with local stand-ins: `Settings::check_production`).
/// `notices` hears of every change of an order checkout makes.
pub fn build(
    settings: &Settings,
    store: Store,
    notices: std::sync::Arc<crate::notices::ShopNotices>,
    clock: AppClock,
) -> anyhow::Result<CheckoutParts> {
    let public_url = PublicUrl::new(&settings.site.public_url);

    let card = if is_set(&settings.stripe.secret_key) {
        CardPayments::Stripe(Box::new(
            StripeCheckout::new(&settings.stripe)
                .context("the Stripe settings (stripe.*) are not usable")?,
        ))
    } else {
        tracing::warn!("stripe.secret_key is empty: card payments use the dev payment page");
        CardPayments::Dev(DevPayments::new())
    };
    let webhook = is_set(&settings.stripe.webhook_secret)
        .then(|| WebhookVerifier::new(settings.stripe.webhook_secret.clone()));

    let paypal = if settings.paypal.is_usable() {
        Some(
            PayPalCheckout::new(&settings.paypal)
                .context("the PayPal settings (paypal.*) are not usable")?,
        )
    } else {
        None
    };

    let discord = if settings.discord.client_id.trim().is_empty() {
        tracing::warn!("discord.client_id is empty: Discord linking uses the dev sign-in page");
        DiscordLink::Dev(DevDiscord::new())
    } else {
        let mut discord_settings = settings.discord.clone();
        if discord_settings.redirect_url.trim().is_empty() {
            discord_settings.redirect_url = format!("{}/discord/callback", public_url.as_str());
        }
        DiscordLink::OAuth(Box::new(
            DiscordOAuth::new(&discord_settings)
                .context("the Discord settings (discord.*) are not usable")?,
        ))
    };

    let roblox = if settings.roblox.users_api_base.trim().is_empty() {
        Roblox::Local(LocalRoblox)
    } else {
        Roblox::Api(Box::new(
            RobloxApi::new(&settings.roblox)
                .context("the Roblox settings (roblox.*) are not usable")?,
        ))
    };

    Ok(CheckoutParts {
        service: ShopCheckout::new(
            store.clone(),
            store.clone(),
            store.clone(),
            clock.clone(),
            store.clone(),
        )
        .with_limits(settings.checkout.limits())
        .with_stock_hint(notices.stock.clone())
        .with_notices(notices)
        .with_access_keys(order_keys(settings)?)
        .with_refund_policy(crate::refund_policy::VERSION),
        promos: promo::Promos::new(store, clock),
        card,
        paypal,
        webhook,
        discord,
        roblox,
        public_url,
    })
}

/// The keys of the orders' links, derived from the session key (`session.key`, which every
/// instance shares and the shop does not start without) under a label of their own, so that
/// neither secret can be worked out from the other's outputs.
pub fn order_keys(settings: &Settings) -> anyhow::Result<orders::OrderKeys> {
    use hmac::{Hmac, Mac};
    let session_key = crate::auth::session::cookie_key(&settings.session)?;
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(session_key.master())
        .context("the session key cannot key an HMAC")?;
    mac.update(b"garden-shop order links v1");
    orders::OrderKeys::new(&mac.finalize().into_bytes()).map_err(anyhow::Error::msg)
}

/// Applies the dev page's confirmation, through the same call as Stripe's webhook and PayPal's
/// return (`aftersale::apply_payment_event`). What goes with a paid
/// order (the snapshot, push, the receipt, staff, the ticket) follows from its recorded step (`notices`, `outbox`), and so does a payment for an
/// order that can no longer be paid (its `paid_after_expiry` step tells staff to refund it).
pub async fn confirm(
    checkout: &ShopCheckout,
    notice: orders::PaymentNotice,
) -> Result<orders::Confirmation, orders::ConfirmError> {
    use orders::CheckoutService;
    checkout.confirm_paid(notice).await
}
