//! Checkout, orders, payments and their gateways (Roblox, Discord, the providers), as HTTP answers.

use orders::gateways::{DiscordLinkError, PaymentError, RobloxLookupError};
use orders::{
    CaptureError, CheckoutError, CloseError, ConfirmError, OpenCheckoutError, OrderError,
    ReleaseError,
};

use l10n::Text;

use super::api::{ApiError, CartConflict};
use super::message::Msg;
use dto::checkout::PricedCartResponse;

/// The field of a 422 about the `Idempotency-Key` header: the header's own name.
pub const IDEMPOTENCY_KEY_FIELD: &str = "Idempotency-Key";
pub(super) const SESSION_MISMATCH: &str = "The session does not belong to this order.";

impl From<OrderError> for ApiError {
    fn from(error: OrderError) -> Self {
        match error {
            OrderError::NotFound(_) => order_not_found(),
            OrderError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

/// The buyer's "add me to my ticket" that did not happen.
impl From<orders::tickets::RejoinError> for ApiError {
    fn from(error: orders::tickets::RejoinError) -> Self {
        use orders::tickets::RejoinError;
        match error {
            RejoinError::NotFound(_) => ApiError::NotFound(error.to_string().into()),
            RejoinError::NoTicket | RejoinError::NotInServer => {
                ApiError::Conflict(error.to_string().into())
            }
            RejoinError::Unavailable => ApiError::Unavailable {
                message: error.to_string().into(),
                cause: anyhow::anyhow!("Discord could not add the buyer to the ticket"),
            },
            RejoinError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

/// A provider's payment confirmation that was not applied.
impl From<ConfirmError> for ApiError {
    fn from(error: ConfirmError) -> Self {
        match error {
            ConfirmError::NotFound(_) => order_not_found(),
            ConfirmError::ReferenceMismatch(_) => {
                ApiError::BadRequest(SESSION_MISMATCH.to_owned().into())
            }
            ConfirmError::Refused(refused) => ApiError::Conflict(refused.to_string().into()),
            ConfirmError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

/// An order's reservation that was not released. Only a shopper's cancel answers with it
/// (the sweeper and the webhook's expiry answer no one).
impl From<ReleaseError> for ApiError {
    fn from(error: ReleaseError) -> Self {
        match error {
            ReleaseError::NotFound(_) => order_not_found(),
            ReleaseError::ReferenceMismatch(_) => {
                ApiError::BadRequest(SESSION_MISMATCH.to_owned().into())
            }
            ReleaseError::Refused(_) | ReleaseError::UnderReview(_) => {
                ApiError::Conflict(Text::new("error-cannot-cancel").into())
            }
            ReleaseError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

/// A shopper's cancel that did not close the order. Paid at the provider, but the order had left
/// pending first: refused like any other cancel of an order that is no longer pending.
impl From<CloseError> for ApiError {
    fn from(error: CloseError) -> Self {
        match error {
            CloseError::Release(error) => error.into(),
            CloseError::Confirm(ConfirmError::Refused(refused)) => {
                ReleaseError::Refused(refused).into()
            }
            CloseError::Confirm(error) => error.into(),
            CloseError::Provider(error) => error.into(),
        }
    }
}

/// A payment page the provider could not close: the order stays pending (it could still be
/// paid), and the shopper may try again. Opening a page and capturing a payment fail with
/// errors of their own; a bare `PaymentError` reaches a shopper only from a cancel.
impl From<PaymentError> for ApiError {
    fn from(error: PaymentError) -> Self {
        ApiError::Unavailable {
            message: Text::new("error-cancel-unavailable").into(),
            cause: error.into(),
        }
    }
}

/// Roblox could not answer a lookup (unreachable, or an answer that cannot be read).
impl From<RobloxLookupError> for ApiError {
    fn from(error: RobloxLookupError) -> Self {
        match error {
            RobloxLookupError::Unavailable(_) | RobloxLookupError::Unknown(_) => {
                ApiError::BadGateway(Text::new("error-roblox-failed").into())
            }
        }
    }
}

/// A Discord sign-in that did not give us an identity: 400 when Discord refused it (the
/// shopper links again), 502 when Discord could not be used.
impl From<DiscordLinkError> for ApiError {
    fn from(error: DiscordLinkError) -> Self {
        match error {
            DiscordLinkError::MissingUserId => {
                ApiError::BadRequest(Text::new("error-discord-no-user-id").into())
            }
            DiscordLinkError::InvalidCode => {
                ApiError::BadRequest(Text::new("error-discord-code-refused").into())
            }
            DiscordLinkError::UnusableIdentity(_) => {
                ApiError::BadRequest(Text::new("error-discord-unusable").into())
            }
            DiscordLinkError::Unavailable(_) | DiscordLinkError::Unknown(_) => {
                ApiError::BadGateway(Text::new("error-discord-failed").into())
            }
        }
    }
}

/// 404 for an order that does not exist (or is not the viewer's).
/// 429: the holder has as many unpaid orders as it may.
fn too_many_pending(reached: &orders::PendingCapReached) -> Text {
    let by = match reached.by {
        orders::HeldBy::Account => "account",
        orders::HeldBy::Session => "session",
        orders::HeldBy::Address => "address",
    };
    Text::new("error-too-many-pending")
        .with("max", reached.max)
        .with("by", by)
}

/// 409: the order of this Idempotency-Key was cancelled or expired.
fn key_closed(order: orders::OrderId, status: orders::OrderStatus) -> Text {
    let status = match status {
        orders::OrderStatus::Cancelled => "cancelled",
        orders::OrderStatus::Expired => "expired",
        _ => "closed",
    };
    Text::new("error-key-closed")
        .with("order", order.to_string())
        .with("status", status)
}

/// 409: the buyer would hold more of a drop than its cap per account.
fn account_cap(name: &str, reached: &orders::AccountCapReached) -> Text {
    let by = match reached.by {
        orders::CapHolder::Discord => "discord",
        orders::CapHolder::ShopAccount => "account",
        orders::CapHolder::Browser => "browser",
    };
    Text::new("error-account-cap")
        .with("name", name)
        .with("max", reached.max)
        .with("held", reached.held)
        .with("by", by)
}

fn order_not_found() -> ApiError {
    ApiError::NotFound(Text::new("error-order-not-found").into())
}

/// What the shopper hears when the provider could not open its page or capture the payment.
fn payment_failed() -> ApiError {
    ApiError::BadGateway(Text::new("error-payment-failed").into())
}

/// One line of the 409's list of products gone from the shop.
fn unavailable_line(product: &orders::Unavailable) -> Msg {
    match &product.name {
        Some(name) => Text::new("error-product-gone").with("name", name.as_str()),
        None => Text::new("error-product-id-gone").with("id", product.product_id.to_string()),
    }
    .into()
}

/// One line of the 409's list of stock problems.
fn stock_line(problem: &cart_pricing::StockProblem) -> Msg {
    use cart_pricing::StockProblem;
    match problem {
        StockProblem::OutOfStock { name } => {
            Text::new("error-out-of-stock").with("name", name.as_str())
        }
        StockProblem::NotEnough {
            name,
            available,
            requested,
        } => Text::new("error-not-enough-stock")
            .with("name", name.as_str())
            .with("available", *available)
            .with("requested", *requested),
    }
    .into()
}

/// The promo code's reason, in the shopper's words.
pub(crate) fn promo_rejection(reason: promo::Rejection) -> Msg {
    use promo::Rejection;
    Text::new(match reason {
        Rejection::Invalid => "error-promo-invalid",
        Rejection::Inactive => "error-promo-inactive",
        Rejection::Expired => "error-promo-expired",
        Rejection::UsedUp => "error-promo-used-up",
        Rejection::AlreadyUsed => "error-promo-already-used",
    })
    .into()
}

fn retry_secs(after: chrono::Duration) -> u64 {
    u64::try_from(after.num_seconds()).unwrap_or(1).max(1)
}

impl From<CheckoutError> for ApiError {
    fn from(error: CheckoutError) -> Self {
        let problems = |lines: Vec<Msg>| ApiError::CartConflict {
            message: Text::new("error-fix-issues").into(),
            detail: CartConflict::Problems(lines),
        };
        match error {
            CheckoutError::EmptyCart => ApiError::field("items", Text::new("error-cart-empty")),
            CheckoutError::TooManyLines { max } => ApiError::field(
                "items",
                Text::new("error-cart-too-many-lines").with("max", max),
            ),
            CheckoutError::TooMany { max, .. } => {
                ApiError::field("qty", Text::new("error-cart-too-many").with("max", max))
            }
            CheckoutError::TooManyPending {
                reached,
                retry_after,
            } => ApiError::TooManyRequests {
                message: too_many_pending(&reached).into(),
                retry_after_secs: retry_secs(retry_after),
            },
            CheckoutError::Unavailable(products) => {
                problems(products.iter().map(unavailable_line).collect())
            }
            CheckoutError::OutOfStock(lines) => problems(lines.iter().map(stock_line).collect()),
            CheckoutError::Promo(reason) => ApiError::PromoRejected(promo_rejection(reason)),
            CheckoutError::PriceChanged(ref cart) => ApiError::CartConflict {
                message: Text::new("error-prices-changed").into(),
                detail: CartConflict::FreshCart(Box::new(PricedCartResponse::from(&**cart))),
            },
            CheckoutError::Blocked => ApiError::Forbidden(Text::new("error-blocked").into()),
            CheckoutError::KeyReused => {
                ApiError::field(IDEMPOTENCY_KEY_FIELD, Text::new("error-key-reused"))
            }
            CheckoutError::StillPlacing { retry_after, .. } => ApiError::ConflictRetry {
                message: Text::new("error-still-placing").into(),
                retry_after_secs: retry_secs(retry_after),
            },
            CheckoutError::KeyClosed { order, status } => {
                ApiError::Conflict(key_closed(order, status).into())
            }
            CheckoutError::NotReleased { ref name, at, .. } => ApiError::Conflict(
                Text::new("error-not-released")
                    .with("name", name.as_str())
                    .with("at", orders::utc_words(&at))
                    .into(),
            ),
            CheckoutError::AccountCap {
                ref name,
                ref reached,
            } => ApiError::Conflict(account_cap(name, reached).into()),
            CheckoutError::AlreadyPlaced(_) => ApiError::Conflict(error.to_string().into()),
            CheckoutError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<OpenCheckoutError> for ApiError {
    fn from(error: OpenCheckoutError) -> Self {
        match error {
            OpenCheckoutError::Refused(refused) => refused.into(),
            // logged with its cause where the order was cancelled
            OpenCheckoutError::PaymentFailed { .. } => payment_failed(),
        }
    }
}

impl From<CaptureError> for ApiError {
    fn from(error: CaptureError) -> Self {
        match error {
            CaptureError::NotFound(_) => order_not_found(),
            CaptureError::NotThisPayment { .. } => ApiError::BadRequest(error.to_string().into()),
            CaptureError::Provider(cause) => {
                tracing::error!(error = ?cause, "the payment provider could not capture");
                payment_failed()
            }
            CaptureError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}
