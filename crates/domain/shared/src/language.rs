use std::fmt;
use std::str::FromStr;

/// A language the shop speaks to shoppers in: their pages, the server's messages, their mail
/// and the help chat's assistant. Staff screens stay English.
///
/// Adding one is a variant here (its BCP 47 code), a folder of message files for the browser,
/// the server and the assistant, and a line in `languages` of the site settings.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum Language {
    #[default]
    #[serde(rename = "en")]
    English,
    #[serde(rename = "es")]
    Spanish,
    #[serde(rename = "pt-BR")]
    BrazilianPortuguese,
    #[serde(rename = "fr")]
    French,
    #[serde(rename = "de")]
    German,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("is not a language the shop speaks (en, es, pt-BR, fr, de)")]
pub struct UnknownLanguage;

impl Language {
    /// Every language, English first (the one every other falls back to).
    pub const ALL: [Language; 5] = [
        Language::English,
        Language::Spanish,
        Language::BrazilianPortuguese,
        Language::French,
        Language::German,
    ];

    /// Its BCP 47 code, as the `lang` cookie, `<html lang>` and the API name it.
    pub fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Spanish => "es",
            Language::BrazilianPortuguese => "pt-BR",
            Language::French => "fr",
            Language::German => "de",
        }
    }

    /// The shop's language for a BCP 47 tag, matched the way a browser's list is: the exact
    /// code (any case), else its primary language (`es-MX` → `es`, `pt` and `pt-PT` → `pt-BR`,
    /// `de-AT` → `de`). `None` for a language the shop does not speak.
    pub fn matching(tag: &str) -> Option<Language> {
        let tag = tag.trim();
        if let Some(exact) = Language::ALL
            .into_iter()
            .find(|language| language.code().eq_ignore_ascii_case(tag))
        {
            return Some(exact);
        }
        let primary = tag.split(['-', '_']).next().unwrap_or_default();
        Language::ALL.into_iter().find(|language| {
            language
                .code()
                .split('-')
                .next()
                .is_some_and(|own| own.eq_ignore_ascii_case(primary))
        })
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Language {
    type Err = UnknownLanguage;

    /// Exactly one of the codes [`Language::code`] gives (any case): what the API and the
    /// cookie carry. Browsers' tags go through [`Language::matching`].
    fn from_str(code: &str) -> Result<Self, Self::Err> {
        Language::ALL
            .into_iter()
            .find(|language| language.code().eq_ignore_ascii_case(code.trim()))
            .ok_or(UnknownLanguage)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_reads_back_from_its_code() {
        for language in Language::ALL {
            assert_eq!(language.code().parse(), Ok(language));
            assert_eq!(language.code().to_lowercase().parse(), Ok(language));
        }
        assert_eq!("it".parse::<Language>(), Err(UnknownLanguage));
        assert_eq!("pt".parse::<Language>(), Err(UnknownLanguage));
    }

    #[test]
    fn a_browser_tag_matches_its_primary_language() {
        assert_eq!(Language::matching("es-MX"), Some(Language::Spanish));
        assert_eq!(
            Language::matching("pt"),
            Some(Language::BrazilianPortuguese)
        );
        assert_eq!(
            Language::matching("pt-PT"),
            Some(Language::BrazilianPortuguese)
        );
        assert_eq!(Language::matching("de_AT"), Some(Language::German));
        assert_eq!(Language::matching("EN-gb"), Some(Language::English));
        assert_eq!(Language::matching("it-IT"), None);
        assert_eq!(Language::matching(""), None);
    }
}
