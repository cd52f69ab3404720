use std::fmt;

use crate::gateways::{DiscordIdentity, RobloxUsername};

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
