//! Orders: what a shopper bought, from whom, for how much, and where it stands; checkout,
//! which prices a cart from the database and reserves its stock (after the blocklist check);
//! the lifecycle that confirms, expires and cancels orders; and the outbox that tells the
//! buyer, staff and the order's Discord ticket. The delivery queue, reviews, sales statistics,
//! the blocklist's entries and after-sale are crates of their own over these types.

mod block_check;
mod closing;
pub mod discord_limits;
mod error;
mod gates;
pub mod gateways;
pub mod guild_join;
pub mod idempotency;
pub mod lifecycle;
mod link_keys;
mod models;
mod payment;
mod ports;
mod service;
pub mod staff_alerts;
#[cfg(any(test, feature = "mocks"))]
pub mod testing;
pub mod tickets;
mod viewer;

pub use block_check::{
    canonical_email, normalise_ip, BlockKind, Blocklist, BuyerIdentities, NoBlocklist,
};
pub use cart_pricing::{Money, PaymentMethod, PricedCart, Quantity, StockProblem};
pub use catalog::StockNotices;
pub use closing::{CloseError, Closed};
pub use discord_limits::{DiscordLimitRepository, DiscordLimitState, DiscordLimits};
pub use error::{
    utc_words, CheckoutError, ConfirmError, OrderError, PlaceError, ReleaseError, Unavailable,
};
pub use gateways::{DiscordId, DiscordIdentity, RobloxUsername};
pub use guild_join::{
    AccessToken, GuildAccess, GuildDoor, GuildJoinError, GuildJoinRepository, GuildJoins,
    PendingGuildJoin,
};
pub use idempotency::{
    IdempotencyKey, InvalidIdempotencyKey, KeyedPlacement, ScopedKey, IDEMPOTENCY_WINDOW_HOURS,
    PAGE_GRACE_SECONDS,
};
pub use lifecycle::{
    Channel, Dispatch, Dispatcher, InvalidRequest, JobFailed, JobGate, JobHandler, JobRound,
    MailKind, MailRetry, Open, OrderEvent, OrderStep, OutboxJob, OutboxRepository, OutboxWorker,
    RateLimited, SendFailed,
};
pub use link_keys::{AccessKey, OrderKeys};
pub use models::{
    drop_caps, frees_up_in, stock_problems, takes_a_drop, AccountCap, AccountCapReached, Amounts,
    Buyer, CapHolder, CartItem, CheckoutLimits, CheckoutRequest, Confirmation, Dispute,
    DisputeOutcome, DropHolders, DropHolding, Email, HeldBy, HeldUnits, HoldReason, InvalidEmail,
    KeyedOrder, Lifecycle, NewHold, NewOrder, Order, OrderHolder, OrderId, OrderLine, OrderPromo,
    OrderStatus, Paid, Payment, PaymentNotice, PaymentProvider, PendingCapReached, PendingCaps,
    PendingCount, PlacedOrder, ProviderEvent, Release, RequestedItem, Reservation, RiskHold,
    StaffMember, TransitionError,
};
pub use payment::{
    hosted_request, CaptureError, Captured, OpenCheckoutError, OpenedCheckout, Replayed, ReturnUrls,
};
pub use ports::{
    Applied, CheckoutService, Closing, OrderNotices, OrderRepository, PaymentProviders,
    ProductLookup, StockHint,
};
#[cfg(any(test, feature = "mocks"))]
pub use ports::{MockOrderRepository, MockPaymentProviders, MockProductLookup};
pub use service::{Checkout, CheckoutPorts, PAYMENT_WINDOW_MINUTES, SWEEP_GRACE_MINUTES};
pub use shared::Clock;
pub use staff_alerts::{StaffAlerts, StaffPost, STAFF_CHANNEL};
pub use tickets::{
    DeskError, RejoinError, StoredPost, TicketDesk, TicketItem, TicketMessage, TicketOrder,
    TicketPost, TicketProblem, TicketRepository, TicketSettings, TicketStaff, Tickets,
    TICKET_CHANNEL,
};
pub use viewer::Viewer;
