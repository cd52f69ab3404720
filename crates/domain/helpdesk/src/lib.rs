//! The help chat's built-in assistant, [`BuiltinAssistant`] (a [`chat::Assistant`]): it answers
//! in the asker's language ([`chat::Asker::language`]) from the shop's own knowledge (FAQ, how
//! it works, policies) and the live catalog (price, stock, bundles), through real retrieval:
//! tokens with accents folded, each language's Snowball stems and stop words, BM25 ranking,
//! product-name matching that forgives typos and plurals, and templated product facts. Its
//! texts are one file per language (`lang/{code}.toml`, see `texts`). When nothing ranks well
//! it offers the live agent. The shop's facts ([`ShopFacts`]: the delivery promise, the Discord
//! invite) are rendered into its answers when it answers. It reaches nothing outside the
//! process; the remote assistant that grounds itself in its passages is an adapter
//! (`garden-assistant`).

mod bm25;
mod builtin;
mod catalog;
mod facts;
mod knowledge;
mod script;
mod text;
mod texts;

pub use builtin::{BuiltinAssistant, Passage};
pub use facts::ShopFacts;
pub use script::steps as delivery_steps;
