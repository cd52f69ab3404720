//! The API's description of itself: `GET /api/openapi.json`, and the methods each path takes
//! (the `Allow` header of a 405). The document is made by `crate::openapi` and handed in at
//! start ([`ApiDocument`]), so the routes do not depend on the module that lists them.

use std::collections::HashMap;

use actix_web::http::header::{self, HeaderValue};
use actix_web::{web, HttpResponse};

/// The OpenAPI document as served, and the methods of each of its paths.
#[derive(Debug)]
pub struct ApiDocument {
    json: &'static str,
    allowed: HashMap<String, HeaderValue>,
}

impl ApiDocument {
    /// `json` is `document` as pretty JSON (what the endpoint answers).
    pub fn new(json: &'static str, document: &utoipa::openapi::OpenApi) -> Self {
        let allowed = document
            .paths
            .paths
            .iter()
            .filter_map(|(path, item)| {
                let methods: Vec<&str> = [
                    ("GET", item.get.is_some()),
                    ("POST", item.post.is_some()),
                    ("PUT", item.put.is_some()),
                    ("PATCH", item.patch.is_some()),
                    ("DELETE", item.delete.is_some()),
                ]
                .into_iter()
                .filter_map(|(method, present)| present.then_some(method))
                .collect();
                let value = HeaderValue::from_str(&methods.join(", ")).ok()?;
                Some((path.clone(), value))
            })
            .collect();
        ApiDocument { json, allowed }
    }

    /// The methods an /api path pattern takes (`GET, DELETE`), for `Allow` on a 405. The
    /// document names every route with its methods (its test keeps it in step with the routes).
    pub fn allowed_methods(&self, pattern: &str) -> Option<&HeaderValue> {
        self.allowed.get(pattern)
    }
}

/// `GET /api/openapi.json`: this document.
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    tag = "meta",
    responses((status = 200, description = "This document (OpenAPI 3.1).", content_type = "application/json")),
)]
pub async fn serve(document: web::Data<ApiDocument>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .content_type("application/json")
        .body(document.json)
}
