use actix_web::{web, HttpResponse};
use serde_json::json;

use crate::{error::ApiError, state::AppState};

/// Ready when the database answers.
pub async fn health(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    state.store.connection().ping().await.map_err(|e| {
        ApiError::Internal(anyhow::Error::new(e).context("the database does not answer"))
    })?;
    Ok(HttpResponse::Ok().json(json!({ "status": "ok" })))
}
