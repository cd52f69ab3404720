use std::fmt;

use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

use super::{Email, UserId, UserName};

/// The 6-digit code a new account is confirmed with. Never printed: `Debug` hides it.
#[derive(Clone, PartialEq, Eq)]
pub struct VerificationCode(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Invalid code. Please try again.")]
pub struct InvalidCode;

impl VerificationCode {
    /// Six ASCII digits, surrounding spaces ignored.
    pub fn parse(raw: &str) -> Result<Self, InvalidCode> {
        let code = raw.trim();
        if code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit()) {
            Ok(VerificationCode(code.to_owned()))
        } else {
            Err(InvalidCode)
        }
    }

    /// The code for a random number; only its value modulo 1 000 000 counts.
    pub fn from_number(n: u32) -> Self {
        VerificationCode(format!("{:06}", n % 1_000_000))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }

    pub fn hash(&self) -> TokenHash {
        TokenHash::of(&self.0)
    }
}

impl fmt::Debug for VerificationCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("VerificationCode(***)")
    }
}

/// A password-reset token as sent in the link: 32 random bytes, hex. Never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct ResetToken(String);

impl ResetToken {
    pub fn from_bytes(bytes: [u8; 32]) -> Self {
        ResetToken(hex::encode(bytes))
    }

    /// Whatever the link carried; an unknown token simply matches nothing.
    pub fn from_link(raw: &str) -> Self {
        ResetToken(raw.trim().to_owned())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }

    pub fn hash(&self) -> TokenHash {
        TokenHash::of(&self.0)
    }
}

impl fmt::Debug for ResetToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ResetToken(***)")
    }
}

/// The SHA-256 of a code or token, hex: what the database keeps instead of the secret.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TokenHash(String);

impl TokenHash {
    pub fn of(secret: &str) -> Self {
        TokenHash(hex::encode(Sha256::digest(secret.as_bytes())))
    }

    /// A hash read back from storage.
    pub fn from_stored(hex: String) -> Self {
        TokenHash(hex)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Compares in time independent of where the first difference is.
    pub fn matches(&self, other: &TokenHash) -> bool {
        let (a, b) = (self.0.as_bytes(), other.0.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }
}

/// A registration waiting for its code: the account exists only once the code is verified, and
/// takes the name and password sent with the right code (so no password is kept here: whoever
/// started the sign-up does not decide it, whoever reads the inbox does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingSignup {
    pub email: Email,
    /// Whom the code mail greets.
    pub name: UserName,
    pub code_hash: TokenHash,
    /// Wrong codes tried so far.
    pub attempts: u32,
    pub expires_at: DateTime<Utc>,
    /// When a new code may be asked for.
    pub resend_at: DateTime<Utc>,
}

/// A stored reset token, found by its hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResetTokenRecord {
    pub user_id: UserId,
    pub email: Email,
    pub expires_at: DateTime<Utc>,
    pub used: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_exactly_six_digits() {
        assert!(VerificationCode::parse("012345").is_ok());
        assert_eq!(
            VerificationCode::parse(" 123456 ").unwrap().expose(),
            "123456"
        );
        for raw in ["12345", "1234567", "12345a", "", "١٢٣٤٥٦"] {
            assert_eq!(VerificationCode::parse(raw), Err(InvalidCode), "{raw:?}");
        }
        assert_eq!(VerificationCode::from_number(42).expose(), "000042");
        assert_eq!(VerificationCode::from_number(1_234_567).expose(), "234567");
    }

    #[test]
    fn secrets_are_stored_as_sha256_and_never_printed() {
        let token = ResetToken::from_bytes([7; 32]);
        assert_eq!(token.expose().len(), 64);
        assert_eq!(token.hash().as_str().len(), 64);
        assert_ne!(token.hash().as_str(), token.expose());
        assert!(token
            .hash()
            .matches(&ResetToken::from_link(token.expose()).hash()));
        assert!(!token
            .hash()
            .matches(&ResetToken::from_bytes([8; 32]).hash()));
        assert!(!format!("{token:?}").contains(token.expose()));
        let code = VerificationCode::from_number(123_456);
        assert!(!format!("{code:?}").contains("123456"));
    }
}
