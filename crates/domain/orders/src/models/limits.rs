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

/// A holder's pending orders besides the one being placed: how many, and when the oldest of
/// them was placed.
pub type PendingCount = (u64, Option<DateTime<Utc>>);

impl PendingCaps {
    /// The first of a placement's holders (its Discord account, browser session and client
    /// address, in that order) whose other pending orders, `counts` (read under the holders'
    /// locks, in the placement's transaction), already reach its cap; the cap frees up with
    /// its oldest order (`placed_at` when the count knows none).
    pub fn reached(
        &self,
        counts: [PendingCount; 3],
        placed_at: DateTime<Utc>,
    ) -> Option<PendingCapReached> {
        let caps = [
            (HeldBy::Account, self.per_account),
            (HeldBy::Session, self.per_session),
            (HeldBy::Address, self.per_address),
        ];
        let ((by, max), (_, oldest)) = caps
            .into_iter()
            .zip(counts)
            .find(|((_, max), (count, _))| *count >= u64::from(*max))?;
        let oldest = oldest.unwrap_or(placed_at);
        Some(PendingCapReached { by, max, oldest })
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn at(minute: i64) -> DateTime<Utc> {
        DateTime::<Utc>::UNIX_EPOCH + Duration::minutes(minute)
    }

    const CAPS: PendingCaps = PendingCaps {
        per_account: 2,
        per_session: 3,
        per_address: 5,
    };

    #[test]
    fn a_holder_below_its_cap_places_another_order() {
        let counts = [(1, Some(at(1))), (2, Some(at(2))), (4, Some(at(3)))];
        assert_eq!(CAPS.reached(counts, at(9)), None);
        assert_eq!(CAPS.reached([(0, None); 3], at(9)), None);
    }

    #[test]
    fn the_first_holder_at_its_cap_is_named_with_its_oldest_order() {
        let counts = [(1, Some(at(1))), (3, Some(at(2))), (5, Some(at(3)))];
        assert_eq!(
            CAPS.reached(counts, at(9)),
            Some(PendingCapReached {
                by: HeldBy::Session,
                max: 3,
                oldest: at(2)
            })
        );
        let counts = [(2, Some(at(4))), (3, Some(at(2))), (0, None)];
        let reached = CAPS
            .reached(counts, at(9))
            .map(|reached| (reached.by, reached.oldest));
        assert_eq!(
            reached,
            Some((HeldBy::Account, at(4))),
            "the account is asked first"
        );
    }

    #[test]
    fn a_cap_of_none_refuses_every_order_and_frees_up_from_the_placement() {
        let caps = PendingCaps {
            per_address: 0,
            ..CAPS
        };
        let reached = caps.reached([(0, None); 3], at(9));
        assert_eq!(
            reached,
            Some(PendingCapReached {
                by: HeldBy::Address,
                max: 0,
                oldest: at(9)
            })
        );
    }
}
