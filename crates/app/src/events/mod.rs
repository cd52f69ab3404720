//! Server push, the HTTP side: each browser's stream (`GET /api/events`, `routes::events`)
//! passes on what its viewer may see. The rules (the topics, the event a change publishes,
//! [`Viewer::may_see`]) are the domain's (`events`); the transport (the event log,
//! `LISTEN/NOTIFY`, this instance's broadcast) is the store's (`store::push`), named here for
//! the rest of the app.

pub mod streams;

pub use ::events::{topic, ChatChanged, Viewer};
pub use store::push::{ShopEvents, Transport};
