//! The OpenAI-compatible assistant, grounded with the built-in assistant's retrieval and
//! falling back to it.

use std::time::Duration;

use anyhow::Context;
use catalog::Product;
use chat::{Answer, Asker, Assistant, ChatMessage, MessageText, SenderType};
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use shared::Language;

use helpdesk::{BuiltinAssistant, ShopFacts};

/// How many retrieved passages go into the system prompt.
const GROUNDING_PASSAGES: usize = 5;
/// How many earlier messages the model sees.
const CONTEXT_MESSAGES: usize = 8;
/// The model's reply is cut at this many characters.
const MAX_REPLY_CHARS: usize = 1500;
/// What the model answers when a person should take over.
const HANDOVER: &str = "HANDOVER";

/// Where the OpenAI-compatible endpoint is (configuration section `assistant`).
#[derive(Debug, Clone)]
pub struct OpenAiSettings {
    /// For example `https://api.openai.com/v1`; the adapter posts to
    /// `{api_base}/chat/completions`.
    pub api_base: String,
    pub model: String,
    pub api_key: SecretString,
    /// The whole request, connect to last byte; past it the built-in assistant answers.
    pub timeout: Duration,
}

/// Asks an OpenAI-compatible chat endpoint; on any error or timeout the built-in assistant
/// answers instead.
#[derive(Debug, Clone)]
pub struct OpenAiAssistant {
    client: reqwest::Client,
    settings: OpenAiSettings,
    builtin: BuiltinAssistant,
}

#[derive(Serialize)]
struct ChatRequest<'a> {
    model: &'a str,
    messages: Vec<RequestMessage>,
    temperature: f32,
}

#[derive(Serialize)]
struct RequestMessage {
    role: &'static str,
    content: String,
}

#[derive(Deserialize)]
struct ChatResponse {
    choices: Vec<Choice>,
}

#[derive(Deserialize)]
struct Choice {
    message: ResponseMessage,
}

#[derive(Deserialize)]
struct ResponseMessage {
    content: Option<String>,
}

impl OpenAiAssistant {
    /// Fails only when the HTTP client cannot be built.
    pub fn new(settings: OpenAiSettings, builtin: BuiltinAssistant) -> anyhow::Result<Self> {
        let client = reqwest::Client::builder()
            .timeout(settings.timeout)
            .build()
            .context("failed to build the assistant's HTTP client")?;
        Ok(OpenAiAssistant {
            client,
            settings,
            builtin,
        })
    }

    pub fn builtin(&self) -> &BuiltinAssistant {
        &self.builtin
    }

    /// The instructions, with the passages in the asker's language that best fit the question:
    /// the model answers in that language (the chat's), grounded in them.
    fn system_prompt(&self, question: &str, context: &[ChatMessage], asker: &Asker) -> String {
        let passages = self
            .builtin
            .passages(question, context, asker, GROUNDING_PASSAGES);
        let language = language_name(asker.language);
        let mut prompt = format!(
            "You are the help chat assistant of Garden Shop, a shop selling pets, Sheckles, \
             bundles and exclusives for the Roblox game Grow a Garden. Always answer in \
             {language} (language code {code}), the language the shopper's chat is shown in, \
             whatever language the question is in, in one to three short, friendly sentences \
             for a young gamer (address them informally), using only the facts below; keep \
             brand and product names as they are written there, and never invent prices, stock \
             or policies. If the facts do not answer the question, or the shopper needs someone \
             to look at their own order or payment, reply with exactly HANDOVER.\n\nFacts \
             (in {language}):\n",
            code = asker.language.code(),
        );
        for passage in passages {
            prompt.push_str("- ");
            prompt.push_str(&passage.text);
            prompt.push('\n');
        }
        prompt
    }

    #[tracing::instrument(skip_all)]
    async fn ask(
        &self,
        question: &str,
        context: &[ChatMessage],
        asker: &Asker,
    ) -> anyhow::Result<Answer> {
        let mut messages = vec![RequestMessage {
            role: "system",
            content: self.system_prompt(question, context, asker),
        }];
        let earlier = &context[context.len().saturating_sub(CONTEXT_MESSAGES)..];
        messages.extend(earlier.iter().filter_map(|m| {
            let role = match m.sender {
                SenderType::User | SenderType::Guest => "user",
                SenderType::Bot | SenderType::Admin | SenderType::SuperAdmin => "assistant",
                SenderType::System => return None,
            };
            Some(RequestMessage {
                role,
                content: m.text.clone(),
            })
        }));
        messages.push(RequestMessage {
            role: "user",
            content: question.to_owned(),
        });
        let url = format!(
            "{}/chat/completions",
            self.settings.api_base.trim_end_matches('/')
        );
        let response: ChatResponse = self
            .client
            .post(&url)
            .bearer_auth(self.settings.api_key.expose_secret())
            .json(&ChatRequest {
                model: &self.settings.model,
                messages,
                temperature: 0.2,
            })
            .send()
            .await
            .context("the assistant endpoint could not be reached")?
            .error_for_status()
            .context("the assistant endpoint answered with an error")?
            .json()
            .await
            .context("the assistant endpoint's answer could not be read")?;
        let text = response
            .choices
            .into_iter()
            .next()
            .and_then(|c| c.message.content)
            .map(|t| t.trim().to_owned())
            .filter(|t| !t.is_empty())
            .context("the assistant endpoint answered with no text")?;
        if text.starts_with(HANDOVER) {
            return Ok(self.builtin.not_sure(asker.language));
        }
        Ok(Answer::confident(
            text.chars().take(MAX_REPLY_CHARS).collect::<String>(),
        ))
    }
}

impl Assistant for OpenAiAssistant {
    async fn answer(
        &self,
        question: &MessageText,
        context: &[ChatMessage],
        asker: &Asker,
    ) -> Answer {
        match self.ask(question.as_ref(), context, asker).await {
            Ok(answer) => answer,
            Err(error) => {
                tracing::warn!(
                    error = format!("{error:#}"),
                    "the remote assistant failed; the built-in one answers"
                );
                self.builtin.reply_to(question.as_ref(), context, asker)
            }
        }
    }
}

/// The language's name as the model is told it.
fn language_name(language: Language) -> &'static str {
    match language {
        Language::English => "English",
        Language::Spanish => "Spanish",
        Language::BrazilianPortuguese => "Brazilian Portuguese",
        Language::French => "French",
        Language::German => "German",
    }
}

/// The assistant the shop runs: the built-in one, or the remote one when configured.
#[derive(Debug, Clone)]
pub enum ShopAssistant {
    Builtin(BuiltinAssistant),
    Remote(OpenAiAssistant),
}

impl ShopAssistant {
    /// The remote assistant when `remote` is given, the built-in one otherwise; both state
    /// `facts` until [`ShopAssistant::update_facts`] gives others.
    pub fn new(
        remote: Option<OpenAiSettings>,
        products: &[Product],
        facts: ShopFacts,
    ) -> anyhow::Result<Self> {
        let builtin = BuiltinAssistant::new(products, facts);
        Ok(match remote {
            Some(settings) => ShopAssistant::Remote(OpenAiAssistant::new(settings, builtin)?),
            None => ShopAssistant::Builtin(builtin),
        })
    }

    /// The built-in assistant (the remote one's fallback).
    pub fn builtin(&self) -> &BuiltinAssistant {
        match self {
            ShopAssistant::Builtin(builtin) => builtin,
            ShopAssistant::Remote(remote) => remote.builtin(),
        }
    }

    /// Replaces the catalog both answer from; call it whenever the products change.
    pub fn update_catalog(&self, products: &[Product]) {
        self.builtin().update_catalog(products);
    }

    /// Replaces the shop's facts both answer with (the remote one is grounded with them).
    pub fn update_facts(&self, facts: ShopFacts) {
        self.builtin().update_facts(facts);
    }
}

impl Assistant for ShopAssistant {
    async fn answer(
        &self,
        question: &MessageText,
        context: &[ChatMessage],
        asker: &Asker,
    ) -> Answer {
        match self {
            ShopAssistant::Builtin(builtin) => builtin.answer(question, context, asker).await,
            ShopAssistant::Remote(remote) => remote.answer(question, context, asker).await,
        }
    }
}
