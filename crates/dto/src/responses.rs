//! Answers many calls share, for their `#[utoipa::path(responses(…))]`: what the app's JSON
//! extractor and the cross-site check (`auth::origin`) answer before a handler runs. A handler
//! that answers one of these statuses for a reason of its own lists it after the set, which
//! replaces the set's entry.

use std::collections::BTreeMap;

use utoipa::openapi::{ContentBuilder, Ref, RefOr, Response, ResponseBuilder};
use utoipa::IntoResponses;

/// An error answer: `description`, with the `ErrorBody` every error carries.
pub(crate) fn error(description: &str) -> RefOr<Response> {
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("ErrorBody")))
                .build(),
        )
        .build()
        .into()
}

const CROSS_SITE: &str = "Cross-site request refused: the `Origin` (or `Sec-Fetch-Site`) \
                          header names another site.";

/// A call that changes state (any method but GET): 403 from another site.
pub struct CrossSiteRefused;

impl IntoResponses for CrossSiteRefused {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        BTreeMap::from([("403".to_owned(), error(CROSS_SITE))])
    }
}

/// A call with a JSON body (`error::json_error`): 400 not JSON, 413 over 64 KiB, 415 another
/// content type, and the cross-site 403. A body whose fields have the wrong JSON types answers
/// 422, which each call lists with its own checks.
pub struct JsonBodyRefused;

impl IntoResponses for JsonBodyRefused {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        let mut responses = CrossSiteRefused::responses();
        responses.extend(json_refusals());
        responses
    }
}

/// What the JSON extractor answers before a handler runs: 400, 413, 415.
pub(crate) fn json_refusals() -> [(String, RefOr<Response>); 3] {
    [
        (
            "400".to_owned(),
            error("The request body is not valid JSON."),
        ),
        (
            "413".to_owned(),
            error("The request body is larger than 64 KiB."),
        ),
        (
            "415".to_owned(),
            error("The request body is not `application/json`."),
        ),
    ]
}
