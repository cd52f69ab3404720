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

/// A member of staff's private game server: the share link Roblox gives
/// (`https://www.roblox.com/share?code=…&type=Server`) or a private server link
/// (`https://www.roblox.com/games/{place}/{name}?privateServerLinkCode=…`), on www.roblox.com or
/// roblox.com, at most [`PRIVATE_SERVER_URL_MAX`] characters. Kept in the url crate's
/// serialisation, so what staff typed is never what buyers and Discord see: it has no spaces,
/// backslashes, control or format characters (nothing but printable ASCII), no credentials, and
/// its query is letters, digits, `-` and `_` (no mention, markdown or markup can ride along).
#[derive(Clone, PartialEq, Eq)]
pub struct PrivateServerUrl(String);

/// Why a private server link was refused (the message says what is wanted).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidPrivateServerUrl {
    #[error("Enter your private server link.")]
    Empty,
    #[error("The link can be at most {PRIVATE_SERVER_URL_MAX} characters.")]
    TooLong,
    #[error(
        "Paste the link exactly as Roblox gives it: no spaces, backslashes or special characters."
    )]
    Characters,
    #[error("Use the https link Roblox gives for your private server (https://www.roblox.com/…).")]
    NotRoblox,
    #[error(
        "Use your private server's share link (https://www.roblox.com/share?code=…) or its \
         private server link (…?privateServerLinkCode=…)."
    )]
    NotPrivateServer,
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
        // before parsing: the url crate drops tabs and newlines, percent-encodes spaces and
        // format characters (U+202E, U+200B) and reads a backslash as a slash
        if !text.chars().all(|c| c.is_ascii_graphic() && c != '\\') {
            return Err(InvalidPrivateServerUrl::Characters);
        }
        let url = Url::parse(text).map_err(|_| InvalidPrivateServerUrl::NotRoblox)?;
        let roblox = matches!(url.host_str(), Some("www.roblox.com" | "roblox.com"));
        if url.scheme() != "https"
            || !roblox
            || url.port().is_some()
            || url.username() != ""
            || url.password().is_some()
        {
            return Err(InvalidPrivateServerUrl::NotRoblox);
        }
        if !is_private_server_link(&url) {
            return Err(InvalidPrivateServerUrl::NotPrivateServer);
        }
        Ok(PrivateServerUrl(url.as_str().to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A share link (`/share?code=…`) or a private server link (`/games/{place}[/{name}]
/// ?privateServerLinkCode=…`), without a fragment, whose query keys and values and whose name
/// are letters, digits, `-` and `_`.
fn is_private_server_link(url: &Url) -> bool {
    let plain = |text: &str| {
        text.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    let mut code = None;
    for (key, value) in url.query_pairs() {
        if key.is_empty() || !plain(&key) || !plain(&value) {
            return false;
        }
        if matches!(key.as_ref(), "code" | "privateServerLinkCode") && !value.is_empty() {
            code = Some(key.into_owned());
        }
    }
    let segments: Vec<&str> = url
        .path_segments()
        .map(Iterator::collect)
        .unwrap_or_default();
    let shape = match segments.as_slice() {
        ["share"] => code.as_deref() == Some("code"),
        ["games", place, name @ ..] => {
            !place.is_empty()
                && place.chars().all(|c| c.is_ascii_digit())
                && matches!(name, [] | [_])
                && name.iter().all(|name| plain(name))
                && code.as_deref() == Some("privateServerLinkCode")
        }
        _ => false,
    };
    shape && url.fragment().is_none()
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
        for kept in [
            "https://roblox.com/games/1?privateServerLinkCode=9",
            "https://www.roblox.com/games/126884695634066/Grow-a-Garden?privateServerLinkCode=4711",
            "https://www.roblox.com/share?code=d2f1a0b3c4e5f6a7b8c9d0e1f2a3b4c5&type=Server",
        ] {
            assert_eq!(PrivateServerUrl::parse(kept).unwrap().as_str(), kept);
        }
        assert_eq!(
            PrivateServerUrl::parse("  "),
            Err(InvalidPrivateServerUrl::Empty)
        );
        for refused in [
            "http://www.roblox.com/share?code=1",
            "https://roblox.com.evil.example/x",
            "https://evilroblox.com/x",
            "https://www.roblox.com:8443/share?code=1",
            "https://a@www.roblox.com/share?code=1",
            "https://a:b@roblox.com/share?code=1",
            "https://web.roblox.com/share?code=1",
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
    fn a_link_with_spaces_backslashes_control_or_format_characters_is_refused() {
        for refused in [
            "https://www.roblox.com/share?code=abc &type=Server",
            "https://www.roblox.com/share?code=abc @everyone <@&123456789> [click](https://evil.example)",
            "https://www.roblox.com/share?code=abc\u{202e}revreS=epyt",
            "https://www.roblox.com/share?code=ab\u{200b}c",
            "https://www.roblox.com/share?code=abc\u{feff}",
            "https://www.roblox.com\\@evil.example/",
            "https://www.roblox.com/share?code=abc\ttype=Server",
            "https://www.roblox.com/share?code=abc\n@everyone",
            "https://www.roblox.com/share?code=abc\u{7f}",
            "https://www.roblox.com/share?code=äbc",
        ] {
            assert_eq!(
                PrivateServerUrl::parse(refused),
                Err(InvalidPrivateServerUrl::Characters),
                "{refused:?}"
            );
        }
    }

    #[test]
    fn only_a_share_or_private_server_link_is_kept_and_in_its_parsed_form() {
        for refused in [
            "https://www.roblox.com/",
            "https://www.roblox.com/users/1/profile",
            "https://www.roblox.com/share?type=Server",
            "https://www.roblox.com/share?code=",
            "https://www.roblox.com/share?code=@everyone",
            "https://www.roblox.com/share?code=abc&x=<@&1>",
            "https://www.roblox.com/share?code=abc&type=[click](https://evil.example)",
            "https://www.roblox.com/share?code=abc#@everyone",
            "https://www.roblox.com/games/1?code=abc",
            "https://www.roblox.com/games/x/Name?privateServerLinkCode=1",
            "https://www.roblox.com/games/1/a/b?privateServerLinkCode=1",
            "https://www.roblox.com/games/1/%40everyone?privateServerLinkCode=1",
            "https://www.roblox.com/share/../evil?code=1",
        ] {
            assert_eq!(
                PrivateServerUrl::parse(refused),
                Err(InvalidPrivateServerUrl::NotPrivateServer),
                "{refused}"
            );
        }
        // the url crate's serialisation, not the text as typed
        assert_eq!(
            PrivateServerUrl::parse(" HTTPS://WWW.Roblox.COM/share?code=abc&type=Server ")
                .unwrap()
                .as_str(),
            "https://www.roblox.com/share?code=abc&type=Server"
        );
    }

    #[test]
    fn a_private_server_link_stays_out_of_debug_output() {
        let url = PrivateServerUrl::parse("https://www.roblox.com/share?code=secret").unwrap();
        assert!(!format!("{url:?}").contains("secret"));
    }
}
