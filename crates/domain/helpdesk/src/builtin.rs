//! The built-in assistant: answers from the shop's knowledge and the live catalog, offline.

use std::sync::{Arc, RwLock};

use std::collections::BTreeSet;

use catalog::Product;
use chat::{Answer, Asker, AskerOrder, Assistant, ChatMessage, MessageText};
use shared::Language;

use crate::bm25::{Bm25, Hit};
use crate::catalog::{contents_sentence, dupe_sentence, price_and_stock, CatalogIndex, Entry};
use crate::facts::{render_for, render_for_index, ShopFacts};
use crate::knowledge::documents;
use crate::text::{tokens, Analyzer};
use crate::texts::{texts, Texts};

/// A retrieved piece of knowledge has to cover at least this share of the question's weight...
const MIN_COVERAGE: f64 = 0.5;
/// ...and score at least this much, or the assistant is not confident.
const MIN_SCORE: f64 = 1.0;

/// An answer scoring at least this share of a hand-off's score (and covering as much of the
/// question) is given instead of the hand-off.
const HAND_OFF_MARGIN: f64 = 0.95;

/// What a question about a product wants to know beyond price and stock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Detail {
    PriceOrStock,
    Contents,
    Description,
    Dupe,
}

/// The details in the order a language file's `details` lists their words.
const DETAILS: [Detail; 4] = [
    Detail::PriceOrStock,
    Detail::Contents,
    Detail::Description,
    Detail::Dupe,
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

/// The knowledge in one language, indexed with that language's words. Every language's
/// documents come in the same order (the shop's documents, then the catalog's facts), so a hit
/// in one language names the same document in every other.
#[derive(Debug)]
struct Spoken {
    language: Language,
    texts: &'static Texts,
    analyzer: Analyzer,
    documents: Vec<Indexed>,
    bm25: Bm25,
    details: Bm25,
    /// Topic words (stems) with the document that answers them: a question that uses one gets
    /// that document when nothing fits it better, rather than "not sure" ("I paid hours ago and
    /// nothing came, refund please" is a refund question whatever else it says).
    topics: Vec<(String, usize)>,
}

#[derive(Debug)]
struct Knowledge {
    catalog: CatalogIndex,
    /// Matches the catalog's (English) product names in a question of any language.
    names: Analyzer,
    /// In the order of [`Language::ALL`].
    spoken: Vec<Spoken>,
}

/// The built-in assistant. Cheap to clone; [`BuiltinAssistant::update_catalog`] swaps in new
/// products, and [`BuiltinAssistant::update_facts`] the shop's facts, for every clone at once.
#[derive(Debug, Clone)]
pub struct BuiltinAssistant {
    knowledge: Arc<RwLock<Arc<Knowledge>>>,
    facts: Arc<RwLock<Arc<ShopFacts>>>,
}

impl BuiltinAssistant {
    /// An assistant that knows the shop's documents and these products, and answers with these
    /// facts until [`BuiltinAssistant::update_facts`] gives others.
    pub fn new(products: &[Product], facts: ShopFacts) -> Self {
        BuiltinAssistant {
            knowledge: Arc::new(RwLock::new(Arc::new(Knowledge::build(products)))),
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
        let fresh = Arc::new(Knowledge::build(products));
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
    /// shopper whose orders are not known, in English.
    pub fn reply(&self, question: &str, context: &[ChatMessage]) -> Answer {
        self.reply_to(question, context, &Asker::default())
    }

    /// Answers `asker`'s question in their language: answers about their orders link their
    /// open orders.
    pub fn reply_to(&self, question: &str, context: &[ChatMessage], asker: &Asker) -> Answer {
        let said = Said {
            facts: &self.facts(),
            orders: &asker.orders,
            language: asker.language,
        };
        self.current().answer(question, context, &said)
    }

    /// What the assistant says in `language` when it cannot answer: that it is not sure, and
    /// the live-agent offer.
    pub fn not_sure(&self, language: Language) -> Answer {
        Answer::offer_live_agent(&texts(language).sentences.unsure, language)
    }

    /// The passages in `asker`'s language that best fit their question, best first: facts
    /// about the products it names, then the shop's documents.
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
            language: asker.language,
        };
        self.current().passages(question, context, &said, limit)
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

/// What the answers are written with: the shop's facts, the asker's open orders and language.
struct Said<'a> {
    facts: &'a ShopFacts,
    orders: &'a [AskerOrder],
    language: Language,
}

impl Indexed {
    /// The answer as the shopper reads it, with the shop's facts written in.
    fn text(&self, said: &Said<'_>) -> String {
        if self.from_catalog {
            self.answer.clone()
        } else {
            render_for(&self.answer, said.facts, said.orders, said.language)
        }
    }
}

impl Spoken {
    fn build(language: Language, catalog: &CatalogIndex) -> Self {
        let texts = texts(language);
        let analyzer = Analyzer::new(language);
        let own = documents(language);
        let mut indexed: Vec<Indexed> = own
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
        let mut terms: Vec<Vec<String>> = own
            .iter()
            .map(|d| {
                // how shoppers ask weighs more than the wording of the answer
                let mut terms = analyzer.terms(d.asked_as);
                terms.extend(analyzer.terms(d.asked_as));
                terms.extend(analyzer.terms(&render_for_index(d.answer)));
                terms
            })
            .collect();
        for fact in catalog.facts(language) {
            let mut fact_terms = analyzer.terms(&fact.asked_as);
            fact_terms.extend(analyzer.terms(&fact.asked_as));
            terms.push(fact_terms);
            indexed.push(Indexed {
                id: fact.id,
                answer: fact.answer,
                needs_person: false,
                from_catalog: true,
            });
        }
        let details = &texts.details;
        let details = [
            &details.price_or_stock,
            &details.contents,
            &details.description,
            &details.dupe,
        ]
        .map(|words| analyzer.stems(words));
        let topics = Self::topics(texts, &analyzer, &indexed);
        Spoken {
            language,
            texts,
            analyzer,
            documents: indexed,
            bm25: Bm25::new(terms),
            details: Bm25::new(details.into()),
            topics,
        }
    }

    /// The topic words' stems, each with its document's place.
    fn topics(texts: &Texts, analyzer: &Analyzer, documents: &[Indexed]) -> Vec<(String, usize)> {
        texts
            .topics
            .iter()
            .filter_map(|(id, words)| {
                let document = documents.iter().position(|d| d.id == *id)?;
                Some(
                    analyzer
                        .terms(words)
                        .into_iter()
                        .map(move |stem| (stem, document)),
                )
            })
            .flatten()
            .collect()
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

    /// The document of the first topic word the question uses.
    fn topic_document(&self, terms: &[String]) -> Option<&Indexed> {
        self.topics
            .iter()
            .find(|(word, _)| terms.iter().any(|term| term == word))
            .map(|(_, document)| &self.documents[*document])
    }

    fn document_answer(&self, document: &Indexed, said: &Said<'_>) -> Answer {
        let text = document.text(said);
        if document.needs_person {
            Answer::offer_live_agent(&text, self.language)
        } else {
            Answer::confident(text)
        }
    }

    /// "can I get a refund for the raccoon": the rest of a question that names products (the
    /// words at `positions`) may be about something the shop's documents answer better than
    /// the product's facts.
    fn document_beside_products(
        &self,
        question: &str,
        positions: &BTreeSet<usize>,
    ) -> Option<&Indexed> {
        // the question's terms but those of the words that named the products (found in the
        // catalog's tokens) and those that ask about a product
        let raw = tokens(question);
        let mut rest = self.analyzer.terms(question);
        for named in positions
            .iter()
            .filter_map(|i| raw.get(*i))
            .flat_map(|t| self.analyzer.terms(t))
        {
            if let Some(at) = rest.iter().position(|term| *term == named) {
                rest.remove(at);
            }
        }
        rest.retain(|t| self.details.search(std::slice::from_ref(t)).is_empty());
        if rest.is_empty() {
            return None;
        }
        let hit = self.confident_hit(&rest)?;
        Some(&self.documents[hit.document]).filter(|document| !document.from_catalog)
    }

    fn product_answer(&self, entries: &[&Entry], terms: &[String]) -> String {
        let t = &self.texts.catalog;
        let asked: Vec<Detail> = self
            .details
            .search(terms)
            .iter()
            .map(|hit| DETAILS[hit.document])
            .collect();
        let several = entries.len() > 1;
        let mut sentences = vec![];
        if several && entries.len() <= 3 {
            let names: Vec<&str> = entries.iter().map(|e| e.product.name.as_str()).collect();
            let names = names.join(&format!(" {} ", t.and));
            sentences.push(crate::texts::fill(&t.we_have, &[("names", &names)]));
        }
        for entry in entries {
            sentences.push(price_and_stock(entry, t));
            if let Some(contents) = contents_sentence(entry, t) {
                sentences.push(contents);
            }
            if asked.contains(&Detail::Dupe) || entry.product.dupe_warning && !several {
                sentences.push(dupe_sentence(entry, t));
            }
            let describe = asked.contains(&Detail::Description) || (asked.is_empty() && !several);
            if describe && !entry.product.description.trim().is_empty() {
                sentences.push(entry.product.description.trim().to_owned());
            }
        }
        sentences.join(" ")
    }

    /// A product's facts as one passage.
    fn product_passage(&self, entry: &Entry) -> Passage {
        let t = &self.texts.catalog;
        let mut text = price_and_stock(entry, t);
        if let Some(contents) = contents_sentence(entry, t) {
            text.push(' ');
            text.push_str(&contents);
        }
        text.push(' ');
        text.push_str(&dupe_sentence(entry, t));
        text.push(' ');
        text.push_str(entry.product.description.trim());
        Passage {
            id: format!("product-{}", entry.product.id),
            text,
        }
    }
}

impl Knowledge {
    fn build(products: &[Product]) -> Self {
        let names = Analyzer::new(Language::English);
        let catalog = CatalogIndex::build(products, &names);
        let spoken = Language::ALL
            .into_iter()
            .map(|language| Spoken::build(language, &catalog))
            .collect();
        Knowledge {
            catalog,
            names,
            spoken,
        }
    }

    fn spoken(&self, language: Language) -> &Spoken {
        let index = Language::ALL
            .iter()
            .position(|l| *l == language)
            .unwrap_or_default();
        &self.spoken[index]
    }

    /// The confident hit for `question` in `spoken`'s language, else in English (shoppers mix
    /// in English words, and the documents are the same in every language).
    fn confident_hit(&self, question: &str, spoken: &Spoken) -> Option<Hit> {
        spoken
            .confident_hit(&spoken.analyzer.terms(question))
            .or_else(|| {
                let english = self.spoken(Language::English);
                (spoken.language != Language::English)
                    .then(|| english.confident_hit(&english.analyzer.terms(question)))
                    .flatten()
            })
    }

    fn answer(&self, question: &str, context: &[ChatMessage], said: &Said<'_>) -> Answer {
        let spoken = self.spoken(said.language);
        let terms = spoken.analyzer.terms(question);
        if let Some((entries, positions)) = self.named_products(question, context, spoken) {
            if let Some(document) = spoken.document_beside_products(question, &positions) {
                return spoken.document_answer(document, said);
            }
            return Answer::confident(spoken.product_answer(&entries, &terms));
        }
        match self.confident_hit(question, spoken) {
            Some(hit) => spoken.document_answer(&spoken.documents[hit.document], said),
            None => match spoken.topic_document(&terms) {
                Some(document) => spoken.document_answer(document, said),
                None => Answer::offer_live_agent(&spoken.texts.sentences.unsure, spoken.language),
            },
        }
    }

    /// The products the question names, or, when it points back ("it"), the ones the
    /// shopper's last message named.
    fn named_products(
        &self,
        question: &str,
        context: &[ChatMessage],
        spoken: &Spoken,
    ) -> Option<(Vec<&Entry>, BTreeSet<usize>)> {
        let entries = |found: crate::catalog::Found| {
            let list: Vec<&Entry> = found
                .products
                .iter()
                .map(|i| &self.catalog.entries()[*i])
                .collect();
            (list, found.positions)
        };
        if let Some(found) = self.catalog.find(question, &self.names) {
            return Some(entries(found));
        }
        // "is it in stock?", and, where the language drops the "it", "¿y cuánto cuesta?": a
        // question of nothing but what is asked about a product, that nothing else answers
        // ("what bundles do you have" is not about the product named before)
        let terms = spoken.analyzer.terms(question);
        let refers_back = spoken
            .analyzer
            .tokens(question)
            .iter()
            .any(|t| spoken.analyzer.refers_back(t))
            || !terms.is_empty()
                && terms
                    .iter()
                    .all(|t| !spoken.details.search(std::slice::from_ref(t)).is_empty())
                && spoken.confident_hit(&terms).is_none();
        if !refers_back {
            return None;
        }
        let earlier = context
            .iter()
            .rev()
            .filter(|m| m.sender.is_customer())
            .find_map(|m| self.catalog.find(&m.text, &self.names))?;
        Some((entries(earlier).0, Default::default()))
    }

    fn passages(
        &self,
        question: &str,
        context: &[ChatMessage],
        said: &Said<'_>,
        limit: usize,
    ) -> Vec<Passage> {
        let spoken = self.spoken(said.language);
        let mut passages = vec![];
        if let Some((entries, _)) = self.named_products(question, context, spoken) {
            passages.extend(entries.iter().map(|entry| spoken.product_passage(entry)));
        }
        let english = self.spoken(Language::English);
        // the documents in the asker's language that fit best, then those the English
        // wording finds (the same documents, told in the asker's language)
        let mut found: Vec<usize> = spoken
            .bm25
            .search(&spoken.analyzer.terms(question))
            .iter()
            .map(|hit| hit.document)
            .collect();
        for hit in english.bm25.search(&english.analyzer.terms(question)) {
            if !found.contains(&hit.document) {
                found.push(hit.document);
            }
        }
        for document in found {
            if passages.len() >= limit {
                break;
            }
            let document = &spoken.documents[document];
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
    fn every_topic_names_a_document_and_its_words_are_terms_as_questions_have_them() {
        for language in Language::ALL {
            let analyzer = Analyzer::new(language);
            let texts = texts(language);
            assert!(!texts.topics.is_empty(), "{language}");
            for (id, words) in &texts.topics {
                assert!(texts.documents.contains_key(id), "{language}: {id}");
                assert!(!analyzer.terms(words).is_empty(), "{language}: {words}");
            }
        }
    }
}
