use std::fmt;

/// An e-mail address, trimmed and lowercased: two spellings of one address are one account
/// (DESIGN: e-mails are compared lowercase). At most 254 characters, `local@domain.tld` with a
/// local part of 1 to 64 characters and no spaces.
///
/// Accounts (sign-up, login, reset) and orders (the receipt address) use this one type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Email(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Please enter a valid e-mail address.")]
pub struct InvalidEmail;

impl Email {
    pub fn parse(raw: &str) -> Result<Self, InvalidEmail> {
        let email = raw.trim().to_lowercase();
        let valid = email.len() <= 254
            && !email.chars().any(|c| c.is_whitespace() || c.is_control())
            && match email.split_once('@') {
                Some((local, domain)) => {
                    !local.is_empty()
                        && local.len() <= 64
                        && !domain.contains('@')
                        && domain.contains('.')
                        && !domain.starts_with('.')
                        && !domain.ends_with('.')
                        && !domain.contains("..")
                        && !domain.contains(['<', '>', '(', ')', ',', ';', ':', '"', '[', ']'])
                }
                None => false,
            };
        if valid {
            Ok(Email(email))
        } else {
            Err(InvalidEmail)
        }
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn emails_are_trimmed_and_compared_lowercase() {
        let a = Email::parse("  Ann@Example.COM ").unwrap();
        let b = Email::parse("ann@example.com").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.as_str(), "ann@example.com");
    }

    #[test]
    fn malformed_emails_are_refused() {
        for raw in [
            "",
            "ann",
            "ann@",
            "@example.com",
            "ann@example",
            "ann@@example.com",
            "a nn@example.com",
            "ann@example..com",
            "ann@.example.com",
        ] {
            assert_eq!(Email::parse(raw), Err(InvalidEmail), "{raw:?}");
        }
        assert!(Email::parse(&format!("{}@example.com", "a".repeat(65))).is_err());
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
