//! The outside links the shop hands to buyers. Both are checked once, where they enter the shop
//! (a setting at start, a form for staff), so whatever carries one never checks it again.

use std::fmt;

use url::Url;

/// The longest private server link staff may keep.
pub const PRIVATE_SERVER_URL_MAX: usize = 300;

/// Whether `text` is an https invite to a Discord server: `https://discord.gg/CODE` or
/// `https://discord.com/invite/CODE`.
pub fn is_discord_invite(text: &str) -> bool {
    let Ok(url) = Url::parse(text) else {
        return false;
    };
    if url.scheme() != "https" || url.username() != "" || url.password().is_some() {
        return false;
    }
    let segments: Vec<&str> = url
        .path_segments()
        .map(|s| s.filter(|s| !s.is_empty()).collect())
        .unwrap_or_default();
    let code_ok = |code: &str| {
        !code.is_empty() && code.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    };
    match (url.host_str(), segments.as_slice()) {
        (Some("discord.gg"), [code]) => code_ok(code),
        (Some("discord.com" | "www.discord.com"), ["invite", code]) => code_ok(code),
        _ => false,
    }
}

/// A member of staff's private game server: an https link on roblox.com (or a subdomain), at
/// most [`PRIVATE_SERVER_URL_MAX`] characters.
#[derive(Clone, PartialEq, Eq)]
pub struct PrivateServerUrl(String);

/// Why a private server link was refused (the message says what is wanted).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidPrivateServerUrl {
    #[error("Enter your private server link.")]
    Empty,
    #[error("The link can be at most {PRIVATE_SERVER_URL_MAX} characters.")]
    TooLong,
    #[error("Use the https link Roblox gives for your private server (https://www.roblox.com/…).")]
    NotRoblox,
}

impl PrivateServerUrl {
    pub fn parse(text: &str) -> Result<Self, InvalidPrivateServerUrl> {
        let text = text.trim();
        if text.is_empty() {
            return Err(InvalidPrivateServerUrl::Empty);
        }
        if text.chars().count() > PRIVATE_SERVER_URL_MAX {
            return Err(InvalidPrivateServerUrl::TooLong);
        }
        let url = Url::parse(text).map_err(|_| InvalidPrivateServerUrl::NotRoblox)?;
        let roblox = url
            .host_str()
            .is_some_and(|host| host == "roblox.com" || host.ends_with(".roblox.com"));
        if url.scheme() != "https"
            || !roblox
            || url.port().is_some()
            || url.username() != ""
            || url.password().is_some()
            || text.chars().any(char::is_control)
        {
            return Err(InvalidPrivateServerUrl::NotRoblox);
        }
        Ok(PrivateServerUrl(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for PrivateServerUrl {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// Shown only to those who may see it; its `Debug` hides it so logs never carry it.
impl fmt::Debug for PrivateServerUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PrivateServerUrl(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discord_invites_are_https_discord_links_with_a_code() {
        assert!(is_discord_invite("https://discord.gg/garden"));
        assert!(is_discord_invite("https://discord.com/invite/Garden-Shop"));
        for refused in [
            "",
            "http://discord.gg/garden",
            "https://discord.gg/",
            "https://evil.example/discord.gg/x",
            "https://discord.gg.evil.example/x",
            "https://discord.com/channels/1/2",
            "https://user@discord.gg/x",
            "javascript:alert(1)",
        ] {
            assert!(!is_discord_invite(refused), "{refused}");
        }
    }

    #[test]
    fn private_server_links_are_https_roblox_links() {
        let url = "https://www.roblox.com/share?code=abc123&type=Server";
        assert_eq!(PrivateServerUrl::parse(url).unwrap().as_str(), url);
        assert!(
            PrivateServerUrl::parse("https://roblox.com/games/1?privateServerLinkCode=9").is_ok()
        );
        assert_eq!(
            PrivateServerUrl::parse("  "),
            Err(InvalidPrivateServerUrl::Empty)
        );
        for refused in [
            "http://www.roblox.com/share?code=1",
            "https://roblox.com.evil.example/x",
            "https://evilroblox.com/x",
            "https://www.roblox.com:8443/x",
            "https://a@www.roblox.com/x",
            "roblox.com/share",
        ] {
            assert_eq!(
                PrivateServerUrl::parse(refused),
                Err(InvalidPrivateServerUrl::NotRoblox),
                "{refused}"
            );
        }
        let long = format!("https://www.roblox.com/{}", "a".repeat(300));
        assert_eq!(
            PrivateServerUrl::parse(&long),
            Err(InvalidPrivateServerUrl::TooLong)
        );
    }

    #[test]
    fn a_private_server_link_stays_out_of_debug_output() {
        let url = PrivateServerUrl::parse("https://www.roblox.com/share?code=secret").unwrap();
        assert!(!format!("{url:?}").contains("secret"));
    }
}
