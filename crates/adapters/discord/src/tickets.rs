//! The order's ticket on Discord: private threads in the ticket channel, through a small typed
//! client over reqwest with the bot's token. Nothing here waits or retries: every call has a
//! deadline (`discord.request_timeout_ms`), a 429 is `DeskError::RateLimited` with the wait
//! Discord named (the outbox puts the job off by it, and a global one holds every Discord job),
//! a 5xx or a timeout is `DeskError::Unavailable`, and the outbox tries the job again later.
//! (twilight-http, used before, waits out and resends every 429 in the call itself, endlessly,
//! which held every other job of the outbox behind one rate limit.)

use std::time::Duration;

use anyhow::anyhow;
use orders::tickets::{DeskError, TicketDesk, TicketPost, TicketSettings};
use orders::DiscordId;
use reqwest::{Method, StatusCode, Url};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use shared::discord_text;

use crate::answers::rate_limited;
use crate::oauth::api_url;
use crate::DiscordSettings;

/// Discord's codes for a user who is not in the server.
const UNKNOWN_MEMBER: u64 = 10007;
const UNKNOWN_USER: u64 = 10013;
/// The longest message Discord takes.
const MAX_CONTENT: usize = 2000;
/// A private thread, as Discord numbers channel types.
const PRIVATE_THREAD: u8 = 12;
/// A week, in minutes: how long a quiet ticket stays unarchived.
const ARCHIVE_AFTER_MINUTES: u32 = 10080;

#[derive(Debug, thiserror::Error)]
pub enum TicketSetupError {
    #[error("discord.ticket_channel_id is not a Discord id")]
    BadChannel,
    #[error("discord.staff_role_id is not a Discord id")]
    BadStaffRole,
    #[error("discord.guild_id is not a Discord id")]
    BadGuild,
    #[error("discord.api_base {0:?} cannot serve the tickets: {1}")]
    BadApiBase(String, &'static str),
    #[error("no HTTP client for the tickets: {0}")]
    Http(#[from] reqwest::Error),
}

/// The ticket channel, through the shop's bot. Cloning is cheap.
#[derive(Clone)]
pub struct DiscordTickets {
    http: reqwest::Client,
    /// `{api_base}/v10/`
    api: Url,
    token: SecretString,
    guild: DiscordId,
    channel: DiscordId,
}

impl std::fmt::Debug for DiscordTickets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DiscordTickets")
            .field("api", &self.api.as_str())
            .field("channel", &self.channel)
            .finish_non_exhaustive()
    }
}

/// `{api_base}/v10/`: Discord's versioned REST root under `discord.api_base`, which must end in
/// `/api` (Discord's own, or a local fake's).
fn versioned_root(api_base: &str) -> Result<Url, TicketSetupError> {
    let bad = |why| TicketSetupError::BadApiBase(api_base.to_owned(), why);
    let url = Url::parse(api_base.trim()).map_err(|_| bad("not a URL"))?;
    if url.host_str().is_none() {
        return Err(bad("no host"));
    }
    if url.path().trim_end_matches('/') != "/api" {
        return Err(bad("its path must be /api"));
    }
    if !matches!(url.scheme(), "https" | "http") {
        return Err(bad("not http or https"));
    }
    url.join("/api/v10/").map_err(|_| bad("not a URL"))
}

/// What Discord says with a refusal; only its code and message go on (never a request's body).
#[derive(Deserialize, Default)]
struct ApiError {
    #[serde(default)]
    code: Option<u64>,
    #[serde(default)]
    message: Option<String>,
}

/// Discord's refusal, as the ticket can act on it.
fn desk_error(status: StatusCode, headers: &reqwest::header::HeaderMap, body: &[u8]) -> DeskError {
    if status == StatusCode::TOO_MANY_REQUESTS {
        return DeskError::RateLimited(rate_limited(headers, body));
    }
    let api: ApiError = serde_json::from_slice(body).unwrap_or_default();
    let said = format!(
        "Discord answered {status} (code {}): {}",
        api.code
            .map_or_else(|| "none".to_owned(), |c| c.to_string()),
        shared::upstream::excerpt(&api.message.unwrap_or_default())
    );
    match status.as_u16() {
        401 | 403 => DeskError::MissingPermission(said),
        404 if matches!(api.code, Some(UNKNOWN_MEMBER | UNKNOWN_USER)) => DeskError::UnknownMember,
        404 => DeskError::NotFound(said),
        500.. => DeskError::Unavailable(said),
        _ => DeskError::Other(anyhow!(said)),
    }
}

/// No answer within the deadline, or none at all; only the error's kind (its text names the URL).
fn unreachable(error: &reqwest::Error) -> DeskError {
    DeskError::Unavailable(format!(
        "no answer from Discord (timeout: {}, connect: {})",
        error.is_timeout(),
        error.is_connect()
    ))
}

#[derive(Deserialize)]
struct Created {
    id: String,
}

#[derive(Deserialize)]
struct ActiveThreads {
    threads: Vec<ActiveThread>,
}

#[derive(Deserialize)]
struct ActiveThread {
    id: String,
    #[serde(default)]
    parent_id: Option<String>,
    #[serde(default)]
    name: Option<String>,
}

impl DiscordTickets {
    /// The ticket client, when `bot_token`, `guild_id` and `ticket_channel_id` are all set
    /// (`None` otherwise: the order page is the ticket). Requests go to `api_base`.
    pub fn from_settings(settings: &DiscordSettings) -> Result<Option<Self>, TicketSetupError> {
        let Some((token, guild)) = settings.guild_join() else {
            return Ok(None);
        };
        let channel = settings.ticket_channel_id.trim();
        if channel.is_empty() {
            return Ok(None);
        }
        let channel = DiscordId::parse(channel).map_err(|_| TicketSetupError::BadChannel)?;
        let guild = DiscordId::parse(&guild).map_err(|_| TicketSetupError::BadGuild)?;
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(settings.request_timeout())
            .connect_timeout(settings.request_timeout().min(Duration::from_secs(5)))
            .build()?;
        Ok(Some(DiscordTickets {
            http,
            api: versioned_root(&settings.api_base)?,
            token,
            guild,
            channel,
        }))
    }

    /// One call with the bot's token: the answer's body when it succeeds.
    async fn call(
        &self,
        method: Method,
        segments: &[&str],
        body: Option<serde_json::Value>,
    ) -> Result<Vec<u8>, DeskError> {
        let url = api_url(&self.api, segments).map_err(DeskError::Other)?;
        let mut request = self.http.request(method, url).header(
            reqwest::header::AUTHORIZATION,
            format!("Bot {}", self.token.expose_secret()),
        );
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.map_err(|e| unreachable(&e))?;
        let status = response.status();
        let headers = response.headers().clone();
        let body = response.bytes().await.map_err(|e| unreachable(&e))?;
        if status.is_success() {
            Ok(body.to_vec())
        } else {
            Err(desk_error(status, &headers, &body))
        }
    }
}

fn created_id(body: &[u8], what: &str) -> Result<DiscordId, DeskError> {
    let created: Created = serde_json::from_slice(body)
        .map_err(|e| DeskError::Other(anyhow!("unreadable {what} from Discord: {e}")))?;
    DiscordId::parse(&created.id)
        .map_err(|_| DeskError::Other(anyhow!("Discord's {what} id {:?}", created.id)))
}

/// The ticket's settings for [`orders::tickets::Tickets`]: the shop's public URL and
/// `discord.staff_role_id` (empty: no mention; anything else but a Discord id is refused).
pub fn ticket_settings(
    settings: &DiscordSettings,
    public_url: &str,
) -> Result<TicketSettings, TicketSetupError> {
    let role = settings.staff_role_id.trim();
    Ok(TicketSettings {
        public_url: public_url.to_owned(),
        staff_role: if role.is_empty() {
            None
        } else {
            Some(DiscordId::parse(role).map_err(|_| TicketSetupError::BadStaffRole)?)
        },
    })
}

impl TicketDesk for DiscordTickets {
    #[tracing::instrument(skip(self))]
    async fn open_thread(&self, name: &str) -> Result<DiscordId, DeskError> {
        let body = self
            .call(
                Method::POST,
                &["channels", self.channel.as_str(), "threads"],
                Some(serde_json::json!({
                    "name": discord_text(name),
                    "type": PRIVATE_THREAD,
                    "invitable": false,
                    "auto_archive_duration": ARCHIVE_AFTER_MINUTES,
                })),
            )
            .await?;
        created_id(&body, "thread")
    }

    #[tracing::instrument(skip(self))]
    async fn find_thread(&self, name: &str) -> Result<Option<DiscordId>, DeskError> {
        let body = self
            .call(
                Method::GET,
                &["guilds", self.guild.as_str(), "threads", "active"],
                None,
            )
            .await?;
        let active: ActiveThreads = serde_json::from_slice(&body)
            .map_err(|e| DeskError::Unavailable(format!("unreadable active threads: {e}")))?;
        let name = discord_text(name);
        Ok(active
            .threads
            .into_iter()
            .filter(|t| {
                t.parent_id.as_deref() == Some(self.channel.as_str())
                    && t.name.as_deref() == Some(name.as_str())
            })
            .find_map(|t| DiscordId::parse(&t.id).ok()))
    }

    #[tracing::instrument(skip(self))]
    async fn add_member(&self, thread: &DiscordId, user: &DiscordId) -> Result<(), DeskError> {
        self.call(
            Method::PUT,
            &["channels", thread.as_str(), "thread-members", user.as_str()],
            None,
        )
        .await?;
        Ok(())
    }

    #[tracing::instrument(skip(self, post), fields(nonce = %post.nonce))]
    async fn post(&self, thread: &DiscordId, post: &TicketPost) -> Result<DiscordId, DeskError> {
        let content: String = discord_text(&post.text).chars().take(MAX_CONTENT).collect();
        // a resend with the same nonce within a few minutes answers the first message instead
        // of a new one
        self.call(
            Method::POST,
            &["channels", thread.as_str(), "messages"],
            Some(serde_json::json!({
                "content": content,
                "allowed_mentions": {
                    "parse": [],
                    "roles": post.roles.iter().map(DiscordId::as_str).collect::<Vec<_>>(),
                    "users": post.users.iter().map(DiscordId::as_str).collect::<Vec<_>>(),
                },
                "nonce": post.nonce,
                "enforce_nonce": true,
            })),
        )
        .await
        .and_then(|body| created_id(&body, "message"))
    }

    #[tracing::instrument(skip(self, text))]
    async fn edit_post(
        &self,
        thread: &DiscordId,
        message: &DiscordId,
        text: &str,
    ) -> Result<(), DeskError> {
        let content: String = discord_text(text).chars().take(MAX_CONTENT).collect();
        self.call(
            Method::PATCH,
            &["channels", thread.as_str(), "messages", message.as_str()],
            Some(serde_json::json!({
                "content": content,
                "allowed_mentions": { "parse": [] },
            })),
        )
        .await?;
        Ok(())
    }

    #[tracing::instrument(skip(self))]
    async fn delete_thread(&self, thread: &DiscordId) -> Result<(), DeskError> {
        self.call(Method::DELETE, &["channels", thread.as_str()], None)
            .await?;
        Ok(())
    }

    #[tracing::instrument(skip(self))]
    async fn close_thread(&self, thread: &DiscordId) -> Result<(), DeskError> {
        self.call(
            Method::PATCH,
            &["channels", thread.as_str()],
            Some(serde_json::json!({ "archived": true, "locked": true })),
        )
        .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_staff_role_is_optional_but_must_be_an_id() {
        let mut settings = DiscordSettings {
            client_id: String::new(),
            client_secret: secrecy::SecretString::from(""),
            redirect_url: String::new(),
            authorize_url: String::new(),
            api_base: "https://discord.com/api".to_owned(),
            bot_token: secrecy::SecretString::from(""),
            guild_id: String::new(),
            notify_webhook_url: secrecy::SecretString::from(""),
            ticket_channel_id: String::new(),
            staff_role_id: " ".into(),
            request_timeout_ms: 10_000,
            invalid_request_budget: 1_000,
        };
        assert_eq!(
            ticket_settings(&settings, "https://shop.test").unwrap(),
            TicketSettings {
                public_url: "https://shop.test".into(),
                staff_role: None,
            }
        );
        settings.staff_role_id = "990000000000000009".into();
        assert_eq!(
            ticket_settings(&settings, "https://shop.test")
                .unwrap()
                .staff_role
                .unwrap()
                .as_str(),
            "990000000000000009"
        );
        settings.staff_role_id = "@staff".into();
        assert!(ticket_settings(&settings, "https://shop.test").is_err());
    }

    #[test]
    fn the_api_base_must_be_an_api_root() {
        assert_eq!(
            versioned_root("https://discord.com/api").unwrap().as_str(),
            "https://discord.com/api/v10/"
        );
        assert_eq!(
            versioned_root("http://127.0.0.1:4123/api/")
                .unwrap()
                .as_str(),
            "http://127.0.0.1:4123/api/v10/"
        );
        assert!(versioned_root("http://127.0.0.1:4123/v9").is_err());
        assert!(versioned_root("discord").is_err());
    }
}
