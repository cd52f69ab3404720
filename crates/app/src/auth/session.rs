//! The session cookie and its middleware. Where sessions live (the shop's database by default,
//! Redis when `session.redis_url` is set) is the `sessions` crate's; the wiring picks the store
//! from the settings.

use actix_session::{
    config::{PersistentSession, TtlExtensionPolicy},
    storage::{SessionKey, SessionStore},
    SessionMiddleware,
};
use actix_web::cookie::{time::Duration, CookieJar, Key, SameSite};
use actix_web::HttpRequest;
use anyhow::{bail, Context};
use base64::Engine;
use secrecy::ExposeSecret;
use serde::Deserialize;
pub use sessions::ShopSessionStore;

/// The session cookie and store.
#[derive(Debug, Clone, Deserialize)]
pub struct SessionSettings {
    /// 64 or more random bytes, base64. Required: the shop does not start without it.
    pub key: secrecy::SecretString,
    /// Send the cookie over HTTPS only (production).
    pub secure: bool,
    /// Keep sessions in Redis instead of the database, e.g. `redis://127.0.0.1:6379`.
    pub redis_url: Option<String>,
    /// A staff session (admin, super_admin) ends this long after logging in, however busy.
    pub staff_max_age_hours: u64,
    /// A customer session ends this long after logging in.
    pub customer_max_age_days: u64,
}

pub const COOKIE_NAME: &str = "garden_session";

/// How long a session lasts without use; every change extends it.
const SESSION_TTL: Duration = Duration::days(14);

/// The session middleware's own failures (reading or writing the session store) are answered
/// 503 in the error shape: the store is down, not the request wrong. Wraps the session
/// middleware directly, so every error it sees is one of those.
pub async fn store_unavailable(
    request: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, actix_web::Error> {
    let language = crate::language::RequestLanguage::of(request.request()).0;
    next.call(request).await.map_err(|error| {
        tracing::error!(error = %error, "the session store failed");
        let answer = actix_web::HttpResponse::ServiceUnavailable().json(serde_json::json!({
            "message": l10n::text(language, "error-sessions-unavailable"),
            "code": dto::ErrorCode::SessionsUnavailable,
            "errors": {},
        }));
        actix_web::error::InternalError::from_response(error, answer).into()
    })
}

/// Whether a request is answered without its session, so it never waits on the session store
/// (a Redis outage leaves it up), cookie or not: `GET`/`HEAD` of `/api/health`,
/// `/api/health/ready` (which pings the store itself), `/api/site`, `/api/refund-policy`,
/// `/api/openapi.json`, the
/// catalogue's reads (`/api/products`, `/api/products/{id}`, `…/related-ids`), and every path
/// outside `/api/` and `/dev/`: images, robots.txt, sitemap.xml, /metrics and the storefront's
/// files. The storefront's page (`index.html`) reads the session itself, once and briefly, and
/// goes out without it when the store does not answer (`routes::spa`).
pub fn needs_no_session(request: &actix_web::dev::ServiceRequest) -> bool {
    use actix_web::http::Method;
    if !matches!(*request.method(), Method::GET | Method::HEAD) {
        return false;
    }
    let path = request.path();
    let Some(api) = path.strip_prefix("/api/") else {
        return path != "/api" && !path.starts_with("/dev/");
    };
    if matches!(
        api,
        "health" | "health/ready" | "site" | "refund-policy" | "openapi.json" | "products"
    ) {
        return true;
    }
    let Some(product) = api.strip_prefix("products/") else {
        return false;
    };
    let id = product.strip_suffix("/related-ids").unwrap_or(product);
    !id.is_empty() && !id.contains('/')
}

/// Whether the session a request came with still exists: a long-lived stream asks at each
/// heartbeat, so a logout, a password reset or an expiry ends it.
#[derive(Clone)]
pub struct LiveSessions {
    store: ShopSessionStore,
    key: Key,
}

impl LiveSessions {
    pub fn new(store: ShopSessionStore, key: Key) -> Self {
        LiveSessions { store, key }
    }

    /// The session key in the request's cookie, when it carries one this shop encrypted.
    pub fn key_of(&self, req: &HttpRequest) -> Option<SessionKey> {
        let mut jar = CookieJar::new();
        jar.add_original(req.cookie(COOKIE_NAME)?);
        let value = jar.private(&self.key).get(COOKIE_NAME)?.value().to_owned();
        SessionKey::try_from(value).ok()
    }

    /// The stored state of the request's session, read once within `wait`, for an answer made
    /// without the session middleware ([`needs_no_session`]): `None` without a cookie this shop
    /// encrypted, or when its session is gone; an error when the store did not answer.
    pub async fn state_of(
        &self,
        req: &HttpRequest,
        wait: std::time::Duration,
    ) -> anyhow::Result<Option<std::collections::HashMap<String, String>>> {
        let Some(key) = self.key_of(req) else {
            return Ok(None);
        };
        match tokio::time::timeout(wait, self.store.load(&key)).await {
            Ok(Ok(state)) => Ok(state),
            Ok(Err(error)) => Err(anyhow::Error::new(error).context("failed to read a session")),
            Err(_) => bail!(
                "the session store did not answer within {} ms",
                wait.as_millis()
            ),
        }
    }

    /// Whether the session still exists. A failed read counts as yes: the next heartbeat asks
    /// again.
    pub async fn exists(&self, key: &SessionKey) -> bool {
        match self.store.load(key).await {
            Ok(state) => state.is_some(),
            Err(error) => {
                tracing::warn!(error = ?error, "could not read a session to check a stream");
                true
            }
        }
    }
}

/// The cookie key from `session.key`: base64 of at least 64 bytes. Without one the shop does
/// not start: a key made up at each start would log everyone out on every restart and differ
/// between instances.
pub fn cookie_key(settings: &SessionSettings) -> anyhow::Result<Key> {
    let encoded = settings.key.expose_secret().trim();
    if encoded.is_empty() {
        bail!(
            "session.key is not set: give 64 or more random bytes in base64, e.g. \
             SHOP__SESSION__KEY=$(openssl rand -base64 64 | tr -d '\\n')"
        );
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .context("session.key is not valid base64")?;
    if bytes.len() < 64 {
        bail!(
            "session.key holds {} bytes; it needs at least 64",
            bytes.len()
        );
    }
    Ok(Key::from(&bytes))
}

/// The session middleware: cookie `garden_session`, HttpOnly, SameSite=Lax, Secure when
/// `session.secure`, encrypted with the key, 14 days from the last change.
pub fn middleware(
    store: ShopSessionStore,
    key: Key,
    secure: bool,
) -> SessionMiddleware<ShopSessionStore> {
    SessionMiddleware::builder(store, key)
        .cookie_name(COOKIE_NAME.to_owned())
        .cookie_http_only(true)
        .cookie_same_site(SameSite::Lax)
        .cookie_secure(secure)
        .cookie_path("/".to_owned())
        .session_lifecycle(
            PersistentSession::default()
                .session_ttl(SESSION_TTL)
                .session_ttl_extension_policy(TtlExtensionPolicy::OnStateChanges),
        )
        .build()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use base64::Engine;

    use super::*;

    fn settings(key: &str) -> SessionSettings {
        SessionSettings {
            key: key.to_owned().into(),
            secure: false,
            redis_url: None,
            staff_max_age_hours: 12,
            customer_max_age_days: 30,
        }
    }

    #[test]
    fn only_the_sessionless_reads_pass_the_session_by() {
        use actix_web::test::TestRequest;
        let passes = |method: actix_web::http::Method, path: &str| {
            needs_no_session(
                &TestRequest::default()
                    .method(method)
                    .uri(path)
                    .to_srv_request(),
            )
        };
        use actix_web::http::Method;
        for path in [
            "/api/health",
            "/api/health/ready",
            "/api/site",
            "/api/refund-policy",
            "/api/openapi.json",
            "/api/products",
            "/api/products/3",
            "/api/products/3/related-ids",
            "/",
            "/product/3",
            "/assets/index-abc.js",
            "/media/products/a.png",
            "/robots.txt",
        ] {
            assert!(passes(Method::GET, path), "{path}");
            assert!(passes(Method::HEAD, path), "HEAD {path}");
        }
        for path in [
            "/api/auth/check",
            "/api/me",
            "/api/profile",
            "/api/events",
            "/api/orders/3",
            "/api/products/3/reviews",
            "/api/checkout/holdings",
            "/api/chat/history",
            "/dev/pay/3",
            "/dev/discord/authorize",
            "/api",
        ] {
            assert!(!passes(Method::GET, path), "{path}");
        }
        assert!(!passes(Method::POST, "/api/products"));
        assert!(!passes(Method::POST, "/"));
        assert!(!passes(Method::DELETE, "/api/products/3"));
    }

    #[test]
    fn the_key_must_be_base64_of_64_bytes_or_more() {
        let b64 = |n: usize| base64::engine::general_purpose::STANDARD.encode(vec![7_u8; n]);
        assert!(cookie_key(&settings(&b64(64))).is_ok());
        assert!(cookie_key(&settings(&b64(96))).is_ok());
        let short = cookie_key(&settings(&b64(63))).err().unwrap().to_string();
        assert!(short.contains("at least 64"), "{short}");
        let missing = cookie_key(&settings("")).err().unwrap().to_string();
        assert!(missing.contains("session.key is not set"), "{missing}");
        assert!(cookie_key(&settings("not base64!")).is_err());
    }
}
