//! The help chat's built-in assistant, [`BuiltinAssistant`] (a [`chat::Assistant`]): it answers
//! from the shop's own knowledge (FAQ, how it works, policies) and the live catalog (price,
//! stock, bundles), through real retrieval: tokens, English stems, BM25 ranking, product-name
//! matching that forgives typos and plurals, and templated product facts. When nothing ranks
//! well it offers the live agent. The shop's facts ([`ShopFacts`]: the delivery promise, the
//! Discord invite) are rendered into its answers when it answers. It reaches nothing outside
//! the process; the remote assistant that grounds itself in its passages is an adapter
//! (`garden-assistant`).

mod bm25;
mod builtin;
mod catalog;
mod facts;
mod knowledge;
mod script;
mod text;

pub use builtin::{BuiltinAssistant, Passage};
pub use facts::ShopFacts;
pub use script::steps as delivery_steps;
