//! Orders: what a shopper bought, from whom, for how much, and where it stands; checkout,
//! which prices a cart from the database and reserves its stock; and the lifecycle that
//! confirms, expires and cancels orders.

pub mod aftersale;
pub mod blocklist;
mod closing;
pub mod delivery;
mod error;
mod gates;
pub mod gateways;
pub mod guild_join;
pub mod idempotency;
pub mod lifecycle;
mod models;
mod payment;
mod payment_records;
mod ports;
mod provider_events;
pub mod queue;
pub mod reviews;
mod service;
pub mod staff_alerts;
pub mod stats;
pub mod tickets;
pub mod tracking;

pub use aftersale::{
    AfterSale, AfterSaleRepository, Dispute, DisputeOutcome, Noticed, ProviderRefund, RefundError,
};
pub use blocklist::{
    canonical_email, BlockEntry, BlockKind, BlockStatus, Blocklist, BlocklistAdmin, BlocklistError,
    BlocklistLimits, BlocklistRepository, BuyerIdentities, NewBlock, NoBlocklist,
};
pub use cart_pricing::{Money, PaymentMethod, PricedCart, Quantity, StockProblem};
pub use closing::{CloseError, Closed};
pub use delivery::{
    DeliveredOrder, DeliveryFigures, DeliveryReport, DeliveryStep, DeliveryTimesRepository, Spread,
};
pub use error::{CheckoutError, ConfirmError, OrderError, PlaceError, ReleaseError, Unavailable};
pub use gateways::{DiscordId, DiscordIdentity, RobloxUsername};
pub use guild_join::{
    AccessToken, GuildAccess, GuildDoor, GuildJoinError, GuildJoinRepository, GuildJoins,
    PendingGuildJoin,
};
pub use idempotency::{
    IdempotencyKey, InvalidIdempotencyKey, KeyedOrder, KeyedPlacement, ScopedKey,
    IDEMPOTENCY_WINDOW_HOURS, PAGE_GRACE_SECONDS,
};
pub use lifecycle::{
    Channel, Dispatch, Dispatcher, JobFailed, JobHandler, JobRound, OrderEvent, OrderStep,
    OutboxJob, OutboxRepository, OutboxWorker,
};
pub use models::{
    frees_up_in, stock_problems, Amounts, Buyer, CartItem, CheckoutLimits, CheckoutRequest,
    Confirmation, Email, HeldBy, InvalidEmail, Lifecycle, NewOrder, Order, OrderHolder, OrderId,
    OrderLine, OrderPromo, OrderStatus, Payment, PaymentNotice, PaymentProvider, PendingCapReached,
    PendingCaps, PlacedOrder, ProviderEvent, Release, RequestedItem, Reservation, TransitionError,
};
pub use payment::{
    hosted_request, CaptureError, Captured, OpenCheckoutError, OpenedCheckout, Replayed, ReturnUrls,
};
pub use payment_records::PaymentRecords;
pub use ports::{
    Applied, CheckoutService, Closing, OrderRepository, PaymentProviders, ProductLookup, StockHint,
};
pub use provider_events::{apply_payment_event, EventError, Handled, PaymentEvent};
pub use queue::{
    DeliveryQueue, DeliveryRepository, QueueError, QueueFilter, QueuedItem, QueuedOrder,
    StaffMember,
};
pub use reviews::{
    NewReview, Review, ReviewError, ReviewRepository, ReviewSummary, Reviews,
    ANONYMOUS_NAME as ANONYMOUS_REVIEW_NAME, MAX_REVIEW_CHARS,
};
pub use service::{Checkout, PAYMENT_WINDOW_MINUTES, SWEEP_GRACE_MINUTES};
pub use shared::{Clock, SystemClock};
pub use staff_alerts::{StaffAlerts, StaffPost, STAFF_CHANNEL};
pub use stats::{Granularity, PeriodSales, SalesReport, SalesRepository, SalesStatistics};
pub use tickets::{
    DeskError, RejoinError, TicketDesk, TicketItem, TicketOrder, TicketPost, TicketProblem,
    TicketRepository, TicketSettings, TicketStaff, Tickets, TICKET_CHANNEL,
};
pub use tracking::{
    AccessKey, BuyerDelivery, BuyerMail, BuyerMailer, HandoffSettings, MailJob, MailKind,
    MailRetry, MailRound, OrderKeys, OrderTracking, SendFailed, TimelineStep, TrackedOrder,
    TrackingFacts, TrackingRepository,
};
