//! The message files against each other and against the code: every language has exactly the
//! ids (and attributes) of English, every id is used by the code, every id the code names
//! exists; and the arguments reach the words.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};
use fluent_syntax::parser;

use super::*;

/// The prefixes every id carries, so that the code's ids can be found in its source.
const PREFIXES: [&str; 3] = ["error-", "mail-", "site-"];

fn locales() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("locales")
}

/// Every message of one language's files: its id with its attributes (`id.attr`), and the
/// variables its value uses.
fn messages(language: Language) -> BTreeMap<String, BTreeSet<String>> {
    let mut found = BTreeMap::new();
    let folder = locales().join(language.code());
    let mut files: Vec<_> = std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "ftl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .ftl files in {}", folder.display());
    for file in files {
        let source = std::fs::read_to_string(&file).unwrap();
        let resource = parser::parse(source.as_str())
            .unwrap_or_else(|(_, errors)| panic!("{}: {errors:?}", file.display()));
        for entry in resource.body {
            if let Entry::Message(message) = entry {
                let id = message.id.name.to_owned();
                let mut names = BTreeSet::new();
                if let Some(value) = &message.value {
                    variables(value, &mut names);
                }
                for attribute in &message.attributes {
                    found.insert(format!("{id}.{}", attribute.id.name), BTreeSet::new());
                }
                assert!(
                    found.insert(id.clone(), names).is_none(),
                    "{id} twice in {language}"
                );
            }
        }
    }
    found
}

fn variables(pattern: &Pattern<&str>, names: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let PatternElement::Placeable { expression } = element {
            expression_variables(expression, names);
        }
    }
}

fn expression_variables(expression: &Expression<&str>, names: &mut BTreeSet<String>) {
    let inline = |inline: &InlineExpression<&str>, names: &mut BTreeSet<String>| match inline {
        InlineExpression::VariableReference { id } => {
            names.insert(id.name.to_owned());
        }
        InlineExpression::Placeable { expression } => expression_variables(expression, names),
        _ => {}
    };
    match expression {
        Expression::Inline(expression) => inline(expression, names),
        Expression::Select { selector, variants } => {
            inline(selector, names);
            for variant in variants {
                variables(&variant.value, names);
            }
        }
    }
}

/// Every `.rs` file of the workspace's crates but this test.
fn sources() -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !path.ends_with("target") && !path.ends_with("node_modules") {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|ext| ext == "rs")
                && !path.ends_with("l10n/src/tests.rs")
            {
                out.push((path.clone(), std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."),
        &mut out,
    );
    out
}

/// The ids the code names: string literals that start with one of [`PREFIXES`].
fn ids_in_code() -> BTreeMap<String, PathBuf> {
    let mut ids = BTreeMap::new();
    for (path, source) in sources() {
        for (start, _) in source.match_indices('"') {
            let rest = &source[start + 1..];
            if !PREFIXES.iter().any(|prefix| rest.starts_with(prefix)) {
                continue;
            }
            let end = rest
                .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
                .unwrap_or(rest.len());
            if rest[end..].starts_with('"') {
                ids.insert(rest[..end].to_owned(), path.clone());
            }
        }
    }
    ids
}

#[test]
fn every_language_has_exactly_the_english_messages() {
    let english = messages(Language::English);
    for language in Language::ALL {
        let translated = messages(language);
        let ids: BTreeSet<_> = translated.keys().cloned().collect();
        let reference: BTreeSet<_> = english.keys().cloned().collect();
        let missing: Vec<_> = reference.difference(&ids).collect();
        let extra: Vec<_> = ids.difference(&reference).collect();
        assert!(missing.is_empty(), "{language} lacks {missing:?}");
        assert!(
            extra.is_empty(),
            "{language} has ids English lacks: {extra:?}"
        );
        for (id, names) in &translated {
            assert_eq!(names, &english[id], "{language} {id} uses other variables");
        }
    }
}

#[test]
fn every_message_is_used_and_every_id_the_code_names_exists() {
    let english = messages(Language::English);
    let in_code = ids_in_code();
    for id in english.keys().filter(|id| !id.contains('.')) {
        assert!(
            PREFIXES.iter().any(|prefix| id.starts_with(prefix)),
            "{id} has none of the prefixes {PREFIXES:?}"
        );
        assert!(in_code.contains_key(id), "{id} is used nowhere in the code");
    }
    for (id, path) in &in_code {
        assert!(
            english.contains_key(id),
            "{} names {id}, which locales/en lacks",
            path.display()
        );
    }
}

#[test]
fn every_language_renders_every_message_with_its_arguments() {
    for language in Language::ALL {
        for (id, names) in messages(language)
            .iter()
            .filter(|(id, _)| !id.contains('.'))
        {
            let id: &'static str = Box::leak(id.clone().into_boxed_str());
            let mut message = Text::new(id);
            for name in names {
                let name: &'static str = Box::leak(name.clone().into_boxed_str());
                message = message.with(name, 3);
            }
            let shown = message.render(language);
            assert!(!shown.trim().is_empty(), "{language} {id}");
            assert_ne!(shown, id, "{language} {id} did not render");
            assert!(!shown.contains("{$"), "{language} {id}: {shown}");
        }
    }
}

#[test]
fn a_number_selects_the_language_s_plural_form() {
    let one = Text::new("error-too-many-minutes").with("minutes", 1);
    let two = Text::new("error-too-many-minutes").with("minutes", 2);
    assert_eq!(
        one.render(Language::English),
        "Too many attempts. Try again in 1 minute."
    );
    assert_eq!(
        two.render(Language::English),
        "Too many attempts. Try again in 2 minutes."
    );
    assert_eq!(
        two.render(Language::German),
        "Zu viele Versuche. Versuche es in 2 Minuten erneut."
    );
    assert_eq!(
        one.render(Language::German),
        "Zu viele Versuche. Versuche es in 1 Minute erneut."
    );
}

#[test]
fn an_unknown_id_shows_itself_rather_than_nothing() {
    assert_eq!(text(Language::Spanish, "no-such-id"), "no-such-id");
}
