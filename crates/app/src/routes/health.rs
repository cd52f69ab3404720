//! `GET /api/health`, what load balancers ask today (the database answers), and
//! `GET /api/health/ready`, whether this instance can serve the shop: its database, its session
//! store when that is Redis, and the built storefront.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use actix_web::{web, HttpResponse};

use store::Store;

use crate::routes::spa::StaticDir;
use crate::{auth::session::ShopSessionStore, error::ApiError, error::ErrorBody};
use dto::health::{Health, NotReady, Readiness};

/// How long each readiness check may take before it counts as failed.
pub const CHECK_TIMEOUT: Duration = Duration::from_secs(2);

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

/// Whether this instance can serve the shop: its database answers, its session Redis answers
/// (when `session.redis_url` is set), and the built storefront (`server.static_dir`'s
/// `index.html`) is there. Each check has two seconds.
#[utoipa::path(
    get,
    path = "/api/health/ready",
    tag = "meta",
    responses(
        (status = 200, description = "Ready: every check passed.", body = Readiness),
        (status = 503, description = "Not ready: `errors` names each failed check \
                                      (`database`, `redis`, `storefront`) and why.", body = ErrorBody),
    ),
)]
pub async fn ready(
    database: web::Data<Store>,
    sessions: web::Data<ShopSessionStore>,
    static_dir: web::Data<StaticDir>,
) -> HttpResponse {
    let index = static_dir.0.join("index.html");
    let (database, redis, storefront) = futures::join!(
        database_check(&database),
        redis_check(&sessions),
        storefront_check(index)
    );
    readiness(database, redis, storefront)
}

/// The database answers within [`CHECK_TIMEOUT`].
async fn database_check(database: &Store) -> Result<(), String> {
    match tokio::time::timeout(CHECK_TIMEOUT, database.connection().ping()).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(error)) => {
            tracing::warn!(error = %error, "readiness: the database does not answer");
            Err("the database does not answer (database.url)".to_owned())
        }
        Err(_) => Err(format!(
            "the database did not answer within {} s (database.url)",
            CHECK_TIMEOUT.as_secs()
        )),
    }
}

/// The session Redis answers within [`CHECK_TIMEOUT`]; `Ok(None)` when the shop uses none.
async fn redis_check(sessions: &ShopSessionStore) -> Result<Option<()>, String> {
    match sessions.ping(CHECK_TIMEOUT).await {
        None => Ok(None),
        Some(Ok(())) => Ok(Some(())),
        Some(Err(error)) => {
            tracing::warn!(
                error = format!("{error:#}"),
                "readiness: Redis does not answer"
            );
            Err("the session Redis does not answer (session.redis_url)".to_owned())
        }
    }
}

/// The built storefront's `index.html` is there.
async fn storefront_check(index: PathBuf) -> Result<(), String> {
    // one stat of a local file: no need to leave the worker thread
    match std::fs::metadata(&index) {
        Ok(meta) if meta.is_file() => Ok(()),
        _ => Err(
            "the storefront is not built: server.static_dir has no index.html (run the \
             frontend build)"
                .to_owned(),
        ),
    }
}

/// The answer to the checks' results: 200 with each check's state when all passed, else 503
/// naming each failed check and why.
fn readiness(
    database: Result<(), String>,
    redis: Result<Option<()>, String>,
    storefront: Result<(), String>,
) -> HttpResponse {
    let mut checks = BTreeMap::new();
    let mut errors = BTreeMap::new();
    let mut note = |name: &'static str, result: Result<&'static str, String>| match result {
        Ok(state) => {
            checks.insert(name, state);
        }
        Err(reason) => {
            errors.insert(name, vec![reason]);
        }
    };
    note("database", database.map(|()| "ok"));
    note(
        "redis",
        redis.map(|used| if used.is_some() { "ok" } else { "not used" }),
    );
    note("storefront", storefront.map(|()| "ok"));
    if errors.is_empty() {
        return HttpResponse::Ok().json(Readiness {
            status: "ready",
            checks,
        });
    }
    let reasons: Vec<&str> = errors.values().flatten().map(String::as_str).collect();
    let message = format!("Not ready: {}.", reasons.join("; "));
    tracing::warn!(%message, "readiness check failed");
    HttpResponse::ServiceUnavailable().json(NotReady {
        message,
        code: dto::ErrorCode::NotReady,
        errors,
    })
}
