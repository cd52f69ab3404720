//! Discord in the shared kernel: the user id every domain passes around, and the escaping of
//! text a person typed before it goes into a Discord message.

use std::fmt;

/// A Discord user id: a snowflake, i.e. the decimal digits of a non-zero 64-bit number (at most
/// 20 digits), spelt without leading zeros so one account has one spelling.
///
/// Orders, promo redemptions and the Discord adapters all use this one type: the identity the
/// server verified is passed on as it is, never re-parsed from a string.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DiscordId(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiscordIdError {
    #[error("must be a Discord user id (digits only)")]
    NotASnowflake,
}

impl DiscordId {
    /// Accepts the decimal form Discord sends (`"80351110224678912"`); surrounding whitespace is
    /// ignored, anything else that is not a non-zero `u64` is refused.
    pub fn parse(text: &str) -> Result<Self, DiscordIdError> {
        let text = text.trim();
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(DiscordIdError::NotASnowflake);
        }
        match text.parse::<u64>() {
            Ok(0) | Err(_) => Err(DiscordIdError::NotASnowflake),
            Ok(value) => Ok(DiscordId(value.to_string())),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for DiscordId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for DiscordId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Escapes Discord markdown (and mention syntax) in text a person typed, so it shows as typed:
/// a Roblox name `__x__` stays `__x__`, never underlined, and `<@&123>` or `@everyone` stays
/// text. Line breaks become spaces.
pub fn escape_markdown(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\\' | '*' | '_' | '~' | '`' | '|' | '>' | '<' | '#' | '-' | '[' | ']' | '(' | ')'
            | '@' | ':' => {
                escaped.push('\\');
                escaped.push(c);
            }
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') => escaped.push(' '),
            c => escaped.push(c),
        }
    }
    escaped
}

/// Whether `c` is a Unicode format character (general category Cf): the bidi controls
/// (U+202A..U+202E, U+2066..U+2069) that turn a name around, the zero-width ones (U+200B..U+200D,
/// U+2060, U+FEFF) that make two names look alike, the soft hyphen, the tag characters. None of
/// them shows; each can change how the text around it reads.
pub fn is_format_char(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{0600}'..='\u{0605}'
            | '\u{061C}'
            | '\u{06DD}'
            | '\u{070F}'
            | '\u{0890}'..='\u{0891}'
            | '\u{08E2}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{110BD}'
            | '\u{110CD}'
            | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0001}'
            | '\u{E0020}'..='\u{E007F}'
    )
}

/// Every text the shop posts to Discord goes through here last (the ticket's posts and edits,
/// the staff channel's webhook): Unicode format characters are dropped, so a name holding
/// U+202E or U+200B shows as the letters it is made of, in their order.
pub fn discord_text(text: &str) -> String {
    text.chars().filter(|c| !is_format_char(*c)).collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn format_characters_never_reach_discord() {
        assert_eq!(
            discord_text(
                "Ann\u{202E}nimda\u{202C} \u{200B}Bob\u{200D}\u{2060}\u{FEFF}\u{2066}x\u{E0041}"
            ),
            "Annnimda Bobx"
        );
        assert_eq!(discord_text("Zoë 🌱 <@1>"), "Zoë 🌱 <@1>");
    }

    #[test]
    fn a_discord_id_is_the_digits_of_a_non_zero_u64() {
        assert_eq!(
            DiscordId::parse("80351110224678912").unwrap().as_str(),
            "80351110224678912"
        );
        assert_eq!(DiscordId::parse(" 42 ").unwrap().to_string(), "42");
        assert_eq!(DiscordId::parse("0042").unwrap().as_str(), "42");
        assert_eq!(
            DiscordId::parse("18446744073709551615").unwrap().as_str(),
            "18446744073709551615"
        );
    }

    #[test]
    fn anything_else_is_not_a_discord_id() {
        for bad in [
            "",
            "  ",
            "0",
            "-1",
            "+1",
            "12a",
            "1 2",
            "18446744073709551616",
            "１２",
        ] {
            assert_eq!(
                DiscordId::parse(bad),
                Err(DiscordIdError::NotASnowflake),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn a_discord_id_is_digits_only() {
        assert_eq!(
            DiscordId::parse(" 123456789012345678 ").unwrap().as_str(),
            "123456789012345678"
        );
        assert!(DiscordId::parse("").is_err());
        assert!(DiscordId::parse("12a").is_err());
        assert!(DiscordId::parse(&"1".repeat(21)).is_err());
    }

    #[test]
    fn markdown_and_mentions_in_typed_text_show_as_typed() {
        assert_eq!(escape_markdown("Builder_man"), "Builder\\_man");
        assert_eq!(
            escape_markdown("**b** ~~s~~ `c` ||x|| > q"),
            "\\*\\*b\\*\\* \\~\\~s\\~\\~ \\`c\\` \\|\\|x\\|\\| \\> q"
        );
        assert_eq!(
            escape_markdown("[link](https://x.y) # h - l"),
            "\\[link\\]\\(https\\://x.y\\) \\# h \\- l"
        );
        assert_eq!(
            escape_markdown("<@&1> @everyone a\\b"),
            "\\<\\@&1\\> \\@everyone a\\\\b"
        );
        assert_eq!(escape_markdown("two\nlines"), "two lines");
        assert_eq!(escape_markdown("plain Name 42"), "plain Name 42");
    }
}
