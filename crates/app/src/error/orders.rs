//! Checkout, orders, payments and their gateways (Roblox, Discord, the providers), as HTTP answers.

use orders::gateways::{DiscordLinkError, PaymentError, RobloxLookupError};
use orders::{
    CaptureError, CheckoutError, CloseError, ConfirmError, OpenCheckoutError, OrderError,
    ReleaseError,
};

use super::api::{ApiError, CartConflict};
use dto::checkout::PricedCartResponse;

/// The field of a 422 about the `Idempotency-Key` header: the header's own name.
pub const IDEMPOTENCY_KEY_FIELD: &str = "Idempotency-Key";
pub(super) const SESSION_MISMATCH: &str = "The session does not belong to this order.";
pub(super) const CANNOT_CANCEL: &str = "This order can no longer be cancelled.";
pub(super) const CANCEL_UNAVAILABLE: &str =
    "The payment could not be cancelled right now. Try again in a moment.";
pub(super) const ROBLOX_FAILED: &str = "Error while connecting to Roblox.";
pub(super) const DISCORD_NO_USER_ID: &str = "Discord login failed: No user ID returned.";
pub(super) const DISCORD_CODE_REFUSED: &str =
    "Discord login failed: the sign-in expired. Please link Discord again.";
pub(super) const DISCORD_FAILED: &str = "Error while connecting to Discord.";
pub(super) const DISCORD_UNUSABLE: &str = "Discord login failed: Discord sent an account name or \
     picture the shop cannot use. Please try again, or ask us for help in the live chat.";

impl From<OrderError> for ApiError {
    fn from(error: OrderError) -> Self {
        match error {
            OrderError::NotFound(_) => ApiError::NotFound(error.to_string()),
            OrderError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

/// The buyer's "add me to my ticket" that did not happen.
impl From<orders::tickets::RejoinError> for ApiError {
    fn from(error: orders::tickets::RejoinError) -> Self {
        use orders::tickets::RejoinError;
        match error {
            RejoinError::NotFound(_) => ApiError::NotFound(error.to_string()),
            RejoinError::NoTicket | RejoinError::NotInServer => {
                ApiError::Conflict(error.to_string())
            }
            RejoinError::Unavailable => ApiError::Unavailable {
                message: error.to_string(),
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
            ConfirmError::NotFound(_) => ApiError::NotFound(error.to_string()),
            ConfirmError::ReferenceMismatch(_) => ApiError::BadRequest(SESSION_MISMATCH.to_owned()),
            ConfirmError::Refused(refused) => ApiError::Conflict(refused.to_string()),
            ConfirmError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

/// An order's reservation that was not released. Only a shopper's cancel answers with it
/// (the sweeper and the webhook's expiry answer no one).
impl From<ReleaseError> for ApiError {
    fn from(error: ReleaseError) -> Self {
        match error {
            ReleaseError::NotFound(_) => ApiError::NotFound(error.to_string()),
            ReleaseError::ReferenceMismatch(_) => ApiError::BadRequest(SESSION_MISMATCH.to_owned()),
            ReleaseError::Refused(_) | ReleaseError::UnderReview(_) => {
                ApiError::Conflict(CANNOT_CANCEL.to_owned())
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
            message: CANCEL_UNAVAILABLE.to_owned(),
            cause: error.into(),
        }
    }
}

/// Roblox could not answer a lookup (unreachable, or an answer that cannot be read).
impl From<RobloxLookupError> for ApiError {
    fn from(error: RobloxLookupError) -> Self {
        match error {
            RobloxLookupError::Unavailable(_) | RobloxLookupError::Unknown(_) => {
                ApiError::BadGateway(ROBLOX_FAILED.to_owned())
            }
        }
    }
}

/// A Discord sign-in that did not give us an identity: 400 when Discord refused it (the
/// shopper links again), 502 when Discord could not be used.
impl From<DiscordLinkError> for ApiError {
    fn from(error: DiscordLinkError) -> Self {
        match error {
            DiscordLinkError::MissingUserId => ApiError::BadRequest(DISCORD_NO_USER_ID.to_owned()),
            DiscordLinkError::InvalidCode => ApiError::BadRequest(DISCORD_CODE_REFUSED.to_owned()),
            DiscordLinkError::UnusableIdentity(_) => {
                ApiError::BadRequest(DISCORD_UNUSABLE.to_owned())
            }
            DiscordLinkError::Unavailable(_) | DiscordLinkError::Unknown(_) => {
                ApiError::BadGateway(DISCORD_FAILED.to_owned())
            }
        }
    }
}

/// The 409's message when products are gone or short of stock (docs/product.md, Validation).
pub const FIX_ISSUES: &str = "Please fix the following issues before continuing:";
/// What the shopper hears when the provider could not open its page or capture the payment.
pub const PAYMENT_FAILED: &str = "Payment failed.";

impl From<CheckoutError> for ApiError {
    fn from(error: CheckoutError) -> Self {
        let problems = |lines: Vec<String>| ApiError::CartConflict {
            message: FIX_ISSUES.to_owned(),
            detail: CartConflict::Problems(lines),
        };
        match error {
            CheckoutError::EmptyCart | CheckoutError::TooManyLines { .. } => {
                ApiError::field("items", error.to_string())
            }
            CheckoutError::TooMany { .. } => ApiError::field("qty", error.to_string()),
            CheckoutError::TooManyPending { retry_after, .. } => ApiError::TooManyRequests {
                message: error.to_string(),
                retry_after_secs: u64::try_from(retry_after.num_seconds()).unwrap_or(1).max(1),
            },
            CheckoutError::Unavailable(products) => {
                problems(products.iter().map(ToString::to_string).collect())
            }
            CheckoutError::OutOfStock(lines) => {
                problems(lines.iter().map(ToString::to_string).collect())
            }
            CheckoutError::Promo(reason) => ApiError::PromoRejected(reason.to_string()),
            CheckoutError::PriceChanged(ref cart) => ApiError::CartConflict {
                message: error.to_string(),
                detail: CartConflict::FreshCart(Box::new(PricedCartResponse::from(&**cart))),
            },
            CheckoutError::Blocked => ApiError::Forbidden(error.to_string()),
            CheckoutError::KeyReused => ApiError::field(IDEMPOTENCY_KEY_FIELD, error.to_string()),
            CheckoutError::StillPlacing { retry_after, .. } => ApiError::ConflictRetry {
                message: error.to_string(),
                retry_after_secs: u64::try_from(retry_after.num_seconds()).unwrap_or(1).max(1),
            },
            CheckoutError::KeyClosed { .. }
            | CheckoutError::AlreadyPlaced(_)
            | CheckoutError::NotReleased { .. }
            | CheckoutError::AccountCap { .. } => ApiError::Conflict(error.to_string()),
            CheckoutError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<OpenCheckoutError> for ApiError {
    fn from(error: OpenCheckoutError) -> Self {
        match error {
            OpenCheckoutError::Refused(refused) => refused.into(),
            // logged with its cause where the order was cancelled
            OpenCheckoutError::PaymentFailed { .. } => ApiError::BadGateway(PAYMENT_FAILED.into()),
        }
    }
}

impl From<CaptureError> for ApiError {
    fn from(error: CaptureError) -> Self {
        match error {
            CaptureError::NotFound(_) => ApiError::NotFound(error.to_string()),
            CaptureError::NotThisPayment { .. } => ApiError::BadRequest(error.to_string()),
            CaptureError::Provider(cause) => {
                tracing::error!(error = ?cause, "the payment provider could not capture");
                ApiError::BadGateway(PAYMENT_FAILED.into())
            }
            CaptureError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}
