use actix_web::{web, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use store::Store;

use crate::{error::ApiError, openapi::ErrorBody};

/// The server is up and its database answers.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    #[schema(example = "ok")]
    status: &'static str,
}

/// Ready when the database answers.
#[utoipa::path(
    get,
    path = "/api/health",
    tag = "meta",
    responses(
        (status = 200, description = "Ready: the database answers.", body = Health),
        (status = 500, description = "The database does not answer.", body = ErrorBody),
    ),
)]
pub async fn health(database: web::Data<Store>) -> Result<HttpResponse, ApiError> {
    database.connection().ping().await.map_err(|e| {
        ApiError::Internal(anyhow::Error::new(e).context("the database does not answer"))
    })?;
    Ok(HttpResponse::Ok().json(Health { status: "ok" }))
}
