//! Turning text into search terms: lowercase tokens, common words dropped, English stems.

use rust_stemmers::{Algorithm, Stemmer};

/// Words too common to say anything about a question.
const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "also",
    "am",
    "an",
    "and",
    "any",
    "anything",
    "are",
    "as",
    "at",
    "be",
    "been",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "for",
    "from",
    "get",
    "go",
    "going",
    "gonna",
    "got",
    "guys",
    "had",
    "has",
    "have",
    "he",
    "her",
    "him",
    "his",
    "how",
    "i",
    "id",
    "if",
    "im",
    "in",
    "into",
    "is",
    "it",
    "its",
    "ive",
    "just",
    "know",
    "like",
    "lot",
    "lots",
    "me",
    "my",
    "now",
    "of",
    "on",
    "or",
    "our",
    "please",
    "pls",
    "plz",
    "really",
    "she",
    "should",
    "so",
    "some",
    "something",
    "still",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "thing",
    "things",
    "this",
    "those",
    "to",
    "u",
    "up",
    "us",
    "very",
    "wanna",
    "want",
    "was",
    "we",
    "were",
    "what",
    "whats",
    "which",
    "who",
    "will",
    "with",
    "would",
    "ya",
    "you",
    "your",
    "youre",
    "yours",
];

/// Splits, normalises and stems text.
pub struct Analyzer {
    stemmer: Stemmer,
}

impl Default for Analyzer {
    fn default() -> Self {
        Analyzer {
            stemmer: Stemmer::create(Algorithm::English),
        }
    }
}

impl std::fmt::Debug for Analyzer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Analyzer(english)")
    }
}

/// Lowercase words and numbers; apostrophes vanish ("don't" -> "dont"), everything else that
/// is not a letter or digit separates words ("t-rex" -> "t", "rex").
pub fn tokens(text: &str) -> Vec<String> {
    text.to_lowercase()
        .replace(['\'', '’'], "")
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect()
}

/// "n't" forms as tokens have them (apostrophe gone): each means "not" ("the pet wasnt
/// delivered" asks what "the pet was not delivered" asks).
const NEGATIONS: &[&str] = &[
    "aint", "arent", "cant", "cannot", "couldnt", "didnt", "doesnt", "dont", "hadnt", "hasnt",
    "havent", "isnt", "mustnt", "neednt", "shouldnt", "wasnt", "werent", "wont", "wouldnt",
];

/// Everyday words shoppers use for the words the shop's knowledge is written in ("when will I
/// get my stuff" asks about the items): each token on the left is read as the one on the right.
const SYNONYMS: &[(&str, &str)] = &[
    ("bought", "buy"),
    ("goods", "items"),
    ("stuff", "items"),
    ("til", "until"),
    ("till", "until"),
];

pub fn is_stop_word(token: &str) -> bool {
    STOP_WORDS.binary_search(&token).is_ok()
}

impl Analyzer {
    pub fn stem(&self, token: &str) -> String {
        self.stemmer.stem(token).into_owned()
    }

    /// Every token, stemmed, stop words kept: for matching names.
    pub fn stems(&self, text: &str) -> Vec<String> {
        tokens(text).iter().map(|t| self.stem(t)).collect()
    }

    /// The search terms of `text`: stop words dropped, negations as "not", the rest stemmed.
    pub fn terms(&self, text: &str) -> Vec<String> {
        tokens(text)
            .iter()
            .filter(|t| !is_stop_word(t))
            .map(|t| {
                if NEGATIONS.contains(&t.as_str()) {
                    return "not".to_owned();
                }
                match SYNONYMS.binary_search_by(|(word, _)| word.cmp(&t.as_str())) {
                    Ok(i) => self.stem(SYNONYMS[i].1),
                    Err(_) => self.stem(t),
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
        let mut sorted = SYNONYMS.to_vec();
        sorted.sort_unstable();
        sorted.dedup_by_key(|(word, _)| *word);
        assert_eq!(sorted, SYNONYMS, "sorted for binary search, each word once");
    }

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        let mut sorted = STOP_WORDS.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted, STOP_WORDS);
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
