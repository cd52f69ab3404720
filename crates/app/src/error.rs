use std::collections::BTreeMap;

use actix_web::{http::StatusCode, HttpResponse, ResponseError};
use catalog::CatalogError;
use serde::Serialize;

/// Every error the API answers with: a status and the body
/// `{"message": "...", "errors": {"field": ["..."]}}`.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    NotFound(String),
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    message: &'a str,
    errors: &'a BTreeMap<String, Vec<String>>,
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let empty = BTreeMap::new();
        let (message, errors) = match self {
            ApiError::NotFound(message) => (message.as_str(), &empty),
            ApiError::Internal(cause) => {
                tracing::error!(error = ?cause, "request failed");
                (
                    "Something went wrong on our side. Please try again.",
                    &empty,
                )
            }
        };
        HttpResponse::build(self.status_code()).json(ErrorBody { message, errors })
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
