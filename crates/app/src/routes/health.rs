use actix_web::{web, HttpResponse};
use serde_json::json;

use store::Store;

use crate::error::ApiError;

/// Ready when the database answers.
pub async fn health(database: web::Data<Store>) -> Result<HttpResponse, ApiError> {
    database.connection().ping().await.map_err(|e| {
        ApiError::Internal(anyhow::Error::new(e).context("the database does not answer"))
    })?;
    Ok(HttpResponse::Ok().json(json!({ "status": "ok" })))
}
