//! The ports of after the sale: where refunds, disputes and fraud warnings are recorded, what
//! a payment provider says of a payment's risk, and what a provider's events change after the
//! sale.

use std::future::Future;

use blocklist::NewBlock;
use chrono::{DateTime, Utc};
use orders::gateways::PaymentError;
use orders::{
    Applied, DisputeOutcome, NewHold, Order, OrderError, OrderId, PaymentProvider,
    PaymentProviders, ProviderEvent,
};
use shared::Actor;

use crate::models::{FraudWarning, Noticed, ProviderRefund, Warned};

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

    /// Records the card issuer's fraud warning on order `id` at `at`: its event, and the
    /// order's `fraud_warning` step noted with `fraud_type`, whatever the order's status. With
    /// `hold`, a paid order goes on that hold (`Warned::Held`): one not held yet since `at`,
    /// with its `risk_held` step; one held for its payment's risk takes the warning's reason.
    /// `Warned::Noted` when it was not paid or already on the warning's hold;
    /// `Warned::Replayed` and nothing else when the event was recorded before.
    fn record_fraud_warning(
        &self,
        id: OrderId,
        event: ProviderEvent,
        fraud_type: Option<String>,
        hold: Option<NewHold>,
        at: DateTime<Utc>,
    ) -> impl Future<Output = Result<Warned, OrderError>> + Send;
}

/// What a payment provider says of a payment's risk. An implementation keeps the call short
/// (the provider's webhook waits for it) and decides nothing.
#[cfg_attr(test, mockall::automock)]
pub trait PaymentRisk: Send + Sync + 'static {
    /// The risk level `provider` gives payment `payment_id` (Stripe: its latest charge's
    /// `outcome.risk_level`); `None` when it gives none (no charge yet, a provider without
    /// ratings). `PaymentError::Unavailable` when the provider did not answer in time.
    fn risk_level(
        &self,
        provider: PaymentProvider,
        payment_id: String,
    ) -> impl Future<Output = Result<Option<String>, PaymentError>> + Send;

    /// The deadline `provider` gives payment `payment_id` of a method that confirms later
    /// (Stripe: the voucher's expiry in its payment intent's `next_action`: OXXO, Boleto,
    /// Konbini, Multibanco, Pix); `None` when it names none. `PaymentError::Unavailable` when
    /// the provider did not answer in time.
    fn payment_deadline(
        &self,
        provider: PaymentProvider,
        payment_id: String,
    ) -> impl Future<Output = Result<Option<DateTime<Utc>>, PaymentError>> + Send;
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

    /// Until when an order paid with `payment_id`, a method that confirms later, holds its
    /// stock (see [`AfterSale::delayed_payment_deadline`](crate::AfterSale::delayed_payment_deadline)).
    fn payment_deadline(
        &self,
        provider: PaymentProvider,
        payment_id: String,
    ) -> impl Future<Output = DateTime<Utc>> + Send;

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

    /// The risk hold a just-paid payment calls for (see
    /// [`AfterSale::risk_hold`](crate::AfterSale::risk_hold)); `None` when it calls for none or
    /// its risk could not be read.
    fn risk_hold(
        &self,
        provider: PaymentProvider,
        payment_id: String,
    ) -> impl Future<Output = Option<NewHold>> + Send;

    /// The card's issuer warned of fraud (see
    /// [`AfterSale::fraud_warned`](crate::AfterSale::fraud_warned)); `providers` refund the
    /// order when the shop refunds at a warning.
    fn fraud_warned<G: PaymentProviders>(
        &self,
        warning: FraudWarning,
        providers: &G,
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
