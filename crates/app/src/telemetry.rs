//! Logging: the subscriber ([`init`]), the request span ([`ShopRootSpan`]) and one log line
//! per request with its `X-Request-Id` ([`request_log`]).

use std::io::IsTerminal;
use std::time::Instant;

use actix_web::{
    body::{BoxBody, MessageBody},
    dev::{ServiceRequest, ServiceResponse},
    http::header::{self, HeaderName, HeaderValue},
    middleware::Next,
    HttpMessage, HttpResponse,
};
use tracing_actix_web::RequestId;
use tracing_subscriber::{fmt, EnvFilter};

use crate::client_ip::ClientIp;
use crate::settings::Environment;

/// The header every answer (but the product list's fast lane) carries the request's id in.
pub const REQUEST_ID_HEADER: HeaderName = HeaderName::from_static("x-request-id");

/// The largest 5xx body [`request_log`] reads to add the request id to (the shop's own error
/// bodies are a few hundred bytes).
const MAX_ERROR_BODY: usize = 64 * 1024;

/// Logs as JSON lines in production and readable text elsewhere. `RUST_LOG` overrides the
/// default level (info; warn in tests).
pub fn init(environment: Environment) {
    let default_level = match environment {
        Environment::Test => "warn",
        _ => "info,sqlx=warn,sea_orm=warn",
    };
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default_level));
    let result = match environment {
        Environment::Production => fmt().json().with_env_filter(filter).try_init(),
        // colours only on a terminal: a log file or a collector gets plain text
        _ => fmt()
            .with_ansi(std::io::stdout().is_terminal())
            .with_env_filter(filter)
            .try_init(),
    };
    if result.is_err() {
        tracing::debug!("a tracing subscriber was already installed");
    }
}

/// The request span of every request: the method, the route pattern (never the path, whose ids
/// and names can be personal, nor the query string, which can hold secrets such as the reset
/// link's token), the status and the request id. Span fields reach every log line written
/// inside the request.
pub struct ShopRootSpan;

impl tracing_actix_web::RootSpanBuilder for ShopRootSpan {
    fn on_request_start(request: &actix_web::dev::ServiceRequest) -> tracing::Span {
        use actix_web::HttpMessage;
        let route = request.match_pattern().unwrap_or_else(|| "default".into());
        let request_id = request
            .extensions()
            .get::<tracing_actix_web::RequestId>()
            .map(ToString::to_string)
            .unwrap_or_default();
        tracing::info_span!(
            "HTTP request",
            http.method = %request.method(),
            http.route = %route,
            http.status_code = tracing::field::Empty,
            otel.kind = "server",
            otel.status_code = tracing::field::Empty,
            request_id = %request_id,
            exception.message = tracing::field::Empty,
            exception.details = tracing::field::Empty,
        )
    }

    fn on_request_end<B: actix_web::body::MessageBody>(
        span: tracing::Span,
        outcome: &Result<actix_web::dev::ServiceResponse<B>, actix_web::Error>,
    ) {
        tracing_actix_web::DefaultRootSpanBuilder::on_request_end(span, outcome);
    }
}

/// One log line per request, at its end: method, route pattern, status, duration, request id
/// and the client's address (through `server.trusted_proxies`); never the path, the query
/// string, cookies or any other header. 5xx at WARN (the error itself is logged at ERROR with
/// its cause chain where it happened), everything else at INFO: a 4xx is the client's doing.
///
/// Every answer gets `X-Request-Id`; the 5xx's body gets the same id from
/// [`request_id_in_body`], inside the compression. Runs inside `TracingLogger`, which makes the
/// id; the product list's fast lane passes by both (`public_get::SkipWhen`, `is_product_list`).
pub async fn request_log(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let started = Instant::now();
    let method = request.method().clone();
    let request_id = request
        .extensions()
        .get::<RequestId>()
        .map(ToString::to_string)
        .unwrap_or_default();
    let client = ClientIp::of(request.request());
    let answered = next.call(request).await;
    let (route, status) = match &answered {
        Ok(response) => (
            response
                .request()
                .match_pattern()
                .unwrap_or_else(|| "unmatched".to_owned()),
            response.status(),
        ),
        Err(error) => (
            "unmatched".to_owned(),
            error.as_response_error().status_code(),
        ),
    };
    let duration_ms = (started.elapsed().as_secs_f64() * 1000.0 * 10.0).round() / 10.0;
    if status.is_server_error() {
        tracing::warn!(
            method = %method,
            route = %route,
            status = status.as_u16(),
            duration_ms,
            request_id = %request_id,
            client_address = %client,
            "request answered with a server error"
        );
    } else {
        tracing::info!(
            method = %method,
            route = %route,
            status = status.as_u16(),
            duration_ms,
            request_id = %request_id,
            client_address = %client,
            "request"
        );
    }
    let header = HeaderValue::from_str(&request_id).ok();
    match answered {
        Ok(mut response) => {
            if let Some(value) = header {
                response.headers_mut().insert(REQUEST_ID_HEADER, value);
            }
            Ok(response.map_into_boxed_body())
        }
        // A middleware's error (the session store's, say): its answer gets the id too. The
        // request is gone with the error, so the answer travels as the error's response.
        Err(error) => {
            let mut response = error.error_response();
            if let Some(value) = header {
                response.headers_mut().insert(REQUEST_ID_HEADER, value);
            }
            Err(actix_web::error::InternalError::from_response(error, response).into())
        }
    }
}

/// A 5xx's JSON body gets `request_id` (the `X-Request-Id` [`request_log`] sends), so a support
/// ticket can be matched to the log; an empty 5xx body, e.g. the session middleware's, becomes
/// the error shape. Runs inside the response compression: outside it, a compressed body (every
/// browser asks for gzip) could not be read and went out without the id.
pub async fn request_id_in_body(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let request_id = request
        .extensions()
        .get::<RequestId>()
        .map(ToString::to_string)
        .unwrap_or_default();
    match next.call(request).await {
        Ok(response) => {
            let (request, response) = response.map_into_boxed_body().into_parts();
            let response = with_request_id(response, &request_id).await;
            Ok(ServiceResponse::new(request, response))
        }
        Err(error) => {
            let response = with_request_id(error.error_response(), &request_id).await;
            Err(actix_web::error::InternalError::from_response(error, response).into())
        }
    }
}

/// On a 5xx, adds `"request_id"` to its JSON object body (an empty body becomes the error shape
/// with it; any other body, and a body already encoded, is left as it is).
async fn with_request_id(
    response: HttpResponse<BoxBody>,
    request_id: &str,
) -> HttpResponse<BoxBody> {
    if !response.status().is_server_error()
        || response.headers().contains_key(header::CONTENT_ENCODING)
    {
        return response;
    }
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json"));
    let (mut head, body) = response.into_parts();
    let empty = matches!(
        body.size(),
        actix_web::body::BodySize::None | actix_web::body::BodySize::Sized(0)
    );
    if !is_json && !empty {
        return head.set_body(body);
    }
    let bytes = match actix_web::body::to_bytes_limited(body, MAX_ERROR_BODY).await {
        Ok(Ok(bytes)) => bytes,
        // too large, or failed while read: the id stays in the header alone
        _ => return head.set_body(BoxBody::new(())),
    };
    let mut value: serde_json::Value = if bytes.is_empty() {
        serde_json::json!({
            "message": "Something went wrong on our side. Please try again.",
            "code": dto::ErrorCode::Internal,
            "errors": {},
        })
    } else {
        match serde_json::from_slice(&bytes) {
            Ok(value) => value,
            Err(_) => return head.set_body(BoxBody::new(bytes)),
        }
    };
    if let Some(object) = value.as_object_mut() {
        object.insert("request_id".to_owned(), request_id.into());
    }
    let body = serde_json::to_vec(&value).unwrap_or_default();
    head.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    head.set_body(BoxBody::new(body))
}
