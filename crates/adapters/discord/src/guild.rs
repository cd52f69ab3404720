//! Adding a buyer to the shop's server: `PUT {api_base}/guilds/{guild}/members/{user}` with
//! the bot's token and the buyer's OAuth access token ([`orders::GuildDoor`]). One attempt per
//! call; the outbox loop retries (see `orders::guild_join`).

use anyhow::anyhow;
use orders::{AccessToken, DiscordId, GuildDoor, GuildJoinError};
use reqwest::{StatusCode, Url};
use secrecy::{ExposeSecret, SecretString};

use crate::oauth::{api_base_url, api_url, http_client_with};
use crate::{DiscordSettings, DiscordSetupError};

/// The shop's server, as its bot sees it.
#[derive(Clone)]
pub struct DiscordGuildDoor {
    http: reqwest::Client,
    api_base: Url,
    bot_token: SecretString,
    guild_id: String,
}

impl std::fmt::Debug for DiscordGuildDoor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DiscordGuildDoor")
            .field("api_base", &self.api_base.as_str())
            .field("guild_id", &self.guild_id)
            .finish_non_exhaustive()
    }
}

impl DiscordGuildDoor {
    /// The door when `discord.bot_token` and `discord.guild_id` are both set, else `None`.
    pub fn from_settings(settings: &DiscordSettings) -> Result<Option<Self>, DiscordSetupError> {
        let Some((bot_token, guild_id)) = settings.guild_join() else {
            return Ok(None);
        };
        Ok(Some(DiscordGuildDoor {
            http: http_client_with(settings.request_timeout())?,
            api_base: api_base_url(settings)?,
            bot_token,
            guild_id,
        }))
    }
}

impl GuildDoor for DiscordGuildDoor {
    #[tracing::instrument(name = "discord.join_guild", skip_all, fields(discord_id = %discord_id))]
    async fn join(
        &self,
        discord_id: &DiscordId,
        token: &AccessToken,
    ) -> Result<(), GuildJoinError> {
        let url = api_url(
            &self.api_base,
            &["guilds", &self.guild_id, "members", discord_id.as_str()],
        )?;
        let response = self
            .http
            .put(url)
            .header(
                reqwest::header::AUTHORIZATION,
                format!("Bot {}", self.bot_token.expose_secret()),
            )
            .json(&serde_json::json!({ "access_token": token.expose() }))
            .send()
            .await
            .map_err(|e| GuildJoinError::Unavailable(format!("the join request failed: {e}")))?;
        let status = response.status();
        // 201: added; 204: a member already
        if status.is_success() {
            return Ok(());
        }
        let headers = response.headers().clone();
        let answer = response.bytes().await.unwrap_or_default();
        if status == StatusCode::TOO_MANY_REQUESTS {
            return Err(GuildJoinError::RateLimited(crate::answers::rate_limited(
                &headers, &answer,
            )));
        }
        // for the log and the job's last error: the status and a bounded excerpt, never the body
        let body = shared::upstream::excerpt(&String::from_utf8_lossy(&answer));
        let said = format!("Discord answered {status}: {body}");
        Err(match status {
            status if status.is_server_error() => GuildJoinError::Unavailable(said),
            StatusCode::FORBIDDEN => GuildJoinError::MissingPermission(said),
            StatusCode::UNAUTHORIZED | StatusCode::BAD_REQUEST => {
                GuildJoinError::InvalidToken(said)
            }
            _ => GuildJoinError::Unknown(anyhow!(said)),
        })
    }
}
