//! Discord linking, verified on the server: the identity lives in the session, and orders and
//! promo redemptions use it (never a discord_id sent by the browser).
//!
//! The OAuth `state` is not kept in the session: a session row for every anonymous
//! `GET /api/discord/authorize` would let anyone fill the sessions table. It travels in a
//! short-lived cookie instead, signed with a key derived from `session.key`, HttpOnly and
//! SameSite=Lax (sent on Discord's redirect back, a top-level navigation), and the exchange
//! checks and clears it.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use actix_session::Session;
use actix_web::{
    cookie::{self, Cookie, SameSite},
    http::header,
    web, HttpRequest, HttpResponse, ResponseError,
};
use hmac::{Hmac, Mac};
use orders::gateways::{DiscordId, DiscordIdentity, DiscordIdentityProvider, DiscordLinkError};
use sha2::Sha256;
use shared::Clock as _;

use crate::auth::AppClock;
use crate::guild_join::GuildJoinQueue;
use crate::language::RequestLanguage;
use crate::{checkout::random_token, checkout::DiscordLink, error::ApiError};
use dto::discord::{DiscordAuth, DiscordUnlinked, IdentityBody, LinkedIdentity};
use dto::responses::{CrossSiteRefused, JsonBodyRefused};

const SESSION_IDENTITY: &str = "discord_identity";
/// The cookie carrying the OAuth state between authorize and the exchange.
pub const STATE_COOKIE: &str = "garden_discord_state";
/// How long a Discord sign-in may take.
const STATE_LIFETIME: Duration = Duration::from_secs(10 * 60);
const BAD_STATE: &str =
    "This Discord sign-in did not start in this browser. Please link Discord again.";

/// Signs and checks the OAuth state cookie (app data).
#[derive(Clone)]
pub struct OAuthStateCookie {
    /// HMAC-SHA256 keyed with the derived key, cloned for each signature.
    keyed: Hmac<Sha256>,
    secure: bool,
}

impl OAuthStateCookie {
    /// A key of its own, derived from the session key (HMAC-SHA256 of a fixed label), so a
    /// state cookie can never pass for anything the session key signs or encrypts.
    pub fn new(session_key: &cookie::Key, secure: bool) -> anyhow::Result<Self> {
        let mut derive = Hmac::<Sha256>::new_from_slice(session_key.master())
            .map_err(|e| anyhow::anyhow!("unusable session key: {e}"))?;
        derive.update(b"garden-shop discord oauth state v1");
        let key = derive.finalize().into_bytes();
        Ok(OAuthStateCookie {
            keyed: Hmac::<Sha256>::new_from_slice(&key)
                .map_err(|e| anyhow::anyhow!("unusable derived key: {e}"))?,
            secure,
        })
    }

    fn mac(&self, payload: &str) -> Hmac<Sha256> {
        let mut mac = self.keyed.clone();
        mac.update(payload.as_bytes());
        mac
    }

    /// `state.expires.mac`, for 10 minutes.
    fn issue(&self, state: &str, now: SystemTime) -> Cookie<'static> {
        let expires = (now + STATE_LIFETIME)
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let payload = format!("{state}.{expires}");
        let signature = hex::encode(self.mac(&payload).finalize().into_bytes());
        self.cookie(format!("{payload}.{signature}"))
            .max_age(cookie::time::Duration::seconds(
                STATE_LIFETIME.as_secs() as i64
            ))
            .finish()
    }

    /// The state the cookie carries, when it is ours, unaltered and not expired.
    fn verify(&self, value: &str, now: SystemTime) -> Option<String> {
        let (payload, signature) = value.rsplit_once('.')?;
        let signature = hex::decode(signature).ok()?;
        self.mac(payload).verify_slice(&signature).ok()?;
        let (state, expires) = payload.rsplit_once('.')?;
        let expires = UNIX_EPOCH + Duration::from_secs(expires.parse().ok()?);
        (now < expires && !state.is_empty()).then(|| state.to_owned())
    }

    /// The cookie that deletes it.
    fn removal(&self) -> Cookie<'static> {
        let mut removal = self.cookie(String::new()).finish();
        removal.make_removal();
        removal
    }

    fn cookie(&self, value: String) -> cookie::CookieBuilder<'static> {
        Cookie::build(STATE_COOKIE, value)
            .path("/api")
            .http_only(true)
            .same_site(SameSite::Lax)
            .secure(self.secure)
    }
}

/// The Discord account this session linked, if any.
pub(crate) fn session_identity(session: &Session) -> Option<DiscordIdentity> {
    let body = session
        .get::<IdentityBody>(SESSION_IDENTITY)
        .ok()
        .flatten()?;
    // an identity an order cannot keep (linked before the callback checked it) is none
    Some(DiscordIdentity {
        discord_id: DiscordId::parse(&body.discord_id).ok()?,
        username: body.username,
        avatar_url: body.avatar,
    })
    .filter(DiscordIdentity::fits_an_order)
}

/// `GET /api/discord/authorize`: off to Discord (or the dev sign-in page) with a fresh state,
/// kept in the signed state cookie (the session is not touched).
#[utoipa::path(
    get,
    path = "/api/discord/authorize",
    tag = "discord",
    summary = "Start linking Discord",
    description = "A browser navigation, not a fetch: redirects to Discord's consent page (or \
                   the dev sign-in page without Discord keys) with a fresh OAuth `state`, which \
                   a signed, HttpOnly cookie `garden_discord_state` (path `/api`, 10 minutes) \
                   carries to `POST /api/discord-auth`.",
    responses(
        (status = 302, description = "On to Discord.",
            headers(
                ("Location" = String, description = "Discord's authorize URL (or `/dev/discord/authorize`)."),
                ("Set-Cookie" = String, description = "`garden_discord_state=…`: the signed OAuth state."),
            )),
    ),
    security(()),
)]
pub async fn authorize(
    discord: web::Data<DiscordLink>,
    state_cookie: web::Data<OAuthStateCookie>,
    clock: web::Data<AppClock>,
) -> HttpResponse {
    let oauth_state = random_token();
    HttpResponse::Found()
        .insert_header((header::LOCATION, discord.authorize_url(&oauth_state)))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .cookie(state_cookie.issue(&oauth_state, clock.now().into()))
        .finish()
}

/// `POST /api/discord-auth {code, state}`: checks the state against the state cookie (which
/// every answer clears: a state is good for one try), exchanges the code and keeps the identity
/// in the session.
#[utoipa::path(
    post,
    path = "/api/discord-auth",
    tag = "discord",
    summary = "Finish linking Discord",
    description = "Checks `state` against the `garden_discord_state` cookie set by \
                   `GET /api/discord/authorize` (every answer clears it: a state is good for one \
                   try), exchanges `code` with Discord and keeps the identity in this session. \
                   Checkout and promo codes use that identity.",
    request_body = DiscordAuth,
    responses(
        (status = 200, description = "Linked.", body = IdentityBody),
        JsonBodyRefused,
        (status = 400, description = "Discord refused the code (expired or used), returned no user id, or a name (over 100 characters) or avatar the shop cannot keep; or the body is not valid JSON.", body = crate::error::ErrorBody),
        (status = 422, description = "The state does not match this browser's sign-in (`state`; also without the cookie), or no code (`code`).", body = crate::error::ErrorBody),
        (status = 502, description = "Discord could not be reached.", body = crate::error::ErrorBody),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn exchange(
    request: HttpRequest,
    discord: web::Data<DiscordLink>,
    state_cookie: web::Data<OAuthStateCookie>,
    guild_joins: web::Data<GuildJoinQueue>,
    clock: web::Data<AppClock>,
    session: Session,
    body: web::Json<DiscordAuth>,
) -> HttpResponse {
    let expected = request
        .cookie(STATE_COOKIE)
        .and_then(|cookie| state_cookie.verify(cookie.value(), clock.now().into()));
    let mut response = match expected {
        Some(expected) if body.state.as_deref() == Some(expected.as_str()) => {
            link(&discord, &guild_joins, &session, &body)
                .await
                .unwrap_or_else(|error| error.error_response())
        }
        _ => ApiError::field("state", BAD_STATE).error_response(),
    };
    if request.cookie(STATE_COOKIE).is_some() {
        if let Err(error) = response.add_cookie(&state_cookie.removal()) {
            tracing::warn!(%error, "could not clear the Discord state cookie");
        }
    }
    response
}

/// Exchanges the code of a sign-in whose state checked out, and queues the buyer's join to the
/// shop's Discord server when the shop makes one (its failures never fail the link).
async fn link(
    discord: &DiscordLink,
    guild_joins: &GuildJoinQueue,
    session: &Session,
    body: &DiscordAuth,
) -> Result<HttpResponse, ApiError> {
    let code = body.code.as_deref().unwrap_or_default().trim();
    if code.is_empty() {
        return Err(ApiError::field("code", "No code returned from Discord"));
    }
    let linked = discord
        .exchange_code(code.to_owned())
        .await
        .inspect_err(|error| {
            if matches!(
                error,
                DiscordLinkError::Unavailable(_) | DiscordLinkError::Unknown(_)
            ) {
                tracing::warn!(error = ?error, "discord code exchange failed");
            }
        })?;
    let body = IdentityBody::from(&linked.identity);
    session
        .insert(SESSION_IDENTITY, &body)
        .map_err(|e| ApiError::internal(anyhow::anyhow!("could not keep the identity: {e}")))?;
    tracing::info!("discord linked");
    if let Some(access) = linked.guild_access {
        guild_joins.queue(linked.identity.discord_id, access).await;
    }
    Ok(HttpResponse::Ok().json(body))
}

/// `GET /api/discord/identity`.
#[utoipa::path(
    get,
    path = "/api/discord/identity",
    tag = "discord",
    summary = "The Discord account linked in this session",
    responses((status = 200, description = "The identity, or `null`.", body = LinkedIdentity)),
    security((), ("session_cookie" = [])),
)]
pub async fn identity(session: Session) -> HttpResponse {
    let identity = session_identity(&session).map(|identity| IdentityBody::from(&identity));
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(LinkedIdentity { identity })
}

/// `DELETE /api/discord/identity`.
#[utoipa::path(
    delete,
    path = "/api/discord/identity",
    tag = "discord",
    summary = "Unlink Discord from this session",
    description = "Forgets the linked identity (also when none was linked).",
    responses(
        (status = 200, description = "Unlinked.", body = DiscordUnlinked),
        CrossSiteRefused,
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn unlink(session: Session, language: RequestLanguage) -> HttpResponse {
    session.remove(SESSION_IDENTITY);
    HttpResponse::Ok().json(DiscordUnlinked {
        message: l10n::text(language.0, "site-discord-unlinked"),
    })
}
