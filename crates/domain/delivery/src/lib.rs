//! Delivery: the staff queue of paid orders and the handoff in the game (`queue`), what the
//! buyer sees of their order through its link and the mail they get (`tracking`), and delivery
//! times with the shop's promise (`promise`).

mod promise;
mod queue;
mod tracking;

pub use promise::{
    last_month, percentile, promise_minutes, report, DeliveredOrder, DeliveryFigures,
    DeliveryReport, DeliveryStep, DeliveryTimes, DeliveryTimesRepository, Spread,
    PROMISE_MIN_SAMPLES, PROMISE_WINDOW_DAYS, REPORT_DAYS,
};
pub use queue::{
    DeliveryQueue, DeliveryRepository, QueueError, QueueFilter, QueuedItem, QueuedOrder,
};
pub use tracking::{
    timeline, BuyerDelivery, BuyerMail, BuyerMailer, HandoffSettings, MailJob, MailRound,
    OrderTracking, TimelineStep, TrackedOrder, TrackingFacts, TrackingRepository,
};
