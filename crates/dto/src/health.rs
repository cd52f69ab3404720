//! `GET /api/health` and `GET /api/health/ready` as the API sends them.

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

/// The server is up and its database answers.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    #[schema(example = "ok")]
    pub status: &'static str,
}

/// Every dependency this instance needs answered.
#[derive(Debug, Serialize, ToSchema)]
pub struct Readiness {
    #[schema(example = "ready")]
    pub status: &'static str,
    /// Each check and its result (`ok`, or `not used` for a Redis the shop is not configured
    /// with): `database`, `redis`, `storefront`.
    #[schema(example = json!({"database": "ok", "redis": "not used", "storefront": "ok"}))]
    pub checks: BTreeMap<&'static str, &'static str>,
}

/// The 503's body: the error shape, one entry per failed check.
#[derive(Debug, Serialize)]
pub struct NotReady {
    pub message: String,
    /// Always `not_ready`.
    pub code: crate::ErrorCode,
    pub errors: BTreeMap<&'static str, Vec<String>>,
}
