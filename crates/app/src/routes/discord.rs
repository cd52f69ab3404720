//! Discord linking, verified on the server: the identity lives in the session, and orders and
//! promo redemptions use it (never a discord_id sent by the browser).

use actix_session::Session;
use actix_web::{http::header, web, HttpResponse};
use orders::gateways::{DiscordId, DiscordIdentity, DiscordIdentityProvider, DiscordLinkError};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::{checkout::random_token, error::ApiError, state::AppState};

const SESSION_IDENTITY: &str = "discord_identity";
const SESSION_STATE: &str = "discord_oauth_state";

pub const NO_USER_ID: &str = "Discord login failed: No user ID returned.";
pub const CONNECTION_FAILED: &str = "Error while connecting to Discord.";

/// The identity as the session keeps it and the API answers it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct IdentityBody {
    pub discord_id: String,
    pub username: String,
    pub avatar: Option<String>,
}

impl From<&DiscordIdentity> for IdentityBody {
    fn from(identity: &DiscordIdentity) -> Self {
        IdentityBody {
            discord_id: identity.discord_id.to_string(),
            username: identity.username.clone(),
            avatar: identity.avatar_url.clone(),
        }
    }
}

/// The Discord account this session linked, if any.
pub(crate) fn session_identity(session: &Session) -> Option<DiscordIdentity> {
    let body = session
        .get::<IdentityBody>(SESSION_IDENTITY)
        .ok()
        .flatten()?;
    Some(DiscordIdentity {
        discord_id: DiscordId::parse(&body.discord_id).ok()?,
        username: body.username,
        avatar_url: body.avatar,
    })
}

/// `GET /api/discord/authorize`: off to Discord (or the dev sign-in page) with a fresh state.
pub async fn authorize(
    state: web::Data<AppState>,
    session: Session,
) -> Result<HttpResponse, ApiError> {
    let oauth_state = random_token();
    session
        .insert(SESSION_STATE, &oauth_state)
        .map_err(|e| ApiError::internal(anyhow::anyhow!("could not keep the OAuth state: {e}")))?;
    Ok(HttpResponse::Found()
        .insert_header((
            header::LOCATION,
            state.checkout.discord.authorize_url(&oauth_state),
        ))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish())
}

#[derive(Debug, Deserialize)]
pub struct DiscordAuth {
    #[serde(default)]
    pub code: Option<String>,
    #[serde(default)]
    pub state: Option<String>,
}

/// `POST /api/discord-auth {code, state}`: exchanges the code and keeps the identity in the
/// session.
pub async fn exchange(
    state: web::Data<AppState>,
    session: Session,
    body: web::Json<DiscordAuth>,
) -> Result<HttpResponse, ApiError> {
    let expected = session
        .remove_as::<String>(SESSION_STATE)
        .and_then(Result::ok);
    let given = body.state.as_deref().unwrap_or_default();
    if expected.is_none_or(|expected| expected.is_empty() || expected != given) {
        return Err(ApiError::field(
            "state",
            "This Discord sign-in did not start in this browser. Please link Discord again.",
        ));
    }
    let code = body.code.as_deref().unwrap_or_default().trim();
    if code.is_empty() {
        return Err(ApiError::field("code", "No code returned from Discord"));
    }
    let identity = match state.checkout.discord.exchange_code(code.to_owned()).await {
        Ok(identity) => identity,
        Err(DiscordLinkError::MissingUserId) => {
            return Err(ApiError::BadRequest(NO_USER_ID.to_owned()))
        }
        Err(DiscordLinkError::InvalidCode) => {
            return Err(ApiError::BadRequest(
                "Discord login failed: the sign-in expired. Please link Discord again.".to_owned(),
            ))
        }
        Err(error) => {
            tracing::warn!(error = ?error, "discord code exchange failed");
            return Ok(HttpResponse::BadGateway()
                .json(json!({ "message": CONNECTION_FAILED, "errors": {} })));
        }
    };
    let body = IdentityBody::from(&identity);
    session
        .insert(SESSION_IDENTITY, &body)
        .map_err(|e| ApiError::internal(anyhow::anyhow!("could not keep the identity: {e}")))?;
    tracing::info!(discord_id = %body.discord_id, "discord linked");
    Ok(HttpResponse::Ok().json(body))
}

/// `GET /api/discord/identity`.
pub async fn identity(session: Session) -> HttpResponse {
    let identity = session_identity(&session).map(|identity| IdentityBody::from(&identity));
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(json!({ "identity": identity }))
}

/// `DELETE /api/discord/identity`.
pub async fn unlink(session: Session) -> HttpResponse {
    session.remove(SESSION_IDENTITY);
    HttpResponse::Ok().json(json!({ "message": "Discord unlinked." }))
}
