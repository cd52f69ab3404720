//! The built-in assistant: answers from the shop's knowledge and the live catalog, offline.

use std::sync::{Arc, RwLock};

use catalog::Product;
use chat::{Answer, Asker, AskerOrder, Assistant, ChatMessage, MessageText};

use crate::bm25::{Bm25, Hit};
use crate::catalog::{contents_sentence, dupe_sentence, price_and_stock, CatalogIndex, Entry};
use crate::facts::{render_for, render_for_index, ShopFacts};
use crate::knowledge::DOCUMENTS;
use crate::text::{tokens, Analyzer};

/// A retrieved piece of knowledge has to cover at least this share of the question's weight...
const MIN_COVERAGE: f64 = 0.5;
/// ...and score at least this much, or the assistant is not confident.
const MIN_SCORE: f64 = 1.0;

/// An answer scoring at least this share of a hand-off's score (and covering as much of the
/// question) is given instead of the hand-off.
const HAND_OFF_MARGIN: f64 = 0.95;

/// Words that name a topic outright, with the document that answers it: a question that uses one
/// gets that document when nothing fits it better, rather than "not sure" ("I paid hours ago and
/// nothing came, refund please" is a refund question whatever else it says). Stems, as
/// [`Analyzer::terms`] makes them.
const TOPICS: &[(&str, &str)] = &[("refund", "refunds")];

/// What the assistant says when nothing it knows fits.
const UNSURE: &str = "I'm not sure I can answer that one.";

/// Words that point back at a product named earlier ("is it in stock?").
const BACK_REFERENCES: &[&str] = &["it", "its", "that", "this", "them", "they", "one", "those"];

/// What a question about a product wants to know beyond price and stock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Detail {
    PriceOrStock,
    Contents,
    Description,
    Dupe,
}

const DETAILS: &[(Detail, &str)] = &[
    (
        Detail::PriceOrStock,
        "how much price cost costs pricing expensive cheap dollars worth stock in stock \
         available availability left how many any sold out restock remaining quantity buy",
    ),
    (
        Detail::Contents,
        "contain contains included includes inside come comes with bundle items",
    ),
    (
        Detail::Description,
        "what does do tell describe description ability abilities good useful info about \
         special",
    ),
    (Detail::Dupe, "dupe duplicate flagged flag warning risk"),
];

/// A piece of knowledge handed to a language model as grounding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Passage {
    pub id: String,
    pub text: String,
}

/// Where an indexed document comes from.
#[derive(Debug, Clone)]
struct Indexed {
    id: String,
    /// A template for the shop's documents (see [`crate::facts`]), plain text for catalog facts.
    answer: String,
    needs_person: bool,
    from_catalog: bool,
}

#[derive(Debug, Default)]
struct Knowledge {
    catalog: CatalogIndex,
    documents: Vec<Indexed>,
    bm25: Bm25,
    details: Bm25,
}

/// The built-in assistant. Cheap to clone; [`BuiltinAssistant::update_catalog`] swaps in new
/// products, and [`BuiltinAssistant::update_facts`] the shop's facts, for every clone at once.
#[derive(Debug, Clone)]
pub struct BuiltinAssistant {
    analyzer: Arc<Analyzer>,
    knowledge: Arc<RwLock<Arc<Knowledge>>>,
    facts: Arc<RwLock<Arc<ShopFacts>>>,
}

impl BuiltinAssistant {
    /// An assistant that knows the shop's documents and these products, and answers with these
    /// facts until [`BuiltinAssistant::update_facts`] gives others.
    pub fn new(products: &[Product], facts: ShopFacts) -> Self {
        let analyzer = Arc::new(Analyzer::default());
        let knowledge = Arc::new(RwLock::new(Arc::new(Knowledge::build(products, &analyzer))));
        BuiltinAssistant {
            analyzer,
            knowledge,
            facts: Arc::new(RwLock::new(Arc::new(facts))),
        }
    }

    /// The facts the next answers state (the delivery promise, the Discord invite). Cheap: the
    /// index does not change, the answers are written from them when given.
    pub fn update_facts(&self, facts: ShopFacts) {
        if *self.facts() == facts {
            return;
        }
        let fresh = Arc::new(facts);
        match self.facts.write() {
            Ok(mut current) => *current = fresh,
            Err(poisoned) => *poisoned.into_inner() = fresh,
        }
    }

    /// The facts the answers state now.
    pub fn facts(&self) -> Arc<ShopFacts> {
        match self.facts.read() {
            Ok(current) => current.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Replaces the catalog the assistant answers from; call it whenever the products change.
    pub fn update_catalog(&self, products: &[Product]) {
        let fresh = Arc::new(Knowledge::build(products, &self.analyzer));
        match self.knowledge.write() {
            Ok(mut current) => *current = fresh,
            Err(poisoned) => *poisoned.into_inner() = fresh,
        }
    }

    fn current(&self) -> Arc<Knowledge> {
        match self.knowledge.read() {
            Ok(current) => current.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Answers a question, using `context` (the conversation so far) to resolve "it", for a
    /// shopper whose orders are not known.
    pub fn reply(&self, question: &str, context: &[ChatMessage]) -> Answer {
        self.reply_to(question, context, &Asker::default())
    }

    /// Answers `asker`'s question: answers about their orders link their open orders.
    pub fn reply_to(&self, question: &str, context: &[ChatMessage], asker: &Asker) -> Answer {
        let said = Said {
            facts: &self.facts(),
            orders: &asker.orders,
        };
        self.current()
            .answer(question, context, &self.analyzer, &said)
    }

    /// The passages that best fit `asker`'s question, best first: facts about the products it
    /// names, then the shop's documents.
    pub fn passages(
        &self,
        question: &str,
        context: &[ChatMessage],
        asker: &Asker,
        limit: usize,
    ) -> Vec<Passage> {
        let said = Said {
            facts: &self.facts(),
            orders: &asker.orders,
        };
        self.current()
            .passages(question, context, &self.analyzer, &said, limit)
    }
}

impl Assistant for BuiltinAssistant {
    async fn answer(
        &self,
        question: &MessageText,
        context: &[ChatMessage],
        asker: &Asker,
    ) -> Answer {
        self.reply_to(question.as_ref(), context, asker)
    }
}

/// What the answers are written with: the shop's facts and the asker's open orders.
struct Said<'a> {
    facts: &'a ShopFacts,
    orders: &'a [AskerOrder],
}

impl Indexed {
    /// The answer as the shopper reads it, with the shop's facts written in.
    fn text(&self, said: &Said<'_>) -> String {
        if self.from_catalog {
            self.answer.clone()
        } else {
            render_for(&self.answer, said.facts, said.orders)
        }
    }
}

impl Knowledge {
    fn build(products: &[Product], analyzer: &Analyzer) -> Self {
        let catalog = CatalogIndex::build(products, analyzer);
        let mut documents: Vec<Indexed> = DOCUMENTS
            .iter()
            .map(|d| Indexed {
                id: d.id.to_owned(),
                answer: d.answer.to_owned(),
                needs_person: d.needs_person,
                from_catalog: false,
            })
            .collect();
        // the index does not depend on the facts of the day: answers are indexed with every
        // Discord sentence in, no numbers and no script
        let mut texts: Vec<Vec<String>> = DOCUMENTS
            .iter()
            .map(|d| {
                // how shoppers ask weighs more than the wording of the answer
                let mut terms = analyzer.terms(d.asked_as);
                terms.extend(analyzer.terms(d.asked_as));
                terms.extend(analyzer.terms(&render_for_index(d.answer)));
                terms
            })
            .collect();
        for fact in catalog.facts() {
            documents.push(Indexed {
                id: fact.id.clone(),
                answer: fact.answer.clone(),
                needs_person: false,
                from_catalog: true,
            });
            let mut terms = analyzer.terms(&fact.asked_as);
            terms.extend(analyzer.terms(&fact.asked_as));
            texts.push(terms);
        }
        let details = Bm25::new(
            DETAILS
                .iter()
                .map(|(_, words)| analyzer.stems(words))
                .collect(),
        );
        Knowledge {
            catalog,
            documents,
            bm25: Bm25::new(texts),
            details,
        }
    }

    fn confident_hit(&self, terms: &[String]) -> Option<Hit> {
        let hits = self.bm25.search(terms);
        let best = hits.first().copied()?;
        // a hand-off wins only when it fits clearly better than the best answer the knowledge
        // has ("do I have to do anything to receive my order" is not a complaint): the live
        // agent stays offered either way
        let chosen = if self.documents[best.document].needs_person {
            hits.iter()
                .copied()
                .find(|hit| {
                    !self.documents[hit.document].needs_person
                        && hit.score >= best.score * HAND_OFF_MARGIN
                        && hit.coverage >= best.coverage
                })
                .unwrap_or(best)
        } else {
            best
        };
        Some(chosen).filter(|hit| hit.coverage >= MIN_COVERAGE && hit.score >= MIN_SCORE)
    }

    fn answer(
        &self,
        question: &str,
        context: &[ChatMessage],
        analyzer: &Analyzer,
        said: &Said<'_>,
    ) -> Answer {
        let terms = analyzer.terms(question);
        if let Some((entries, positions)) = self.named_products(question, context, analyzer) {
            // "can I get a refund for the raccoon": the rest of the question may be about
            // something the shop's documents answer better than the product's facts
            let raw = tokens(question);
            let rest: Vec<String> = raw
                .iter()
                .enumerate()
                .filter(|(i, t)| !positions.contains(i) && !crate::text::is_stop_word(t))
                .map(|(_, t)| analyzer.stem(t))
                .filter(|t| self.details.search(std::slice::from_ref(t)).is_empty())
                .collect();
            if !rest.is_empty() {
                if let Some(hit) = self.confident_hit(&rest) {
                    let document = &self.documents[hit.document];
                    if !document.from_catalog {
                        return self.document_answer(document, said);
                    }
                }
            }
            return Answer::confident(self.product_answer(&entries, &terms));
        }
        match self.confident_hit(&terms) {
            Some(hit) => self.document_answer(&self.documents[hit.document], said),
            None => match self.topic_document(&terms) {
                Some(document) => self.document_answer(document, said),
                None => Answer::offer_live_agent(UNSURE),
            },
        }
    }

    /// The document of the first topic word the question uses (see [`TOPICS`]).
    fn topic_document(&self, terms: &[String]) -> Option<&Indexed> {
        TOPICS
            .iter()
            .find(|(word, _)| terms.iter().any(|term| term == word))
            .and_then(|(_, id)| self.documents.iter().find(|d| d.id == *id))
    }

    fn document_answer(&self, document: &Indexed, said: &Said<'_>) -> Answer {
        let text = document.text(said);
        if document.needs_person {
            Answer::offer_live_agent(&text)
        } else {
            Answer::confident(text)
        }
    }

    /// The products the question names, or, when it says "it", the ones the shopper's last
    /// message named.
    fn named_products(
        &self,
        question: &str,
        context: &[ChatMessage],
        analyzer: &Analyzer,
    ) -> Option<(Vec<&Entry>, std::collections::BTreeSet<usize>)> {
        let entries = |found: crate::catalog::Found| {
            let list: Vec<&Entry> = found
                .products
                .iter()
                .map(|i| &self.catalog.entries()[*i])
                .collect();
            (list, found.positions)
        };
        if let Some(found) = self.catalog.find(question, analyzer) {
            return Some(entries(found));
        }
        let refers_back = tokens(question)
            .iter()
            .any(|t| BACK_REFERENCES.contains(&t.as_str()));
        if !refers_back {
            return None;
        }
        let earlier = context
            .iter()
            .rev()
            .filter(|m| m.sender.is_customer())
            .find_map(|m| self.catalog.find(&m.text, analyzer))?;
        Some((entries(earlier).0, Default::default()))
    }

    fn product_answer(&self, entries: &[&Entry], terms: &[String]) -> String {
        let asked: Vec<Detail> = self
            .details
            .search(terms)
            .iter()
            .map(|hit| DETAILS[hit.document].0)
            .collect();
        let several = entries.len() > 1;
        let mut sentences = vec![];
        if several && entries.len() <= 3 {
            let names: Vec<&str> = entries.iter().map(|e| e.product.name.as_str()).collect();
            sentences.push(format!("We have {}:", names.join(" and ")));
        }
        for entry in entries {
            sentences.push(price_and_stock(entry));
            if let Some(contents) = contents_sentence(entry) {
                sentences.push(contents);
            }
            if asked.contains(&Detail::Dupe) || entry.product.dupe_warning && !several {
                sentences.push(dupe_sentence(entry));
            }
            let describe = asked.contains(&Detail::Description) || (asked.is_empty() && !several);
            if describe && !entry.product.description.trim().is_empty() {
                sentences.push(entry.product.description.trim().to_owned());
            }
        }
        sentences.join(" ")
    }

    fn passages(
        &self,
        question: &str,
        context: &[ChatMessage],
        analyzer: &Analyzer,
        said: &Said<'_>,
        limit: usize,
    ) -> Vec<Passage> {
        let mut passages = vec![];
        if let Some((entries, _)) = self.named_products(question, context, analyzer) {
            for entry in entries {
                let mut text = price_and_stock(entry);
                if let Some(contents) = contents_sentence(entry) {
                    text.push(' ');
                    text.push_str(&contents);
                }
                text.push(' ');
                text.push_str(&dupe_sentence(entry));
                text.push(' ');
                text.push_str(entry.product.description.trim());
                passages.push(Passage {
                    id: format!("product-{}", entry.product.id),
                    text,
                });
            }
        }
        for hit in self.bm25.search(&analyzer.terms(question)) {
            if passages.len() >= limit {
                break;
            }
            let document = &self.documents[hit.document];
            passages.push(Passage {
                id: document.id.clone(),
                text: document.text(said),
            });
        }
        passages.truncate(limit.max(1));
        passages
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_topic_names_a_document_and_a_term_as_questions_have_it() {
        let analyzer = Analyzer::default();
        for (word, id) in TOPICS {
            assert!(DOCUMENTS.iter().any(|d| d.id == *id), "{id}");
            assert_eq!(analyzer.terms(word), [*word], "{word} is a stem");
        }
    }
}
