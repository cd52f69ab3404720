//! The shop's own knowledge, written as documents: the ways shoppers ask, and the answer, in
//! every language (`lang/*.toml`, see [`crate::texts`]). The texts follow the FAQ, How it works,
//! About, Refund Policy, Terms and Privacy pages, and the handoff as the shop runs it (receipt,
//! order page, claim, private server, "I'm in the game", delivered). Answers are templates (see
//! [`crate::facts`]): the delivery promise and the Discord invite are the shop's facts at answer
//! time, never written here.

use shared::Language;

use crate::texts::texts;

/// One piece of the shop's knowledge, in one language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Document {
    pub id: &'static str,
    /// How shoppers ask about it, and the words they use: indexed with the answer.
    pub asked_as: &'static str,
    /// A template: see [`crate::facts::render_for`].
    pub answer: &'static str,
    /// A person has to look at it (an order of this shopper's): the answer offers the live
    /// agent and is not confident.
    pub needs_person: bool,
}

/// The documents, by id, and whether each needs a person; every language's file has each.
pub const DOCUMENTS: &[(&str, bool)] = &[
    ("greeting", false),
    ("thanks", false),
    ("payment-methods", false),
    ("fees", false),
    ("currency", false),
    ("delivery-time", false),
    ("after-paying", false),
    ("where-is-my-order", false),
    ("discord", false),
    ("private-server", false),
    ("how-to-buy", false),
    ("refunds", false),
    ("refund-time", false),
    ("safety", false),
    ("password", false),
    ("accounts", false),
    ("forgot-password", false),
    ("verification-code", false),
    ("promo-codes", false),
    ("dupe-warning", false),
    ("affiliation", false),
    ("age", false),
    ("details", false),
    ("about", false),
    ("privacy", false),
    ("mutation-weight", false),
    ("sheckles-meaning", false),
    ("live-agent", true),
    ("order-problem", true),
];

/// The knowledge in `language`, in the order of [`DOCUMENTS`]. A document a language's file
/// lacks is told in English (the tests make sure none is lacking).
pub fn documents(language: Language) -> Vec<Document> {
    let own = &texts(language).documents;
    let english = &texts(Language::English).documents;
    DOCUMENTS
        .iter()
        .filter_map(|(id, needs_person)| {
            let text = own.get(*id).or_else(|| english.get(*id))?;
            Some(Document {
                id,
                asked_as: &text.asked_as,
                answer: &text.answer,
                needs_person: *needs_person,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::facts::{render_for, ShopFacts};

    fn every_setup() -> Vec<ShopFacts> {
        let invite = Some("https://discord.gg/gardenshop".to_owned());
        [
            (invite.clone(), true),
            (invite, false),
            (None, true),
            (None, false),
        ]
        .into_iter()
        .map(|(discord_invite, discord_tickets)| ShopFacts {
            delivery_minutes: 25,
            discord_invite,
            discord_tickets,
        })
        .collect()
    }

    /// The template's directives in order: `{minutes}`, `{if invite}`, `{end}`, …
    fn directives(template: &str) -> Vec<&str> {
        template
            .split('{')
            .skip(1)
            .filter_map(|part| part.split_once('}').map(|(directive, _)| directive))
            .collect()
    }

    #[test]
    fn every_document_has_every_language_with_the_same_template() {
        for language in Language::ALL {
            let own = &texts(language).documents;
            let english = &texts(Language::English).documents;
            for (id, _) in DOCUMENTS {
                let text = own.get(*id);
                assert!(text.is_some(), "{language} lacks the document {id}");
                let text = text.unwrap();
                assert!(!text.asked_as.trim().is_empty(), "{language}: {id}");
                assert_eq!(
                    directives(&text.answer),
                    directives(&english[*id].answer),
                    "{language}: {id}: the same placeholders and blocks, in the same order"
                );
            }
            for id in own.keys() {
                assert!(
                    DOCUMENTS.iter().any(|(known, _)| known == id),
                    "{language} has {id}, a document the knowledge does not know"
                );
            }
            if language != Language::English {
                for (id, text) in own {
                    assert_ne!(text.answer, english[id].answer, "{language}: {id}");
                }
            }
        }
    }

    #[test]
    fn no_answer_hard_codes_a_delivery_time() {
        for language in Language::ALL {
            for document in documents(language) {
                assert!(
                    !document.answer.to_lowercase().contains("10 min"),
                    "{language}: {}",
                    document.id
                );
            }
            let delivery = documents(language)
                .into_iter()
                .find(|d| d.id == "delivery-time")
                .unwrap();
            let answer = delivery.answer.to_lowercase();
            assert!(answer.contains("{minutes} min"), "{language}");
        }
    }

    #[test]
    fn every_answer_renders_cleanly_for_every_setup_in_every_language() {
        let order = chat::AskerOrder {
            number: 7,
            status: "Paid".to_owned(),
            link: "https://shop.example/orders/7".to_owned(),
        };
        let askers = [vec![], vec![order.clone()], vec![order.clone(), order]];
        for (language, facts) in Language::ALL
            .into_iter()
            .flat_map(|language| every_setup().into_iter().map(move |f| (language, f)))
        {
            for (document, orders) in documents(language)
                .into_iter()
                .flat_map(|d| askers.iter().map(move |orders| (d, orders)))
            {
                let text = render_for(document.answer, &facts, orders, language);
                let id = document.id;
                let case = format!("{language} {id} ({facts:?}): {text}");
                assert!(!text.contains(['{', '}']), "{case}");
                assert!(!text.contains("  "), "{case}");
                assert!(!text.contains(" ."), "{case}");
                assert!(!text.contains(" ,"), "{case}");
                if facts.discord_invite.is_none() {
                    assert!(!text.contains("discord.gg"), "{case}");
                }
                if language != Language::English {
                    continue;
                }
                let lower = text.to_lowercase();
                match &facts.discord_invite {
                    // every sentence about the server carries its link
                    Some(invite) => assert!(
                        !lower.contains("discord server") || text.contains(invite.as_str()),
                        "{case}"
                    ),
                    // and without one, the server is not where buyers are sent
                    None => assert!(
                        !lower.contains("discord server") && !lower.contains("open a ticket"),
                        "{case}"
                    ),
                }
            }
        }
    }

    #[test]
    fn document_ids_are_unique() {
        let mut ids: Vec<&str> = DOCUMENTS.iter().map(|(id, _)| *id).collect();
        ids.sort_unstable();
        let before = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), before);
    }
}
