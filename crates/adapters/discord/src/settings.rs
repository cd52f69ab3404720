use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;

/// The `discord` section of the configuration. Empty strings mean "not set".
#[derive(Debug, Clone, Deserialize)]
pub struct DiscordSettings {
    /// The application's OAuth2 client id; empty means "use the dev sign-in page".
    pub client_id: String,
    pub client_secret: SecretString,
    /// Where Discord sends the shopper back (`{public_url}/discord/callback`).
    pub redirect_url: String,
    pub authorize_url: String,
    /// The API root: token at `{api_base}/oauth2/token`, user at `{api_base}/users/@me`.
    pub api_base: String,
    /// With `guild_id`, lets the shop add linked shoppers to its Discord server.
    pub bot_token: SecretString,
    pub guild_id: String,
    /// A channel webhook for staff notifications (the URL holds the webhook's token).
    pub notify_webhook_url: SecretString,
    /// With `bot_token` and `guild_id`: the text channel where each paid order gets a private
    /// thread (its ticket).
    pub ticket_channel_id: String,
    /// The role the ticket mentions once (staff).
    pub staff_role_id: String,
    /// The deadline of every call to Discord (the tickets, the staff webhook, the server
    /// joins), in milliseconds: a call without an answer by then fails and is tried again later.
    pub request_timeout_ms: u64,
    /// Answers Discord counts as invalid (401, 403, 429) per ten minutes after which the shop
    /// stops calling it until the ten minutes are over, on every instance: well under Discord's
    /// own 10,000, past which Cloudflare bans the shop's address for an hour.
    pub invalid_request_budget: u32,
}

impl DiscordSettings {
    /// `request_timeout_ms` as a duration (at least 50 ms).
    pub fn request_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.request_timeout_ms.max(50))
    }

    /// Whether real Discord OAuth is configured (otherwise the dev sign-in page stands in).
    pub fn oauth_configured(&self) -> bool {
        !self.client_id.trim().is_empty() && !self.client_secret.expose_secret().trim().is_empty()
    }

    /// The bot token and guild id, when both are set.
    pub fn guild_join(&self) -> Option<(SecretString, String)> {
        let token = self.bot_token.expose_secret().trim();
        let guild = self.guild_id.trim();
        (!token.is_empty() && !guild.is_empty())
            .then(|| (SecretString::from(token), guild.to_owned()))
    }

    /// Whether a bot opens each order's ticket: a token, the guild and the ticket channel set
    /// (`DiscordTickets::from_settings` then builds it, or says what is wrong).
    pub fn tickets_configured(&self) -> bool {
        self.guild_join().is_some() && !self.ticket_channel_id.trim().is_empty()
    }

    /// The staff webhook URL, when set.
    pub fn notify_webhook(&self) -> Option<SecretString> {
        let url = self.notify_webhook_url.expose_secret().trim();
        (!url.is_empty()).then(|| SecretString::from(url))
    }
}
