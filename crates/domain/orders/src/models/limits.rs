//! What one shopper may hold: lines and quantities per order, and unpaid orders at once.

use std::fmt;

use chrono::{DateTime, Duration, Utc};

/// Who placed an order, besides its Discord account, for the caps on unpaid orders.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OrderHolder {
    /// A random token kept in the browser session that placed the order.
    pub buyer_token: Option<String>,
    /// The client's address (as `server.trusted_proxies` allow reading it), kept whole with the
    /// order as evidence.
    pub client_ip: Option<String>,
    /// The key the client's address counts under for the cap on unpaid orders per address
    /// (`shared::network_key`: an IPv6 client's /64, an IPv4 client's address).
    pub client_net: Option<String>,
}

/// The most unpaid (pending) orders one holder may have at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PendingCaps {
    pub per_account: u32,
    pub per_session: u32,
    pub per_address: u32,
}

/// Which of an order's holders is at its cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeldBy {
    /// The Discord account.
    Account,
    /// The browser session.
    Session,
    /// The client address.
    Address,
}

impl fmt::Display for HeldBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HeldBy::Account => "Discord account",
            HeldBy::Session => "browser",
            HeldBy::Address => "network address",
        })
    }
}

/// A holder at its cap of unpaid orders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PendingCapReached {
    pub by: HeldBy,
    pub max: u32,
    /// When the oldest of its unpaid orders was placed: the cap frees up when that one is paid,
    /// cancelled or expires.
    pub oldest: DateTime<Utc>,
}

/// Checkout's limits, from the settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckoutLimits {
    /// Lines per cart (`checkout.max_lines`).
    pub max_lines: usize,
    /// Of one product per order, its lines added up (`checkout.max_quantity_per_product`).
    pub max_quantity_per_product: u32,
    pub pending: PendingCaps,
    /// How long an unpaid order holding a drop's units lives (`checkout.drop_payment_minutes`).
    pub drop_payment_minutes: u32,
}

/// A drop's cap per account, as checkout hands it to the store with the order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccountCap {
    pub product: catalog::ProductId,
    /// Units one buyer (its Discord account, its shop account, its browser session) may hold
    /// across its pending, paid, delivered and disputed orders, this one included.
    pub max: u32,
    /// Units of the drop this order takes: its own lines and the bundles holding it.
    pub wanted: u32,
}

/// Who would hold more of a drop than its cap allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CapHolder {
    /// The Discord account the buyer linked.
    Discord,
    /// The shop account the buyer is logged in to (whichever Discord accounts it linked).
    ShopAccount,
    /// The browser session that places the order.
    Browser,
}

/// A buyer that would hold more of a drop than its cap allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccountCapReached {
    pub product: catalog::ProductId,
    pub max: u32,
    /// Units its orders hold already.
    pub held: u32,
    pub by: CapHolder,
}

/// Who holds a drop's units for its cap per account, as checkout counts them: the Discord
/// account linked in the browser session, the shop account logged in, and the session's buyer
/// token (the browser). Each is counted apart; any may be missing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DropHolders {
    pub discord: Option<shared::DiscordId>,
    pub user: Option<shared::UserId>,
    pub buyer_token: Option<String>,
}

impl DropHolders {
    /// No holder at all: nothing can be held.
    pub fn is_empty(&self) -> bool {
        self.discord.is_none() && self.user.is_none() && self.buyer_token.is_none()
    }
}

/// The units of one product with a cap per account that each holder holds in its pending,
/// paid, delivered and disputed orders, alone and inside bundles (the parts each order line
/// kept), and the product's cap as it stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeldUnits {
    pub product: catalog::ProductId,
    pub max_per_account: u32,
    pub by_discord: u32,
    pub by_user: u32,
    pub by_browser: u32,
}

impl HeldUnits {
    /// Each holder's count, in the order checkout names them.
    pub fn by_holder(&self) -> [(u32, CapHolder); 3] {
        [
            (self.by_discord, CapHolder::Discord),
            (self.by_user, CapHolder::ShopAccount),
            (self.by_browser, CapHolder::Browser),
        ]
    }

    /// What the buyer holds: the most any one of its holders holds, which is what checkout
    /// measures the next unit against.
    pub fn holding(&self) -> DropHolding {
        DropHolding {
            product: self.product,
            held: self.by_discord.max(self.by_user).max(self.by_browser),
            max_per_account: self.max_per_account,
        }
    }
}

/// What a buyer already holds of a product with a cap per account (`GET
/// /api/checkout/holdings`): checkout refuses any unit beyond `max_per_account - held`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DropHolding {
    pub product: catalog::ProductId,
    pub held: u32,
    pub max_per_account: u32,
}

impl DropHolding {
    /// How many more units checkout would take.
    pub fn room(&self) -> u32 {
        self.max_per_account.saturating_sub(self.held)
    }
}

impl Default for CheckoutLimits {
    fn default() -> Self {
        CheckoutLimits {
            max_lines: 50,
            max_quantity_per_product: 20,
            pending: PendingCaps {
                per_account: 2,
                per_session: 2,
                per_address: 20,
            },
            drop_payment_minutes: 10,
        }
    }
}

/// How long until an unpaid order placed at `placed` stops holding its cap at the latest (the
/// sweeper expires it), at least one second.
pub fn frees_up_in(placed: DateTime<Utc>, now: DateTime<Utc>, lifetime: Duration) -> Duration {
    (placed + lifetime - now).max(Duration::seconds(1))
}
