//! actix's own extractor failures (JSON, query, path, multipart, a bare 405), answered
//! in the API's error shape.

use std::collections::BTreeMap;

use actix_multipart::MultipartError;
use actix_web::{
    error::{JsonPayloadError, PathError, QueryPayloadError},
    http::{header, StatusCode},
    HttpRequest,
};

use l10n::Text;

use super::api::ApiError;

/// serde's message for a missing or mistyped field names the field: "missing field `email`".
pub(super) fn field_of(message: &str) -> Option<String> {
    let start = message.find('`')? + 1;
    let end = start + message[start..].find('`')?;
    Some(message[start..end].to_owned())
}

pub(super) fn invalid_fields(detail: &str) -> ApiError {
    match field_of(detail) {
        Some(field) if detail.starts_with("missing field") => {
            let name = field.replace('_', " ");
            ApiError::field(
                &field,
                Text::new("error-field-required").with("field", name),
            )
        }
        Some(field) if detail.starts_with("unknown field") => {
            let name = field.replace('_', " ");
            ApiError::field(
                &field,
                Text::new("error-field-unexpected").with("field", name),
            )
        }
        Some(field) if detail.starts_with("duplicate field") => {
            let name = field.replace('_', " ");
            ApiError::field(&field, Text::new("error-field-twice").with("field", name))
        }
        _ => ApiError::Validation {
            message: Text::new("error-invalid-value")
                .with("detail", detail)
                .into(),
            errors: BTreeMap::new(),
        },
    }
}

/// JSON bodies: 415 for another content type, 413 too large, 400 unparseable, 422 bad fields.
pub fn json_error(error: JsonPayloadError, _: &HttpRequest) -> actix_web::Error {
    let api = match &error {
        JsonPayloadError::ContentType => {
            ApiError::UnsupportedMediaType(Text::new("error-body-not-json").into())
        }
        JsonPayloadError::Overflow { limit }
        | JsonPayloadError::OverflowKnownLength { limit, .. } => ApiError::PayloadTooLarge(
            Text::new("error-body-too-large")
                .with("limit", *limit)
                .into(),
        ),
        JsonPayloadError::Deserialize(serde) if serde.is_data() => {
            invalid_fields(&serde.to_string())
        }
        JsonPayloadError::Deserialize(_) => {
            ApiError::BadRequest(Text::new("error-body-invalid-json").into())
        }
        _ => ApiError::BadRequest(Text::new("error-body-unreadable").into()),
    };
    api.into()
}

/// Query strings: 422 naming the field.
pub fn query_error(error: QueryPayloadError, _: &HttpRequest) -> actix_web::Error {
    match &error {
        QueryPayloadError::Deserialize(detail) => invalid_fields(&detail.to_string()).into(),
        _ => ApiError::BadRequest(Text::new("error-query-unreadable").into()).into(),
    }
}

/// Path segments that do not parse: 404, the resource named does not exist.
pub fn path_error(_: PathError, _: &HttpRequest) -> actix_web::Error {
    ApiError::NotFound(l10n::Text::new("error-not-found").into()).into()
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
    .app_data(web::PathConfig::default().error_handler(path_error));
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
        let mut response = ApiError::MethodNotAllowed(Text::new("error-method-not-allowed").into())
            .into_response();
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
        | MultipartError::BoundaryMissing => {
            ApiError::UnsupportedMediaType(Text::new("error-multipart").into())
        }
        other => {
            tracing::debug!(error = %other, "unreadable multipart body");
            ApiError::BadRequest(Text::new("error-upload-unreadable").into())
        }
    }
}
