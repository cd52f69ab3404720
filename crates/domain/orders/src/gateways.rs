//! Ports to the outside systems checkout talks to: the payment provider, Discord and Roblox,
//! and the value types they exchange with the domain.
//!
//! The adapters (crates `garden-stripe`, `garden-paypal`, `garden-discord`, `garden-roblox`
//! and the app's local stand-ins) implement these traits; the checkout service is generic over
//! them and never sees HTTP, JSON or provider SDK types.
use std::fmt;
use std::future::Future;

use cart_pricing::{CurrencyCode, Money};
use chrono::{DateTime, Utc};

// ---------------------------------------------------------------------------------------------
// Value types
// ---------------------------------------------------------------------------------------------

pub use shared::{DiscordId, DiscordIdError};

/// A Roblox username as Roblox allows it: 3 to 20 ASCII letters and digits with at most one
/// underscore, which may not be the first or the last character.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RobloxUsername(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RobloxUsernameError {
    #[error("must be 3 to 20 characters")]
    Length,
    #[error("may only contain letters, digits and one underscore")]
    Characters,
    #[error("may contain at most one underscore")]
    TooManyUnderscores,
    #[error("may not start or end with an underscore")]
    UnderscoreAtEdge,
}

impl RobloxUsername {
    pub const MIN_LEN: usize = 3;
    pub const MAX_LEN: usize = 20;

    /// Surrounding whitespace is ignored; the case is kept as typed (Roblox usernames are
    /// case-insensitive, the directory answers the canonical spelling).
    pub fn parse(text: &str) -> Result<Self, RobloxUsernameError> {
        let text = text.trim();
        if !text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(RobloxUsernameError::Characters);
        }
        if !(Self::MIN_LEN..=Self::MAX_LEN).contains(&text.len()) {
            return Err(RobloxUsernameError::Length);
        }
        if text.bytes().filter(|&b| b == b'_').count() > 1 {
            return Err(RobloxUsernameError::TooManyUnderscores);
        }
        if text.starts_with('_') || text.ends_with('_') {
            return Err(RobloxUsernameError::UnderscoreAtEdge);
        }
        Ok(RobloxUsername(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for RobloxUsername {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for RobloxUsername {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

// ---------------------------------------------------------------------------------------------
// Payment
// ---------------------------------------------------------------------------------------------

/// One line the payment page shows: a product and how many of it, at the unit price the
/// shopper pays (after the promo discount); see [`cart_pricing::HostedLines`].
pub use cart_pricing::HostedLine as CheckoutLine;

/// Everything a provider needs to open a hosted payment page for one of our orders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostedCheckoutRequest {
    /// Our order id, sent to the provider so its confirmation can be matched to the order
    /// (Stripe: `client_reference_id` and `metadata.order_id`; PayPal: `custom_id`).
    pub order_id: String,
    /// The currency the shopper pays in, and its decimals; every amount below is in its minor
    /// units.
    pub currency: CurrencyCode,
    pub minor_units: u32,
    pub lines: Vec<CheckoutLine>,
    /// The processing fee of the chosen method; the page shows it as a line of its own.
    pub processing_fee: i64,
    pub customer_email: String,
    /// Where the provider sends the shopper after paying.
    pub success_url: String,
    /// Where the provider sends the shopper who gives up.
    pub cancel_url: String,
    /// When the provider stops accepting payment for this page (30 minutes after checkout).
    pub expires_at: DateTime<Utc>,
    /// Only methods that pay at once (a drop's order: it never waits for a voucher or a bank
    /// debit to confirm later).
    pub instant_only: bool,
}

impl HostedCheckoutRequest {
    /// What the shopper pays in all, in minor units: every line plus the processing fee.
    pub fn total(&self) -> i64 {
        self.lines.iter().map(CheckoutLine::total).sum::<i64>() + self.processing_fee
    }

    /// Minor units of the page's currency as a decimal in major units (`12990` → `129.90`).
    pub fn major(&self, minor: i64) -> cart_pricing::Decimal {
        cart_pricing::Decimal::new(minor, self.minor_units)
    }
}

/// A payment page the provider has opened for an order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostedCheckout {
    /// The provider's id for it (Stripe checkout session id, PayPal order id), stored with the
    /// order and checked against every confirmation.
    pub provider_reference: String,
    /// Where to send the shopper to pay: an absolute URL, or a path on this server.
    pub redirect_url: String,
}

#[derive(Debug, thiserror::Error)]
pub enum PaymentError {
    /// The provider refused the request as it was (a 4xx other than a timeout or rate limit):
    /// our data or our credentials are wrong. Retrying the same request will not help.
    #[error("the payment provider refused the request ({status}): {message}")]
    Rejected { status: u16, message: String },
    /// The provider could not be reached, timed out, was rate limited or failed on its side
    /// (5xx). The same request may succeed later.
    #[error("the payment provider is unavailable: {0}")]
    Unavailable(String),
    /// The provider answered something we cannot understand.
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// A payment provider with a hosted checkout page (Stripe Checkout, PayPal, the dev page).
#[cfg_attr(test, mockall::automock)]
pub trait PaymentGateway: Send + Sync + 'static {
    /// Whether the provider can take a payment in `currency` (PayPal accepts a list of its
    /// own); checkout refuses the others before anything is placed.
    fn pays_in(&self, currency: &CurrencyCode) -> bool {
        let _ = currency;
        true
    }

    /// Opens a payment page for the order. Fails with `PaymentError::Rejected` when the
    /// provider refuses the request, `Unavailable` when it cannot be reached or fails on its
    /// side, and `Unknown` when its answer cannot be read or lacks the redirect URL.
    fn create_checkout(
        &self,
        request: HostedCheckoutRequest,
    ) -> impl Future<Output = Result<HostedCheckout, PaymentError>> + Send;

    /// Closes the payment page `provider_reference` so that it can no longer be paid (Stripe:
    /// expires the Checkout Session). `SessionClosing::Completed` when the provider says it was
    /// paid already: the order is then paid, not cancelled. A page that had expired by itself
    /// is `Closed`. Fails like `create_checkout`; the order must then stay as it is.
    fn close_checkout(
        &self,
        provider_reference: String,
    ) -> impl Future<Output = Result<SessionClosing, PaymentError>> + Send;

    /// Gives the whole payment of an order back to the buyer (Stripe: a refund of the payment
    /// intent; PayPal: a refund of the capture; the dev page: at once). Sent with
    /// `request.idempotency_key`, so a repeated request refunds once. `Ok` only when the
    /// provider accepted the refund; fails like `create_checkout` otherwise, and then nothing
    /// was refunded.
    fn refund(
        &self,
        request: RefundRequest,
    ) -> impl Future<Output = Result<RefundReceipt, PaymentError>> + Send;
}

/// A refund of an order's whole payment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundRequest {
    /// Our order id, for the provider's records.
    pub order_id: String,
    /// The payment page's id (Stripe checkout session, PayPal order), used to find the payment
    /// when `payment_id` is not known.
    pub provider_reference: Option<String>,
    /// The payment's id (Stripe payment intent, PayPal capture) when recorded at payment.
    pub payment_id: Option<String>,
    /// The same for every attempt to refund this order (`refund-order-{id}`).
    pub idempotency_key: String,
}

/// What the provider answered to a refund it accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundReceipt {
    /// The provider's id of the refund (`re_...`).
    pub refund_id: String,
    /// The payment refunded, when the provider named it (to record it with the order).
    pub payment_id: Option<String>,
}

/// What closing a payment page found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionClosing {
    /// It can no longer be paid.
    Closed,
    /// The buyer had paid it already.
    Completed,
    /// The buyer finished it with a method that confirms later (a voucher, a bank debit): it
    /// can no longer be closed, and is not paid. The order may be released: money arriving
    /// afterwards is recorded for staff to refund.
    AwaitingPayment,
}

/// The amount a capture took, in the provider's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CapturedAmount {
    /// A decimal, e.g. `10.76`.
    pub value: String,
    /// ISO 4217, e.g. `USD`.
    pub currency: String,
}

impl CapturedAmount {
    /// Whether this is exactly `total` in US dollars (the shop's only currency).
    pub fn is_exactly(&self, total: Money) -> bool {
        self.currency.eq_ignore_ascii_case("USD")
            && Money::parse(self.value.trim()).is_ok_and(|value| value == total)
    }
}

/// How a capture of an approved payment ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaptureOutcome {
    /// The money is ours now; `amount` is what was captured (`None` when the answer does not
    /// say, which the shop cannot check).
    Completed { amount: Option<CapturedAmount> },
    /// The payment had already been captured (a repeated return from the provider).
    AlreadyCaptured,
    /// The capture was accepted but the money is not ours yet (PayPal's `PENDING`, e.g. an
    /// e-check or a review on PayPal's side); `reason` is the provider's word for it. It may
    /// still complete, so the order is neither paid nor released.
    Pending { reason: String },
    /// The provider did not complete the capture (e.g. the buyer has not approved yet, or the
    /// capture is `PENDING`/`DECLINED`); `status` is the provider's word for it.
    NotCompleted { status: String },
}

/// A provider where the shop captures the payment itself after the buyer approved it (PayPal).
/// Not `'static`, so that a borrowed [`crate::PaymentProviders`] can stand for one.
#[cfg_attr(test, mockall::automock)]
pub trait PaymentCapture: Send + Sync {
    /// Captures the payment of the provider's order `provider_reference`. Fails with
    /// `PaymentError::Rejected` when the provider refuses (unknown order, not approved in a
    /// way it reports as an error), `Unavailable` when it cannot be reached or fails on its
    /// side, and `Unknown` when its answer cannot be read.
    fn capture(
        &self,
        provider_reference: String,
    ) -> impl Future<Output = Result<CaptureOutcome, PaymentError>> + Send;
}

// ---------------------------------------------------------------------------------------------
// Discord
// ---------------------------------------------------------------------------------------------

/// A Discord account the server has verified through OAuth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscordIdentity {
    pub discord_id: DiscordId,
    pub username: String,
    /// The avatar's image URL, `None` when the account uses Discord's default avatar.
    pub avatar_url: Option<String>,
}

/// The longest Discord user name (or display name) the shop takes, in characters: an order
/// keeps up to 100 (Discord's own are at most 32).
pub const DISCORD_NAME_MAX: usize = 100;

/// The longest avatar URL an order keeps, in bytes.
pub const DISCORD_AVATAR_URL_MAX: usize = 500;

impl DiscordIdentity {
    /// Whether an order can keep this identity as it is: a name of 1 to [`DISCORD_NAME_MAX`]
    /// characters and an avatar URL of at most [`DISCORD_AVATAR_URL_MAX`] bytes. Identity
    /// providers refuse any other (`DiscordLinkError::UnusableIdentity`), so none reaches
    /// checkout.
    pub fn fits_an_order(&self) -> bool {
        let name = self.username.chars().count();
        (1..=DISCORD_NAME_MAX).contains(&name)
            && self
                .avatar_url
                .as_ref()
                .is_none_or(|url| url.len() <= DISCORD_AVATAR_URL_MAX)
    }
}

/// What a code exchange gives the shop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkedDiscord {
    pub identity: DiscordIdentity,
    /// The buyer's token for adding them to the shop's server: `None` without a bot token and
    /// guild id (or from the dev sign-in page).
    pub guild_access: Option<crate::GuildAccess>,
}

#[derive(Debug, thiserror::Error)]
pub enum DiscordLinkError {
    /// Discord refused the authorization code (expired, already used, or for another
    /// redirect URL). The shopper has to authorize again.
    #[error("Discord refused the authorization code")]
    InvalidCode,
    /// Discord answered the user request without a usable user id.
    #[error("Discord returned no user id")]
    MissingUserId,
    /// Discord answered the user request with a field the shop cannot keep (a name over
    /// [`DISCORD_NAME_MAX`] characters, an avatar hash that is not one): a non-standard answer,
    /// refused before the identity is kept anywhere.
    #[error("Discord returned an unusable {0}")]
    UnusableIdentity(&'static str),
    /// Discord could not be reached, timed out or failed on its side.
    #[error("Discord is unavailable: {0}")]
    Unavailable(String),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// Where shoppers prove which Discord account they own (Discord OAuth2, or the dev sign-in page).
#[cfg_attr(test, mockall::automock)]
pub trait DiscordIdentityProvider: Send + Sync + 'static {
    /// The page to send the shopper to, carrying `state` back to the callback unchanged.
    fn authorize_url(&self, state: &str) -> String;

    /// Exchanges an authorization code for the identity of the account that granted it, and,
    /// when the shop is configured with a bot token and guild id, the access that lets the shop
    /// add the account to its Discord server (the join itself is queued by the caller, see
    /// [`crate::guild_join`]). Fails with `DiscordLinkError::InvalidCode` when Discord refuses the code,
    /// `MissingUserId` when the user has no id, `UnusableIdentity` when its name or avatar is
    /// not one an order can keep ([`DiscordIdentity::fits_an_order`] holds for every identity
    /// returned), `Unavailable` when Discord cannot be reached or
    /// fails on its side, and `Unknown` for an answer that cannot be read.
    fn exchange_code(
        &self,
        code: String,
    ) -> impl Future<Output = Result<LinkedDiscord, DiscordLinkError>> + Send;
}

/// Where staff are told about things that need them (a Discord channel webhook, or nowhere).
#[cfg_attr(test, mockall::automock)]
pub trait StaffNotifications: Send + Sync + 'static {
    /// Queues a message for staff. Never blocks and never fails: delivery happens in the
    /// background and its failures are logged by the implementation.
    fn notify(&self, message: StaffMessage);
}

/// A message for the staff channel: a short text and optional titled fields.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StaffMessage {
    pub text: String,
    /// A link for staff to follow (e.g. the delivery queue).
    pub link: Option<String>,
    /// Name/value pairs shown under the text (items, total, Roblox username...).
    pub fields: Vec<(String, String)>,
}

// ---------------------------------------------------------------------------------------------
// Roblox
// ---------------------------------------------------------------------------------------------

/// A Roblox account as the directory knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RobloxProfile {
    /// The canonical spelling of the username.
    pub username: RobloxUsername,
    pub user_id: u64,
    /// The headshot image, `None` when Roblox has none to show (pending or moderated).
    pub avatar_url: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum RobloxLookupError {
    /// Roblox could not be reached, timed out, rate limited us or failed on its side.
    #[error("Roblox is unavailable: {0}")]
    Unavailable(String),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// Where Roblox usernames are looked up (the Roblox web APIs, or the offline stand-in).
#[cfg_attr(test, mockall::automock)]
pub trait RobloxDirectory: Send + Sync + 'static {
    /// The account with this username (case-insensitive), `Ok(None)` when there is none (or it
    /// is banned). Fails with `RobloxLookupError::Unavailable` when Roblox cannot be reached
    /// or fails on its side, and `Unknown` for an answer that cannot be read.
    fn lookup(
        &self,
        username: RobloxUsername,
    ) -> impl Future<Output = Result<Option<RobloxProfile>, RobloxLookupError>> + Send;
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use cart_pricing::Quantity;

    #[test]
    fn roblox_usernames_follow_robloxs_rules() {
        for good in [
            "abc",
            "Builderman",
            "a_b",
            "Player_123",
            "x1234567890123456789",
        ] {
            assert_eq!(RobloxUsername::parse(good).unwrap().as_str(), good);
        }
        assert_eq!(
            RobloxUsername::parse("  Roblox ").unwrap().to_string(),
            "Roblox"
        );
    }

    #[test]
    fn roblox_usernames_that_break_a_rule_are_refused_with_the_reason() {
        use RobloxUsernameError::*;
        let cases = [
            ("ab", Length),
            ("", Length),
            ("x12345678901234567890", Length),
            ("a b c", Characters),
            ("ab-c", Characters),
            ("héllo", Characters),
            ("a_b_c", TooManyUnderscores),
            ("_abc", UnderscoreAtEdge),
            ("abc_", UnderscoreAtEdge),
        ];
        for (input, expected) in cases {
            assert_eq!(RobloxUsername::parse(input), Err(expected), "{input:?}");
        }
    }

    #[test]
    fn a_checkout_total_is_the_lines_plus_the_fee() {
        let request = HostedCheckoutRequest {
            order_id: "7".into(),
            currency: "BRL".parse().unwrap(),
            minor_units: 2,
            lines: vec![
                CheckoutLine {
                    name: "Seed".into(),
                    unit_amount: 199,
                    quantity: Quantity::new(3).unwrap(),
                },
                CheckoutLine {
                    name: "Pet".into(),
                    unit_amount: 1000,
                    quantity: Quantity::new(1).unwrap(),
                },
            ],
            processing_fee: 77,
            customer_email: "a@b.c".into(),
            success_url: "http://x/success".into(),
            cancel_url: "http://x/cancel".into(),
            expires_at: Utc::now(),
            instant_only: false,
        };
        assert_eq!(request.total(), 1674);
        assert_eq!(request.major(request.total()).to_string(), "16.74");
    }
}
