//! Live catalog facts: finding the products a question names, answering with their price,
//! stock and contents, and catalog-wide documents (bundles, categories, what is sold out).

use std::collections::BTreeSet;

use catalog::{Product, ProductId, Stock};
use shared::Language;

use crate::text::{edit_distance, tokens, Analyzer};
use crate::texts::{fill, texts, CatalogTexts};

/// Name words several products share: alone they do not name a product.
const GENERIC_NAME_TERMS: &[&str] = &["bundl", "garden", "pet", "sheckl"];

/// A product as the assistant knows it.
#[derive(Debug, Clone)]
pub struct Entry {
    pub product: Product,
    /// What the storefront can sell now: a bundle is limited by its components.
    pub available: Stock,
    /// Component names, for bundles.
    pub contents: Vec<String>,
    terms: Vec<String>,
    compact: String,
}

/// A catalog-wide fact written from the current products, in one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact {
    pub id: String,
    pub asked_as: String,
    pub answer: String,
}

/// The products a question names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub products: Vec<usize>,
    /// The question's token positions that named them.
    pub positions: BTreeSet<usize>,
    /// Only a shared word matched ("fox"): several products may be meant.
    pub ambiguous: bool,
}

/// The current catalog, indexed for questions.
#[derive(Debug, Clone, Default)]
pub struct CatalogIndex {
    entries: Vec<Entry>,
}

struct Candidate {
    entry: usize,
    positions: BTreeSet<usize>,
    strong: bool,
    head_only: bool,
}

impl CatalogIndex {
    /// Indexes the products the storefront shows (archived ones are left out). Names are
    /// matched as the catalog writes them, with `analyzer`'s stems (English: the names are).
    pub fn build(products: &[Product], analyzer: &Analyzer) -> Self {
        let visible: Vec<&Product> = products.iter().filter(|p| !p.archived).collect();
        let name_of = |id: ProductId| visible.iter().find(|p| p.id == id).map(|p| p.name.clone());
        let entries: Vec<Entry> = visible
            .iter()
            .map(|product| Entry {
                available: product.available_stock(|id| products.iter().find(|p| p.id == id)),
                contents: product
                    .related_ids
                    .iter()
                    .filter_map(|id| name_of(*id))
                    .collect(),
                terms: analyzer.stems(&product.name),
                compact: tokens(&product.name).concat(),
                product: (*product).clone(),
            })
            .collect();
        CatalogIndex { entries }
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The catalog-wide facts in `language`, in the same order in every language.
    pub fn facts(&self, language: Language) -> Vec<Fact> {
        catalog_facts(&self.entries, &texts(language).catalog)
    }

    /// The products `question` names: whole names (with typos, plurals, "trex" for "T-Rex"),
    /// names missing one word ("dino bundle"), or, failing those, a last name word shared by a
    /// few products ("fox").
    pub fn find(&self, question: &str, analyzer: &Analyzer) -> Option<Found> {
        let raw = tokens(question);
        let stems: Vec<String> = raw.iter().map(|t| analyzer.stem(t)).collect();
        let candidates: Vec<Candidate> = self
            .entries
            .iter()
            .enumerate()
            .filter_map(|(index, entry)| match_entry(index, entry, &raw, &stems))
            .collect();

        let strong: Vec<&Candidate> = candidates.iter().filter(|c| c.strong).collect();
        // "rainbow raccoon" names the Rainbow Raccoon, not also the Raccoon
        let kept: Vec<&Candidate> = strong
            .iter()
            .filter(|c| {
                !strong.iter().any(|other| {
                    other.positions.len() > c.positions.len()
                        && c.positions.is_subset(&other.positions)
                })
            })
            .copied()
            .collect();
        if !kept.is_empty() {
            return Some(found(&kept, false));
        }
        let heads: Vec<&Candidate> = candidates.iter().filter(|c| c.head_only).collect();
        if !heads.is_empty() && heads.len() <= 3 {
            return Some(found(&heads, true));
        }
        None
    }
}

fn found(candidates: &[&Candidate], ambiguous: bool) -> Found {
    Found {
        products: candidates.iter().map(|c| c.entry).collect(),
        positions: candidates
            .iter()
            .flat_map(|c| c.positions.iter().copied())
            .collect(),
        ambiguous,
    }
}

fn is_number(term: &str) -> bool {
    term.bytes().all(|b| b.is_ascii_digit())
}

/// Whether a question word is a name word: the same, or a small typo in a longer word.
fn same_word(asked: &str, name: &str) -> bool {
    if asked == name {
        return true;
    }
    if is_number(asked) || is_number(name) || asked.len() < 4 {
        return false;
    }
    let distance = edit_distance(asked, name);
    (name.len() >= 5 && distance <= 1) || (name.len() >= 9 && distance <= 2)
}

fn match_entry(index: usize, entry: &Entry, raw: &[String], stems: &[String]) -> Option<Candidate> {
    // the whole name written as one word or a few ("trex", "t rex", "dragon fly", "raccoons")
    for width in 1..=3.min(raw.len()) {
        for start in 0..=raw.len() - width {
            let joined = raw[start..start + width].concat();
            let singular = joined
                .strip_suffix("es")
                .filter(|_| !entry.compact.ends_with('e'))
                .or_else(|| joined.strip_suffix('s'))
                .unwrap_or(&joined);
            let close = |text: &str| {
                text == entry.compact
                    || (entry.compact.len() >= 6
                        && !entry.compact.bytes().any(|b| b.is_ascii_digit())
                        && edit_distance(text, &entry.compact) <= 1)
            };
            if close(&joined) || close(singular) {
                return Some(Candidate {
                    entry: index,
                    positions: (start..start + width).collect(),
                    strong: true,
                    head_only: false,
                });
            }
        }
    }
    // word by word
    let mut positions = BTreeSet::new();
    let mut missing: Vec<&String> = vec![];
    let mut matched_distinctive = 0;
    for term in &entry.terms {
        match stems.iter().position(|asked| same_word(asked, term)) {
            Some(position) => {
                positions.insert(position);
                if !GENERIC_NAME_TERMS.contains(&term.as_str()) {
                    matched_distinctive += 1;
                }
            }
            None => missing.push(term),
        }
    }
    if positions.is_empty() {
        return None;
    }
    let whole = missing.is_empty() && matched_distinctive > 0
        || missing.is_empty()
            && entry
                .terms
                .iter()
                .all(|t| GENERIC_NAME_TERMS.contains(&t.as_str()));
    let nearly = entry.terms.len() >= 3
        && missing.len() == 1
        && !is_number(missing[0])
        && matched_distinctive >= 1;
    let last = entry.terms.last();
    let head_only = !whole
        && !nearly
        && entry.terms.len() >= 2
        && positions.len() == 1
        && last.is_some_and(|l| {
            !GENERIC_NAME_TERMS.contains(&l.as_str()) && !missing.contains(&l) && !is_number(l)
        });
    (whole || nearly || head_only).then_some(Candidate {
        entry: index,
        positions,
        strong: whole || nearly,
        head_only,
    })
}

/// "The Raccoon", "10 Billion Sheckles" (a name that starts with a number takes no article).
pub fn display_name(name: &str, t: &CatalogTexts) -> String {
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name.to_owned()
    } else {
        fill(&t.the_name, &[("name", name)])
    }
}

/// One sentence with the price and stock: "The Raccoon costs $24.99 (usually $34.99) and 6 are
/// in stock."
pub fn price_and_stock(entry: &Entry, t: &CatalogTexts) -> String {
    let product = &entry.product;
    let the_name = display_name(&product.name, t);
    let usually = product
        .savings
        .filter(|original| *original > product.price)
        .map(|original| fill(&t.usually, &[("price", &original.to_string())]))
        .unwrap_or_default();
    let (template, count) = match entry.available {
        Stock::Unlimited => (&t.always_in_stock, 0),
        Stock::Finite(0) => (&t.out_of_stock, 0),
        Stock::Finite(1) => (&t.one_in_stock, 1),
        Stock::Finite(n) => (&t.many_in_stock, n),
    };
    fill(
        template,
        &[
            ("the_name", &the_name),
            ("name", &product.name),
            ("price", &product.price.to_string()),
            ("usually", &usually),
            ("count", &count.to_string()),
        ],
    )
}

/// "It contains Bunny, Golden Lab, Owl and Hedgehog."
pub fn contents_sentence(entry: &Entry, t: &CatalogTexts) -> Option<String> {
    (!entry.contents.is_empty())
        .then(|| fill(&t.contains, &[("names", &join_names(&entry.contents, t))]))
}

pub fn dupe_sentence(entry: &Entry, t: &CatalogTexts) -> String {
    let template = if entry.product.dupe_warning {
        &t.dupe_warning
    } else {
        &t.no_dupe_warning
    };
    fill(template, &[("name", &entry.product.name)])
}

/// "A, B and C", with the language's "and".
pub fn join_names(names: &[String], t: &CatalogTexts) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} {} {last}", init.join(", "), t.and),
    }
}

fn priced_list(entries: &[&Entry], t: &CatalogTexts) -> String {
    let names: Vec<String> = entries
        .iter()
        .map(|e| {
            let sold_out = if e.available.is_out() {
                t.out_of_stock_mark.as_str()
            } else {
                ""
            };
            format!("{} ({}{sold_out})", e.product.name, e.product.price)
        })
        .collect();
    join_names(&names, t)
}

fn in_category(entry: &Entry, category: &str) -> bool {
    catalog::in_category(&entry.product, category)
}

fn catalog_facts(entries: &[Entry], t: &CatalogTexts) -> Vec<Fact> {
    let mut by_price: Vec<&Entry> = entries.iter().collect();
    by_price.sort_by_key(|e| e.product.price);
    let bundles: Vec<&Entry> = by_price
        .iter()
        .copied()
        .filter(|e| e.product.is_bundle())
        .collect();
    let categories = categories_of(entries);
    let mut facts = vec![bundles_fact(&bundles, t)];
    facts.extend(
        categories
            .iter()
            .map(|category| category_fact(category, &by_price, t)),
    );
    facts.push(sold_out_fact(entries, t));
    facts.extend(price_facts(&by_price, t));
    facts.push(overview_fact(
        entries.len(),
        &categories,
        !bundles.is_empty(),
        t,
    ));
    facts
}

/// Which bundles there are (cheapest first), with what each holds.
fn bundles_fact(bundles: &[&Entry], t: &CatalogTexts) -> Fact {
    let answer = if bundles.is_empty() {
        t.no_bundles.clone()
    } else {
        let lines: Vec<String> = bundles
            .iter()
            .map(|e| {
                let sold_out = if e.available.is_out() {
                    t.out_of_stock_mark.as_str()
                } else {
                    ""
                };
                format!(
                    "{} ({}{sold_out}): {}",
                    e.product.name,
                    e.product.price,
                    join_names(&e.contents, t)
                )
            })
            .collect();
        fill(&t.bundles, &[("list", &lines.join("; "))])
    };
    Fact {
        id: "catalog-bundles".into(),
        asked_as: t.bundles_asked_as.clone(),
        answer,
    }
}

/// The catalog's categories, each once (whatever its case), in the order first met; bundles
/// have a fact of their own.
fn categories_of(entries: &[Entry]) -> Vec<String> {
    let mut categories: Vec<String> = vec![];
    for entry in entries {
        for category in entry.product.category.split(',') {
            let category = category.trim();
            if !category.is_empty()
                && !category.eq_ignore_ascii_case("bundles")
                && !categories.iter().any(|c| c.eq_ignore_ascii_case(category))
            {
                categories.push(category.to_owned());
            }
        }
    }
    categories
}

/// A category as `t`'s language names it: its translation, else as the catalog writes it.
fn category_name<'a>(category: &'a str, t: &'a CatalogTexts) -> &'a str {
    t.categories
        .get(&category.to_lowercase())
        .map_or(category, String::as_str)
}

/// What the shop sells in `category`, cheapest first.
fn category_fact(category: &str, by_price: &[&Entry], t: &CatalogTexts) -> Fact {
    let members: Vec<&Entry> = by_price
        .iter()
        .copied()
        .filter(|e| in_category(e, category))
        .collect();
    Fact {
        id: format!("catalog-category-{}", category.to_lowercase()),
        // asked by the catalog's name and by the language's
        asked_as: [category, category_name(category, t)]
            .iter()
            .collect::<BTreeSet<_>>()
            .iter()
            .map(|name| fill(&t.category_asked_as, &[("category", name)]))
            .collect::<Vec<_>>()
            .join(" "),
        answer: fill(
            &t.category,
            &[
                ("category", category_name(category, t)),
                ("list", &priced_list(&members, t)),
            ],
        ),
    }
}

/// What is sold out now.
fn sold_out_fact(entries: &[Entry], t: &CatalogTexts) -> Fact {
    let sold_out: Vec<&Entry> = entries.iter().filter(|e| e.available.is_out()).collect();
    Fact {
        id: "catalog-sold-out".into(),
        asked_as: t.sold_out_asked_as.clone(),
        answer: if sold_out.is_empty() {
            t.all_in_stock.clone()
        } else {
            let names: Vec<String> = sold_out.iter().map(|e| e.product.name.clone()).collect();
            fill(&t.sold_out, &[("names", &join_names(&names, t))])
        },
    }
}

/// The cheapest and the dearest item; none for an empty catalog.
fn price_facts(by_price: &[&Entry], t: &CatalogTexts) -> Vec<Fact> {
    let (Some(cheapest), Some(dearest)) = (by_price.first(), by_price.last()) else {
        return vec![];
    };
    vec![
        Fact {
            id: "catalog-cheapest".into(),
            asked_as: t.cheapest_asked_as.clone(),
            answer: fill(
                &t.cheapest,
                &[
                    ("name", &cheapest.product.name),
                    ("price", &cheapest.product.price.to_string()),
                ],
            ),
        },
        Fact {
            id: "catalog-dearest".into(),
            asked_as: t.dearest_asked_as.clone(),
            answer: fill(
                &t.dearest,
                &[
                    ("name", &dearest.product.name),
                    ("price", &dearest.product.price.to_string()),
                ],
            ),
        },
    ]
}

/// What the shop sells, by category (and bundles, when there are any).
/// The categories are written lowercase unless the language names them otherwise.
fn overview_fact(products: usize, categories: &[String], bundles: bool, t: &CatalogTexts) -> Fact {
    let mut shown: Vec<String> = categories.iter().map(|c| c.to_lowercase()).collect();
    if bundles {
        shown.push("bundles".into());
    }
    let shown: Vec<String> = shown
        .iter()
        .map(|c| category_name(c, t).to_owned())
        .collect();
    Fact {
        id: "catalog-overview".into(),
        asked_as: t.overview_asked_as.clone(),
        answer: fill(
            &t.overview,
            &[
                ("count", &products.to_string()),
                ("categories", &join_names(&shown, t)),
            ],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cart_pricing::Money;

    fn product(id: i64, name: &str, price: &str, stock: Stock, category: &str) -> Product {
        Product {
            max_per_account: None,
            release_at: None,
            id: ProductId::new(id),
            name: name.into(),
            description: format!("About the {name}."),
            price: Money::parse(price).unwrap(),
            category: category.into(),
            image: None,
            stock,
            weight: None,
            mutation: None,
            savings: None,
            sort_order: None,
            delete_after_out_of_stock: false,
            related_ids: vec![],
            dupe_warning: false,
            archived: false,
        }
    }

    fn index() -> (CatalogIndex, Analyzer) {
        let analyzer = Analyzer::default();
        let products = vec![
            product(3, "Raccoon", "24.99", Stock::Finite(6), "Pets"),
            product(
                25,
                "Rainbow Raccoon",
                "39.99",
                Stock::Finite(2),
                "Pets, Exclusives",
            ),
            product(10, "T-Rex", "17.99", Stock::Finite(0), "Pets"),
            product(4, "Red Fox", "9.99", Stock::Finite(9), "Pets"),
            product(8, "Fennec Fox", "15.99", Stock::Finite(8), "Pets"),
            product(12, "Owl", "4.99", Stock::Finite(12), "Pets"),
            product(13, "Night Owl", "6.49", Stock::Finite(10), "Pets"),
            product(
                19,
                "10 Billion Sheckles",
                "2.99",
                Stock::Unlimited,
                "Sheckles",
            ),
            product(
                20,
                "100 Billion Sheckles",
                "6.99",
                Stock::Unlimited,
                "Sheckles",
            ),
            product(9, "Spinosaurus", "16.99", Stock::Finite(5), "Pets"),
            product(11, "Brontosaurus", "13.49", Stock::Finite(1), "Pets"),
            Product {
                related_ids: vec![ProductId::new(9), ProductId::new(11)],
                ..product(27, "Dino Duo Bundle", "24.99", Stock::Finite(4), "Bundles")
            },
            Product {
                archived: true,
                ..product(57, "Golden Dragonfly", "34.99", Stock::Finite(0), "Pets")
            },
        ];
        (CatalogIndex::build(&products, &analyzer), analyzer)
    }

    fn english_texts() -> &'static CatalogTexts {
        &texts(Language::English).catalog
    }

    fn english(sentence: fn(&Entry, &CatalogTexts) -> String, entry: &Entry) -> String {
        sentence(entry, english_texts())
    }

    fn names(question: &str) -> Vec<String> {
        let (index, analyzer) = index();
        index
            .find(question, &analyzer)
            .map(|f| {
                f.products
                    .iter()
                    .map(|i| index.entries()[*i].product.name.clone())
                    .collect()
            })
            .unwrap_or_default()
    }

    #[test]
    fn names_are_found_with_typos_plurals_and_odd_spellings() {
        assert_eq!(names("how much is the raccoon"), ["Raccoon"]);
        assert_eq!(names("do you have racoons?"), ["Raccoon"]);
        assert_eq!(names("is trex in stock"), ["T-Rex"]);
        assert_eq!(names("is the T Rex available"), ["T-Rex"]);
        assert_eq!(names("t-rex price"), ["T-Rex"]);
        assert_eq!(names("price of a fenec fox"), ["Fennec Fox"]);
    }

    #[test]
    fn the_longest_name_wins() {
        assert_eq!(names("rainbow raccoon price"), ["Rainbow Raccoon"]);
        assert_eq!(names("night owl"), ["Night Owl"]);
        assert_eq!(names("an owl please"), ["Owl"]);
    }

    #[test]
    fn numbers_must_match_exactly() {
        assert_eq!(names("100 billion sheckles"), ["100 Billion Sheckles"]);
        assert_eq!(names("10 billion sheckles"), ["10 Billion Sheckles"]);
        assert_eq!(names("10 billion"), ["10 Billion Sheckles"]);
        assert!(names("5 billion sheckles").is_empty());
    }

    #[test]
    fn a_name_missing_one_word_still_counts_but_generic_words_alone_do_not() {
        assert_eq!(names("what is in the dino bundle"), ["Dino Duo Bundle"]);
        assert!(names("what bundles do you have").is_empty());
        assert!(names("how do I grow my garden").is_empty());
    }

    #[test]
    fn a_shared_last_word_names_the_few_products_that_have_it() {
        let (index, analyzer) = index();
        let found = index.find("how much is the fox", &analyzer).unwrap();
        assert!(found.ambiguous);
        assert_eq!(found.products.len(), 2);
    }

    #[test]
    fn archived_products_are_unknown() {
        assert!(names("golden dragonfly").is_empty());
    }

    #[test]
    fn templates_state_price_and_stock() {
        let (index, _) = index();
        let entry = |name: &str| {
            index
                .entries()
                .iter()
                .find(|e| e.product.name == name)
                .unwrap()
        };
        assert_eq!(
            english(price_and_stock, entry("Raccoon")),
            "The Raccoon costs $24.99 and 6 are in stock."
        );
        assert_eq!(
            english(price_and_stock, entry("T-Rex")),
            "The T-Rex costs $17.99, but it is out of stock right now."
        );
        assert_eq!(
            english(price_and_stock, entry("10 Billion Sheckles")),
            "10 Billion Sheckles costs $2.99 and is always in stock."
        );
        // the bundle is limited by the Brontosaurus (1 left)
        assert_eq!(
            english(price_and_stock, entry("Dino Duo Bundle")),
            "The Dino Duo Bundle costs $24.99 and 1 is in stock."
        );
        assert_eq!(
            contents_sentence(entry("Dino Duo Bundle"), english_texts()).unwrap(),
            "It contains Spinosaurus and Brontosaurus."
        );
    }

    #[test]
    fn catalog_facts_list_bundles_categories_and_what_is_sold_out() {
        let (index, _) = index();
        let fact = |id: &str| {
            index
                .facts(Language::English)
                .into_iter()
                .find(|f| f.id == id)
                .unwrap()
                .answer
        };
        assert_eq!(
            fact("catalog-bundles"),
            "Our bundles: Dino Duo Bundle ($24.99): Spinosaurus and Brontosaurus."
        );
        assert!(fact("catalog-sold-out").contains("T-Rex"));
        assert!(fact("catalog-category-sheckles").contains("10 Billion Sheckles ($2.99)"));
        assert!(fact("catalog-cheapest").contains("10 Billion Sheckles"));
    }
}
