//! The API's OpenAPI 3.1 document, generated from the handlers' `#[utoipa::path]` attributes and
//! the request and response types' `ToSchema`, served at `GET /api/openapi.json`.
//!
//! The calls are collected in three documents: [`account`] (storefront and account), [`shop`]
//! (buying, help chat, push) and [`admin`] (staff); [`document`] joins them under the shared
//! parts below (the error shape and the session cookie).

mod account;
mod admin;
mod shop;

use std::sync::OnceLock;

use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityScheme};
use utoipa::{Modify, OpenApi};

/// The name of the session cookie, as the security scheme names it.
pub const SESSION_COOKIE_SCHEME: &str = "session_cookie";

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Garden Shop API",
        description = "The shop's HTTP API. The guide is docs/api.md; errors share one shape \
                       (`ErrorBody`). Calls marked with `session_cookie` need the session cookie \
                       that `POST /api/login` (or `POST /api/verify-code`) sets.",
        license(name = "MIT"),
    ),
    components(schemas(crate::error::ErrorBody)),
    modifiers(&SessionCookie),
)]
struct ApiDoc;

/// Adds the session cookie as the security scheme.
struct SessionCookie;

impl Modify for SessionCookie {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            SESSION_COOKIE_SCHEME,
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                "garden_session",
                "The session cookie (HttpOnly). Staff calls also need the staff role.",
            ))),
        );
    }
}

/// The whole document: the shared parts, the storefront and account, buying, and staff calls.
pub fn document() -> utoipa::openapi::OpenApi {
    let mut document = ApiDoc::openapi();
    document.merge(account::AccountDoc::openapi());
    document.merge(shop::ShopDoc::openapi());
    document.merge(admin::AdminDoc::openapi());
    document.info.version = env!("CARGO_PKG_VERSION").to_owned();
    document
}

/// The document as JSON, made once (also what `garden-shop openapi` prints).
pub(crate) fn document_json() -> &'static str {
    static JSON: OnceLock<String> = OnceLock::new();
    JSON.get_or_init(|| {
        document().to_pretty_json().unwrap_or_else(|error| {
            // utoipa's types always serialize; should that ever change, say so loudly
            tracing::error!(%error, "the OpenAPI document does not serialize");
            String::from("{}")
        })
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// Every `.route("/…", web::METHOD()…)` under `/api` in `routes/mod.rs`, as (METHOD, path).
    fn registered_api_routes() -> BTreeSet<(String, String)> {
        let source = include_str!("../routes/mod.rs");
        let compact: String = source.split_whitespace().collect();
        let mut routes = BTreeSet::new();
        for piece in compact.split(".route(\"").skip(1) {
            let Some((path, rest)) = piece.split_once('"') else {
                continue;
            };
            let Some(method) = rest
                .strip_prefix(",web::")
                .and_then(|rest| rest.split_once("()"))
                .map(|(method, _)| method.to_uppercase())
            else {
                continue;
            };
            // the API's own routes are registered inside `web::scope("/api")`; the others
            // (media, robots, sitemap, metrics, dev pages) start with their own prefix
            let outside_api = [
                "/media/",
                "/robots.txt",
                "/sitemap.xml",
                "/metrics",
                "/dev/",
            ]
            .iter()
            .any(|prefix| path.starts_with(prefix));
            if !outside_api {
                routes.insert((method, format!("/api{path}")));
            }
        }
        routes
    }

    fn documented_routes() -> BTreeSet<(String, String)> {
        let value = serde_json::to_value(document()).unwrap();
        let mut routes = BTreeSet::new();
        for (path, item) in value["paths"].as_object().unwrap() {
            for method in item.as_object().unwrap().keys() {
                if ["get", "post", "put", "delete", "patch"].contains(&method.as_str()) {
                    routes.insert((method.to_uppercase(), path.clone()));
                }
            }
        }
        routes
    }

    #[test]
    fn the_route_table_is_read() {
        let routes = registered_api_routes();
        assert!(routes.contains(&("GET".into(), "/api/products".into())));
        assert!(routes.contains(&("DELETE".into(), "/api/admin/blocklist/{id}".into())));
        assert!(!routes.iter().any(|(_, path)| path.contains("/media/")));
        assert!(routes.len() > 50, "{routes:?}");
    }

    #[test]
    fn every_api_route_is_documented_and_nothing_else() {
        let registered = registered_api_routes();
        let documented = documented_routes();
        let missing: Vec<_> = registered.difference(&documented).collect();
        let unknown: Vec<_> = documented.difference(&registered).collect();
        assert!(
            missing.is_empty(),
            "routes without documentation: {missing:#?}"
        );
        assert!(
            unknown.is_empty(),
            "documented but not routed: {unknown:#?}"
        );
    }

    #[test]
    fn every_operation_id_is_used_once_in_the_whole_document() {
        let value = serde_json::to_value(document()).unwrap();
        let mut seen = BTreeSet::new();
        for (path, item) in value["paths"].as_object().unwrap() {
            for (method, operation) in item.as_object().unwrap() {
                if let Some(id) = operation["operationId"].as_str() {
                    assert!(
                        seen.insert(id.to_owned()),
                        "{method} {path}: {id} used twice"
                    );
                }
            }
        }
    }

    #[test]
    fn the_document_is_openapi_3_1_with_the_error_shape_and_the_session_cookie() {
        let value: serde_json::Value = serde_json::from_str(document_json()).unwrap();
        assert!(value["openapi"].as_str().unwrap().starts_with("3.1"));
        assert!(value["components"]["schemas"]["ErrorBody"].is_object());
        assert_eq!(
            value["components"]["securitySchemes"][SESSION_COOKIE_SCHEME]["in"],
            "cookie"
        );
    }
}
