//! The value types' refusals as a shopper reads them: each variant its message id (the
//! types' own Display stays English, for logs and the command line).

use ::accounts::{InvalidName, InvalidPassword};
use ::orders::gateways::RobloxUsernameError;
use l10n::Text;
use shared::InvalidEmail;

use super::Msg;

/// A parse that cannot fail (a field only required to be there).
impl From<std::convert::Infallible> for Msg {
    fn from(never: std::convert::Infallible) -> Self {
        match never {}
    }
}

impl From<InvalidEmail> for Msg {
    fn from(_: InvalidEmail) -> Self {
        Text::new("error-email-invalid").into()
    }
}

impl From<InvalidPassword> for Msg {
    fn from(error: InvalidPassword) -> Self {
        Text::new(match error {
            InvalidPassword::TooShort => "error-password-too-short",
            InvalidPassword::TooLong => "error-password-too-long",
        })
        .into()
    }
}

impl From<InvalidName> for Msg {
    fn from(error: InvalidName) -> Self {
        Text::new(match error {
            InvalidName::Empty => "error-name-empty",
            InvalidName::TooLong => "error-name-too-long",
            InvalidName::ControlCharacter => "error-name-control",
            InvalidName::WebAddress => "error-name-web-address",
        })
        .into()
    }
}

impl From<chat::MessageTextError> for Msg {
    fn from(error: chat::MessageTextError) -> Self {
        Text::new(match error {
            chat::MessageTextError::Empty => "error-message-empty",
            chat::MessageTextError::TooLong => "error-message-too-long",
        })
        .into()
    }
}

impl From<RobloxUsernameError> for Msg {
    fn from(error: RobloxUsernameError) -> Self {
        Text::new(match error {
            RobloxUsernameError::Length => "error-roblox-length",
            RobloxUsernameError::Characters => "error-roblox-characters",
            RobloxUsernameError::TooManyUnderscores => "error-roblox-underscores",
            RobloxUsernameError::UnderscoreAtEdge => "error-roblox-underscore-edge",
        })
        .into()
    }
}

#[cfg(test)]
mod tests {
    use shared::Language;

    use super::*;

    /// English words as the types word themselves (the answers stay byte-identical), and
    /// every other language its own.
    #[test]
    fn the_value_types_refusals_keep_their_english_words_and_have_the_others() {
        let cases: Vec<(Msg, String)> = vec![
            (InvalidEmail.into(), InvalidEmail.to_string()),
            (
                InvalidPassword::TooShort.into(),
                InvalidPassword::TooShort.to_string(),
            ),
            (
                InvalidPassword::TooLong.into(),
                InvalidPassword::TooLong.to_string(),
            ),
            (InvalidName::Empty.into(), InvalidName::Empty.to_string()),
            (
                InvalidName::TooLong.into(),
                InvalidName::TooLong.to_string(),
            ),
            (
                InvalidName::ControlCharacter.into(),
                InvalidName::ControlCharacter.to_string(),
            ),
            (
                InvalidName::WebAddress.into(),
                InvalidName::WebAddress.to_string(),
            ),
            (
                chat::MessageTextError::Empty.into(),
                chat::MessageTextError::Empty.to_string(),
            ),
            (
                chat::MessageTextError::TooLong.into(),
                chat::MessageTextError::TooLong.to_string(),
            ),
            (
                RobloxUsernameError::Length.into(),
                format!("A Roblox username {}.", RobloxUsernameError::Length),
            ),
            (
                RobloxUsernameError::Characters.into(),
                format!("A Roblox username {}.", RobloxUsernameError::Characters),
            ),
            (
                RobloxUsernameError::TooManyUnderscores.into(),
                format!(
                    "A Roblox username {}.",
                    RobloxUsernameError::TooManyUnderscores
                ),
            ),
            (
                RobloxUsernameError::UnderscoreAtEdge.into(),
                format!(
                    "A Roblox username {}.",
                    RobloxUsernameError::UnderscoreAtEdge
                ),
            ),
        ];
        for (message, english) in cases {
            assert_eq!(message.render(Language::English), english);
            for language in Language::ALL.into_iter().skip(1) {
                assert_ne!(message.render(language), english, "{language}");
            }
        }
    }
}
