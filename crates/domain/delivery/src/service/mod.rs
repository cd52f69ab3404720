//! The services of delivery: the staff queue and the handoff, the buyer's page and mail, and
//! delivery times with the shop's promise.

mod messages;
mod queue;
mod times;
mod tracking;

pub use messages::{MessageAuthor, OrderMessages};
pub use queue::DeliveryQueue;
pub use times::{last_month, DeliveryTimes};
pub use tracking::OrderTracking;
