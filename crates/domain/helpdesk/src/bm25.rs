//! Okapi BM25 ranking over a small set of documents.

use std::collections::HashMap;

const K1: f64 = 1.2;
const B: f64 = 0.75;

/// An index of documents given as lists of terms.
#[derive(Debug, Clone, Default)]
pub struct Bm25 {
    documents: Vec<HashMap<String, u32>>,
    lengths: Vec<f64>,
    document_frequency: HashMap<String, u32>,
    average_length: f64,
}

/// A document's score for a query, with how much of the query it covers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    pub document: usize,
    pub score: f64,
    /// The share of the query's weight (sum of idf) this document contains, 0..=1.
    pub coverage: f64,
}

impl Bm25 {
    pub fn new(documents: Vec<Vec<String>>) -> Self {
        let mut document_frequency: HashMap<String, u32> = HashMap::new();
        let mut lengths = Vec::with_capacity(documents.len());
        let documents: Vec<HashMap<String, u32>> = documents
            .into_iter()
            .map(|terms| {
                lengths.push(terms.len() as f64);
                let mut counts: HashMap<String, u32> = HashMap::new();
                for term in terms {
                    *counts.entry(term).or_default() += 1;
                }
                for term in counts.keys() {
                    *document_frequency.entry(term.clone()).or_default() += 1;
                }
                counts
            })
            .collect();
        let average_length = if lengths.is_empty() {
            0.0
        } else {
            lengths.iter().sum::<f64>() / lengths.len() as f64
        };
        Bm25 {
            documents,
            lengths,
            document_frequency,
            average_length,
        }
    }

    /// Inverse document frequency; a term no document has gets the highest weight, so an
    /// unknown word lowers a query's coverage.
    pub fn idf(&self, term: &str) -> f64 {
        let n = self.documents.len() as f64;
        let df = f64::from(self.document_frequency.get(term).copied().unwrap_or(0));
        ((n - df + 0.5) / (df + 0.5)).ln_1p()
    }

    /// Documents that share at least one term with the query, best first.
    pub fn search(&self, query: &[String]) -> Vec<Hit> {
        let mut terms: Vec<&String> = query.iter().collect();
        terms.sort();
        terms.dedup();
        let total_weight: f64 = terms.iter().map(|t| self.idf(t)).sum();
        let mut hits: Vec<Hit> = self
            .documents
            .iter()
            .enumerate()
            .filter_map(|(index, counts)| {
                let length_norm = 1.0 - B + B * self.lengths[index] / self.average_length.max(1.0);
                let mut score = 0.0;
                let mut covered = 0.0;
                for term in &terms {
                    let Some(&tf) = counts.get(*term) else {
                        continue;
                    };
                    let tf = f64::from(tf);
                    let idf = self.idf(term);
                    score += idf * tf * (K1 + 1.0) / (tf + K1 * length_norm);
                    covered += idf;
                }
                (score > 0.0).then(|| Hit {
                    document: index,
                    score,
                    coverage: if total_weight > 0.0 {
                        covered / total_weight
                    } else {
                        0.0
                    },
                })
            })
            .collect();
        hits.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then(a.document.cmp(&b.document))
        });
        hits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    fn index() -> Bm25 {
        Bm25::new(vec![
            doc("refund money back refund policy"),
            doc("delivery time minutes delivery discord"),
            doc("pay card stripe paypal"),
        ])
    }

    #[test]
    fn the_document_with_the_query_terms_ranks_first() {
        let hits = index().search(&doc("refund please"));
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].document, 0);
        let hits = index().search(&doc("delivery card"));
        assert_eq!(hits.len(), 2);
        assert!(hits.iter().all(|h| h.document == 1 || h.document == 2));
    }

    #[test]
    fn repeated_terms_score_higher_but_saturate() {
        let index = Bm25::new(vec![
            doc("fox"),
            doc("fox fox"),
            doc("fox fox fox fox fox fox"),
        ]);
        let hits = index.search(&doc("fox"));
        let score = |d: usize| hits.iter().find(|h| h.document == d).unwrap().score;
        assert!(score(1) > score(0));
        assert!(score(2) - score(1) < score(1) - score(0) + 1.0);
    }

    #[test]
    fn rare_terms_weigh_more_and_unknown_words_lower_coverage() {
        let index = index();
        assert!(index.idf("stripe") > 0.0);
        assert!(index.idf("nowhere") > index.idf("stripe"));
        let hit = index.search(&doc("stripe weather"))[0];
        assert!(hit.coverage > 0.0 && hit.coverage < 0.5, "{hit:?}");
        let hit = index.search(&doc("stripe"))[0];
        assert!((hit.coverage - 1.0).abs() < 1e-9);
    }

    #[test]
    fn nothing_matches_an_unrelated_query_or_an_empty_index() {
        assert!(index().search(&doc("dragons")).is_empty());
        assert!(Bm25::new(vec![]).search(&doc("dragons")).is_empty());
    }
}
