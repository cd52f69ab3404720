//! What an error answer says, before the request's language is known.

use std::fmt;

use l10n::Text;
use shared::Language;

/// An answer's message: one of the message files' (`locales/`), rendered in the request's
/// language when the answer is written, or words given as they are (staff answers, which stay
/// English, and the words of outside systems).
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    Text(Text),
    Plain(String),
    /// The first of several field messages: "… (and more errors)".
    AndMore(Box<Msg>),
}

impl Msg {
    pub fn render(&self, language: Language) -> String {
        match self {
            Msg::Text(text) => text.render(language),
            Msg::Plain(words) => words.clone(),
            Msg::AndMore(first) => Text::new("error-and-more-errors")
                .with("first", first.render(language))
                .render(language),
        }
    }
}

/// English, as logs and tests read it.
impl fmt::Display for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(Language::English))
    }
}

impl From<Text> for Msg {
    fn from(text: Text) -> Self {
        Msg::Text(text)
    }
}

impl From<String> for Msg {
    fn from(words: String) -> Self {
        Msg::Plain(words)
    }
}

impl From<&str> for Msg {
    fn from(words: &str) -> Self {
        Msg::Plain(words.to_owned())
    }
}

/// Tests compare answers with their English words.
impl PartialEq<&str> for Msg {
    fn eq(&self, other: &&str) -> bool {
        self.render(Language::English) == *other
    }
}
