//! The one place where errors become HTTP answers: every domain error maps to an `ApiError`
//! here, and every `ApiError` answers `{"message": "...", "errors": {"field": ["..."]}}`.

use std::collections::BTreeMap;
use std::time::Duration;

use accounts::{LoginError, ResetPasswordError, SendCodeError, VerifyCodeError};
use actix_multipart::MultipartError;
use actix_web::{
    error::{JsonPayloadError, PathError, QueryPayloadError, UrlencodedError},
    http::{header, StatusCode},
    HttpRequest, HttpResponse, ResponseError,
};
use catalog::{AdminError, CatalogError};
use chat::ChatError;
use orders::gateways::{DiscordLinkError, PaymentError, RobloxLookupError};
use orders::{
    CaptureError, CheckoutError, ConfirmError, OpenCheckoutError, OrderError, QueueError,
    ReleaseError,
};
use proofs::{ProofError, PublishError};
use serde::Serialize;
use stripe_adapter::WebhookError;
use utoipa::ToSchema;

use crate::dto::checkout::{InvalidPayload, PricedCartResponse};

/// Every error the API answers with.
/// The 503 of a request the database could not be reached for (no connection within
/// `store::DATABASE_TIMEOUT`, or one broke); the pool reconnects by itself.
pub const DATABASE_UNAVAILABLE: &str =
    "The shop cannot reach its database right now. Please try again in a moment.";

/// The 503 of a request whose session could not be read or written (the session Redis or
/// database does not answer within its timeout).
pub const SESSIONS_UNAVAILABLE: &str =
    "The shop cannot reach its session store right now. Please try again in a moment.";

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: a body or parameter that cannot be read at all.
    #[error("{0}")]
    BadRequest(String),
    /// 401: no session, or the credentials do not match.
    #[error("{0}")]
    Unauthorized(String),
    /// 403: logged in with the wrong role, or a cross-site request.
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    MethodNotAllowed(String),
    /// 409: the request conflicts with the current state.
    #[error("{0}")]
    Conflict(String),
    /// 409 with a `Retry-After` header: the state the request needs is on its way (another
    /// request is still at it).
    #[error("{message}")]
    ConflictRetry {
        message: String,
        retry_after_secs: u64,
    },
    #[error("{0}")]
    PayloadTooLarge(String),
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// 409: the cart cannot be bought as it is; the answer carries what to fix.
    #[error("{message}")]
    CartConflict {
        message: String,
        detail: CartConflict,
    },
    /// 422: the promo code does not apply; the answer also carries the reason on its own.
    #[error("{0}")]
    PromoRejected(String),
    /// 422: per-field messages.
    #[error("{message}")]
    Validation {
        message: String,
        errors: BTreeMap<String, Vec<String>>,
    },
    /// 429 with a `Retry-After` header.
    #[error("{message}")]
    TooManyRequests {
        message: String,
        retry_after_secs: u64,
    },
    /// 502: an outside system we called (payment provider, Roblox, Discord) failed or refused.
    #[error("{0}")]
    BadGateway(String),
    /// 503: an outside system (the mail server) is down; the request may be retried.
    #[error("{message}")]
    Unavailable {
        message: String,
        #[source]
        cause: anyhow::Error,
    },
    /// 500: logged with its cause chain; the client learns nothing internal.
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

/// What a 409 about the cart carries besides its message.
#[derive(Debug)]
pub enum CartConflict {
    /// One line per product the shopper has to remove or reduce (worded as docs/product.md, Validation).
    Problems(Vec<String>),
    /// The cart as the server prices it, for a client whose total was off.
    FreshCart(Box<PricedCartResponse>),
}

impl ApiError {
    /// A 422 about one field, whose message is also the answer's message.
    pub fn field(field: &str, message: impl Into<String>) -> Self {
        let message = message.into();
        ApiError::Validation {
            errors: BTreeMap::from([(field.to_owned(), vec![message.clone()])]),
            message,
        }
    }

    /// A 429 saying when to try again, in minutes (or seconds under a minute).
    pub fn too_many(retry_after: Duration) -> Self {
        let secs = retry_after.as_secs().max(1);
        let message = if secs < 60 {
            format!("Too many attempts. Try again in {secs} seconds.")
        } else {
            let minutes = secs.div_ceil(60);
            let unit = if minutes == 1 { "minute" } else { "minutes" };
            format!("Too many attempts. Try again in {minutes} {unit}.")
        };
        ApiError::TooManyRequests {
            message,
            retry_after_secs: secs,
        }
    }

    pub fn internal(cause: impl Into<anyhow::Error>) -> Self {
        ApiError::Internal(cause.into())
    }
}

/// Collects per-field messages for one 422; the first message becomes the answer's message.
#[derive(Debug, Default)]
pub struct FieldErrors(BTreeMap<String, Vec<String>>, Option<String>);

impl FieldErrors {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&mut self, field: &str, message: impl Into<String>) {
        let message = message.into();
        self.1.get_or_insert_with(|| message.clone());
        self.0.entry(field.to_owned()).or_default().push(message);
    }

    /// Keeps `Ok` values and records the message of an `Err` under `field`.
    pub fn check<T, E: std::fmt::Display>(
        &mut self,
        field: &str,
        result: Result<T, E>,
    ) -> Option<T> {
        result.map_err(|e| self.add(field, e.to_string())).ok()
    }

    /// `Err(422)` when any field failed.
    pub fn finish(self) -> Result<(), ApiError> {
        match self.1 {
            None => Ok(()),
            Some(first) => {
                let message = if self.0.values().map(Vec::len).sum::<usize>() > 1 {
                    format!("{first} (and more errors)")
                } else {
                    first
                };
                Err(ApiError::Validation {
                    message,
                    errors: self.0,
                })
            }
        }
    }
}

/// Every error the API answers with (4xx and 5xx): the message to show, and per-field messages
/// on a 422 (empty otherwise).
#[derive(ToSchema)]
#[allow(dead_code)] // a schema only: `ErrorJson` is what is written
pub struct ErrorBody {
    /// What went wrong, ready to show.
    #[schema(example = "Product not found.")]
    message: String,
    /// The messages for each field of the request (422); `{}` otherwise.
    errors: BTreeMap<String, Vec<String>>,
    /// The promo code's reason, on a refused promo code (422).
    #[schema(nullable = false)]
    reason: Option<String>,
    /// What to fix in the cart (409 at checkout).
    #[schema(nullable = false)]
    problems: Option<Vec<String>>,
    /// The cart as the server prices it (409 at checkout).
    #[schema(nullable = false, required = false, value_type = Option<crate::dto::checkout::PricedCartResponse>)]
    cart: Option<serde_json::Value>,
    /// On a 5xx: this answer's `X-Request-Id`, to quote to support (it names the log line).
    #[schema(nullable = false)]
    request_id: Option<String>,
}

/// What [`ApiError::error_response`] writes: the shape [`ErrorBody`] documents.
#[derive(Serialize)]
struct ErrorJson<'a> {
    message: &'a str,
    errors: &'a BTreeMap<String, Vec<String>>,
    /// The promo code's reason (422 on a promo code).
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    /// What to fix in the cart (409).
    #[serde(skip_serializing_if = "Option::is_none")]
    problems: Option<&'a [String]>,
    /// The cart as the server prices it (409).
    #[serde(skip_serializing_if = "Option::is_none")]
    cart: Option<&'a PricedCartResponse>,
}

impl From<InvalidPayload> for ApiError {
    fn from(invalid: InvalidPayload) -> Self {
        ApiError::Validation {
            message: invalid.message,
            errors: invalid.errors,
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict(_)
            | ApiError::ConflictRetry { .. }
            | ApiError::CartConflict { .. } => StatusCode::CONFLICT,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Validation { .. } | ApiError::PromoRejected(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::BadGateway(_) => StatusCode::BAD_GATEWAY,
            ApiError::Unavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(cause) if store::is_unreachable(cause.as_ref()) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let empty = BTreeMap::new();
        let promo_errors;
        let mut body = ErrorJson {
            message: "",
            errors: &empty,
            reason: None,
            problems: None,
            cart: None,
        };
        (body.message, body.errors) = match self {
            ApiError::BadRequest(message)
            | ApiError::Unauthorized(message)
            | ApiError::Forbidden(message)
            | ApiError::NotFound(message)
            | ApiError::MethodNotAllowed(message)
            | ApiError::Conflict(message)
            | ApiError::PayloadTooLarge(message)
            | ApiError::UnsupportedMediaType(message)
            | ApiError::BadGateway(message)
            | ApiError::ConflictRetry { message, .. }
            | ApiError::TooManyRequests { message, .. } => (message.as_str(), &empty),
            ApiError::Validation { message, errors } => (message.as_str(), errors),
            ApiError::CartConflict { message, detail } => {
                match detail {
                    CartConflict::Problems(problems) => body.problems = Some(problems),
                    CartConflict::FreshCart(cart) => body.cart = Some(cart),
                }
                (message.as_str(), &empty)
            }
            ApiError::PromoRejected(reason) => {
                body.reason = Some(reason);
                promo_errors = BTreeMap::from([("promo_code".to_owned(), vec![reason.clone()])]);
                (reason.as_str(), &promo_errors)
            }
            ApiError::Unavailable { message, cause } => {
                tracing::error!(error = ?cause, "an outside system failed");
                (message.as_str(), &empty)
            }
            ApiError::Internal(cause) if store::is_unreachable(cause.as_ref()) => {
                tracing::error!(error = ?cause, "the database cannot be reached");
                (DATABASE_UNAVAILABLE, &empty)
            }
            ApiError::Internal(cause) => {
                tracing::error!(error = ?cause, "request failed");
                (
                    "Something went wrong on our side. Please try again.",
                    &empty,
                )
            }
        };
        let mut response = HttpResponse::build(self.status_code());
        if let ApiError::TooManyRequests {
            retry_after_secs, ..
        }
        | ApiError::ConflictRetry {
            retry_after_secs, ..
        } = self
        {
            response.insert_header((header::RETRY_AFTER, retry_after_secs.to_string()));
        }
        response.json(body)
    }
}

impl From<CatalogError> for ApiError {
    fn from(error: CatalogError) -> Self {
        match error {
            CatalogError::NotFound(_) => ApiError::NotFound(error.to_string()),
            CatalogError::UnlimitedStock(_) => ApiError::field("type", error.to_string()),
            CatalogError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

// ---- domain errors as HTTP answers (issue 12): one `From` per error type, so handlers use `?`.
// A message a domain error does not word itself (its Display is for logs) is worded here.

/// The field of a 422 about the `Idempotency-Key` header: the header's own name.
pub const IDEMPOTENCY_KEY_FIELD: &str = "Idempotency-Key";
const SESSION_MISMATCH: &str = "The session does not belong to this order.";
const CANNOT_CANCEL: &str = "This order can no longer be cancelled.";
const CANCEL_UNAVAILABLE: &str =
    "The payment could not be cancelled right now. Try again in a moment.";
const MAIL_UNAVAILABLE: &str =
    "We could not send the e-mail right now. Please try again in a moment.";
const TOO_MANY_CODES: &str = "Too many wrong codes. Ask for a new code.";
const ROBLOX_FAILED: &str = "Error while connecting to Roblox.";
const DISCORD_NO_USER_ID: &str = "Discord login failed: No user ID returned.";
const DISCORD_CODE_REFUSED: &str =
    "Discord login failed: the sign-in expired. Please link Discord again.";
const DISCORD_FAILED: &str = "Error while connecting to Discord.";

impl From<AdminError> for ApiError {
    fn from(error: AdminError) -> Self {
        match error {
            AdminError::Invalid(invalid) => {
                let mut errors = FieldErrors::new();
                for problem in invalid.0 {
                    errors.add(problem.field, problem.message);
                }
                match errors.finish() {
                    Err(api) => api,
                    Ok(()) => ApiError::field("product", "The product is not valid."),
                }
            }
            AdminError::NotFound(_) => ApiError::NotFound(error.to_string()),
            AdminError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<OrderError> for ApiError {
    fn from(error: OrderError) -> Self {
        match error {
            OrderError::NotFound(_) => ApiError::NotFound(error.to_string()),
            OrderError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<QueueError> for ApiError {
    fn from(error: QueueError) -> Self {
        match error {
            QueueError::NotFound(_) => ApiError::NotFound(error.to_string()),
            QueueError::AlreadyClaimed { .. }
            | QueueError::NotYours { .. }
            | QueueError::Refused(_)
            | QueueError::NotPaid(_)
            | QueueError::NoPrivateServer
            | QueueError::NotClaimed
            | QueueError::NotReady(_) => ApiError::Conflict(error.to_string()),
            QueueError::UnknownProof(_) => ApiError::field("proof_id", error.to_string()),
            QueueError::Unknown(cause) => ApiError::Internal(cause),
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

impl From<ChatError> for ApiError {
    fn from(error: ChatError) -> Self {
        match error {
            ChatError::NotFound(_) => ApiError::NotFound(error.to_string()),
            ChatError::Refused(refused) => ApiError::Conflict(refused.message().to_owned()),
            ChatError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<ProofError> for ApiError {
    fn from(error: ProofError) -> Self {
        match error {
            ProofError::NotFound(_) => ApiError::NotFound(error.to_string()),
            ProofError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

/// Every refusal of a proof is about its pictures: 422 under `images`.
impl From<PublishError> for ApiError {
    fn from(error: PublishError) -> Self {
        match error {
            PublishError::Unknown(cause) => ApiError::Internal(cause),
            PublishError::NoImages | PublishError::TooManyImages | PublishError::Image { .. } => {
                ApiError::field("images", error.to_string())
            }
        }
    }
}

impl From<LoginError> for ApiError {
    fn from(error: LoginError) -> Self {
        match error {
            LoginError::InvalidCredentials => ApiError::Unauthorized(error.to_string()),
            LoginError::TooManyAttempts { retry_after } => ApiError::too_many(retry_after),
            LoginError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<SendCodeError> for ApiError {
    fn from(error: SendCodeError) -> Self {
        match error {
            SendCodeError::TooSoon { retry_after } => {
                let secs = retry_after.as_secs().max(1);
                ApiError::TooManyRequests {
                    message: format!("Please wait {secs} seconds before asking for a new code."),
                    retry_after_secs: secs,
                }
            }
            SendCodeError::TooManySends { retry_after } => ApiError::too_many(retry_after),
            SendCodeError::Mail(cause) => ApiError::Unavailable {
                message: MAIL_UNAVAILABLE.to_owned(),
                cause: anyhow::Error::new(cause),
            },
            SendCodeError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<VerifyCodeError> for ApiError {
    fn from(error: VerifyCodeError) -> Self {
        match error {
            VerifyCodeError::InvalidCode | VerifyCodeError::Expired => {
                ApiError::field("code", error.to_string())
            }
            VerifyCodeError::EmailTaken => ApiError::field("email", error.to_string()),
            VerifyCodeError::TooManyAttempts { retry_after } => ApiError::TooManyRequests {
                message: TOO_MANY_CODES.to_owned(),
                retry_after_secs: retry_after.map_or(60, |after| after.as_secs()).max(1),
            },
            VerifyCodeError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<ResetPasswordError> for ApiError {
    fn from(error: ResetPasswordError) -> Self {
        match error {
            ResetPasswordError::InvalidToken => ApiError::field("token", error.to_string()),
            ResetPasswordError::Unknown(cause) => ApiError::Internal(cause),
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
            DiscordLinkError::Unavailable(_) | DiscordLinkError::Unknown(_) => {
                ApiError::BadGateway(DISCORD_FAILED.to_owned())
            }
        }
    }
}

/// A Stripe webhook delivery whose signature does not check out (or that cannot be read).
impl From<WebhookError> for ApiError {
    fn from(error: WebhookError) -> Self {
        ApiError::BadRequest(format!("Webhook refused: {error}."))
    }
}

// ---- end of the domain errors block

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
            CheckoutError::KeyClosed { .. } | CheckoutError::AlreadyPlaced(_) => {
                ApiError::Conflict(error.to_string())
            }
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

impl From<promo::CreatePromoError> for ApiError {
    fn from(error: promo::CreatePromoError) -> Self {
        match error {
            promo::CreatePromoError::Duplicate(code) => {
                ApiError::field("code", format!("The promo code {code} already exists."))
            }
            promo::CreatePromoError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<promo::UpdatePromoError> for ApiError {
    fn from(error: promo::UpdatePromoError) -> Self {
        match error {
            promo::UpdatePromoError::NotFound(_) => ApiError::NotFound(error.to_string()),
            promo::UpdatePromoError::MaxUsesBelowUses { .. } => {
                ApiError::field("max_uses", error.to_string())
            }
            promo::UpdatePromoError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<promo::DeletePromoError> for ApiError {
    fn from(error: promo::DeletePromoError) -> Self {
        match error {
            promo::DeletePromoError::NotFound(_) => ApiError::NotFound(error.to_string()),
            promo::DeletePromoError::Used(_) => ApiError::Conflict(error.to_string()),
            promo::DeletePromoError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<promo::ListPromoError> for ApiError {
    fn from(error: promo::ListPromoError) -> Self {
        match error {
            promo::ListPromoError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<promo::ValidatePromoError> for ApiError {
    fn from(error: promo::ValidatePromoError) -> Self {
        match error {
            promo::ValidatePromoError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

// ---- actix's own extractor failures, in the same shape

/// serde's message for a missing or mistyped field names the field: "missing field `email`".
fn field_of(message: &str) -> Option<String> {
    let start = message.find('`')? + 1;
    let end = start + message[start..].find('`')?;
    Some(message[start..end].to_owned())
}

fn invalid_fields(detail: &str) -> ApiError {
    match field_of(detail) {
        Some(field) if detail.starts_with("missing field") => ApiError::field(
            &field,
            format!("The {} field is required.", field.replace('_', " ")),
        ),
        Some(field) if detail.starts_with("unknown field") => ApiError::field(
            &field,
            format!("The {} field is not expected.", field.replace('_', " ")),
        ),
        Some(field) if detail.starts_with("duplicate field") => ApiError::field(
            &field,
            format!(
                "The {} field is given more than once.",
                field.replace('_', " ")
            ),
        ),
        _ => ApiError::Validation {
            message: format!("The request has an invalid value: {detail}"),
            errors: BTreeMap::new(),
        },
    }
}

/// JSON bodies: 415 for another content type, 413 too large, 400 unparseable, 422 bad fields.
pub fn json_error(error: JsonPayloadError, _: &HttpRequest) -> actix_web::Error {
    let api = match &error {
        JsonPayloadError::ContentType => ApiError::UnsupportedMediaType(
            "The request body must be JSON (Content-Type: application/json).".into(),
        ),
        JsonPayloadError::Overflow { limit }
        | JsonPayloadError::OverflowKnownLength { limit, .. } => {
            ApiError::PayloadTooLarge(format!("The request body is larger than {limit} bytes."))
        }
        JsonPayloadError::Deserialize(serde) if serde.is_data() => {
            invalid_fields(&serde.to_string())
        }
        JsonPayloadError::Deserialize(_) => {
            ApiError::BadRequest("The request body is not valid JSON.".into())
        }
        _ => ApiError::BadRequest("The request body could not be read.".into()),
    };
    api.into()
}

/// Query strings: 422 naming the field.
pub fn query_error(error: QueryPayloadError, _: &HttpRequest) -> actix_web::Error {
    match &error {
        QueryPayloadError::Deserialize(detail) => invalid_fields(&detail.to_string()).into(),
        _ => ApiError::BadRequest("The query string could not be read.".into()).into(),
    }
}

/// Path segments that do not parse: 404, the resource named does not exist.
pub fn path_error(_: PathError, _: &HttpRequest) -> actix_web::Error {
    ApiError::NotFound("Not found.".into()).into()
}

/// Form bodies: like JSON.
pub fn form_error(error: UrlencodedError, _: &HttpRequest) -> actix_web::Error {
    let api = match &error {
        UrlencodedError::ContentType => ApiError::UnsupportedMediaType(
            "The request body must be a form (application/x-www-form-urlencoded).".into(),
        ),
        UrlencodedError::Overflow { limit, .. } => {
            ApiError::PayloadTooLarge(format!("The request body is larger than {limit} bytes."))
        }
        UrlencodedError::Parse(detail) => invalid_fields(&detail.to_string()),
        _ => ApiError::BadRequest("The request body could not be read.".into()),
    };
    api.into()
}

/// The extractor configs that make actix answer in our shape; registered on the app.
pub fn extractor_configs(cfg: &mut actix_web::web::ServiceConfig) {
    use actix_web::web;
    cfg.app_data(
        web::JsonConfig::default()
            .limit(64 * 1024)
            .error_handler(json_error),
    )
    .app_data(web::QueryConfig::default().error_handler(query_error))
    .app_data(web::PathConfig::default().error_handler(path_error))
    .app_data(
        web::FormConfig::default()
            .limit(64 * 1024)
            .error_handler(form_error),
    );
}

/// Gives actix's bare 405 (a path that exists, asked with another method) the JSON body on
/// /api routes, keeping its `Allow` header.
pub fn api_method_not_allowed<B: actix_web::body::MessageBody + 'static>(
) -> actix_web::middleware::ErrorHandlers<B> {
    use actix_web::middleware::{ErrorHandlerResponse, ErrorHandlers};
    ErrorHandlers::new().handler(StatusCode::METHOD_NOT_ALLOWED, |res| {
        if !res.request().path().starts_with("/api/") {
            return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
        }
        let allow = res.headers().get(header::ALLOW).cloned();
        let (req, _) = res.into_parts();
        let mut response =
            ApiError::MethodNotAllowed("This method is not allowed here.".into()).error_response();
        if let Some(allow) = allow {
            response.headers_mut().insert(header::ALLOW, allow);
        }
        Ok(ErrorHandlerResponse::Response(
            actix_web::dev::ServiceResponse::new(req, response).map_into_right_body(),
        ))
    })
}

/// A multipart body that cannot be read, in the API's error shape.
pub fn multipart_error(error: MultipartError) -> ApiError {
    match error {
        MultipartError::ContentTypeMissing
        | MultipartError::ContentTypeParse
        | MultipartError::ContentTypeIncompatible
        | MultipartError::BoundaryMissing => ApiError::UnsupportedMediaType(
            "The request body must be multipart/form-data.".to_owned(),
        ),
        other => {
            tracing::debug!(error = %other, "unreadable multipart body");
            ApiError::BadRequest("The upload could not be read.".to_owned())
        }
    }
}

// ---- server push (events) ------------------------------------------------------------------

impl From<crate::events::StreamRefused> for ApiError {
    fn from(refused: crate::events::StreamRefused) -> Self {
        use crate::events::StreamRefused;
        match refused {
            StreamRefused::PerAddress | StreamRefused::PerAccount => ApiError::TooManyRequests {
                message: "Too many open live-update connections. Close some tabs and try again."
                    .to_owned(),
                retry_after_secs: 30,
            },
            StreamRefused::Total => ApiError::Unavailable {
                message: "Live updates are busy right now; the page refreshes on its own."
                    .to_owned(),
                cause: anyhow::Error::new(refused),
            },
        }
    }
}

// ---- end of server push ------------------------------------------------------------------------

// ---- issue 13 (helper "provider"): refunds through the provider, and the blocklist

impl From<orders::RefundError> for ApiError {
    fn from(error: orders::RefundError) -> Self {
        use orders::RefundError;
        match error {
            RefundError::NotFound(_) => ApiError::NotFound(error.to_string()),
            RefundError::Refused(_) | RefundError::NoProvider(_) | RefundError::MovedOn { .. } => {
                ApiError::Conflict(error.to_string())
            }
            RefundError::Provider(ref cause) => {
                tracing::warn!(error = %cause, "the payment provider refused a refund");
                ApiError::BadGateway(
                    "The payment provider did not refund the order; nothing changed. Try again \
                     later or refund it at the provider."
                        .to_owned(),
                )
            }
            RefundError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<orders::BlocklistError> for ApiError {
    fn from(error: orders::BlocklistError) -> Self {
        use orders::BlocklistError;
        match error {
            BlocklistError::Invalid { field, message } => ApiError::field(field, message),
            BlocklistError::Duplicate(_) => ApiError::Conflict(error.to_string()),
            BlocklistError::NotFound(_) => ApiError::NotFound(error.to_string()),
            BlocklistError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

// ---- after the sale (issue 13, "buyer"): verified reviews

impl From<orders::ReviewError> for ApiError {
    fn from(error: orders::ReviewError) -> Self {
        use orders::ReviewError;
        match error {
            ReviewError::NotDelivered => ApiError::field("order", error.to_string()),
            ReviewError::AlreadyReviewed => ApiError::Conflict(error.to_string()),
            ReviewError::Invalid { field, message } => ApiError::field(field, message),
            ReviewError::NotFound => ApiError::NotFound(error.to_string()),
            ReviewError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

// --- Privacy (issue 15): a shopper deleting their own account. ---

impl From<accounts::DeleteAccountError> for ApiError {
    fn from(error: accounts::DeleteAccountError) -> Self {
        use accounts::DeleteAccountError as E;
        match error {
            E::WrongPassword => ApiError::field("password", error.to_string()),
            E::Staff => ApiError::Forbidden(
                "Staff accounts cannot be deleted here. Ask whoever runs the shop.".to_owned(),
            ),
            E::OpenOrders(n) => {
                let orders = if n == 1 { "order" } else { "orders" };
                ApiError::Conflict(format!(
                    "You have {n} {orders} waiting for payment or delivery. You can delete your \
                     account once they are delivered or closed."
                ))
            }
            E::NotFound => ApiError::Unauthorized("Please log in.".to_owned()),
            E::TooManyAttempts { retry_after } => ApiError::too_many(retry_after),
            E::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use actix_web::body::to_bytes;

    async fn body(error: ApiError) -> (StatusCode, serde_json::Value, Option<String>) {
        let response = error.error_response();
        let retry = response
            .headers()
            .get(header::RETRY_AFTER)
            .map(|v| v.to_str().unwrap().to_owned());
        let status = response.status();
        let bytes = to_bytes(response.into_body()).await.unwrap();
        (status, serde_json::from_slice(&bytes).unwrap(), retry)
    }

    #[actix_web::test]
    async fn a_field_error_answers_422_with_the_message_under_the_field() {
        let (status, json, _) = body(ApiError::field(
            "email",
            "This e-mail is already registered.",
        ))
        .await;
        assert_eq!(status, 422);
        assert_eq!(json["message"], "This e-mail is already registered.");
        assert_eq!(
            json["errors"]["email"][0],
            "This e-mail is already registered."
        );
    }

    #[actix_web::test]
    async fn too_many_requests_says_when_and_sets_retry_after() {
        let (status, json, retry) =
            body(ApiError::too_many(Duration::from_secs(14 * 60 + 1))).await;
        assert_eq!(status, 429);
        assert_eq!(
            json["message"],
            "Too many attempts. Try again in 15 minutes."
        );
        assert_eq!(retry.as_deref(), Some("841"));
        let (_, json, _) = body(ApiError::too_many(Duration::from_secs(30))).await;
        assert_eq!(
            json["message"],
            "Too many attempts. Try again in 30 seconds."
        );
    }

    #[actix_web::test]
    async fn an_internal_error_tells_the_client_nothing() {
        let cause = anyhow::anyhow!("password for db is hunter2").context("failed to load");
        let (status, json, _) = body(ApiError::Internal(cause)).await;
        assert_eq!(status, 500);
        assert_eq!(
            json["message"],
            "Something went wrong on our side. Please try again."
        );
        assert_eq!(json["errors"], serde_json::json!({}));
    }

    #[test]
    fn field_errors_keep_every_message_and_lead_with_the_first() {
        let mut errors = FieldErrors::new();
        errors.add("email", "Please enter a valid e-mail address.");
        errors.add("password", "The password must be at least 8 characters.");
        match errors.finish().unwrap_err() {
            ApiError::Validation { message, errors } => {
                assert!(message.starts_with("Please enter a valid e-mail address."));
                assert_eq!(errors.len(), 2);
            }
            other => panic!("{other:?}"),
        }
        assert!(FieldErrors::new().finish().is_ok());
    }

    /// One row per variant of every domain error mapped above: the status, the message and
    /// the field the 422 names (if any), and `Retry-After` for a 429.
    #[actix_web::test]
    async fn every_domain_error_maps_to_one_answer() {
        use orders::{OrderId, OrderStatus, TransitionError};
        use std::time::Duration;

        /// The error, its status, its message, the field a 422 names, its `Retry-After`.
        type Row = (
            ApiError,
            u16,
            &'static str,
            Option<&'static str>,
            Option<&'static str>,
        );
        let order = OrderId::new(7);
        let refused = TransitionError {
            from: OrderStatus::Paid,
            to: OrderStatus::Cancelled,
        };
        let cause = || anyhow::anyhow!("the database is gone");
        let internal = "Something went wrong on our side. Please try again.";
        let invalid = catalog::InvalidProduct(vec![
            catalog::FieldError::new("name", "The name field is required."),
            catalog::FieldError::new("price", "The price must be a number."),
        ]);
        #[rustfmt::skip]
        let table: Vec<Row> = vec![
            // catalog admin
            (AdminError::Invalid(invalid).into(), 422, "The name field is required. (and more errors)", Some("price"), None),
            (AdminError::NotFound(catalog::ProductId::new(3)).into(), 404, "Product not found.", None, None),
            (AdminError::Unknown(cause()).into(), 500, internal, None, None),
            // orders
            (OrderError::NotFound(order).into(), 404, "Order not found.", None, None),
            (OrderError::Unknown(cause()).into(), 500, internal, None, None),
            // the delivery queue
            (QueueError::NotFound(order).into(), 404, "Order not found.", None, None),
            (QueueError::AlreadyClaimed { by: "Ann".into() }.into(), 409, "Already claimed by Ann.", None, None),
            (QueueError::NotYours { by: "Ann".into() }.into(), 409, "Only Ann can release this order.", None, None),
            (QueueError::Refused(refused).into(), 409, "An order that is Paid cannot become Cancelled.", None, None),
            (QueueError::NotPaid(OrderStatus::Pending).into(), 409, "Only paid orders can be claimed; this one is Pending.", None, None),
            (QueueError::UnknownProof(9).into(), 422, "Proof 9 does not exist.", Some("proof_id"), None),
            (QueueError::Unknown(cause()).into(), 500, internal, None, None),
            // payment confirmations, releases and the provider's page
            (ConfirmError::NotFound(order).into(), 404, "Order not found.", None, None),
            (ConfirmError::ReferenceMismatch(order).into(), 400, SESSION_MISMATCH, None, None),
            (ConfirmError::Refused(refused).into(), 409, "An order that is Paid cannot become Cancelled.", None, None),
            (ConfirmError::Unknown(cause()).into(), 500, internal, None, None),
            (ReleaseError::NotFound(order).into(), 404, "Order not found.", None, None),
            (ReleaseError::ReferenceMismatch(order).into(), 400, SESSION_MISMATCH, None, None),
            (ReleaseError::Refused(refused).into(), 409, CANNOT_CANCEL, None, None),
            (ReleaseError::UnderReview(order).into(), 409, CANNOT_CANCEL, None, None),
            (ReleaseError::Unknown(cause()).into(), 500, internal, None, None),
            (PaymentError::Unavailable("timeout".into()).into(), 503, CANCEL_UNAVAILABLE, None, None),
            (PaymentError::Rejected { status: 400, message: "no".into() }.into(), 503, CANCEL_UNAVAILABLE, None, None),
            // the help chat
            (ChatError::NotFound(chat::ChatId::random()).into(), 404, "Chat not found.", None, None),
            (ChatError::Refused(chat::Refused { action: chat::ChatAction::Accept, status: chat::ChatStatus::Connected }).into(), 409, "Another agent has already joined this chat.", None, None),
            (ChatError::Refused(chat::Refused { action: chat::ChatAction::Send, status: chat::ChatStatus::Closed }).into(), 409, "This conversation has ended.", None, None),
            (ChatError::Unknown(cause()).into(), 500, internal, None, None),
            // proofs
            (ProofError::NotFound(proofs::ProofId::new(4)).into(), 404, "Proof not found.", None, None),
            (ProofError::Unknown(cause()).into(), 500, internal, None, None),
            (PublishError::NoImages.into(), 422, "Please provide items and at least one image.", Some("images"), None),
            (PublishError::TooManyImages.into(), 422, "A proof may have at most 10 images.", Some("images"), None),
            (PublishError::Image { index: 1, reason: proofs::ImageRejected::TooLarge }.into(), 422, "Image 2: Each image may be at most 5 MB and 40 megapixels.", Some("images"), None),
            (PublishError::Unknown(cause()).into(), 500, internal, None, None),
            // accounts
            (LoginError::InvalidCredentials.into(), 401, "Invalid email or password.", None, None),
            (LoginError::TooManyAttempts { retry_after: Duration::from_secs(90) }.into(), 429, "Too many attempts. Try again in 2 minutes.", None, Some("90")),
            (LoginError::Unknown(cause()).into(), 500, internal, None, None),
            (SendCodeError::TooSoon { retry_after: Duration::from_secs(42) }.into(), 429, "Please wait 42 seconds before asking for a new code.", None, Some("42")),
            (SendCodeError::TooManySends { retry_after: Duration::from_secs(30) }.into(), 429, "Too many attempts. Try again in 30 seconds.", None, Some("30")),
            (SendCodeError::Mail(accounts::MailError(cause())).into(), 503, MAIL_UNAVAILABLE, None, None),
            (SendCodeError::Unknown(cause()).into(), 500, internal, None, None),
            (VerifyCodeError::InvalidCode.into(), 422, "Invalid code. Please try again.", Some("code"), None),
            (VerifyCodeError::Expired.into(), 422, "This code has expired. Ask for a new one.", Some("code"), None),
            (VerifyCodeError::EmailTaken.into(), 422, "This e-mail is already registered.", Some("email"), None),
            (VerifyCodeError::TooManyAttempts { retry_after: None }.into(), 429, TOO_MANY_CODES, None, Some("60")),
            (VerifyCodeError::TooManyAttempts { retry_after: Some(Duration::from_secs(5)) }.into(), 429, TOO_MANY_CODES, None, Some("5")),
            (VerifyCodeError::Unknown(cause()).into(), 500, internal, None, None),
            (ResetPasswordError::InvalidToken.into(), 422, "This reset link is invalid or has expired.", Some("token"), None),
            (ResetPasswordError::Unknown(cause()).into(), 500, internal, None, None),
            // outside systems
            (RobloxLookupError::Unavailable("timeout".into()).into(), 502, ROBLOX_FAILED, None, None),
            (RobloxLookupError::Unknown(cause()).into(), 502, ROBLOX_FAILED, None, None),
            (DiscordLinkError::MissingUserId.into(), 400, DISCORD_NO_USER_ID, None, None),
            (DiscordLinkError::InvalidCode.into(), 400, DISCORD_CODE_REFUSED, None, None),
            (DiscordLinkError::Unavailable("timeout".into()).into(), 502, DISCORD_FAILED, None, None),
            (DiscordLinkError::Unknown(cause()).into(), 502, DISCORD_FAILED, None, None),
            (WebhookError::BadSignature.into(), 400, "Webhook refused: no valid signature.", None, None),
        ];
        for (error, status, message, field, retry_after) in table {
            let shown = format!("{error:?}");
            let (got_status, json, got_retry) = body(error).await;
            assert_eq!(got_status.as_u16(), status, "{shown}");
            assert_eq!(json["message"], message, "{shown}");
            match field {
                Some(field) => assert!(json["errors"][field].is_array(), "{shown}: {json}"),
                None => assert_eq!(json["errors"], serde_json::json!({}), "{shown}"),
            }
            assert_eq!(got_retry.as_deref(), retry_after, "{shown}");
        }
    }

    #[test]
    fn serde_messages_name_the_field() {
        assert_eq!(
            field_of("missing field `email` at line 1 column 2").as_deref(),
            Some("email")
        );
        match invalid_fields("missing field `password_confirmation` at line 1") {
            ApiError::Validation { errors, .. } => {
                assert_eq!(
                    errors["password_confirmation"][0],
                    "The password confirmation field is required."
                );
            }
            other => panic!("{other:?}"),
        }
        // a query string naming a parameter twice (`?key=a&key=b`)
        match invalid_fields("duplicate field `key`") {
            ApiError::Validation { message, errors } => {
                assert_eq!(message, "The key field is given more than once.");
                assert_eq!(errors["key"][0], message);
            }
            other => panic!("{other:?}"),
        }
    }
}
