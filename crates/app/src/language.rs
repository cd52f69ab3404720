//! The language a request is answered in: the viewer's choice (the `lang` cookie the
//! storefront's switcher sets), else the first language of their browser's `Accept-Language`
//! the shop speaks, else English.

use std::future::{ready, Ready};

use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::header::ACCEPT_LANGUAGE;
use actix_web::middleware::Next;
use actix_web::{FromRequest, HttpRequest};
use shared::Language;

use crate::error::ApiError;

/// The cookie the storefront's language switcher sets (its value a code of [`Language`]).
pub const LANGUAGE_COOKIE: &str = "lang";

/// The language to answer a request in (an extractor; it never fails).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RequestLanguage(pub Language);

impl RequestLanguage {
    pub fn of(request: &HttpRequest) -> Self {
        let chosen = request
            .cookie(LANGUAGE_COOKIE)
            .and_then(|cookie| cookie.value().parse::<Language>().ok());
        let browser = || {
            let header = request.headers().get(ACCEPT_LANGUAGE)?.to_str().ok()?;
            accept_language::parse(header)
                .iter()
                .find_map(|tag| Language::matching(tag))
        };
        RequestLanguage(chosen.or_else(browser).unwrap_or_default())
    }
}

impl FromRequest for RequestLanguage {
    type Error = actix_web::Error;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(Ok(RequestLanguage::of(request)))
    }
}

/// Words every error answer in the request's language, so that no handler passes it around:
/// an [`ApiError`] carries its message as a Fluent id with arguments and answers in English
/// ([`actix_web::ResponseError`] cannot see the request); actix keeps the error in the
/// response it made of it, and here, for a request in another language, the body is written
/// again from that error in the request's language. Status and headers (`Retry-After`,
/// `Allow`, …) stay as they were. Runs inside the request id and the compression, which read
/// and encode the final body.
pub async fn localize_errors(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<BoxBody>>, actix_web::Error> {
    let RequestLanguage(language) = RequestLanguage::of(request.request());
    let answered = next.call(request).await;
    if language == Language::English {
        return answered.map(|response| response.map_into_boxed_body().map_into_left_body());
    }
    match answered {
        Ok(response) => {
            let Some(error) = response
                .response()
                .error()
                .and_then(|error| error.as_error::<ApiError>())
            else {
                return Ok(response.map_into_boxed_body().map_into_left_body());
            };
            let body = serde_json::to_vec(&error.body(language))?;
            let (request, response) = response.into_parts();
            let response = response.set_body(BoxBody::new(body));
            Ok(ServiceResponse::new(request, response).map_into_right_body())
        }
        // a middleware's own error: its answer, in the language, travels with it
        Err(error) => match error.as_error::<ApiError>() {
            Some(api) => {
                let response = api.response_in(language);
                Err(actix_web::error::InternalError::from_response(error, response).into())
            }
            None => Err(error),
        },
    }
}

#[cfg(test)]
mod tests {
    use actix_web::cookie::Cookie;
    use actix_web::test::TestRequest;

    use super::*;

    fn language(request: TestRequest) -> Language {
        RequestLanguage::of(&request.to_http_request()).0
    }

    #[test]
    fn the_cookie_wins_over_the_browser() {
        let request = TestRequest::default()
            .cookie(Cookie::new(LANGUAGE_COOKIE, "de"))
            .insert_header((ACCEPT_LANGUAGE, "es-MX,es;q=0.9"));
        assert_eq!(language(request), Language::German);
    }

    #[test]
    fn the_browser_s_first_language_the_shop_speaks_by_quality() {
        let request = TestRequest::default()
            .insert_header((ACCEPT_LANGUAGE, "it;q=0.9,pt-PT;q=0.8,fr;q=0.5"));
        assert_eq!(language(request), Language::BrazilianPortuguese);
        let request = TestRequest::default().insert_header((ACCEPT_LANGUAGE, "fr;q=0.4, es;q=0.7"));
        assert_eq!(language(request), Language::Spanish);
    }

    #[test]
    fn an_unknown_cookie_or_language_falls_back_to_english() {
        let request = TestRequest::default()
            .cookie(Cookie::new(LANGUAGE_COOKIE, "klingon"))
            .insert_header((ACCEPT_LANGUAGE, "ja, it"));
        assert_eq!(language(request), Language::English);
        assert_eq!(language(TestRequest::default()), Language::English);
    }
}
