//! The API's OpenAPI 3.1 document, generated from the handlers' `#[utoipa::path]` attributes and
//! the request and response types' `ToSchema`, served at `GET /api/openapi.json`.
//!
//! The calls are collected in three documents: [`account`] (storefront and account), [`shop`]
//! (buying, help chat, push) and [`admin`] (staff); [`document`] joins them under the shared
//! parts below (the error shape and the session cookie). The same lists route the calls
//! ([`api_routes`]): a call is served at the path and methods its `#[utoipa::path]` names, so
//! the document and the router cannot disagree.

use std::sync::OnceLock;

use actix_web::http::Method;
use actix_web::web;
use utoipa::openapi::path::HttpMethod;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityScheme};
use utoipa::{Modify, OpenApi};

/// One part of the API: `#[derive(OpenApi)]` on `$doc` with the calls listed (each
/// `module::handler`), and `$doc::routes`, which registers them in the order listed (a fixed
/// path before a parameter at the same place: `reorder` before `{id}`).
macro_rules! api_part {
    (
        #[openapi(paths($($module:ident :: $handler:ident),* $(,)?), $($rest:tt)*)]
        pub struct $doc:ident;
    ) => {
        #[derive(utoipa::OpenApi)]
        #[openapi(paths($($module::$handler),*), $($rest)*)]
        pub struct $doc;

        impl $doc {
            /// Routes every call of this part (inside the `/api` scope).
            pub fn routes(cfg: &mut actix_web::web::ServiceConfig) {
                $(pastey::paste! {
                    crate::openapi::route::<$module::[<__path_ $handler>], _, _>(cfg, $module::$handler);
                })*
            }
        }
    };
}

mod account;
mod admin;
mod shop;

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

/// Routes every call of the API (inside the `/api` scope), in the document's order.
pub fn api_routes(cfg: &mut web::ServiceConfig) {
    account::AccountDoc::routes(cfg);
    shop::ShopDoc::routes(cfg);
    admin::AdminDoc::routes(cfg);
}

/// Registers `handler` at the path its description names (less the scope's `/api`), once for
/// each of its methods.
fn route<P, F, Args>(cfg: &mut web::ServiceConfig, handler: F)
where
    P: utoipa::Path,
    F: actix_web::Handler<Args>,
    Args: actix_web::FromRequest + 'static,
    F::Output: actix_web::Responder + 'static,
{
    let path = P::path();
    let path = path.strip_prefix("/api").unwrap_or(&path);
    for method in P::methods() {
        let method = match method {
            HttpMethod::Get => Method::GET,
            HttpMethod::Post => Method::POST,
            HttpMethod::Put => Method::PUT,
            HttpMethod::Delete => Method::DELETE,
            HttpMethod::Options => Method::OPTIONS,
            HttpMethod::Head => Method::HEAD,
            HttpMethod::Patch => Method::PATCH,
            HttpMethod::Trace => Method::TRACE,
        };
        cfg.route(path, web::method(method).to(handler.clone()));
    }
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

    /// What each documented call answers through the router: the API's calls alone in the
    /// `/api` scope, whose default (no call took the request) answers 418 here.
    async fn routed(calls: &BTreeSet<(String, String)>) -> Vec<(String, String, u16)> {
        use actix_web::{test, web, App, HttpResponse};
        let app = test::init_service(
            App::new().service(
                web::scope("/api")
                    .configure(api_routes)
                    .default_service(web::to(HttpResponse::ImATeapot)),
            ),
        )
        .await;
        let mut answers = Vec::new();
        for (method, path) in calls {
            // a path parameter gets a value every id parses (an order, a chat, a file)
            let uri = path
                .split('/')
                .map(|segment| match segment.starts_with('{') {
                    true => "1",
                    false => segment,
                })
                .collect::<Vec<_>>()
                .join("/");
            let request = test::TestRequest::default()
                .method(method.parse().unwrap())
                .uri(&uri)
                .to_request();
            let status = test::call_service(&app, request).await.status().as_u16();
            answers.push((method.clone(), path.clone(), status));
        }
        answers
    }

    #[actix_web::test]
    async fn every_documented_call_reaches_its_handler_and_nothing_else_is_routed() {
        let documented = documented_routes();
        assert!(documented.len() > 80, "{documented:?}");
        let unrouted: Vec<_> = routed(&documented)
            .await
            .into_iter()
            .filter(|(_, _, status)| *status == 418)
            .collect();
        assert!(
            unrouted.is_empty(),
            "documented but not routed: {unrouted:#?}"
        );

        // a method the document does not name for a path is not routed either
        let others: BTreeSet<_> = [
            ("PATCH", "/api/health"),
            ("PUT", "/api/orders/{id}"),
            ("GET", "/api/admin/products/reorder"),
            ("POST", "/api/no-such-call"),
        ]
        .into_iter()
        .map(|(method, path)| (method.to_owned(), path.to_owned()))
        .collect();
        let answers = routed(&others).await;
        assert!(
            answers.iter().all(|(_, _, status)| *status == 418),
            "{answers:#?}"
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
