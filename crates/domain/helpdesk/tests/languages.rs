//! The assistant answers in the asker's language: the same questions, asked in each language
//! (the question sets of every language are the English ones, in the same order), get answers
//! in that language, never the English answer or its English sentences.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use chat::{Asker, ChatMessage, MessageId, SenderType};
use garden_helpdesk::{BuiltinAssistant, ShopFacts};
use serde::Deserialize;
use shared::Language;

#[derive(Deserialize)]
struct QuestionSet {
    question: Vec<Question>,
}

#[derive(Deserialize)]
struct Question {
    ask: String,
    after: Option<String>,
}

/// Sentences only the English answers have (the live-agent button, the order page, stock).
const ENGLISH_ONLY: &[&str] = &[
    "Talk to Live Agent",
    "order page",
    "are in stock",
    "is in stock",
    "out of stock right now",
    "usually takes under",
    "I'm not sure",
    "Press ",
];

fn questions(language: Language) -> Vec<Question> {
    let source = match language {
        Language::English => include_str!("questions.toml"),
        Language::Spanish => include_str!("es/questions.toml"),
        Language::BrazilianPortuguese => include_str!("pt-BR/questions.toml"),
        Language::French => include_str!("fr/questions.toml"),
        Language::German => include_str!("de/questions.toml"),
    };
    toml::from_str::<QuestionSet>(source).unwrap().question
}

fn ask(assistant: &BuiltinAssistant, question: &Question, language: Language) -> String {
    let context: Vec<ChatMessage> = question
        .after
        .iter()
        .map(|text| ChatMessage {
            id: MessageId::new(1),
            sender: SenderType::Guest,
            text: text.clone(),
            created_at: chrono::Utc::now(),
        })
        .collect();
    let asker = Asker {
        language,
        ..Asker::default()
    };
    assistant.reply_to(&question.ask, &context, &asker).text
}

#[test]
fn every_question_is_answered_in_the_language_it_is_asked_in() {
    let assistant = BuiltinAssistant::new(&common::demo_catalog(), common::shop_facts());
    let english = questions(Language::English);
    for language in Language::ALL.into_iter().skip(1) {
        let asked = questions(language);
        assert_eq!(asked.len(), english.len(), "{language}");
        for (own, theirs) in asked.iter().zip(&english) {
            let answer = ask(&assistant, own, language);
            let english_answer = ask(&assistant, theirs, Language::English);
            assert_ne!(answer, english_answer, "{language}: {:?}", own.ask);
            for sentence in ENGLISH_ONLY {
                assert!(
                    !answer.contains(sentence),
                    "{language}: {:?} is answered with English ({sentence:?}): {answer}",
                    own.ask
                );
            }
        }
    }
}

#[test]
fn a_spanish_question_gets_the_spanish_answer_with_the_shops_facts() {
    let assistant = BuiltinAssistant::new(
        &common::demo_catalog(),
        ShopFacts {
            delivery_minutes: 15,
            ..common::shop_facts()
        },
    );
    let spanish = Asker {
        language: Language::Spanish,
        ..Asker::default()
    };
    let answer = assistant.reply_to("¿Cuánto tarda la entrega?", &[], &spanish);
    assert!(answer.confident);
    assert!(
        answer
            .text
            .starts_with("La entrega suele tardar menos de 15 minutos después de pagar"),
        "{}",
        answer.text
    );
    assert!(answer
        .text
        .contains("\n2) Espera a alguien de nuestro equipo: "));
    // the same question in English is answered in English, the same document
    let english = assistant.reply("how long does delivery take", &[]);
    assert!(english
        .text
        .starts_with("Delivery usually takes under 15 minutes"));
}

#[test]
fn a_question_in_english_in_another_languages_chat_is_answered_in_that_language() {
    let assistant = BuiltinAssistant::new(&common::demo_catalog(), common::shop_facts());
    let german = Asker {
        language: Language::German,
        ..Asker::default()
    };
    let answer = assistant.reply_to("can I pay with paypal", &[], &german);
    assert!(answer.confident);
    assert!(
        answer
            .text
            .starts_with("Du zahlst mit Debit- oder Kreditkarte"),
        "{}",
        answer.text
    );
    let unsure = assistant.reply_to("xyzzy plugh", &[], &german);
    assert!(!unsure.confident);
    assert!(
        unsure.text.contains("Mit dem Support chatten"),
        "{}",
        unsure.text
    );
}

#[test]
fn a_follow_up_without_it_is_about_the_product_named_before_unless_it_asks_something_else() {
    let assistant = BuiltinAssistant::new(&common::demo_catalog(), common::shop_facts());
    let earlier = |text: &str| ChatMessage {
        id: MessageId::new(1),
        sender: SenderType::Guest,
        text: text.to_owned(),
        created_at: chrono::Utc::now(),
    };
    let spanish = Asker {
        language: Language::Spanish,
        ..Asker::default()
    };
    let context = [earlier("¿hay T-Rex en stock?")];
    let price = assistant.reply_to("¿y cuánto cuesta?", &context, &spanish);
    assert!(price.text.contains("T-Rex cuesta $17.99"), "{}", price.text);
    let bundles = assistant.reply_to("¿qué packs tienen?", &context, &spanish);
    assert!(
        bundles.text.starts_with("Nuestros packs:"),
        "{}",
        bundles.text
    );
    let context = [earlier("is T-Rex in stock")];
    let bundles = assistant.reply("what bundles do you have", &context);
    assert!(bundles.text.starts_with("Our bundles:"), "{}", bundles.text);
}
