//! The server's words in the shopper's language: the error messages, the other sentences the
//! API writes to shoppers and the buyers' mail, as Fluent messages.
//!
//! The messages live in `locales/{code}/*.ftl`, one folder per [`Language`] (its BCP 47 code),
//! English the reference every other falls back to; they are compiled into the binary. Adding a
//! language is a folder here (every id of `en`, the tests check it) and its variant of
//! [`Language`]. Plurals go through Fluent's selectors on numeric arguments (CLDR plural
//! rules), never through code.

use std::borrow::Cow;
use std::collections::HashMap;

use fluent_templates::fluent_bundle::FluentValue;
use fluent_templates::{static_loader, LanguageIdentifier, Loader};
use shared::Language;

mod money;

pub use money::money;

static_loader! {
    static LOCALES = {
        locales: "./locales",
        fallback_language: "en",
        // no Unicode isolation marks around placeables: the English answers stay as they were
        // and mail subjects carry no invisible characters
        customise: |bundle| bundle.set_use_isolating(false),
    };
}

/// One argument of a message: text as it is, or a number (which plural selectors read).
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Text(String),
    Number(i64),
}

impl From<String> for Arg {
    fn from(text: String) -> Self {
        Arg::Text(text)
    }
}

impl From<&str> for Arg {
    fn from(text: &str) -> Self {
        Arg::Text(text.to_owned())
    }
}

macro_rules! number_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Self {
                Arg::Number(i64::try_from(n).unwrap_or(i64::MAX))
            }
        }
    )*};
}
number_arg!(u8, u16, u32, u64, usize, i32, i64);

/// A message to show, not yet in a language: its Fluent id and its arguments. It is rendered
/// where the language is known (the answer to a request, a mail to a buyer).
#[derive(Debug, Clone, PartialEq)]
pub struct Text {
    id: &'static str,
    args: Vec<(&'static str, Arg)>,
}

impl Text {
    /// The message `id` of the files in `locales/`.
    pub fn new(id: &'static str) -> Self {
        Text {
            id,
            args: Vec::new(),
        }
    }

    /// With the argument `$name`.
    pub fn with(mut self, name: &'static str, value: impl Into<Arg>) -> Self {
        self.args.push((name, value.into()));
        self
    }

    pub fn id(&self) -> &'static str {
        self.id
    }

    /// The message in `language` (English where that language lacks it, which the tests
    /// forbid; its id where English lacks it too, logged as a bug).
    pub fn render(&self, language: Language) -> String {
        let args: HashMap<Cow<'static, str>, FluentValue<'static>> = self
            .args
            .iter()
            .map(|(name, value)| {
                let value = match value {
                    Arg::Text(text) => FluentValue::from(text.clone()),
                    Arg::Number(n) => FluentValue::from(*n),
                };
                (Cow::Borrowed(*name), value)
            })
            .collect();
        LOCALES
            .try_lookup_with_args(&identifier(language), self.id, &args)
            .unwrap_or_else(|| {
                tracing::error!(id = self.id, %language, "a message id has no message");
                self.id.to_owned()
            })
    }
}

/// The message `id` (without arguments) in `language`.
pub fn text(language: Language, id: &'static str) -> String {
    Text::new(id).render(language)
}

fn identifier(language: Language) -> LanguageIdentifier {
    language
        .code()
        .parse()
        .unwrap_or_else(|_| LanguageIdentifier::default())
}

#[cfg(test)]
mod tests;
