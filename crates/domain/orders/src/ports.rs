use std::future::Future;

use catalog::{CatalogError, Product, ProductId, StockNotices};
use chrono::{DateTime, Utc};
use shared::{Published, Unheard, UserId};

use crate::gateways::{CaptureOutcome, PaymentError, RefundReceipt, RefundRequest, SessionClosing};
use crate::idempotency::ScopedKey;
use crate::{
    CheckoutError, CheckoutRequest, ConfirmError, Confirmation, DropHolders, HeldUnits, KeyedOrder,
    NewHold, NewOrder, Order, OrderError, OrderId, OrderStatus, OrderStep, PaymentNotice,
    PaymentProvider, PendingCaps, PlaceError, PlacedOrder, ProviderEvent, Release, ReleaseError,
    Reservation,
};

/// How a pending order ends without payment; either one gives its stock back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closing {
    Expired,
    Cancelled,
}

impl Closing {
    pub fn status(&self) -> OrderStatus {
        match self {
            Closing::Expired => OrderStatus::Expired,
            Closing::Cancelled => OrderStatus::Cancelled,
        }
    }
}

/// What the store did with a status change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applied {
    /// The order changed (and everything that goes with the change happened with it).
    Changed,
    /// The provider's event was recorded before: nothing changed.
    Replayed,
    /// The order was no longer pending (another change won the race): nothing changed.
    NotPending(OrderStatus),
}

/// Who hears, after it committed, what a change of an order changed: the order's buyer and
/// staff (server push), the payment metrics and, as [`StockNotices`], the storefront's stock.
/// Told only of a change that happened (`Applied::Changed`), never of a replayed event.
pub trait OrderNotices: StockNotices {
    /// Order `id` took `step`.
    fn order_changed(&self, id: OrderId, step: OrderStep) -> Published<'_>;

    /// Order `id`'s payment took `step` (paid, paid after expiry, expired, cancelled, refunded,
    /// disputed, dispute won or lost), as `provider`'s event said or, without one, through the
    /// order's own provider: counted per provider and step, then told as
    /// [`order_changed`](Self::order_changed).
    fn payment_changed(
        &self,
        id: OrderId,
        step: OrderStep,
        provider: Option<PaymentProvider>,
    ) -> Published<'_>;
}

impl OrderNotices for Unheard {
    fn order_changed(&self, _: OrderId, _: OrderStep) -> Published<'_> {
        Box::pin(async {})
    }

    fn payment_changed(
        &self,
        _: OrderId,
        _: OrderStep,
        _: Option<PaymentProvider>,
    ) -> Published<'_> {
        Box::pin(async {})
    }
}

/// Where orders are kept. Every method that changes something does it in one database
/// transaction: all of it or none of it.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait OrderRepository: Send + Sync + 'static {
    /// In one transaction, all or nothing:
    /// - takes `reservation` from stock (each finite product: `stock >= quantity`, never below
    ///   zero): `PlaceError::OutOfStock(product)` when a product's stock cannot cover its
    ///   quantity (or it became unlimited, or disappeared);
    /// - counts the pending orders of the order's Discord account, browser session and client
    ///   address, serialised per holder so that parallel placements cannot all pass:
    ///   `PlaceError::TooManyPending` when one already holds its cap in `caps`;
    /// - claims the promo code's redemption for the buyer's Discord account: its `uses` is
    ///   raised only while the code is active (`PlaceError::Promo(Rejection::Inactive)`: staff
    ///   switched it off since it was checked) and below `max_uses`
    ///   (`PlaceError::Promo(Rejection::UsedUp)`), and the
    ///   account may hold one pending or paid redemption per code
    ///   (`PlaceError::Promo(Rejection::AlreadyUsed)`);
    /// - stores `order` as pending with the reservation, and with its idempotency key and
    ///   fingerprint when it has them.
    ///
    /// An order with an idempotency key (`order.idempotency`) first waits for any other
    /// placement under the same key to end (a lock per key, before the stock), then:
    /// `PlaceError::AlreadyPlaced(its id)`, nothing written, when an order was placed under the
    /// key at or after `since`; an order placed under it before `since` lets go of the key.
    /// The key is unique among orders, so two placements can never both keep it.
    ///
    /// Any other failure is `PlaceError::Unknown`.
    fn place(
        &self,
        order: NewOrder,
        reservation: Reservation,
        caps: PendingCaps,
    ) -> impl Future<Output = Result<Order, PlaceError>> + Send;

    /// Records the provider's payment session (or order) id of a pending order that has none
    /// yet, with the page's address (`url`) for a repeated checkout's answer.
    /// `OrderError::NotFound` when there is no such pending order without a reference.
    fn attach_payment_reference(
        &self,
        id: OrderId,
        reference: String,
        url: String,
    ) -> impl Future<Output = Result<(), OrderError>> + Send;

    /// The order placed under `key` at or after `since`, with the fingerprint of the request
    /// that placed it; `None` when there is none. Fails only with `OrderError::Unknown`.
    fn keyed_order(
        &self,
        key: ScopedKey,
        since: DateTime<Utc>,
    ) -> impl Future<Output = Result<Option<KeyedOrder>, OrderError>> + Send;

    /// `OrderError::NotFound` when there is no order with this id.
    fn order(&self, id: OrderId) -> impl Future<Output = Result<Order, OrderError>> + Send;

    /// The account's orders, newest first. Fails only with `OrderError::Unknown`.
    fn orders_of_user(
        &self,
        user_id: UserId,
    ) -> impl Future<Output = Result<Vec<Order>, OrderError>> + Send;

    /// In one transaction: records `event` (when given; `Applied::Replayed` and nothing else
    /// when it was recorded before), turns the order from pending to paid at `at`
    /// (`Applied::NotPending(current)` and nothing recorded when it is not pending), counts the
    /// redemption of the order's promo code for the buyer's Discord account (at most one per
    /// code and account), and archives the products of the order's reservation that are
    /// flagged `delete_after_out_of_stock` and now have a stock of 0. With `hold`, the order is
    /// paid on that risk hold (held since `at`, its `risk_held` step after its `paid` one), so it
    /// is never in the delivery queue without it.
    /// `OrderError::NotFound` when there is no order with this id.
    fn mark_paid(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        event: Option<ProviderEvent>,
        hold: Option<NewHold>,
    ) -> impl Future<Output = Result<Applied, OrderError>> + Send;

    /// The buyer finished the payment page of pending order `id` with a method that confirms
    /// later. In one transaction: records `event` (when given; `Applied::Replayed` and nothing
    /// else when it was recorded before), records the provider's `payment_id`, sets the order's
    /// `pay_by` to the method's deadline (its stock stays held until then) and its
    /// `awaiting_payment` step, once per order: `Applied::Replayed` (the event kept as
    /// processed) when it awaits its payment already; `Applied::NotPending(current)` and
    /// nothing recorded when it is not pending. `OrderError::NotFound` when there is no order
    /// with this id.
    fn mark_awaiting_payment(
        &self,
        id: OrderId,
        payment_id: String,
        pay_by: DateTime<Utc>,
        at: DateTime<Utc>,
        event: Option<ProviderEvent>,
    ) -> impl Future<Output = Result<Applied, OrderError>> + Send;

    /// A payment arrived for an order that had expired or been cancelled (its stock is back on
    /// sale, so the payment must be refunded by hand). In one transaction: records `event` (when
    /// given; `Applied::Replayed` when recorded before) and the order's `paid_after_expiry`
    /// step, once per order (`Applied::Replayed` when it was recorded already);
    /// `Applied::NotPending(current)` and nothing recorded when the order is not expired or
    /// cancelled. `OrderError::NotFound` when there is no order with this id.
    fn mark_paid_too_late(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        event: Option<ProviderEvent>,
    ) -> impl Future<Output = Result<Applied, OrderError>> + Send;

    /// In one transaction: records `event` (when given; `Applied::Replayed` when recorded
    /// before), turns the order from pending to `closing`'s status at `at`
    /// (`Applied::NotPending(current)` and nothing recorded when it is not pending, or is held
    /// for review), gives its reservation back to stock — exactly once, since only a pending
    /// order holds one — and releases its promo redemption (the code's use and the account's
    /// claim).
    /// `OrderError::NotFound` when there is no order with this id.
    fn release(
        &self,
        id: OrderId,
        closing: Closing,
        at: DateTime<Utc>,
        event: Option<ProviderEvent>,
    ) -> impl Future<Output = Result<Applied, OrderError>> + Send;

    /// Holds a pending order for staff with `reason`: it is then neither cancelled nor expired
    /// (`release` refuses it). `Applied::NotPending(current)` when it is not pending.
    /// `OrderError::NotFound` when there is no order with this id.
    fn hold_for_review(
        &self,
        id: OrderId,
        reason: String,
    ) -> impl Future<Output = Result<Applied, OrderError>> + Send;

    /// Records the hash of the order's link key (`orders.access_key_hash`).
    /// `OrderError::NotFound` when there is no such order.
    fn set_access_key_hash(
        &self,
        id: OrderId,
        hash: String,
    ) -> impl Future<Output = Result<(), OrderError>> + Send;

    /// The units of each product with a cap per account (`max_per_account` set) that
    /// `holders` hold, counted exactly as `place` counts them against the caps: each holder's
    /// pending, paid, delivered and disputed orders, a bundle line's stored parts included.
    /// Products none of them holds any of are left out; nothing is read for no holder.
    /// Fails only with `OrderError::Unknown`.
    fn units_held(
        &self,
        holders: DropHolders,
    ) -> impl Future<Output = Result<Vec<HeldUnits>, OrderError>> + Send;

    /// Pending orders past their deadline, oldest first, except those held for review: an
    /// order with its own `pay_by` (a drop's) once that is before `now`, any other once it was
    /// created before `usual_cutoff`. Fails only with `OrderError::Unknown`.
    fn pending_past_deadline(
        &self,
        usual_cutoff: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Vec<OrderId>, OrderError>> + Send;
}

/// The products checkout prices and reserves, read fresh from the database.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait ProductLookup: Send + Sync + 'static {
    /// The products with these ids, archived ones included, with their `related_ids`; ids
    /// that do not exist are left out. Fails only with `CatalogError::Unknown`.
    fn products(
        &self,
        ids: Vec<ProductId>,
    ) -> impl Future<Output = Result<Vec<Product>, CatalogError>> + Send;
}

/// What the shop already knows to be sold out without asking the database (the storefront's
/// in-memory snapshot). Checkout refuses such a cart at once, so a rush on a sold-out product
/// does not queue on its row lock; the database stays the judge of everything else, and of
/// every sale.
pub trait StockHint: Send + Sync + 'static {
    /// The products with these ids that it knows, and the components of those that are
    /// bundles, as it last saw them.
    fn products(&self, ids: &[ProductId]) -> Vec<Product>;

    /// Where the hint stands: a number that moves whenever it learns a newer catalog.
    fn version(&self) -> u64 {
        0
    }

    /// The database refused a sale and then showed `products` as they are now, read after the
    /// hint stood at `version`. The hint may go by them until it learns a newer catalog, so the
    /// rest of a rush is refused without a round trip (ignored when the hint has moved on).
    fn learned(&self, version: u64, products: &[Product]) {
        let _ = (version, products);
    }
}

/// The payment providers this instance reaches: its card provider (Stripe, or the dev payment
/// page) and PayPal when it is enabled. The rules choose the provider (an order's own, or the
/// one an event came from); an implementation passes each call on to that provider's gateway
/// and decides nothing.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait PaymentProviders: Send + Sync + 'static {
    /// Whether this instance can reach `provider` now (PayPal may have been switched off since
    /// an order was paid through it, and an instance has one card provider).
    fn reaches(&self, provider: PaymentProvider) -> bool;

    /// Closes `provider`'s page `reference` so that it can no longer be paid, and says whether
    /// the buyer had paid it already (see [`crate::gateways::PaymentGateway::close_checkout`]).
    /// Asked only of a provider it [`reaches`](Self::reaches); another fails with
    /// `PaymentError::Unknown`.
    fn close_page(
        &self,
        provider: PaymentProvider,
        reference: String,
    ) -> impl Future<Output = Result<SessionClosing, PaymentError>> + Send;

    /// Refunds an order's whole payment through `provider` (see
    /// [`crate::gateways::PaymentGateway::refund`]): `Ok` only when the provider accepted it.
    /// Asked only of a provider it reaches; another fails with `PaymentError::Unknown`.
    fn refund(
        &self,
        provider: PaymentProvider,
        request: RefundRequest,
    ) -> impl Future<Output = Result<RefundReceipt, PaymentError>> + Send;

    /// Captures the payment the buyer approved on `provider`'s page `reference` (see
    /// [`crate::gateways::PaymentCapture::capture`]). Asked only of a provider it reaches; one
    /// that does not capture (the card providers take the payment on their page) fails with
    /// `PaymentError::Unknown`.
    fn capture(
        &self,
        provider: PaymentProvider,
        reference: String,
    ) -> impl Future<Output = Result<CaptureOutcome, PaymentError>> + Send;
}

/// What checkout offers the app.
pub trait CheckoutService: Send + Sync + 'static {
    /// Prices the cart from the database, applies the promo code, compares the client's total,
    /// checks and reserves the stock, and stores the order as pending.
    fn place_order(
        &self,
        request: CheckoutRequest,
    ) -> impl Future<Output = Result<PlacedOrder, CheckoutError>> + Send;

    /// Records the payment provider's session id and the page's address once the session
    /// exists.
    fn attach_payment(
        &self,
        id: OrderId,
        reference: String,
        url: String,
    ) -> impl Future<Output = Result<(), OrderError>> + Send;

    fn order(&self, id: OrderId) -> impl Future<Output = Result<Order, OrderError>> + Send;

    /// The account's orders, newest first.
    fn orders_of_user(
        &self,
        user_id: UserId,
    ) -> impl Future<Output = Result<Vec<Order>, OrderError>> + Send;

    /// A visitor's open orders (awaiting payment or paid, not yet delivered), newest first, at
    /// most three: of the orders placed in their browser (`placed_here`, oldest first: the
    /// newest ten are read) and their account's. Never another buyer's; an order that is gone
    /// is left out.
    fn open_orders(
        &self,
        placed_here: &[OrderId],
        user: Option<UserId>,
    ) -> impl Future<Output = Result<Vec<Order>, OrderError>> + Send;

    /// The provider says the order is paid (webhook, capture, or the dev page). Idempotent:
    /// the same event, or any confirmation of an order already paid, changes nothing.
    fn confirm_paid(
        &self,
        notice: PaymentNotice,
    ) -> impl Future<Output = Result<Confirmation, ConfirmError>> + Send;

    /// The buyer finished the provider's page with a method that confirms later (a voucher, a
    /// bank debit), paid with `payment_id`: the order stays pending, its stock held until
    /// `pay_by`, the method's deadline, once however often the provider says so. `Ok` with
    /// what the store did (`Applied::NotPending` for an order paid or closed meanwhile);
    /// `ConfirmError::ReferenceMismatch` for another page's notice.
    fn await_payment(
        &self,
        notice: PaymentNotice,
        payment_id: String,
        pay_by: DateTime<Utc>,
    ) -> impl Future<Output = Result<Applied, ConfirmError>> + Send;

    /// The provider says the payment session expired: the order expires and gives its stock
    /// back, once.
    fn expire(
        &self,
        notice: PaymentNotice,
    ) -> impl Future<Output = Result<Release, ReleaseError>> + Send;

    /// The shopper cancelled the payment: the order is cancelled and gives its stock back, once.
    fn cancel(&self, id: OrderId) -> impl Future<Output = Result<Release, ReleaseError>> + Send;

    /// Expires an order the sweeper found stale (its payment page closed first): like
    /// `cancel`, as `expired`. An order held for review is refused.
    fn expire_unpaid(
        &self,
        id: OrderId,
    ) -> impl Future<Output = Result<Release, ReleaseError>> + Send;

    /// The orders still pending past the payment window (plus a grace period, so a payment
    /// completed at the last second is not lost), oldest first; orders held for review are
    /// left to staff.
    fn stale_orders(&self) -> impl Future<Output = Result<Vec<OrderId>, OrderError>> + Send;

    /// Holds a pending order for staff (see [`OrderRepository::hold_for_review`]); `false` when
    /// it was no longer pending.
    fn hold_for_review(
        &self,
        id: OrderId,
        reason: String,
    ) -> impl Future<Output = Result<bool, OrderError>> + Send;
}
