//! Refuses state-changing requests made from another site: a second line of defence next to
//! SameSite=Lax cookies. Requests with neither `Origin` nor `Sec-Fetch-Site` (scripts, curl, the
//! CLI) pass: they carry no browser's ambient cookies. An `Origin` passes when it is
//! `site.public_url`'s or the one the request was addressed to; the forwarding headers name the
//! latter only when a trusted proxy sent them.

use actix_web::{
    body::{EitherBody, MessageBody},
    dev::{ServiceRequest, ServiceResponse},
    http::{header, Method},
    middleware::Next,
    web,
};

use crate::{client_ip::TrustedProxies, error::ApiError, settings::SiteSettings};

/// Whether a request with these headers may change state on the site at `public_origin`
/// (or on the origin the request itself was addressed to).
fn allowed(
    method: &Method,
    origin: Option<&str>,
    fetch_site: Option<&str>,
    public_origin: &str,
    request_origin: &str,
) -> bool {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return true;
    }
    match origin {
        // Some privacy settings send the literal "null": treat it as foreign.
        Some(origin) => {
            let origin = origin.trim_end_matches('/');
            origin.eq_ignore_ascii_case(public_origin)
                || origin.eq_ignore_ascii_case(request_origin)
        }
        None => fetch_site != Some("cross-site"),
    }
}

/// `scheme://host[:port]` of a URL, without path.
pub fn origin_of(url: &str) -> String {
    let url = url.trim_end_matches('/');
    match url.find("://") {
        Some(scheme_end) => {
            let rest = &url[scheme_end + 3..];
            let host_end = rest.find('/').unwrap_or(rest.len());
            format!("{}{}", &url[..scheme_end + 3], &rest[..host_end])
        }
        None => url.to_owned(),
    }
}

/// `scheme://host[:port]` the request was addressed to. `Forwarded`, `X-Forwarded-Host` and
/// `X-Forwarded-Proto` are read only from a peer in `server.trusted_proxies`: from anyone else
/// they would let a foreign page name its own origin as the shop's. Otherwise the scheme is the
/// listener's and the host the `Host` header (or the request line's authority).
fn request_origin(req: &ServiceRequest) -> String {
    let behind_trusted_proxy = req
        .app_data::<web::Data<TrustedProxies>>()
        .zip(req.peer_addr())
        .is_some_and(|(proxies, peer)| proxies.trusts(peer.ip()));
    if behind_trusted_proxy {
        let info = req.connection_info();
        return format!("{}://{}", info.scheme(), info.host());
    }
    let scheme = if req.app_config().secure() {
        "https"
    } else {
        "http"
    };
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .or_else(|| req.uri().authority().map(|authority| authority.as_str()))
        .unwrap_or_else(|| req.app_config().host());
    format!("{scheme}://{host}")
}

/// The middleware, for `actix_web::middleware::from_fn`.
pub async fn check_origin(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let public_origin = req
        .app_data::<web::Data<SiteSettings>>()
        .map(|site| origin_of(&site.public_url))
        .unwrap_or_default();
    let request_origin = request_origin(&req);
    let header_str = |name| {
        req.headers()
            .get(name)
            .and_then(|v: &header::HeaderValue| v.to_str().ok())
    };
    if allowed(
        req.method(),
        header_str(header::ORIGIN),
        header_str(header::HeaderName::from_static("sec-fetch-site")),
        &public_origin,
        &request_origin,
    ) {
        return Ok(next.call(req).await?.map_into_left_body());
    }
    tracing::warn!(method = %req.method(), path = %req.path(), "cross-site request refused");
    let response = ApiError::Forbidden(l10n::Text::new("error-cross-site").into()).into_response();
    Ok(req.into_response(response).map_into_right_body())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SITE: &str = "https://shop.example";
    const SELF: &str = "http://127.0.0.1:8080";

    #[test]
    fn reads_always_pass() {
        assert!(allowed(
            &Method::GET,
            Some("https://evil.example"),
            Some("cross-site"),
            SITE,
            SELF
        ));
    }

    #[test]
    fn writes_from_the_site_itself_pass() {
        assert!(allowed(
            &Method::POST,
            Some("https://shop.example"),
            Some("same-origin"),
            SITE,
            SELF
        ));
        assert!(allowed(
            &Method::POST,
            Some("http://127.0.0.1:8080"),
            None,
            SITE,
            SELF
        ));
    }

    #[test]
    fn writes_from_another_origin_are_refused() {
        for method in [Method::POST, Method::PUT, Method::PATCH, Method::DELETE] {
            assert!(!allowed(
                &method,
                Some("https://evil.example"),
                None,
                SITE,
                SELF
            ));
        }
        assert!(!allowed(&Method::POST, Some("null"), None, SITE, SELF));
        assert!(!allowed(
            &Method::POST,
            Some("https://shop.example.evil.com"),
            None,
            SITE,
            SELF
        ));
    }

    #[test]
    fn without_origin_only_a_cross_site_fetch_is_refused() {
        assert!(!allowed(
            &Method::POST,
            None,
            Some("cross-site"),
            SITE,
            SELF
        ));
        assert!(allowed(&Method::POST, None, Some("same-site"), SITE, SELF));
        assert!(
            allowed(&Method::POST, None, None, SITE, SELF),
            "scripts and the CLI pass"
        );
    }

    #[test]
    fn origins_drop_the_path() {
        assert_eq!(origin_of("http://localhost:8080/"), "http://localhost:8080");
        assert_eq!(
            origin_of("https://shop.example/shop/"),
            "https://shop.example"
        );
    }
}
