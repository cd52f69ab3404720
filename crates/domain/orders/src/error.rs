use std::fmt;

use cart_pricing::{PricedCart, StockProblem};
use catalog::ProductId;
use promo::Rejection;

use crate::{OrderId, OrderStatus, PendingCapReached, TransitionError};

/// A product in the cart the shop no longer sells (unknown or archived).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unavailable {
    pub product_id: ProductId,
    /// `None` when the product does not exist at all.
    pub name: Option<String>,
}

impl fmt::Display for Unavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.name {
            Some(name) => write!(f, "- {name} is no longer available."),
            None => write!(f, "- Product #{} is no longer available.", self.product_id),
        }
    }
}

fn closed_words(status: OrderStatus) -> &'static str {
    match status {
        OrderStatus::Cancelled => "was cancelled",
        OrderStatus::Expired => "has expired",
        _ => "is closed",
    }
}

/// A time as every shopper's page can read it whatever their zone: `2026-11-27 03:00 UTC`
/// (seconds only when the time has some).
/// Who holds the units of a drop's cap, as the refusal names it.
fn holder_words(by: crate::CapHolder) -> &'static str {
    match by {
        crate::CapHolder::Discord => "your Discord account",
        crate::CapHolder::ShopAccount => "your shop account",
        crate::CapHolder::Browser => "this browser",
    }
}

/// A drop's time as the refusal words it (the same in every language: `2026-11-27 03:00 UTC`).
pub fn utc_words(at: &chrono::DateTime<chrono::Utc>) -> String {
    use chrono::Timelike;
    if at.second() == 0 {
        at.format("%Y-%m-%d %H:%M UTC").to_string()
    } else {
        at.format("%Y-%m-%d %H:%M:%S UTC").to_string()
    }
}

fn lines<T: fmt::Display>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Why an order could not be placed.
#[derive(Debug, thiserror::Error)]
pub enum CheckoutError {
    /// 422.
    #[error("Your cart is empty.")]
    EmptyCart,
    /// 422: the lines for one product add up to more than one order may hold.
    #[error("You can buy at most {max} of one product.")]
    TooMany { product: ProductId, max: u32 },
    /// 422: more lines than one order may hold (nothing was read).
    #[error("An order can hold at most {max} different products.")]
    TooManyLines { max: usize },
    /// 429: this Discord account, browser or address already holds as many unpaid orders as
    /// it may; `retry_after` is when the oldest of them expires at the latest.
    #[error(
        "You already have {} unpaid orders on this {}. Pay or cancel one before placing another.",
        .reached.max, .reached.by
    )]
    TooManyPending {
        reached: PendingCapReached,
        retry_after: chrono::Duration,
    },
    /// 409: remove these products and try again.
    #[error("Please fix the following issues before continuing:\n{}", lines(.0))]
    Unavailable(Vec<Unavailable>),
    /// 422: the promo code does not apply (the message is the reason).
    #[error("{0}")]
    Promo(Rejection),
    /// 409: the client's total is off by more than a cent; here is the cart as the server prices it.
    #[error("Prices have changed. Please review your order.")]
    PriceChanged(Box<PricedCart>),
    /// 409: the stock check failed, one message per problem in the spec's wording.
    #[error("Please fix the following issues before continuing:\n{}", lines(.0))]
    OutOfStock(Vec<StockProblem>),
    /// 409: a drop in the cart is not on sale yet (the server's clock decides); nothing was
    /// reserved.
    #[error("This item drops at {}: {name} is not on sale yet.", utc_words(.at))]
    NotReleased {
        product: ProductId,
        name: String,
        at: chrono::DateTime<chrono::Utc>,
    },
    /// 409: the buyer (its Discord account, its shop account or this browser) would hold more
    /// of a drop than its cap allows, counting the drop inside bundles; nothing was reserved.
    #[error(
        "{name} is limited to {} per account, and {} already holds {}.",
        .reached.max, holder_words(.reached.by), .reached.held
    )]
    AccountCap {
        name: String,
        reached: crate::AccountCapReached,
    },
    /// 403: the buyer's e-mail, Discord account, Roblox username or address is on the
    /// blocklist. The message does not say which; nothing was read or reserved.
    #[error("We can't take this order. Please contact support.")]
    Blocked,
    /// 422: the `Idempotency-Key` placed an order from a different request (another cart,
    /// buyer, promo code or payment method); nothing was read or reserved.
    #[error("This Idempotency-Key was used for a different order. Use a new key for a new order.")]
    KeyReused,
    /// 409 with `Retry-After`: the request that placed the order of this key is still opening
    /// its payment page.
    #[error("Your order is still being placed. Try again in a moment.")]
    StillPlacing {
        order: OrderId,
        retry_after: chrono::Duration,
    },
    /// 409: the order of this key was cancelled or expired; its stock is back on sale.
    #[error("Order #{order} {}: nothing is reserved for it any more. Start a new payment to place a new order.", closed_words(*.status))]
    KeyClosed { order: OrderId, status: OrderStatus },
    /// Another request with the same `Idempotency-Key` placed an order meanwhile (nothing was
    /// written): checkout answers that order.
    #[error("an order was placed with this Idempotency-Key already")]
    AlreadyPlaced(OrderId),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// Why the store could not place an order.
#[derive(Debug, thiserror::Error)]
pub enum PlaceError {
    /// This product's stock could not cover the reservation; nothing was written.
    #[error("product {0} does not have enough stock")]
    OutOfStock(ProductId),
    /// The promo code could not be claimed: its last use went to another order, or this
    /// Discord account holds a pending or paid redemption of it. Nothing was written.
    #[error("the promo code could not be claimed: {0}")]
    Promo(Rejection),
    /// A holder of the order is at its cap of unpaid orders. Nothing was written.
    #[error("too many unpaid orders ({:?})", .0.by)]
    TooManyPending(PendingCapReached),
    /// The buyer would hold more of a drop than its cap. Nothing was written.
    #[error("over the cap per account of product {} ({:?})", .0.product, .0.by)]
    AccountCap(crate::AccountCapReached),
    /// An order was placed under the same idempotency key since the placement's `since`.
    /// Nothing was written.
    #[error("order {0} was placed with this idempotency key")]
    AlreadyPlaced(OrderId),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// Why an order could not be read or changed.
#[derive(Debug, thiserror::Error)]
pub enum OrderError {
    #[error("Order not found.")]
    NotFound(OrderId),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// Why a provider's payment confirmation was not applied.
#[derive(Debug, thiserror::Error)]
pub enum ConfirmError {
    #[error("Order not found.")]
    NotFound(OrderId),
    /// The notice names a different provider or payment session than the order holds.
    #[error("order {0} was not paid through this payment session")]
    ReferenceMismatch(OrderId),
    /// The order can no longer be paid (it expired or was cancelled first).
    #[error(transparent)]
    Refused(TransitionError),
    #[error(transparent)]
    Unknown(anyhow::Error),
}

/// Why an order's reservation was not released.
#[derive(Debug, thiserror::Error)]
pub enum ReleaseError {
    #[error("Order not found.")]
    NotFound(OrderId),
    /// The notice names a different provider or payment session than the order holds.
    #[error("order {0} does not belong to this payment session")]
    ReferenceMismatch(OrderId),
    /// The order was paid (or delivered, or refunded): it keeps its stock.
    #[error(transparent)]
    Refused(TransitionError),
    /// The order is held for staff (its payment needs a look): it keeps its stock.
    #[error("order {0} is held for review")]
    UnderReview(OrderId),
    #[error(transparent)]
    Unknown(anyhow::Error),
}

impl From<OrderError> for ConfirmError {
    fn from(error: OrderError) -> Self {
        match error {
            OrderError::NotFound(id) => ConfirmError::NotFound(id),
            OrderError::Unknown(e) => ConfirmError::Unknown(e),
        }
    }
}

impl From<OrderError> for ReleaseError {
    fn from(error: OrderError) -> Self {
        match error {
            OrderError::NotFound(id) => ReleaseError::NotFound(id),
            OrderError::Unknown(e) => ReleaseError::Unknown(e),
        }
    }
}
