//! actix's own extractor failures (JSON, query, path, multipart, a bare 405), answered
//! in the API's error shape.

use std::collections::BTreeMap;

use actix_multipart::MultipartError;
use actix_web::{
    error::{JsonPayloadError, PathError, QueryPayloadError},
    http::{header, StatusCode},
    HttpRequest, ResponseError,
};

use super::api::ApiError;

/// serde's message for a missing or mistyped field names the field: "missing field `email`".
pub(super) fn field_of(message: &str) -> Option<String> {
    let start = message.find('`')? + 1;
    let end = start + message[start..].find('`')?;
    Some(message[start..end].to_owned())
}

pub(super) fn invalid_fields(detail: &str) -> ApiError {
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
