use std::fmt;

use promo::DiscordId;

/// The Discord account the server verified through OAuth (never one typed by the client).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscordIdentity {
    pub id: DiscordId,
    pub username: String,
    /// The avatar hash Discord returned, if the account has one.
    pub avatar: Option<String>,
}

/// A Roblox username: 3 to 20 letters and digits with at most one underscore, which may not
/// start or end it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RobloxUsername(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("A Roblox username has 3 to 20 letters or digits and at most one underscore, not at either end.")]
pub struct RobloxUsernameError;

impl RobloxUsername {
    pub fn parse(text: &str) -> Result<Self, RobloxUsernameError> {
        let name = text.trim();
        let well_formed = (3..=20).contains(&name.len())
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && name.bytes().filter(|b| *b == b'_').count() <= 1
            && !name.starts_with('_')
            && !name.ends_with('_');
        if !well_formed {
            return Err(RobloxUsernameError);
        }
        Ok(RobloxUsername(name.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for RobloxUsername {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for RobloxUsername {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Where the order's receipt goes: trimmed, at most 254 characters, `local@domain.tld` with no
/// spaces.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Email(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Enter a valid e-mail address.")]
pub struct EmailError;

impl Email {
    pub fn parse(text: &str) -> Result<Self, EmailError> {
        let email = text.trim();
        let Some((local, domain)) = email.split_once('@') else {
            return Err(EmailError);
        };
        let well_formed = email.len() <= 254
            && !local.is_empty()
            && !domain.contains('@')
            && domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
            && !email.chars().any(char::is_whitespace);
        if !well_formed {
            return Err(EmailError);
        }
        Ok(Email(email.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Email {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Who bought an order and where it is delivered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Buyer {
    pub discord: DiscordIdentity,
    pub roblox_username: RobloxUsername,
    pub email: Email,
    /// The logged-in account's id (`accounts::UserId`), `None` for a guest checkout.
    pub user_id: Option<i64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_roblox_username_has_3_to_20_characters_and_one_inner_underscore_at_most() {
        assert_eq!(
            RobloxUsername::parse(" Builder_Bob ").unwrap().as_str(),
            "Builder_Bob"
        );
        assert!(RobloxUsername::parse("abc").is_ok());
        assert!(RobloxUsername::parse(&"a".repeat(20)).is_ok());
        assert!(RobloxUsername::parse("ab").is_err());
        assert!(RobloxUsername::parse(&"a".repeat(21)).is_err());
        assert!(RobloxUsername::parse("a_b_c").is_err());
        assert!(RobloxUsername::parse("_abc").is_err());
        assert!(RobloxUsername::parse("abc_").is_err());
        assert!(RobloxUsername::parse("ab c").is_err());
        assert!(RobloxUsername::parse("ab-c").is_err());
    }

    #[test]
    fn an_email_needs_a_local_part_and_a_dotted_domain() {
        assert_eq!(
            Email::parse(" kid@example.com ").unwrap().as_str(),
            "kid@example.com"
        );
        assert!(Email::parse("kid@example").is_err());
        assert!(Email::parse("@example.com").is_err());
        assert!(Email::parse("kid@@example.com").is_err());
        assert!(Email::parse("kid@.com").is_err());
        assert!(Email::parse("k id@example.com").is_err());
        assert!(Email::parse("kidexample.com").is_err());
    }
}
