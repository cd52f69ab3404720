//! The help chat's remote assistant, an adapter of [`chat::Assistant`]:
//!
//! * [`OpenAiAssistant`] asks any OpenAI-compatible chat endpoint, grounded with the passages
//!   the built-in assistant (`helpdesk::BuiltinAssistant`) retrieves, and falls back to the
//!   built-in one on any error or timeout.
//! * [`ShopAssistant`] is the one the app wires: built-in, or remote when configured.

mod openai;

pub use openai::{OpenAiAssistant, OpenAiSettings, ShopAssistant};
