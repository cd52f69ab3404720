//! The order's ticket on Discord: private threads in the ticket channel, through twilight-http,
//! which keeps Discord's rate limits (per-route buckets, the global limit, and a 429 waited out
//! and sent again). A 5xx is not retried here: it is `DeskError::Unavailable`, and the outbox
//! tries the job again later.

use std::sync::Arc;

use anyhow::anyhow;
use orders::tickets::{DeskError, TicketDesk, TicketPost, TicketSettings};
use orders::DiscordId;
use reqwest::Url;
use secrecy::ExposeSecret;
use serde::Deserialize;
use twilight_http::api_error::ApiError;
use twilight_http::error::ErrorType;
use twilight_http::Client;
use twilight_model::channel::message::AllowedMentions;
use twilight_model::channel::thread::AutoArchiveDuration;
use twilight_model::channel::ChannelType;
use twilight_model::id::Id;

use crate::DiscordSettings;

/// Discord's codes for a user who is not in the server.
const UNKNOWN_MEMBER: u64 = 10007;
const UNKNOWN_USER: u64 = 10013;
/// The longest message Discord takes.
const MAX_CONTENT: usize = 2000;

#[derive(Debug, thiserror::Error)]
pub enum TicketSetupError {
    #[error("discord.ticket_channel_id is not a Discord id")]
    BadChannel,
    #[error("discord.staff_role_id is not a Discord id")]
    BadStaffRole,
    #[error("discord.api_base {0:?} cannot serve the tickets: {1}")]
    BadApiBase(String, &'static str),
}

/// The ticket channel, through the shop's bot. Cloning is cheap.
#[derive(Debug, Clone)]
pub struct DiscordTickets {
    http: Arc<Client>,
    channel: DiscordId,
}

/// Where twilight sends its requests: `None` for Discord itself, else the host (and port) of
/// `api_base` and whether it speaks plain HTTP. Twilight puts `/api/v10/…` after it, so a base
/// other than Discord's must end in `/api`.
fn proxy_for(api_base: &str) -> Result<Option<(String, bool)>, TicketSetupError> {
    let bad = |why| TicketSetupError::BadApiBase(api_base.to_owned(), why);
    let url = Url::parse(api_base.trim()).map_err(|_| bad("not a URL"))?;
    let host = url.host_str().ok_or_else(|| bad("no host"))?;
    if url.path().trim_end_matches('/') != "/api" {
        return Err(bad("its path must be /api"));
    }
    let plain = match url.scheme() {
        "https" => false,
        "http" => true,
        _ => return Err(bad("not http or https")),
    };
    if !plain && host == "discord.com" && url.port().is_none() {
        return Ok(None);
    }
    Ok(Some((
        match url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        },
        plain,
    )))
}

fn snowflake<T>(id: &DiscordId) -> Result<Id<T>, DeskError> {
    id.as_str()
        .parse()
        .ok()
        .and_then(Id::new_checked)
        .ok_or_else(|| DeskError::Other(anyhow!("{id} is not a Discord id")))
}

/// Discord's answer, as the ticket can act on it; what it said is kept as a bounded excerpt
/// (`shared::upstream::excerpt`): twilight's own text of an answer it could not parse holds the
/// whole body.
fn desk_error(error: twilight_http::Error) -> DeskError {
    use shared::upstream::excerpt;
    match error.kind() {
        ErrorType::Response {
            status, error: api, ..
        } => {
            let code = match api {
                ApiError::General(general) => Some(general.code),
                _ => None,
            };
            match status.get() {
                401 | 403 => DeskError::MissingPermission(excerpt(&api.to_string())),
                404 if matches!(code, Some(UNKNOWN_MEMBER | UNKNOWN_USER)) => {
                    DeskError::UnknownMember
                }
                404 => DeskError::NotFound(excerpt(&api.to_string())),
                status if status >= 500 => DeskError::Unavailable(format!(
                    "Discord answered {status}: {}",
                    excerpt(&api.to_string())
                )),
                status => DeskError::Other(anyhow!(
                    "Discord answered {status}: {}",
                    excerpt(&api.to_string())
                )),
            }
        }
        // no answer, or one that is not Discord's JSON (a proxy's error page)
        ErrorType::RequestError | ErrorType::RequestTimedOut | ErrorType::Parsing { .. } => {
            DeskError::Unavailable(excerpt(&error.to_string()))
        }
        ErrorType::Unauthorized => {
            DeskError::MissingPermission("Discord refused the bot token".to_owned())
        }
        _ => DeskError::Other(anyhow!(excerpt(&error.to_string()))),
    }
}

#[derive(Deserialize)]
struct Created {
    id: String,
}

impl DiscordTickets {
    /// The ticket client, when `bot_token`, `guild_id` and `ticket_channel_id` are all set
    /// (`None` otherwise: the order page is the ticket). Requests go to Discord, or to the
    /// host of `api_base` when it is not `https://discord.com/api` (a local fake).
    pub fn from_settings(settings: &DiscordSettings) -> Result<Option<Self>, TicketSetupError> {
        let Some((token, _guild)) = settings.guild_join() else {
            return Ok(None);
        };
        let channel = settings.ticket_channel_id.trim();
        if channel.is_empty() {
            return Ok(None);
        }
        let channel = DiscordId::parse(channel).map_err(|_| TicketSetupError::BadChannel)?;
        let mut builder = Client::builder().token(token.expose_secret().to_owned());
        if let Some((host, plain)) = proxy_for(&settings.api_base)? {
            builder = builder.proxy(host, plain);
        }
        Ok(Some(DiscordTickets {
            http: Arc::new(builder.build()),
            channel,
        }))
    }
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
        let response = self
            .http
            .create_thread(snowflake(&self.channel)?, name, ChannelType::PrivateThread)
            .invitable(false)
            .auto_archive_duration(AutoArchiveDuration::Week)
            .await
            .map_err(desk_error)?;
        let body = response
            .bytes()
            .await
            .map_err(|e| DeskError::Unavailable(format!("the thread's answer was cut: {e}")))?;
        let created: Created = serde_json::from_slice(&body)
            .map_err(|e| DeskError::Other(anyhow!("unreadable thread from Discord: {e}")))?;
        DiscordId::parse(&created.id)
            .map_err(|_| DeskError::Other(anyhow!("Discord's thread id {:?}", created.id)))
    }

    #[tracing::instrument(skip(self))]
    async fn add_member(&self, thread: &DiscordId, user: &DiscordId) -> Result<(), DeskError> {
        self.http
            .add_thread_member(snowflake(thread)?, snowflake(user)?)
            .await
            .map_err(desk_error)?;
        Ok(())
    }

    #[tracing::instrument(skip(self, post), fields(nonce = %post.nonce))]
    async fn post(&self, thread: &DiscordId, post: &TicketPost) -> Result<(), DeskError> {
        let allowed = AllowedMentions {
            parse: vec![],
            replied_user: false,
            roles: post.roles.iter().map(snowflake).collect::<Result<_, _>>()?,
            users: post.users.iter().map(snowflake).collect::<Result<_, _>>()?,
        };
        let content: String = post.text.chars().take(MAX_CONTENT).collect();
        // The body by hand for `enforce_nonce`, which twilight's builder does not offer: a resend
        // with the same nonce within a few minutes answers the first message instead of a new one.
        let body = serde_json::to_vec(&serde_json::json!({
            "content": content,
            "allowed_mentions": allowed,
            "nonce": post.nonce,
            "enforce_nonce": true,
        }))
        .map_err(|e| DeskError::Other(e.into()))?;
        self.http
            .create_message(snowflake(thread)?)
            .payload_json(&body)
            .await
            .map_err(desk_error)?;
        Ok(())
    }

    #[tracing::instrument(skip(self))]
    async fn close_thread(&self, thread: &DiscordId) -> Result<(), DeskError> {
        self.http
            .update_thread(snowflake(thread)?)
            .archived(true)
            .locked(true)
            .await
            .map_err(desk_error)?;
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
            api_base: crate::settings::default_api_base(),
            bot_token: secrecy::SecretString::from(""),
            guild_id: String::new(),
            notify_webhook_url: secrecy::SecretString::from(""),
            ticket_channel_id: String::new(),
            staff_role_id: " ".into(),
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
    fn discord_itself_needs_no_proxy_and_a_fake_is_reached_by_its_host() {
        assert_eq!(proxy_for("https://discord.com/api").unwrap(), None);
        assert_eq!(proxy_for("https://discord.com/api/").unwrap(), None);
        assert_eq!(
            proxy_for("http://127.0.0.1:4123/api").unwrap(),
            Some(("127.0.0.1:4123".to_owned(), true))
        );
        assert_eq!(
            proxy_for("https://discord-proxy.internal/api").unwrap(),
            Some(("discord-proxy.internal".to_owned(), false))
        );
        assert!(proxy_for("http://127.0.0.1:4123/v9").is_err());
        assert!(proxy_for("discord").is_err());
    }
}
