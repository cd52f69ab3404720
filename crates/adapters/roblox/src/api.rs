use std::time::Duration;

use anyhow::Context;
use moka::future::Cache;
use orders::gateways::{RobloxDirectory, RobloxLookupError, RobloxProfile, RobloxUsername};
use reqwest::{Response, StatusCode, Url};
use serde::Deserialize;
use serde_json::json;

/// How long an answer (found or not found) is reused.
pub const CACHE_TTL: Duration = Duration::from_secs(10 * 60);
const CACHE_CAPACITY: u64 = 10_000;
const REQUEST_TIMEOUT: Duration = Duration::from_secs(8);

/// The `roblox` section of the configuration.
#[derive(Debug, Clone, Deserialize)]
pub struct RobloxSettings {
    pub users_api_base: String,
    pub thumbnails_api_base: String,
}

#[derive(Debug, thiserror::Error)]
pub enum RobloxSetupError {
    #[error("roblox.{field} is not a URL: {reason}")]
    BadUrl { field: &'static str, reason: String },
    #[error("the HTTP client could not be built: {0}")]
    Client(#[from] reqwest::Error),
}

/// The Roblox web APIs, with a ten-minute cache in front.
#[derive(Clone)]
pub struct RobloxApi {
    http: reqwest::Client,
    users_lookup: Url,
    headshots: Url,
    cache: Cache<String, Option<RobloxProfile>>,
}

impl std::fmt::Debug for RobloxApi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RobloxApi")
            .field("users_lookup", &self.users_lookup.as_str())
            .field("headshots", &self.headshots.as_str())
            .finish_non_exhaustive()
    }
}

#[derive(Deserialize)]
struct UsersAnswer {
    #[serde(default)]
    data: Vec<FoundUser>,
}

#[derive(Deserialize)]
struct FoundUser {
    id: u64,
    name: String,
}

#[derive(Deserialize)]
struct ThumbnailsAnswer {
    #[serde(default)]
    data: Vec<Thumbnail>,
}

#[derive(Deserialize)]
struct Thumbnail {
    #[serde(default)]
    state: Option<String>,
    #[serde(default, rename = "imageUrl")]
    image_url: Option<String>,
}

fn endpoint(base: &str, path: &str, field: &'static str) -> Result<Url, RobloxSetupError> {
    let base = base.trim().trim_end_matches('/');
    Url::parse(&format!("{base}{path}")).map_err(|e| RobloxSetupError::BadUrl {
        field,
        reason: e.to_string(),
    })
}

fn failed(status: StatusCode, what: &str) -> RobloxLookupError {
    if status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS {
        RobloxLookupError::Unavailable(format!("Roblox answered {status} to the {what}"))
    } else {
        RobloxLookupError::Unknown(anyhow::anyhow!("Roblox answered {status} to the {what}"))
    }
}

fn unreachable(err: reqwest::Error) -> RobloxLookupError {
    if err.is_timeout() {
        RobloxLookupError::Unavailable("Roblox did not answer in time".into())
    } else {
        RobloxLookupError::Unavailable(format!("Roblox could not be reached: {err}"))
    }
}

async fn ok(response: Response, what: &str) -> Result<Response, RobloxLookupError> {
    let status = response.status();
    if status.is_success() {
        Ok(response)
    } else {
        Err(failed(status, what))
    }
}

impl RobloxApi {
    pub fn new(settings: &RobloxSettings) -> Result<Self, RobloxSetupError> {
        Ok(Self {
            http: reqwest::Client::builder()
                .timeout(REQUEST_TIMEOUT)
                .build()?,
            users_lookup: endpoint(
                &settings.users_api_base,
                "/v1/usernames/users",
                "users_api_base",
            )?,
            headshots: endpoint(
                &settings.thumbnails_api_base,
                "/v1/users/avatar-headshot",
                "thumbnails_api_base",
            )?,
            cache: Cache::builder()
                .max_capacity(CACHE_CAPACITY)
                .time_to_live(CACHE_TTL)
                .build(),
        })
    }

    async fn find_user(
        &self,
        username: &RobloxUsername,
    ) -> Result<Option<FoundUser>, RobloxLookupError> {
        let response = self
            .http
            .post(self.users_lookup.clone())
            .json(&json!({ "usernames": [username.as_str()], "excludeBannedUsers": true }))
            .send()
            .await
            .map_err(unreachable)?;
        let answer: UsersAnswer = ok(response, "username lookup")
            .await?
            .json()
            .await
            .context("unreadable Roblox username lookup")?;
        Ok(answer.data.into_iter().next())
    }

    /// The headshot URL; `Err` when Roblox could not tell, `Ok(None)` when it has none to show.
    async fn headshot(&self, user_id: u64) -> Result<Option<String>, RobloxLookupError> {
        let response = self
            .http
            .get(self.headshots.clone())
            .query(&[
                ("userIds", user_id.to_string().as_str()),
                ("size", "150x150"),
                ("format", "Png"),
                ("isCircular", "false"),
            ])
            .send()
            .await
            .map_err(unreachable)?;
        let answer: ThumbnailsAnswer = ok(response, "avatar lookup")
            .await?
            .json()
            .await
            .context("unreadable Roblox avatar lookup")?;
        Ok(answer
            .data
            .into_iter()
            .next()
            .filter(|t| t.state.as_deref() == Some("Completed"))
            .and_then(|t| t.image_url)
            .filter(|url| !url.is_empty()))
    }
}

impl RobloxDirectory for RobloxApi {
    #[tracing::instrument(name = "roblox.lookup", skip(self), fields(username = %username))]
    async fn lookup(
        &self,
        username: RobloxUsername,
    ) -> Result<Option<RobloxProfile>, RobloxLookupError> {
        let key = username.as_str().to_ascii_lowercase();
        if let Some(known) = self.cache.get(&key).await {
            return Ok(known);
        }
        let Some(user) = self.find_user(&username).await? else {
            self.cache.insert(key, None).await;
            return Ok(None);
        };
        let canonical = RobloxUsername::parse(&user.name).unwrap_or_else(|_| {
            // Some very old accounts predate today's rules; keep the name as asked.
            tracing::warn!(roblox_name = %user.name, "roblox returned a name outside today's rules");
            username.clone()
        });
        match self.headshot(user.id).await {
            Ok(avatar_url) => {
                let profile = RobloxProfile {
                    username: canonical,
                    user_id: user.id,
                    avatar_url,
                };
                self.cache.insert(key, Some(profile.clone())).await;
                Ok(Some(profile))
            }
            Err(err) => {
                // The account exists; only its picture is missing. Answer without it, and do
                // not remember the answer so the next lookup tries the picture again.
                tracing::warn!(error = %err, user_id = user.id, "roblox avatar lookup failed");
                Ok(Some(RobloxProfile {
                    username: canonical,
                    user_id: user.id,
                    avatar_url: None,
                }))
            }
        }
    }
}
