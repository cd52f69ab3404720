//! `GET /api/health` and `GET /api/health/ready` as the API sends them.

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

/// The server is up and its database answers.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    #[schema(example = "ok")]
    pub(crate) status: &'static str,
}

/// Every dependency this instance needs answered.
#[derive(Debug, Serialize, ToSchema)]
pub struct Readiness {
    #[schema(example = "ready")]
    pub(crate) status: &'static str,
    /// Each check and its result (`ok`, or `not used` for a Redis the shop is not configured
    /// with): `database`, `redis`, `storefront`.
    #[schema(example = json!({"database": "ok", "redis": "not used", "storefront": "ok"}))]
    pub(crate) checks: BTreeMap<&'static str, &'static str>,
}

/// The 503's body: the error shape, one entry per failed check.
#[derive(Debug, Serialize)]
pub(crate) struct NotReady {
    pub(crate) message: String,
    pub(crate) errors: BTreeMap<&'static str, Vec<String>>,
}
