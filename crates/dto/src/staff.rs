//! What the staff calls share in their OpenAPI description: the one-line confirmation some of
//! them answer, and the refusals that happen before a handler runs (the role guards in
//! `auth::guards`, the cross-site check in `auth::origin`, the JSON extractor's
//! `error::json_error`). A call that answers one of these statuses for a reason of its own lists
//! it after the set, which replaces the set's entry.

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::openapi::{RefOr, Response};

use crate::responses::{error, json_refusals};
use utoipa::{IntoResponses, ToSchema};

/// A confirmation to show, e.g. `{"message": "Product order saved."}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Confirmation {
    #[schema(example = "Product order saved.")]
    pub message: &'static str,
}

impl Confirmation {
    pub fn new(message: &'static str) -> Self {
        Confirmation { message }
    }
}

const NO_SESSION: &str = "No session, or the session has ended: \"Please log in.\"";
const NOT_STAFF: &str = "Logged in without the staff role (admin or super_admin): \"You do not \
                         have permission to do that.\"; or, on a call that changes state, a \
                         cross-site request (its `Origin` or `Sec-Fetch-Site` names another site).";
const NOT_SUPER_ADMIN: &str = "Logged in as anyone but a super_admin: \"You do not have \
                               permission to do that.\"; or, on a call that changes state, a \
                               cross-site request (its `Origin` or `Sec-Fetch-Site` names \
                               another site).";

/// A call for admins and super_admins: 401 without a session, 403 for a customer.
pub struct StaffOnly;

impl IntoResponses for StaffOnly {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        BTreeMap::from([
            ("401".to_owned(), error(NO_SESSION)),
            ("403".to_owned(), error(NOT_STAFF)),
        ])
    }
}

/// A call for super_admins only: 401 without a session, 403 for a customer or an admin.
pub struct SuperAdminOnly;

impl IntoResponses for SuperAdminOnly {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        BTreeMap::from([
            ("401".to_owned(), error(NO_SESSION)),
            ("403".to_owned(), error(NOT_SUPER_ADMIN)),
        ])
    }
}

/// A staff call with a JSON body: [`StaffOnly`], and 400 not JSON, 413 over 64 KiB, 415 another
/// content type. A body whose fields have the wrong JSON types answers 422, which each call
/// lists with its own checks.
pub struct StaffJson;

impl IntoResponses for StaffJson {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        let mut responses = StaffOnly::responses();
        responses.extend(json_refusals());
        responses
    }
}

/// A super_admin call with a JSON body: [`SuperAdminOnly`] and the JSON refusals of
/// [`StaffJson`].
pub struct SuperAdminJson;

impl IntoResponses for SuperAdminJson {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        let mut responses = SuperAdminOnly::responses();
        responses.extend(json_refusals());
        responses
    }
}

/// A staff call with a multipart body: [`StaffOnly`], 415 when the body is not
/// `multipart/form-data`, 400 when it cannot be read.
pub struct StaffMultipart;

impl IntoResponses for StaffMultipart {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        let mut responses = StaffOnly::responses();
        responses.extend(multipart_refusals());
        responses
    }
}

/// A super_admin call with a multipart body: [`SuperAdminOnly`] and the refusals of
/// [`StaffMultipart`].
pub struct SuperAdminMultipart;

impl IntoResponses for SuperAdminMultipart {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        let mut responses = SuperAdminOnly::responses();
        responses.extend(multipart_refusals());
        responses
    }
}

fn multipart_refusals() -> [(String, RefOr<Response>); 2] {
    [
        (
            "400".to_owned(),
            error("The multipart body cannot be read."),
        ),
        (
            "415".to_owned(),
            error("The request body is not `multipart/form-data` (with a boundary)."),
        ),
    ]
}
