use std::fmt;
use std::str::FromStr;

pub use shared::{Language, UserId};

/// What a user may do. Shoppers are customers; staff are admins; super_admins also run the shop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    Customer,
    Admin,
    SuperAdmin,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Customer => "customer",
            Role::Admin => "admin",
            Role::SuperAdmin => "super_admin",
        }
    }

    /// Admins and super_admins: proofs, live chats, the orders queue.
    pub fn is_staff(self) -> bool {
        matches!(self, Role::Admin | Role::SuperAdmin)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the role must be customer, admin or super_admin, not {0:?}")]
pub struct UnknownRole(pub String);

impl FromStr for Role {
    type Err = UnknownRole;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "customer" => Ok(Role::Customer),
            "admin" => Ok(Role::Admin),
            "super_admin" => Ok(Role::SuperAdmin),
            other => Err(UnknownRole(other.to_owned())),
        }
    }
}

pub use shared::{Email, InvalidEmail};

/// A display name: trimmed, 1 to 100 characters, one line of plain text: no control characters
/// and no web address (see [`InvalidName`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserName(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidName {
    #[error("The name is required.")]
    Empty,
    #[error("The name may be at most 100 characters.")]
    TooLong,
    /// Line breaks, tabs and other control or direction-changing characters: a name is one
    /// line of plain text wherever it shows (mail, Discord, the pages).
    #[error("The name may not contain line breaks or other control characters.")]
    ControlCharacter,
    /// `://` or `www.`: the shop's mail carries the name to whatever address was typed, so a
    /// name must not be a way to send someone a link.
    #[error("The name may not contain a web address.")]
    WebAddress,
}

/// Characters a name may not hold: control characters (Cc: CR, LF, tab, NUL, …), the line and
/// paragraph separators, and the bidirectional overrides and isolates that reorder the text
/// shown around them.
fn is_forbidden_in_names(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

impl UserName {
    pub const MAX_CHARS: usize = 100;

    pub fn parse(raw: &str) -> Result<Self, InvalidName> {
        let name = raw.trim();
        let lowercase = name.to_lowercase();
        if name.is_empty() {
            Err(InvalidName::Empty)
        } else if name.chars().count() > Self::MAX_CHARS {
            Err(InvalidName::TooLong)
        } else if name.chars().any(is_forbidden_in_names) {
            Err(InvalidName::ControlCharacter)
        } else if lowercase.contains("://") || lowercase.contains("www.") {
            Err(InvalidName::WebAddress)
        } else {
            Ok(UserName(name.to_owned()))
        }
    }

    /// A name read back from the database. Names stored before the rules of issue 22 may hold
    /// control characters or a web address; such an account must still load (its owner logs
    /// in, its orders show), so this never fails: each forbidden character becomes a space and
    /// the rest is kept as stored.
    pub fn from_stored(stored: &str) -> Self {
        let one_line: String = stored
            .chars()
            .map(|c| if is_forbidden_in_names(c) { ' ' } else { c })
            .collect();
        UserName(one_line.trim().to_owned())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for UserName {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for UserName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A new password: 8 to 128 characters. Never printed: `Debug` hides it.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidPassword {
    #[error("The password must be at least 8 characters.")]
    TooShort,
    #[error("The password may be at most 128 characters.")]
    TooLong,
}

impl Password {
    pub const MIN_CHARS: usize = 8;
    pub const MAX_CHARS: usize = 128;

    pub fn parse(raw: &str) -> Result<Self, InvalidPassword> {
        let chars = raw.chars().count();
        if chars < Self::MIN_CHARS {
            Err(InvalidPassword::TooShort)
        } else if chars > Self::MAX_CHARS {
            Err(InvalidPassword::TooLong)
        } else {
            Ok(Password(raw.to_owned()))
        }
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(***)")
    }
}

/// A password hash in PHC string format (`$argon2id$...`).
#[derive(Clone, PartialEq, Eq)]
pub struct PasswordHash(String);

impl PasswordHash {
    pub fn new(phc: String) -> Self {
        PasswordHash(phc)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for PasswordHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PasswordHash(***)")
    }
}

/// A registered account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: UserId,
    pub name: UserName,
    pub email: Email,
    pub role: Role,
    pub password_hash: PasswordHash,
    /// The language the account chose (at registration, the request's; then the profile's
    /// setting); `None` for accounts made before languages (their mail: the request's).
    pub language: Option<Language>,
}

/// An account about to be stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewUser {
    pub name: UserName,
    pub email: Email,
    pub role: Role,
    pub password_hash: PasswordHash,
    /// `None` keeps what a stored account has (staff made from the command line).
    pub language: Option<Language>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_have_8_to_128_characters() {
        assert_eq!(Password::parse("1234567"), Err(InvalidPassword::TooShort));
        assert!(Password::parse("12345678").is_ok());
        assert!(
            Password::parse(&"é".repeat(128)).is_ok(),
            "characters, not bytes"
        );
        assert_eq!(
            Password::parse(&"x".repeat(129)),
            Err(InvalidPassword::TooLong)
        );
    }

    #[test]
    fn a_password_never_shows_in_debug_output() {
        let password = Password::parse("hunter22-secret").unwrap();
        assert!(!format!("{password:?}").contains("hunter22"));
        let hash = PasswordHash::new("$argon2id$secret".into());
        assert!(!format!("{hash:?}").contains("secret"));
    }

    #[test]
    fn names_are_required_and_at_most_100_characters() {
        assert_eq!(UserName::parse("   "), Err(InvalidName::Empty));
        assert_eq!(UserName::parse(" Ann ").unwrap().as_str(), "Ann");
        assert!(UserName::parse(&"n".repeat(100)).is_ok());
        assert_eq!(UserName::parse(&"n".repeat(101)), Err(InvalidName::TooLong));
    }

    #[test]
    fn a_name_is_one_line_of_text_without_links() {
        for bad in [
            "Ann\r\nBcc: x",
            "Ann\nClaim your prize",
            "Ann\tB",
            "A\u{0}nn",
            "A\u{7f}nn",
            "A\u{85}nn",
            "Ann\u{2028}B",
            "Ann\u{202E}gnp.exe",
        ] {
            assert_eq!(
                UserName::parse(bad),
                Err(InvalidName::ControlCharacter),
                "{bad:?}"
            );
        }
        for bad in [
            "Ann https://evil.example",
            "Ann HTTP://evil.example",
            "visit WWW.evil.example",
            "x://y",
        ] {
            assert_eq!(
                UserName::parse(bad),
                Err(InvalidName::WebAddress),
                "{bad:?}"
            );
        }
        for good in [
            "Ann-Marie O'Neil",
            "J. R. R. Tolkien",
            "Zoë 🌱",
            "李小龙",
            "Ann <b>",
        ] {
            assert_eq!(UserName::parse(good).unwrap().as_str(), good);
        }
        // surrounding whitespace, line breaks included, is trimmed as before
        assert_eq!(UserName::parse("\n Ann \r\n").unwrap().as_str(), "Ann");
    }

    #[test]
    fn a_name_stored_before_the_rules_still_loads_on_one_line() {
        assert_eq!(
            UserName::from_stored("Ann\r\nClaim https://evil.example").as_str(),
            "Ann  Claim https://evil.example"
        );
        assert_eq!(UserName::from_stored("Ann").as_str(), "Ann");
    }

    #[test]
    fn roles_round_trip_through_their_names() {
        for role in [Role::Customer, Role::Admin, Role::SuperAdmin] {
            assert_eq!(role.as_str().parse::<Role>(), Ok(role));
        }
        assert!("root".parse::<Role>().is_err());
        assert!(Role::Admin.is_staff() && Role::SuperAdmin.is_staff());
        assert!(!Role::Customer.is_staff());
    }
}
