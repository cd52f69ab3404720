//! The value types of delivery: the queue's orders, the buyer's view and mail, delivery times
//! and the promise.

mod queue;
mod times;
mod tracking;

pub use queue::{QueueFilter, QueuedItem, QueuedOrder};
pub use times::{
    percentile, promise_minutes, report, DeliveredOrder, DeliveryFigures, DeliveryReport,
    DeliveryStep, Spread, PROMISE_MIN_SAMPLES, PROMISE_WINDOW_DAYS, REPORT_DAYS,
};
pub use tracking::{
    timeline, BuyerDelivery, BuyerMail, HandoffSettings, MailJob, MailRound, TimelineStep,
    TrackedOrder, TrackingFacts,
};
