//! The port through which the policy of the providers' events (`aftersale::provider_events`)
//! changes what comes after the sale, and its implementation by [`AfterSale`].

use std::future::Future;

use orders::{
    Clock, DisputeOutcome, OrderError, OrderId, OrderRepository, PaymentProvider, ProviderEvent,
};

use crate::{AfterSale, AfterSaleRepository, Noticed, ProviderRefund};

/// What a provider's events change after the sale: the port of the policy to
/// [`AfterSale`], which implements it.
#[cfg_attr(test, mockall::automock)]
pub trait PaymentRecords: Send + Sync + 'static {
    /// Records the provider's payment id of a just-paid order.
    fn payment_confirmed(
        &self,
        id: OrderId,
        payment_id: String,
    ) -> impl Future<Output = Result<(), OrderError>> + Send;

    /// A refund made at the provider (see [`AfterSale::provider_refunded`]).
    fn provider_refunded(
        &self,
        refund: ProviderRefund,
    ) -> impl Future<Output = Result<Noticed, OrderError>> + Send;

    /// A chargeback was opened (see [`AfterSale::dispute_opened`]).
    fn dispute_opened(
        &self,
        provider: PaymentProvider,
        payment_id: String,
        reason: Option<String>,
        event: ProviderEvent,
    ) -> impl Future<Output = Result<Noticed, OrderError>> + Send;

    /// A chargeback closed (see [`AfterSale::dispute_closed`]).
    fn dispute_closed(
        &self,
        provider: PaymentProvider,
        payment_id: String,
        outcome: DisputeOutcome,
        event: ProviderEvent,
    ) -> impl Future<Output = Result<Noticed, OrderError>> + Send;
}

impl<R, C> PaymentRecords for AfterSale<R, C>
where
    R: AfterSaleRepository + OrderRepository,
    C: Clock,
{
    async fn payment_confirmed(&self, id: OrderId, payment_id: String) -> Result<(), OrderError> {
        AfterSale::payment_confirmed(self, id, payment_id).await
    }

    async fn provider_refunded(&self, refund: ProviderRefund) -> Result<Noticed, OrderError> {
        AfterSale::provider_refunded(self, refund).await
    }

    async fn dispute_opened(
        &self,
        provider: PaymentProvider,
        payment_id: String,
        reason: Option<String>,
        event: ProviderEvent,
    ) -> Result<Noticed, OrderError> {
        AfterSale::dispute_opened(self, provider, payment_id, reason, event).await
    }

    async fn dispute_closed(
        &self,
        provider: PaymentProvider,
        payment_id: String,
        outcome: DisputeOutcome,
        event: ProviderEvent,
    ) -> Result<Noticed, OrderError> {
        AfterSale::dispute_closed(self, provider, payment_id, outcome, event).await
    }
}
