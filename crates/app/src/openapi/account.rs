//! The storefront's public calls and the shopper's account: health, site, products, sign-up,
//! login, password reset, profile and its export and erasure, and this document.

use utoipa::OpenApi;

#[derive(OpenApi)]
#[openapi(paths(super::serve), components(schemas()))]
pub struct AccountDoc;
