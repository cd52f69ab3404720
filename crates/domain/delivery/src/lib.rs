//! Delivery: the staff queue of paid orders and the handoff in the game (`DeliveryQueue`), what
//! the buyer sees of their order through its link and the mail they get (`OrderTracking`), and
//! delivery times with the shop's promise (`DeliveryTimes`), and the line between an order's
//! buyer and the staff on the order page (`OrderMessages`).

mod error;
mod models;
mod ports;
mod service;

pub use error::{MessageError, MessagesClosed, QueueError, ReadyRefusal, ReceivedRefusal};
pub use models::{
    delivery_script, in_queue_order, is_over_promise, message_limit_key, order_script, percentile,
    promise_minutes, report, timeline, BuyerDelivery, BuyerMail, DeliveredOrder, DeliveryFigures,
    DeliveryReport, DeliveryStep, HandoffSettings, MailJob, MailRound, MessageSettings,
    MessageSide, MessageText, MessageTextError, NewOrderMessage, OrderMessage, QueueFilter,
    QueuedItem, QueuedOrder, Release, ReleaseReason, ScriptKey, ScriptProgress, ScriptStep, Spread,
    TimelineStep, TrackedOrder, TrackingFacts, MESSAGES_BUCKET, PROMISE_MIN_SAMPLES,
    PROMISE_WINDOW_DAYS, REPORT_DAYS,
};
pub use ports::{
    BuyerMailer, DeliveryNotices, DeliveryRepository, DeliveryTimesRepository, MessageRepository,
    TrackingRepository,
};
pub use service::{
    last_month, DeliveryQueue, DeliveryTimes, MessageAuthor, OrderMessages, OrderTracking,
};
