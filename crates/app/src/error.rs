//! The one place where errors become HTTP answers: every domain error maps to an `ApiError`
//! here, and every `ApiError` answers `{"message": "...", "errors": {"field": ["..."]}}`.

use std::collections::BTreeMap;
use std::time::Duration;

use actix_multipart::MultipartError;
use actix_web::{
    error::{JsonPayloadError, PathError, QueryPayloadError, UrlencodedError},
    http::{header, StatusCode},
    HttpRequest, HttpResponse, ResponseError,
};
use catalog::CatalogError;
use orders::{CaptureError, CheckoutError, OpenCheckoutError};
use serde::Serialize;

use crate::dto::checkout::PricedCartResponse;

/// Every error the API answers with.
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
    /// One line per product the shopper has to remove or reduce (spec §4 wording).
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

#[derive(Serialize)]
struct ErrorBody<'a> {
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

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict(_) | ApiError::CartConflict { .. } => StatusCode::CONFLICT,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Validation { .. } | ApiError::PromoRejected(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::BadGateway(_) => StatusCode::BAD_GATEWAY,
            ApiError::Unavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let empty = BTreeMap::new();
        let promo_errors;
        let mut body = ErrorBody {
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
            CatalogError::Unknown(cause) => ApiError::Internal(cause),
        }
    }
}

/// The 409's message when products are gone or short of stock (spec §4).
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
    }
}
