//! The assistant's words in each language the shop speaks: one TOML file per language under
//! `lang/` (`en.toml`, `es.toml`, `pt-BR.toml`, …), read into the binary and parsed once.
//!
//! A file holds how shoppers ask about each document and its answer (templates of
//! [`crate::facts`]), the catalog's sentences (templates with named values, see [`fill`]), the
//! delivery script's steps, and the words retrieval needs in that language (stop words,
//! negations, everyday synonyms, topic words). TOML rather than Rust or Fluent: the knowledge is
//! structured (word lists beside long answers with the template language the English answers
//! already use), a translator edits one flat file per language, and the `toml` crate reads it;
//! the tests make sure every file parses and has every document, sentence and step.
//!
//! Adding a language is a [`shared::Language`] variant, its file here, and its line in
//! [`source`].

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Deserialize;
use shared::Language;

/// Words retrieval needs in a language.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Words {
    /// Too common to say anything about a question (folded, as [`crate::text::tokens`] makes
    /// them).
    pub stop_words: Vec<String>,
    /// Words that mean "not".
    pub negations: Vec<String>,
    /// Words that point back at a product named earlier ("is it in stock?").
    pub back_references: Vec<String>,
    /// Whether an apostrophe separates words (French "l'équipe" -> "l", "equipe") rather
    /// than vanishing (English "don't" -> "dont").
    #[serde(default)]
    pub elision: bool,
    /// Everyday words read as the knowledge's words ("stuff" as "items").
    #[serde(default)]
    pub synonyms: BTreeMap<String, String>,
}

/// Sentences the assistant says on its own.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sentences {
    /// When nothing it knows fits (the live-agent offer follows).
    pub unsure: String,
    /// One of the asker's orders: `{number}`, `{status}`, `{link}`.
    pub order: String,
}

/// The words of what a product question wants to know beyond its name.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Details {
    pub price_or_stock: String,
    pub contents: String,
    pub description: String,
    pub dupe: String,
}

/// The catalog's sentences: templates with named values (`{name}`, `{price}`, …).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CatalogTexts {
    pub the_name: String,
    pub usually: String,
    pub always_in_stock: String,
    pub out_of_stock: String,
    pub one_in_stock: String,
    pub many_in_stock: String,
    pub we_have: String,
    pub and: String,
    pub contains: String,
    pub dupe_warning: String,
    pub no_dupe_warning: String,
    pub out_of_stock_mark: String,
    pub no_bundles: String,
    pub bundles: String,
    pub bundles_asked_as: String,
    pub category: String,
    pub category_asked_as: String,
    pub all_in_stock: String,
    pub sold_out: String,
    pub sold_out_asked_as: String,
    pub cheapest: String,
    pub cheapest_asked_as: String,
    pub dearest: String,
    pub dearest_asked_as: String,
    pub overview: String,
    pub overview_asked_as: String,
    /// The catalog's categories by their lowercase name, as this language names them.
    #[serde(default)]
    pub categories: BTreeMap<String, String>,
}

/// A step of the delivery script: `{minutes}` is the promise.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub title: String,
    pub detail: String,
}

/// A document of the knowledge (see [`crate::knowledge`]) in a language.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DocumentText {
    pub asked_as: String,
    pub answer: String,
}

/// Everything the assistant says and reads in one language.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Texts {
    pub words: Words,
    /// Document id → the words (space-separated) that name its topic outright.
    #[serde(default)]
    pub topics: BTreeMap<String, String>,
    pub sentences: Sentences,
    pub details: Details,
    pub catalog: CatalogTexts,
    /// The delivery script's steps by key (`wait`, `join`, …). English has none: it tells the
    /// delivery domain's own words.
    #[serde(default)]
    pub script: BTreeMap<String, Step>,
    pub documents: BTreeMap<String, DocumentText>,
}

/// The file of a language.
fn source(language: Language) -> &'static str {
    match language {
        Language::English => include_str!("../lang/en.toml"),
        Language::Spanish => include_str!("../lang/es.toml"),
        Language::BrazilianPortuguese => include_str!("../lang/pt-BR.toml"),
        Language::French => include_str!("../lang/fr.toml"),
        Language::German => include_str!("../lang/de.toml"),
    }
}

/// Every language's texts, in the order of [`Language::ALL`].
static TEXTS: LazyLock<Vec<Texts>> = LazyLock::new(|| {
    Language::ALL
        .into_iter()
        .map(|language| match parse(language) {
            Ok(texts) => texts,
            // the files are part of the binary; the tests parse every one of them
            Err(error) => panic!("lang/{language}.toml: {error}"),
        })
        .collect()
});

fn parse(language: Language) -> Result<Texts, toml::de::Error> {
    toml::from_str(source(language))
}

/// The assistant's texts in `language`.
pub fn texts(language: Language) -> &'static Texts {
    let index = Language::ALL
        .iter()
        .position(|l| *l == language)
        .unwrap_or_default();
    &TEXTS[index]
}

/// `template` with each `{key}` of `values` written in.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    values
        .iter()
        .fold(template.to_owned(), |text, (key, value)| {
            text.replace(&format!("{{{key}}}"), value)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_file_parses() {
        for language in Language::ALL {
            if let Err(error) = parse(language) {
                panic!("lang/{language}.toml: {error}");
            }
        }
    }

    #[test]
    fn fill_writes_named_values_in() {
        assert_eq!(
            fill("{name} costs {price}.", &[("name", "Owl"), ("price", "$1")]),
            "Owl costs $1."
        );
        assert_eq!(fill("{other}", &[("name", "Owl")]), "{other}");
    }
}
