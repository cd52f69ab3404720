//! Turning text into search terms in a shopper's language: lowercase tokens with their accents
//! folded, the language's common words dropped, Snowball stems (`rust-stemmers`).

use rust_stemmers::{Algorithm, Stemmer};
use shared::Language;
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

use crate::texts::{texts, Words};

/// Splits, normalises and stems text in one language.
pub struct Analyzer {
    language: Language,
    stemmer: Stemmer,
    words: &'static Words,
}

impl Default for Analyzer {
    fn default() -> Self {
        Analyzer::new(Language::English)
    }
}

impl std::fmt::Debug for Analyzer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Analyzer({})", self.language)
    }
}

/// The Snowball stemmer of a language.
fn algorithm(language: Language) -> Algorithm {
    match language {
        Language::English => Algorithm::English,
        Language::Spanish => Algorithm::Spanish,
        Language::BrazilianPortuguese => Algorithm::Portuguese,
        Language::French => Algorithm::French,
        Language::German => Algorithm::German,
    }
}

/// Lowercase words and numbers, accents folded ("Envío" -> "envio", "Rückerstattung" ->
/// "ruckerstattung"); apostrophes vanish ("don't" -> "dont"), everything else that is not a
/// letter or digit separates words ("t-rex" -> "t", "rex", "¿cuánto?" -> "cuanto").
pub fn tokens(text: &str) -> Vec<String> {
    split(&text.replace(['\'', '’'], ""))
}

fn split(text: &str) -> Vec<String> {
    text.to_lowercase()
        .nfd()
        .filter(|c| !is_combining_mark(*c))
        .collect::<String>()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect()
}

impl Analyzer {
    /// The analyzer of `language`: its stemmer and its words.
    pub fn new(language: Language) -> Self {
        Analyzer {
            language,
            stemmer: Stemmer::create(algorithm(language)),
            words: &texts(language).words,
        }
    }

    pub fn is_stop_word(&self, token: &str) -> bool {
        self.words.stop_words.iter().any(|word| word == token)
    }

    /// Whether the token points back at a product named earlier.
    pub fn refers_back(&self, token: &str) -> bool {
        self.words.back_references.iter().any(|word| word == token)
    }

    /// The tokens of `text` in this language: as [`tokens`] makes them, but where the
    /// language elides ("l'équipe", "j'ai"), the apostrophe separates words.
    pub fn tokens(&self, text: &str) -> Vec<String> {
        if self.words.elision {
            split(text)
        } else {
            tokens(text)
        }
    }

    pub fn stem(&self, token: &str) -> String {
        self.stemmer.stem(token).into_owned()
    }

    /// Every token, stemmed, stop words kept: for matching names.
    pub fn stems(&self, text: &str) -> Vec<String> {
        self.tokens(text).iter().map(|t| self.stem(t)).collect()
    }

    /// The search terms of `text`: stop words dropped, negations as "not", everyday words as
    /// the knowledge's, the rest stemmed.
    pub fn terms(&self, text: &str) -> Vec<String> {
        self.tokens(text)
            .iter()
            .filter(|t| !self.is_stop_word(t))
            .map(|t| {
                if self.words.negations.contains(t) {
                    return "not".to_owned();
                }
                match self.words.synonyms.get(t) {
                    Some(word) => self.stem(word),
                    None => self.stem(t),
                }
            })
            .collect()
    }
}

/// Edit distance (insertions, deletions, substitutions) between two short words.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_negation_reads_as_not_however_it_is_written() {
        let analyzer = Analyzer::default();
        assert_eq!(
            analyzer.terms("it wasn't delivered, it isnt here"),
            analyzer.terms("it was not delivered, it not here")
        );
        assert_eq!(analyzer.terms("I haven’t received it"), ["not", "receiv"]);
    }

    #[test]
    fn everyday_words_read_as_the_knowledges_words() {
        let analyzer = Analyzer::default();
        assert_eq!(
            analyzer.terms("when will I get my stuff, I bought it till now"),
            analyzer.terms("when will I get my items, I buy it until now")
        );
    }

    #[test]
    fn every_languages_words_are_folded_as_tokens_are() {
        for language in Language::ALL {
            let words = &texts(language).words;
            let lists = [&words.stop_words, &words.negations, &words.back_references];
            for word in lists.into_iter().flatten().chain(words.synonyms.keys()) {
                assert_eq!(tokens(word), [word.as_str()], "{language}: {word}");
            }
        }
    }

    #[test]
    fn accents_fold_and_each_language_stems_its_own_words() {
        assert_eq!(
            tokens("¿Cuánto tarda el envío?"),
            ["cuanto", "tarda", "el", "envio"]
        );
        let spanish = Analyzer::new(Language::Spanish);
        assert_eq!(spanish.terms("reembolsos"), spanish.terms("reembolso"));
        assert_eq!(spanish.terms("¿Cuánto?"), spanish.terms("cuanto"));
        let german = Analyzer::new(Language::German);
        assert_eq!(
            german.terms("Rückerstattungen"),
            german.terms("ruckerstattung")
        );
        let portuguese = Analyzer::new(Language::BrazilianPortuguese);
        assert_eq!(
            portuguese.terms("não recebi"),
            portuguese.terms("nao recebi")
        );
        let french = Analyzer::new(Language::French);
        assert_eq!(
            french.terms("remboursements"),
            french.terms("remboursement")
        );
        assert_eq!(french.terms("l'équipe"), french.terms("equipe"));
    }

    #[test]
    fn tokens_split_on_punctuation_and_drop_apostrophes() {
        assert_eq!(
            tokens("Is T-Rex in stock?"),
            ["is", "t", "rex", "in", "stock"]
        );
        assert_eq!(tokens("don't   DO it!!"), ["dont", "do", "it"]);
        assert_eq!(tokens("$24.99"), ["24", "99"]);
    }

    #[test]
    fn terms_are_stemmed_without_stop_words() {
        let analyzer = Analyzer::default();
        assert_eq!(
            analyzer.terms("How do I pay for the Raccoons?"),
            ["pay", "raccoon"]
        );
        assert_eq!(analyzer.terms("refunds refunded"), ["refund", "refund"]);
        assert_eq!(analyzer.stem("bunnies"), analyzer.stem("bunny"));
    }

    #[test]
    fn edit_distance_counts_single_edits() {
        assert_eq!(edit_distance("raccoon", "racoon"), 1);
        assert_eq!(edit_distance("kitsune", "kitsune"), 0);
        assert_eq!(edit_distance("owl", "bee"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
