use std::time::Duration;

use anyhow::{anyhow, Context};
use oauth2::basic::{BasicClient, BasicErrorResponseType};
use oauth2::{
    AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, EndpointNotSet, EndpointSet,
    RedirectUrl, RequestTokenError, Scope, TokenResponse, TokenUrl,
};
use orders::gateways::{
    DiscordId, DiscordIdentity, DiscordIdentityProvider, DiscordLinkError, LinkedDiscord,
    DISCORD_NAME_MAX,
};
use orders::{AccessToken, GuildAccess};
use reqwest::{StatusCode, Url};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;

use crate::DiscordSettings;

/// What the shop asks Discord for: who the shopper is, and leave to add them to its server.
pub const SCOPES: [&str; 2] = ["identify", "guilds.join"];

pub(crate) const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

type OAuthClient =
    BasicClient<EndpointSet, EndpointNotSet, EndpointNotSet, EndpointNotSet, EndpointSet>;

#[derive(Debug, thiserror::Error)]
pub enum DiscordSetupError {
    #[error("discord.client_id is empty")]
    MissingClientId,
    #[error("discord.{field} is not a valid URL: {reason}")]
    BadUrl { field: &'static str, reason: String },
    #[error("the HTTP client could not be built: {0}")]
    Client(#[from] reqwest::Error),
}

/// Discord OAuth2 account linking.
#[derive(Clone)]
pub struct DiscordOAuth {
    oauth: OAuthClient,
    http: reqwest::Client,
    api_base: Url,
    /// Whether the shop adds linked shoppers to its server (a bot token and guild id are set):
    /// then the exchange hands their token on.
    joins_guild: bool,
}

impl std::fmt::Debug for DiscordOAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DiscordOAuth")
            .field("api_base", &self.api_base.as_str())
            .field("joins_guild", &self.joins_guild)
            .finish_non_exhaustive()
    }
}

#[derive(Deserialize)]
struct DiscordUser {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    username: Option<String>,
    #[serde(default)]
    global_name: Option<String>,
    #[serde(default)]
    avatar: Option<String>,
}

/// The longest avatar hash taken: Discord's are 32 hex digits, `a_` before them when animated.
const AVATAR_HASH_MAX: usize = 64;

/// Whether `hash` is an avatar hash: hex digits (at most [`AVATAR_HASH_MAX`] characters in all),
/// `a_` before them for an animated one. Nothing else goes into the CDN address.
fn is_avatar_hash(hash: &str) -> bool {
    let digits = hash.strip_prefix("a_").unwrap_or(hash);
    hash.len() <= AVATAR_HASH_MAX
        && !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_hexdigit())
}

/// The identity in Discord's user answer, checked as it is read: a user name or display name
/// over `DISCORD_NAME_MAX` characters, or an avatar hash that is not one, is refused
/// (`UnusableIdentity`), so it is never kept in a session or reaches checkout.
fn identity(discord_id: DiscordId, user: DiscordUser) -> Result<DiscordIdentity, DiscordLinkError> {
    let too_long = |name: &Option<String>| {
        name.as_ref()
            .is_some_and(|name| name.chars().count() > DISCORD_NAME_MAX)
    };
    if too_long(&user.username) {
        return Err(DiscordLinkError::UnusableIdentity("username"));
    }
    if too_long(&user.global_name) {
        return Err(DiscordLinkError::UnusableIdentity("display name"));
    }
    let hash = user.avatar.filter(|hash| !hash.is_empty());
    if hash.as_deref().is_some_and(|hash| !is_avatar_hash(hash)) {
        return Err(DiscordLinkError::UnusableIdentity("avatar"));
    }
    let username = [user.username, user.global_name]
        .into_iter()
        .flatten()
        .find(|name| !name.trim().is_empty())
        .unwrap_or_else(|| discord_id.to_string());
    let avatar_url = hash.map(|hash| avatar_url(&discord_id, &hash));
    let identity = DiscordIdentity {
        discord_id,
        username,
        avatar_url,
    };
    if !identity.fits_an_order() {
        return Err(DiscordLinkError::UnusableIdentity("identity"));
    }
    Ok(identity)
}

/// The CDN address of a user's avatar image.
pub fn avatar_url(user_id: &DiscordId, hash: &str) -> String {
    format!("https://cdn.discordapp.com/avatars/{user_id}/{hash}.png")
}

pub(crate) fn bad_url(
    field: &'static str,
) -> impl Fn(oauth2::url::ParseError) -> DiscordSetupError {
    move |err| DiscordSetupError::BadUrl {
        field,
        reason: err.to_string(),
    }
}

impl DiscordOAuth {
    pub fn new(settings: &DiscordSettings) -> Result<Self, DiscordSetupError> {
        if settings.client_id.trim().is_empty() {
            return Err(DiscordSetupError::MissingClientId);
        }
        let api_base = settings.api_base.trim().trim_end_matches('/').to_owned();
        let oauth = BasicClient::new(ClientId::new(settings.client_id.trim().to_owned()))
            .set_client_secret(ClientSecret::new(
                settings.client_secret.expose_secret().to_owned(),
            ))
            .set_auth_uri(
                AuthUrl::new(settings.authorize_url.trim().to_owned())
                    .map_err(bad_url("authorize_url"))?,
            )
            .set_token_uri(
                TokenUrl::new(format!("{api_base}/oauth2/token")).map_err(bad_url("api_base"))?,
            )
            .set_redirect_uri(
                RedirectUrl::new(settings.redirect_url.trim().to_owned())
                    .map_err(bad_url("redirect_url"))?,
            );
        Ok(Self {
            oauth,
            http: http_client()?,
            api_base: api_base_url(settings)?,
            joins_guild: settings.guild_join().is_some(),
        })
    }

    fn api_url(&self, segments: &[&str]) -> Result<Url, DiscordLinkError> {
        api_url(&self.api_base, segments).map_err(DiscordLinkError::Unknown)
    }

    /// The user's access token and how long it lasts (when Discord says).
    async fn exchange(
        &self,
        code: String,
    ) -> Result<(SecretString, Option<Duration>), DiscordLinkError> {
        let token = self
            .oauth
            .exchange_code(AuthorizationCode::new(code))
            .request_async(&self.http)
            .await
            .map_err(|err| match err {
                RequestTokenError::ServerResponse(response) => match response.error() {
                    BasicErrorResponseType::InvalidGrant => DiscordLinkError::InvalidCode,
                    other => DiscordLinkError::Unknown(anyhow!(
                        "Discord refused the token request: {} {}",
                        other.as_ref(),
                        response
                            .error_description()
                            .map(String::as_str)
                            .unwrap_or("")
                    )),
                },
                RequestTokenError::Request(err) => {
                    DiscordLinkError::Unavailable(format!("token request failed: {err}"))
                }
                RequestTokenError::Parse(err, body) => DiscordLinkError::Unknown(anyhow!(
                    "unreadable Discord token answer: {err}: {}",
                    shared::upstream::excerpt(&String::from_utf8_lossy(&body))
                )),
                RequestTokenError::Other(msg) => {
                    DiscordLinkError::Unknown(anyhow!("Discord token exchange failed: {msg}"))
                }
            })?;
        Ok((
            SecretString::from(token.access_token().secret().to_owned()),
            token.expires_in(),
        ))
    }

    async fn current_user(
        &self,
        access_token: &SecretString,
    ) -> Result<DiscordIdentity, DiscordLinkError> {
        let response = self
            .http
            .get(self.api_url(&["users", "@me"])?)
            .bearer_auth(access_token.expose_secret())
            .send()
            .await
            .map_err(|e| DiscordLinkError::Unavailable(format!("user request failed: {e}")))?;
        let status = response.status();
        if status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS {
            return Err(DiscordLinkError::Unavailable(format!(
                "Discord answered {status} for the user"
            )));
        }
        if !status.is_success() {
            return Err(DiscordLinkError::Unknown(anyhow!(
                "Discord answered {status} for the user"
            )));
        }
        let user: DiscordUser = response.json().await.context("unreadable Discord user")?;
        let discord_id = user
            .id
            .as_deref()
            .and_then(|id| DiscordId::parse(id).ok())
            .ok_or(DiscordLinkError::MissingUserId)?;
        identity(discord_id, user)
    }
}

impl DiscordIdentityProvider for DiscordOAuth {
    fn authorize_url(&self, state: &str) -> String {
        let state = state.to_owned();
        let (url, _) = self
            .oauth
            .authorize_url(move || CsrfToken::new(state))
            .add_scopes(SCOPES.iter().map(|s| Scope::new((*s).to_owned())))
            .url();
        url.to_string()
    }

    #[tracing::instrument(name = "discord.exchange_code", skip_all)]
    async fn exchange_code(&self, code: String) -> Result<LinkedDiscord, DiscordLinkError> {
        let (access_token, expires_in) = self.exchange(code).await?;
        let identity = self.current_user(&access_token).await?;
        tracing::info!("discord account linked");
        let guild_access = self.joins_guild.then(|| GuildAccess {
            token: AccessToken::new(access_token.expose_secret()),
            lasts: expires_in
                .and_then(|lasts| chrono::Duration::from_std(lasts).ok())
                .filter(|lasts| *lasts > chrono::Duration::zero())
                .unwrap_or(GuildAccess::DEFAULT_LIFETIME),
        });
        Ok(LinkedDiscord {
            identity,
            guild_access,
        })
    }
}

/// The client for Discord's API: a timeout, and no redirects (the oauth2 crate asks for none
/// on the token request: no SSRF through it).
pub(crate) fn http_client() -> Result<reqwest::Client, DiscordSetupError> {
    http_client_with(REQUEST_TIMEOUT)
}

/// A client whose every call ends by `timeout`.
pub(crate) fn http_client_with(timeout: Duration) -> Result<reqwest::Client, DiscordSetupError> {
    Ok(reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(timeout)
        .build()?)
}

/// `discord.api_base` as the root that [`api_url`] extends.
pub(crate) fn api_base_url(settings: &DiscordSettings) -> Result<Url, DiscordSetupError> {
    let api_base = settings.api_base.trim().trim_end_matches('/');
    Url::parse(&format!("{api_base}/")).map_err(bad_url("api_base"))
}

/// `{api_base}/{segments…}`, each segment escaped.
pub(crate) fn api_url(api_base: &Url, segments: &[&str]) -> anyhow::Result<Url> {
    let mut url = api_base.clone();
    url.path_segments_mut()
        .map_err(|()| anyhow!("discord.api_base cannot be a base"))?
        .pop_if_empty()
        .extend(segments);
    Ok(url)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn user(
        username: Option<&str>,
        global_name: Option<&str>,
        avatar: Option<&str>,
    ) -> DiscordUser {
        DiscordUser {
            id: Some("80351110224678912".into()),
            username: username.map(Into::into),
            global_name: global_name.map(Into::into),
            avatar: avatar.map(Into::into),
        }
    }

    fn read(user: DiscordUser) -> Result<DiscordIdentity, DiscordLinkError> {
        identity(DiscordId::parse("80351110224678912").unwrap(), user)
    }

    #[test]
    fn a_standard_answer_is_read_as_it_is() {
        let hash = "8342729096ea3675442027381ff50dfe";
        let nelly = read(user(Some("nelly"), Some("Nelly"), Some(hash))).unwrap();
        assert_eq!(nelly.username, "nelly");
        assert_eq!(
            nelly.avatar_url.as_deref(),
            Some(
                "https://cdn.discordapp.com/avatars/80351110224678912/\
                 8342729096ea3675442027381ff50dfe.png"
            )
        );
        assert!(read(user(Some("nelly"), None, Some(&format!("a_{hash}")))).is_ok());
        let named = read(user(None, Some("Nelly"), None)).unwrap();
        assert_eq!((named.username.as_str(), named.avatar_url), ("Nelly", None));
        assert_eq!(
            read(user(Some(""), None, Some(""))).unwrap().username,
            "80351110224678912"
        );
        let longest = "n".repeat(DISCORD_NAME_MAX);
        assert!(read(user(Some(&longest), Some(&longest), None)).is_ok());
    }

    #[test]
    fn an_over_long_name_or_a_strange_avatar_is_refused_as_it_is_read() {
        let long = "n".repeat(DISCORD_NAME_MAX + 1);
        for (answer, field) in [
            (user(Some(&long), None, None), "username"),
            (user(Some("nelly"), Some(&long), None), "display name"),
            (user(Some("nelly"), None, Some(&"f".repeat(450))), "avatar"),
            (user(Some("nelly"), None, Some(&"f".repeat(65))), "avatar"),
            (user(Some("nelly"), None, Some("../../evil")), "avatar"),
            (user(Some("nelly"), None, Some("a_")), "avatar"),
        ] {
            match read(answer) {
                Err(DiscordLinkError::UnusableIdentity(refused)) => assert_eq!(refused, field),
                other => panic!("{field}: {other:?}"),
            }
        }
    }
}
