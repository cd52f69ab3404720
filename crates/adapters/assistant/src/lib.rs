//! The help chat's assistants, adapters of [`chat::Assistant`].
//!
//! * [`BuiltinAssistant`] answers offline from the shop's own knowledge (FAQ, how it works,
//!   policies) and the live catalog (price, stock, bundles), through real retrieval: tokens,
//!   English stems, BM25 ranking, product-name matching that forgives typos and plurals, and
//!   templated product facts. When nothing ranks well it offers the live agent. The shop's
//!   facts ([`ShopFacts`]: the delivery promise, the Discord invite) are rendered into its
//!   answers when it answers.
//! * [`OpenAiAssistant`] asks any OpenAI-compatible chat endpoint, grounded with the passages
//!   the built-in assistant retrieves, and falls back to the built-in one on any error or
//!   timeout.
//! * [`ShopAssistant`] is the one the app wires: built-in, or remote when configured.

mod bm25;
mod builtin;
mod catalog;
mod facts;
mod knowledge;
mod openai;
mod script;
mod text;

pub use builtin::{BuiltinAssistant, Passage};
pub use facts::ShopFacts;
pub use openai::{OpenAiAssistant, OpenAiSettings, ShopAssistant};
pub use script::steps as delivery_steps;
