//! The storefront's public calls and the shopper's account: health, site, products, sign-up,
//! login, password reset, profile and its export and erasure, and this document.

use utoipa::OpenApi;

use crate::routes::{auth, health, products, profile, site};

#[derive(OpenApi)]
#[openapi(
    paths(
        super::serve,
        health::health,
        site::site,
        products::list,
        products::show,
        products::related_ids,
        auth::check,
        auth::login,
        auth::logout,
        auth::send_verification_code,
        auth::verify_code,
        auth::forgot_password,
        auth::reset_password,
        auth::me,
        profile::profile,
        profile::export,
        profile::delete,
    ),
    components(schemas(
        crate::dto::ProductResponse,
        auth::UserResponse,
        auth::AccountType,
    )),
    tags(
        (name = "storefront", description = "The shop's public catalog and settings."),
        (name = "accounts", description = "Sign-up, login, password reset, the profile, its export and erasure."),
        (name = "meta", description = "Health and this document."),
    ),
)]
pub struct AccountDoc;
