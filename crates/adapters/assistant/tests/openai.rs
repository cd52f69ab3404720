//! The OpenAI-compatible assistant against a fake endpoint.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../../domain/helpdesk/tests/common/mod.rs"]
mod common;

use std::time::Duration;

use chat::{Asker, Assistant, MessageText};
use garden_assistant::{OpenAiAssistant, OpenAiSettings, ShopAssistant};
use helpdesk::{BuiltinAssistant, ShopFacts};
use shared::Language;
use wiremock::matchers::{bearer_token, body_string_contains, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn settings(server: &MockServer, timeout_ms: u64) -> OpenAiSettings {
    OpenAiSettings {
        api_base: format!("{}/v1", server.uri()),
        model: "shop-model".into(),
        api_key: "sk-test".to_owned().into(),
        timeout: Duration::from_millis(timeout_ms),
    }
}

fn assistant(server: &MockServer, timeout_ms: u64) -> OpenAiAssistant {
    OpenAiAssistant::new(
        settings(server, timeout_ms),
        BuiltinAssistant::new(&common::demo_catalog(), common::shop_facts()),
    )
    .unwrap()
}

fn completion(text: &str) -> serde_json::Value {
    serde_json::json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]
    })
}

fn question(text: &str) -> MessageText {
    MessageText::parse(text).unwrap()
}

#[tokio::test]
async fn the_endpoint_answers_grounded_with_the_shops_facts() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .and(bearer_token("sk-test"))
        .and(body_string_contains("\"model\":\"shop-model\""))
        // the retrieved product facts are in the system prompt
        .and(body_string_contains("The Raccoon costs $24.99"))
        .and(body_string_contains("how much is the raccoon?"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(completion("The Raccoon is $24.99 and we have 6 right now!")),
        )
        .expect(1)
        .mount(&server)
        .await;
    let answer = assistant(&server, 2_000)
        .answer(
            &question("how much is the raccoon?"),
            &[],
            &Asker::default(),
        )
        .await;
    assert!(answer.confident);
    assert_eq!(
        answer.text,
        "The Raccoon is $24.99 and we have 6 right now!"
    );
}

#[tokio::test]
async fn the_model_is_grounded_with_the_shops_facts_of_the_moment() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(body_string_contains("under 20 minutes"))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion("About 20 minutes.")))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(body_string_contains("under 35 minutes"))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion("About 35 minutes.")))
        .expect(1)
        .mount(&server)
        .await;
    let remote = assistant(&server, 2_000);
    let ask = question("how long does delivery take");
    assert_eq!(
        remote.answer(&ask, &[], &Asker::default()).await.text,
        "About 20 minutes."
    );
    remote.builtin().update_facts(ShopFacts {
        delivery_minutes: 35,
        ..common::shop_facts()
    });
    assert_eq!(
        remote.answer(&ask, &[], &Asker::default()).await.text,
        "About 35 minutes."
    );
}

#[tokio::test]
async fn a_handover_from_the_model_offers_the_live_agent() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion("HANDOVER")))
        .mount(&server)
        .await;
    let answer = assistant(&server, 2_000)
        .answer(
            &question("my order 1234 never arrived"),
            &[],
            &Asker::default(),
        )
        .await;
    assert!(!answer.confident);
    assert!(answer.text.contains("Talk to Live Agent"));
}

async fn falls_back(server: &MockServer, timeout_ms: u64) {
    let ask = question("how long does delivery take");
    let builtin = BuiltinAssistant::new(&common::demo_catalog(), common::shop_facts());
    let expected = builtin.reply(ask.as_ref(), &[]);
    let answer = assistant(server, timeout_ms)
        .answer(&ask, &[], &Asker::default())
        .await;
    assert_eq!(answer, expected);
    assert!(answer.text.contains("under 20 minutes"));
}

#[tokio::test]
async fn a_server_error_falls_back_to_the_builtin_assistant() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500).set_body_string("upstream exploded"))
        .expect(1)
        .mount(&server)
        .await;
    falls_back(&server, 2_000).await;
}

#[tokio::test]
async fn a_slow_endpoint_times_out_and_falls_back() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(completion("too late"))
                .set_delay(Duration::from_secs(3)),
        )
        .mount(&server)
        .await;
    let started = std::time::Instant::now();
    falls_back(&server, 300).await;
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "gave up at the timeout"
    );
}

#[tokio::test]
async fn an_unreadable_or_empty_answer_falls_back() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_string("<html>not json</html>"))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion("   ")))
        .mount(&server)
        .await;
    falls_back(&server, 2_000).await;
    falls_back(&server, 2_000).await;
}

#[tokio::test]
async fn an_unreachable_endpoint_falls_back() {
    let server = MockServer::start().await;
    let settings = settings(&server, 2_000);
    drop(server);
    let remote = OpenAiAssistant::new(
        settings,
        BuiltinAssistant::new(&common::demo_catalog(), common::shop_facts()),
    )
    .unwrap();
    let answer = remote
        .answer(&question("can I pay with paypal"), &[], &Asker::default())
        .await;
    assert!(answer.text.contains("PayPal"));
}

#[tokio::test]
async fn the_shop_assistant_is_builtin_without_settings_and_follows_catalog_updates() {
    let shop = ShopAssistant::new(None, &[], common::shop_facts()).unwrap();
    assert!(matches!(shop, ShopAssistant::Builtin(_)));
    let before = shop
        .answer(&question("how much is the raccoon"), &[], &Asker::default())
        .await;
    assert!(!before.confident, "no products yet: {}", before.text);
    shop.update_catalog(&common::demo_catalog());
    let after = shop
        .answer(&question("how much is the raccoon"), &[], &Asker::default())
        .await;
    assert!(after.confident);
    assert!(after.text.contains("$24.99"));
}

fn asking_in(language: Language) -> Asker {
    Asker {
        language,
        ..Asker::default()
    }
}

#[tokio::test]
async fn the_model_answers_in_the_askers_language_grounded_in_passages_of_that_language() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(body_string_contains(
            "Always answer in Spanish (language code es)",
        ))
        // the product's facts and the shop's documents, in Spanish
        .and(body_string_contains("Raccoon cuesta $24.99"))
        .and(body_string_contains("quedan 6 en stock"))
        .and(body_string_contains("¿cuánto cuesta el raccoon?"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(completion("¡El Raccoon cuesta $24.99 y quedan 6!")),
        )
        .expect(1)
        .mount(&server)
        .await;
    let answer = assistant(&server, 2_000)
        .answer(
            &question("¿cuánto cuesta el raccoon?"),
            &[],
            &asking_in(Language::Spanish),
        )
        .await;
    assert!(answer.confident);
    assert_eq!(answer.text, "¡El Raccoon cuesta $24.99 y quedan 6!");
}

#[tokio::test]
async fn a_handover_offers_the_live_agent_in_the_askers_language() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(body_string_contains(
            "Always answer in Brazilian Portuguese (language code pt-BR)",
        ))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion("HANDOVER")))
        .expect(1)
        .mount(&server)
        .await;
    let answer = assistant(&server, 2_000)
        .answer(
            &question("meu pedido 1234 nunca chegou"),
            &[],
            &asking_in(Language::BrazilianPortuguese),
        )
        .await;
    assert!(!answer.confident);
    assert!(answer.text.contains("Não tenho certeza"), "{}", answer.text);
    assert!(
        answer.text.contains("Falar com um atendente"),
        "{}",
        answer.text
    );
    assert!(
        !answer.text.contains("Talk to Live Agent"),
        "{}",
        answer.text
    );
}

#[tokio::test]
async fn the_fallback_answers_in_the_askers_language() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500).set_body_string("upstream exploded"))
        .expect(1)
        .mount(&server)
        .await;
    let german = asking_in(Language::German);
    let ask = question("wie lange dauert die lieferung");
    let builtin = BuiltinAssistant::new(&common::demo_catalog(), common::shop_facts());
    let expected = builtin.reply_to(ask.as_ref(), &[], &german);
    let answer = assistant(&server, 2_000).answer(&ask, &[], &german).await;
    assert_eq!(answer, expected);
    assert!(
        answer.text.contains("weniger als 20 Minuten"),
        "{}",
        answer.text
    );
}
