//! `ApiError`, the one error every handler answers with, and the one shape it is written in.

use std::collections::BTreeMap;
use std::time::Duration;

use actix_web::{
    http::{header, StatusCode},
    HttpResponse, ResponseError,
};
use serde::Serialize;
use utoipa::ToSchema;

use dto::checkout::{InvalidPayload, PricedCartResponse};
use dto::ErrorCode;
use l10n::Text;
use shared::Language;

use super::message::Msg;

/// Every error the API answers with.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: a body or parameter that cannot be read at all.
    #[error("{0}")]
    BadRequest(Msg),
    /// 401: no session, or the credentials do not match.
    #[error("{0}")]
    Unauthorized(Msg),
    /// 403: logged in with the wrong role, or a cross-site request.
    #[error("{0}")]
    Forbidden(Msg),
    #[error("{0}")]
    NotFound(Msg),
    #[error("{0}")]
    MethodNotAllowed(Msg),
    /// 409: the request conflicts with the current state.
    #[error("{0}")]
    Conflict(Msg),
    /// 409 with a `Retry-After` header: the state the request needs is on its way (another
    /// request is still at it).
    #[error("{message}")]
    ConflictRetry { message: Msg, retry_after_secs: u64 },
    #[error("{0}")]
    PayloadTooLarge(Msg),
    #[error("{0}")]
    UnsupportedMediaType(Msg),
    /// 409: the cart cannot be bought as it is; the answer carries what to fix.
    #[error("{message}")]
    CartConflict { message: Msg, detail: CartConflict },
    /// 422: the promo code does not apply; the answer also carries the reason on its own.
    #[error("{0}")]
    PromoRejected(Msg),
    /// 422 under `currency`: checkout cannot charge in the currency asked for now.
    #[error("{0}")]
    CurrencyUnavailable(Msg),
    /// 422: per-field messages.
    #[error("{message}")]
    Validation {
        message: Msg,
        errors: BTreeMap<String, Vec<Msg>>,
    },
    /// 429 with a `Retry-After` header.
    #[error("{message}")]
    TooManyRequests { message: Msg, retry_after_secs: u64 },
    /// 502: an outside system we called (payment provider, Roblox, Discord) failed or refused.
    #[error("{0}")]
    BadGateway(Msg),
    /// 503: an outside system (the mail server) is down; the request may be retried.
    #[error("{message}")]
    Unavailable {
        message: Msg,
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
    Problems(Vec<Msg>),
    /// The cart as the server prices it, for a client whose total was off.
    FreshCart(Box<PricedCartResponse>),
}

impl ApiError {
    /// A 422 about one field, whose message is also the answer's message.
    pub fn field(field: &str, message: impl Into<Msg>) -> Self {
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
            Text::new("error-too-many-seconds").with("seconds", secs)
        } else {
            Text::new("error-too-many-minutes").with("minutes", secs.div_ceil(60))
        };
        ApiError::TooManyRequests {
            message: message.into(),
            retry_after_secs: secs,
        }
    }

    pub fn internal(cause: impl Into<anyhow::Error>) -> Self {
        ApiError::Internal(cause.into())
    }

    /// The body's machine-readable `code`.
    pub fn code(&self) -> ErrorCode {
        match self {
            ApiError::BadRequest(_) => ErrorCode::BadRequest,
            ApiError::Unauthorized(_) => ErrorCode::Unauthorized,
            ApiError::Forbidden(_) => ErrorCode::Forbidden,
            ApiError::NotFound(_) => ErrorCode::NotFound,
            ApiError::MethodNotAllowed(_) => ErrorCode::MethodNotAllowed,
            ApiError::Conflict(_) => ErrorCode::Conflict,
            ApiError::ConflictRetry { .. } => ErrorCode::InProgress,
            ApiError::PayloadTooLarge(_) => ErrorCode::PayloadTooLarge,
            ApiError::UnsupportedMediaType(_) => ErrorCode::UnsupportedMediaType,
            ApiError::CartConflict {
                detail: CartConflict::Problems(_),
                ..
            } => ErrorCode::CartUnavailable,
            ApiError::CartConflict {
                detail: CartConflict::FreshCart(_),
                ..
            } => ErrorCode::CartChanged,
            ApiError::PromoRejected(_) => ErrorCode::PromoRejected,
            ApiError::CurrencyUnavailable(_) => ErrorCode::CurrencyUnavailable,
            ApiError::Validation { .. } => ErrorCode::InvalidFields,
            ApiError::TooManyRequests { .. } => ErrorCode::RateLimited,
            ApiError::BadGateway(_) => ErrorCode::ProviderFailed,
            ApiError::Unavailable { .. } => ErrorCode::ServiceUnavailable,
            ApiError::Internal(cause) if store::is_unreachable(cause.as_ref()) => {
                ErrorCode::DatabaseUnavailable
            }
            ApiError::Internal(_) => ErrorCode::Internal,
        }
    }
}

/// Collects per-field messages for one 422; the first message becomes the answer's message.
#[derive(Debug, Default)]
pub struct FieldErrors(BTreeMap<String, Vec<Msg>>, Option<Msg>);

impl FieldErrors {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&mut self, field: &str, message: impl Into<Msg>) {
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

    /// Keeps `Ok` values and records the refusal of an `Err` under `field`, in the words of the
    /// message files (the value types' refusals, `error/values.rs`).
    pub fn check_value<T, E: Into<Msg>>(&mut self, field: &str, result: Result<T, E>) -> Option<T> {
        result.map_err(|e| self.add(field, e)).ok()
    }

    /// `Err(422)` when any field failed, else the checked values `checked` gathers (every one
    /// is there once no field failed; a missing one is a bug, answered 500).
    pub fn finish_with<T>(self, checked: impl FnOnce() -> Option<T>) -> Result<T, ApiError> {
        self.finish()?;
        checked().ok_or_else(|| ApiError::internal(anyhow::anyhow!("checked fields went missing")))
    }

    /// `Err(422)` when any field failed.
    pub fn finish(self) -> Result<(), ApiError> {
        match self.1 {
            None => Ok(()),
            Some(first) => {
                let message = if self.0.values().map(Vec::len).sum::<usize>() > 1 {
                    Msg::AndMore(Box::new(first))
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

/// Every error the API answers with (4xx and 5xx): the message to show, a machine-readable
/// code, and per-field messages on a 422 (empty otherwise).
// What [`ApiError::error_response`] writes, and its schema.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody<'a> {
    /// What went wrong, ready to show (in the request's language).
    #[schema(example = "Product not found.")]
    message: String,
    /// What kind of error this is, for a program (the message is for people).
    code: ErrorCode,
    /// The messages for each field of the request (422); `{}` otherwise.
    errors: BTreeMap<String, Vec<String>>,
    /// The promo code's reason, on a refused promo code (422).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    reason: Option<String>,
    /// What to fix in the cart (409 at checkout).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    problems: Option<Vec<String>>,
    /// The cart as the server prices it (409 at checkout).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, required = false, value_type = Option<dto::checkout::PricedCartResponse>)]
    cart: Option<&'a PricedCartResponse>,
    /// On a 5xx: this answer's `X-Request-Id`, to quote to support (it names the log line).
    // `telemetry::request_id_in_body` writes it into the answer; here it is always `None`
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    request_id: Option<&'a str>,
}

impl From<InvalidPayload> for ApiError {
    fn from(invalid: InvalidPayload) -> Self {
        ApiError::Validation {
            message: invalid.message.into(),
            errors: invalid
                .errors
                .into_iter()
                .map(|(field, messages)| (field, messages.into_iter().map(Msg::from).collect()))
                .collect(),
        }
    }
}

impl ApiError {
    /// The message of the answer (the promo code's reason on a refused code).
    fn message(&self) -> Msg {
        match self {
            ApiError::BadRequest(message)
            | ApiError::Unauthorized(message)
            | ApiError::Forbidden(message)
            | ApiError::NotFound(message)
            | ApiError::MethodNotAllowed(message)
            | ApiError::Conflict(message)
            | ApiError::PayloadTooLarge(message)
            | ApiError::UnsupportedMediaType(message)
            | ApiError::BadGateway(message)
            | ApiError::PromoRejected(message)
            | ApiError::CurrencyUnavailable(message)
            | ApiError::ConflictRetry { message, .. }
            | ApiError::TooManyRequests { message, .. }
            | ApiError::Validation { message, .. }
            | ApiError::CartConflict { message, .. }
            | ApiError::Unavailable { message, .. } => message.clone(),
            ApiError::Internal(_) if self.code() == ErrorCode::DatabaseUnavailable => {
                Text::new("error-database-unavailable").into()
            }
            ApiError::Internal(_) => Text::new("error-internal").into(),
        }
    }

    /// The answer's body in `language`.
    pub fn body(&self, language: Language) -> ErrorBody<'_> {
        let render = |messages: &[Msg]| -> Vec<String> {
            messages.iter().map(|m| m.render(language)).collect()
        };
        let mut body = ErrorBody {
            message: self.message().render(language),
            code: self.code(),
            errors: BTreeMap::new(),
            reason: None,
            problems: None,
            cart: None,
            request_id: None,
        };
        match self {
            ApiError::Validation { errors, .. } => {
                body.errors = errors
                    .iter()
                    .map(|(field, messages)| (field.clone(), render(messages)))
                    .collect();
            }
            ApiError::CartConflict { detail, .. } => match detail {
                CartConflict::Problems(problems) => body.problems = Some(render(problems)),
                CartConflict::FreshCart(cart) => body.cart = Some(cart),
            },
            ApiError::PromoRejected(_) => {
                body.reason = Some(body.message.clone());
                body.errors =
                    BTreeMap::from([("promo_code".to_owned(), vec![body.message.clone()])]);
            }
            ApiError::CurrencyUnavailable(_) => {
                body.errors = BTreeMap::from([("currency".to_owned(), vec![body.message.clone()])]);
            }
            _ => {}
        }
        body
    }

    /// The answer in `language`: its status, its `Retry-After` and its body.
    pub fn response_in(&self, language: Language) -> HttpResponse {
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
        response.json(self.body(language))
    }

    /// The answer as a response that keeps the error, so that
    /// [`crate::language::localize_errors`] words it in the request's language.
    pub fn into_response(self) -> HttpResponse {
        HttpResponse::from_error(self)
    }
}

impl ResponseError for ApiError {
    /// The status follows the code: each code is one kind of answer.
    fn status_code(&self) -> StatusCode {
        match self.code() {
            ErrorCode::BadRequest => StatusCode::BAD_REQUEST,
            ErrorCode::Unauthorized => StatusCode::UNAUTHORIZED,
            ErrorCode::Forbidden => StatusCode::FORBIDDEN,
            ErrorCode::NotFound => StatusCode::NOT_FOUND,
            ErrorCode::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ErrorCode::Conflict
            | ErrorCode::InProgress
            | ErrorCode::CartUnavailable
            | ErrorCode::CartChanged => StatusCode::CONFLICT,
            ErrorCode::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ErrorCode::InvalidFields
            | ErrorCode::PromoRejected
            | ErrorCode::CurrencyUnavailable => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::ProviderFailed => StatusCode::BAD_GATEWAY,
            ErrorCode::ServiceUnavailable
            | ErrorCode::DatabaseUnavailable
            | ErrorCode::SessionsUnavailable
            | ErrorCode::NotReady => StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The answer in English; [`crate::language::localize_errors`] rewords it for a request
    /// in another language. The cause of a 5xx is logged here, once.
    fn error_response(&self) -> HttpResponse {
        match self {
            ApiError::Unavailable { cause, .. } => {
                tracing::error!(error = ?cause, "an outside system failed");
            }
            ApiError::Internal(cause) if self.code() == ErrorCode::DatabaseUnavailable => {
                tracing::error!(error = ?cause, "the database cannot be reached");
            }
            ApiError::Internal(cause) => tracing::error!(error = ?cause, "request failed"),
            _ => {}
        }
        self.response_in(Language::English)
    }
}
