//! The value types of delivery: the queue's orders, the buyer's view and mail, delivery times
//! and the promise.

mod messages;
mod queue;
mod script;
mod times;
mod tracking;

#[cfg(test)]
pub(crate) use queue::fixtures as queue_fixtures;
#[cfg(test)]
pub(crate) use times::fixtures as times_fixtures;

pub use messages::{
    message_limit_key, MessageSettings, MessageSide, MessageText, MessageTextError,
    NewOrderMessage, OrderMessage, MESSAGES_BUCKET,
};
pub use queue::{
    in_queue_order, is_over_promise, QueueFilter, QueuedItem, QueuedOrder, ReleaseReason,
};
pub use script::{
    delivery_script, order_script, HandoffSettings, ScriptKey, ScriptProgress, ScriptStep,
};
pub use times::{
    percentile, promise_minutes, report, DeliveredOrder, DeliveryFigures, DeliveryReport,
    DeliveryStep, Spread, PROMISE_MIN_SAMPLES, PROMISE_WINDOW_DAYS, REPORT_DAYS,
};
pub use tracking::{
    timeline, BuyerDelivery, BuyerMail, MailJob, MailRound, Release, TimelineStep, TrackedOrder,
    TrackingFacts,
};
