use std::fmt;
use std::str::FromStr;

use uuid::Uuid;

/// A chat's id: a random UUID, so no chat can be found by counting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChatId(Uuid);

impl ChatId {
    pub fn from_uuid(uuid: Uuid) -> Self {
        ChatId(uuid)
    }

    /// A fresh random id.
    pub fn random() -> Self {
        ChatId(Uuid::new_v4())
    }

    pub fn as_uuid(&self) -> Uuid {
        self.0
    }
}

impl fmt::Display for ChatId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.hyphenated().fmt(f)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a chat id")]
pub struct ChatIdError;

impl FromStr for ChatId {
    type Err = ChatIdError;

    /// Accepts the usual UUID spellings; the HTTP layer answers 404 for anything else, as it
    /// does for an unknown id.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Uuid::parse_str(s.trim())
            .map(ChatId)
            .map_err(|_| ChatIdError)
    }
}

/// Longest session id accepted.
const MAX_SESSION_CHARS: usize = 128;

/// The id a browser generates once and sends with every chat call: it is what makes a chat
/// its own. Letters, digits, `-` and `_`; 8 to 128 characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SessionId(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SessionIdError {
    #[error("The session id is required.")]
    Empty,
    #[error("The session id must be 8 to 128 characters long.")]
    Length,
    #[error("The session id may contain only letters, digits, '-' and '_'.")]
    Characters,
}

impl SessionId {
    pub fn parse(text: &str) -> Result<Self, SessionIdError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(SessionIdError::Empty);
        }
        if !(8..=MAX_SESSION_CHARS).contains(&text.len()) {
            return Err(SessionIdError::Length);
        }
        if !text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err(SessionIdError::Characters);
        }
        Ok(SessionId(text.to_owned()))
    }
}

impl AsRef<str> for SessionId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Longest message a shopper or member of staff may send, in characters.
pub const MAX_MESSAGE_CHARS: usize = 2000;

/// What a shopper or member of staff types: trimmed, not empty, at most
/// [`MAX_MESSAGE_CHARS`] characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageText(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MessageTextError {
    #[error("The message cannot be empty.")]
    Empty,
    #[error("The message may be at most 2000 characters long.")]
    TooLong,
}

impl MessageText {
    pub fn parse(text: &str) -> Result<Self, MessageTextError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(MessageTextError::Empty);
        }
        if text.chars().count() > MAX_MESSAGE_CHARS {
            return Err(MessageTextError::TooLong);
        }
        Ok(MessageText(text.to_owned()))
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl AsRef<str> for MessageText {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for MessageText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_text_is_trimmed_and_bounded() {
        assert_eq!(MessageText::parse("  hi  ").unwrap().as_ref(), "hi");
        assert_eq!(MessageText::parse(" \n\t "), Err(MessageTextError::Empty));
        let longest = "é".repeat(MAX_MESSAGE_CHARS);
        assert!(
            MessageText::parse(&longest).is_ok(),
            "counted in characters, not bytes"
        );
        let too_long = "a".repeat(MAX_MESSAGE_CHARS + 1);
        assert_eq!(
            MessageText::parse(&too_long),
            Err(MessageTextError::TooLong)
        );
    }

    #[test]
    fn session_ids_are_plain_tokens() {
        let id = SessionId::parse(" 5f0c1d2e-aaaa-4bbb-8ccc-123456789abc ").unwrap();
        assert_eq!(id.as_ref(), "5f0c1d2e-aaaa-4bbb-8ccc-123456789abc");
        assert_eq!(SessionId::parse(""), Err(SessionIdError::Empty));
        assert_eq!(SessionId::parse("short"), Err(SessionIdError::Length));
        assert_eq!(
            SessionId::parse(&"x".repeat(129)),
            Err(SessionIdError::Length)
        );
        assert_eq!(
            SessionId::parse("has spaces in it"),
            Err(SessionIdError::Characters)
        );
        assert_eq!(
            SessionId::parse("../../etc/passwd"),
            Err(SessionIdError::Characters)
        );
    }

    #[test]
    fn chat_ids_are_uuids() {
        let id = ChatId::random();
        assert_eq!(id.to_string().parse::<ChatId>(), Ok(id));
        assert_ne!(ChatId::random(), id);
        assert_eq!("42".parse::<ChatId>(), Err(ChatIdError));
        assert_eq!("".parse::<ChatId>(), Err(ChatIdError));
    }
}
