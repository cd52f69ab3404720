//! Server push's rules (docs/architecture.md, "Server push"): the topics a browser hears, the
//! event a change publishes (what changed, never the data itself: the browser refetches the
//! call it already polls), the port that publishes it to every instance, and who may see it
//! ([`Viewer::may_see`]). The transport (the event log, `LISTEN/NOTIFY`) is the store's
//! (`store::push`); the stream (`GET /api/events`) is the app's.

mod models;
mod ports;
mod visibility;

pub use models::{topic, ChatChanged, NewPushEvent, OrderMessagePosted, PushEventRow};
pub use ports::EventBus;
pub use visibility::Viewer;
