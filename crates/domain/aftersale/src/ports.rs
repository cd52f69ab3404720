//! The ports of after the sale: where refunds and disputes are recorded, and what a provider's
//! events change after the sale.

use std::future::Future;

use blocklist::NewBlock;
use chrono::{DateTime, Utc};
use orders::{Applied, DisputeOutcome, Order, OrderError, OrderId, PaymentProvider, ProviderEvent};
use shared::Actor;

use crate::models::{Noticed, ProviderRefund};

/// Where refunds and disputes are recorded. Every change is one transaction that records the
/// provider's event (when given) with it: `Applied::Replayed` and nothing else when the event
/// was recorded before; `Applied::NotPending(current)` and nothing recorded when the order is
/// not in a status the change applies to.
#[cfg_attr(test, mockall::automock)]
pub trait AfterSaleRepository: Send + Sync + 'static {
    /// The order paid through `provider` with this payment id (Stripe's payment intent).
    fn order_by_payment(
        &self,
        provider: PaymentProvider,
        payment_id: String,
    ) -> impl Future<Output = Result<Option<Order>, OrderError>> + Send;

    /// Records the provider's payment id of a paid order that has none yet (the same again
    /// changes nothing). `OrderError::NotFound` when there is no such order.
    fn record_payment_id(
        &self,
        id: OrderId,
        payment_id: String,
    ) -> impl Future<Output = Result<(), OrderError>> + Send;

    /// Records a partial refund of order `id` at the provider (its event and the order's
    /// `partly_refunded` step; the order itself is unchanged), `false` when the event was
    /// recorded before.
    fn record_partial_refund(
        &self,
        id: OrderId,
        event: ProviderEvent,
        at: DateTime<Utc>,
    ) -> impl Future<Output = Result<bool, OrderError>> + Send;

    /// Turns a paid or delivered order refunded at `at`, with the provider's refund id when
    /// known. Its stock stays sold. A refund by staff (`actor`) appends its audit entry in
    /// the same transaction; one the provider reports (a webhook) has no actor.
    fn mark_refunded(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        refund_id: Option<String>,
        event: Option<ProviderEvent>,
        actor: Option<Actor>,
    ) -> impl Future<Output = Result<Applied, OrderError>> + Send;

    /// Turns a paid, delivered or refunded order disputed at `at`, remembering its status, and
    /// adds `blocks` to the blocklist (those already on it are kept as they are). The
    /// provider's `reason` is kept with the step for staff.
    fn open_dispute(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        event: ProviderEvent,
        reason: Option<String>,
        blocks: Vec<NewBlock>,
    ) -> impl Future<Output = Result<Applied, OrderError>> + Send;

    /// Records the outcome of the dispute of a disputed order at `at`; `Won` returns it to
    /// the status it had when the dispute opened.
    fn close_dispute(
        &self,
        id: OrderId,
        outcome: DisputeOutcome,
        at: DateTime<Utc>,
        event: ProviderEvent,
    ) -> impl Future<Output = Result<Applied, OrderError>> + Send;
}

/// What a provider's events change after the sale: the port of the policy to
/// [`AfterSale`](crate::AfterSale), which implements it.
#[cfg_attr(test, mockall::automock)]
pub trait PaymentRecords: Send + Sync + 'static {
    /// Records the provider's payment id of a just-paid order.
    fn payment_confirmed(
        &self,
        id: OrderId,
        payment_id: String,
    ) -> impl Future<Output = Result<(), OrderError>> + Send;

    /// A refund made at the provider (see [`AfterSale::provider_refunded`](crate::AfterSale::provider_refunded)).
    fn provider_refunded(
        &self,
        refund: ProviderRefund,
    ) -> impl Future<Output = Result<Noticed, OrderError>> + Send;

    /// A chargeback was opened (see [`AfterSale::dispute_opened`](crate::AfterSale::dispute_opened)).
    fn dispute_opened(
        &self,
        provider: PaymentProvider,
        payment_id: String,
        reason: Option<String>,
        event: ProviderEvent,
    ) -> impl Future<Output = Result<Noticed, OrderError>> + Send;

    /// A chargeback closed (see [`AfterSale::dispute_closed`](crate::AfterSale::dispute_closed)).
    fn dispute_closed(
        &self,
        provider: PaymentProvider,
        payment_id: String,
        outcome: DisputeOutcome,
        event: ProviderEvent,
    ) -> impl Future<Output = Result<Noticed, OrderError>> + Send;
}
