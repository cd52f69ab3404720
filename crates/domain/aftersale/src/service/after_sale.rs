//! After the sale: refunds through the payment provider, refunds and chargebacks the provider
//! reports (Stripe's `charge.refunded`, `charge.dispute.created`, `charge.dispute.closed`).
//!
//! - A refund staff ask for goes to the provider first; the order turns refunded only once the
//!   provider accepted it. A provider error changes nothing.
//! - A refund made at the provider marks the order refunded too.
//! - A chargeback marks the order disputed (it cannot be delivered), blocks the buyer's
//!   Discord account, e-mail and Roblox username. When the dispute closes, a won dispute
//!   returns the order to where it was; a lost one leaves it disputed.
//! - A just-paid payment the provider rates risky (a level in `RiskPolicy::hold_risk_levels`)
//!   is paid on a risk hold; when its risk cannot be read, it is paid as usual (a paid order is
//!   never lost to a failed read).
//! - The card issuer's fraud warning puts a paid order on a risk hold (out of the delivery
//!   queue until staff refund it or release it), or refunds it at once when the policy says
//!   so; a delivered order's warning is only recorded for staff: a dispute may follow.
//!
//! Each provider event changes an order once: the event id is recorded with the change, in
//! the same transaction, and so is the order's step (`orders::lifecycle`): staff hear of a
//! refund they did not make, a partial refund and a dispute through the outbox's staff channel
//! (`orders::staff_alerts`), once, even when the instance stops right after the change.

use orders::gateways::RefundRequest;
use std::sync::Arc;

use orders::{
    Applied, DisputeOutcome, HoldReason, NewHold, Order, OrderError, OrderId, OrderNotices,
    OrderRepository, OrderStatus, OrderStep, PaymentProvider, PaymentProviders, ProviderEvent,
    TransitionError,
};
use shared::{Actor, Clock};

use crate::error::RefundError;
use crate::models::{chargeback_blocks, FraudWarning, Noticed, ProviderRefund, RiskPolicy, Warned};
use crate::ports::{AfterSaleRepository, PaymentRecords, PaymentRisk};

/// The shop's rules after the sale, over its store, a clock, what the payment provider says of
/// a payment's risk, and the shop's policy on risky payments.
#[derive(Clone)]
pub struct AfterSale<R, C, K> {
    repository: R,
    clock: C,
    risk: K,
    policy: RiskPolicy,
    notices: Arc<dyn OrderNotices>,
}

impl<R, C, K> AfterSale<R, C, K>
where
    R: AfterSaleRepository + OrderRepository,
    C: Clock,
    K: PaymentRisk,
{
    pub fn new(repository: R, clock: C, risk: K, policy: RiskPolicy) -> Self {
        AfterSale {
            repository,
            clock,
            risk,
            policy,
            notices: Arc::new(shared::Unheard),
        }
    }

    /// The same service telling `notices` of each change it makes.
    pub fn with_notices(mut self, notices: Arc<dyn OrderNotices>) -> Self {
        self.notices = notices;
        self
    }

    pub async fn order(&self, id: OrderId) -> Result<Order, OrderError> {
        self.repository.order(id).await
    }

    /// Refunds the order's whole payment through its provider, then marks it refunded. An
    /// order whose provider this instance does not reach is refused first
    /// (`RefundError::NoProvider`); refunding an order that is refunded already answers it as
    /// it is; any other status but paid or delivered is refused before the provider is asked.
    /// `actor` is the member of staff the audit log names for the refund (written with it).
    #[tracing::instrument(skip(self, providers, actor))]
    pub async fn refund<G: PaymentProviders>(
        &self,
        id: OrderId,
        providers: &G,
        actor: &Actor,
    ) -> Result<Order, RefundError> {
        self.refund_as(id, providers, Some(actor.clone())).await
    }

    /// [`refund`](Self::refund) by `actor` (audited), or by the shop itself (`None`: a refund
    /// at a fraud warning, which no member of staff made).
    async fn refund_as<G: PaymentProviders>(
        &self,
        id: OrderId,
        providers: &G,
        actor: Option<Actor>,
    ) -> Result<Order, RefundError> {
        let order = self.repository.order(id).await?;
        let provider = order.payment.provider;
        if !providers.reaches(provider) {
            return Err(RefundError::NoProvider(provider));
        }
        if order.status() == OrderStatus::Refunded {
            return Ok(order);
        }
        if !order.status().can_become(OrderStatus::Refunded) {
            return Err(RefundError::Refused(TransitionError {
                from: order.status(),
                to: OrderStatus::Refunded,
            }));
        }
        let request = RefundRequest {
            order_id: id.to_string(),
            provider_reference: order.payment.reference.clone(),
            payment_id: order.payment.payment_id.clone(),
            idempotency_key: format!("refund-order-{id}"),
        };
        let receipt = providers.refund(provider, request).await.map_err(|error| {
            tracing::warn!(order = %id, error = %error, "the provider did not refund");
            RefundError::Provider(error)
        })?;
        if let (None, Some(payment_id)) = (&order.payment.payment_id, receipt.payment_id) {
            self.repository.record_payment_id(id, payment_id).await?;
        }
        let applied = self
            .repository
            .mark_refunded(id, self.clock.now(), Some(receipt.refund_id), None, actor)
            .await?;
        match applied {
            Applied::Changed => {
                tracing::info!(order = %id, "order refunded");
                let step = OrderStep::Refunded;
                self.notices.payment_changed(id, step, None).await;
            }
            Applied::NotPending(OrderStatus::Refunded) | Applied::Replayed => {}
            Applied::NotPending(status) => {
                // refunded at the provider, but the order moved on meanwhile (a dispute)
                tracing::error!(order = %id, %status, "refunded at the provider but the order is no longer refundable");
                return Err(RefundError::MovedOn { order: id, status });
            }
        }
        Ok(self.repository.order(id).await?)
    }

    /// Records the provider's payment id of a just-paid order (for its refunds and disputes).
    pub async fn payment_confirmed(
        &self,
        id: OrderId,
        payment_id: String,
    ) -> Result<(), OrderError> {
        self.repository.record_payment_id(id, payment_id).await
    }

    /// A refund made at the provider: the whole payment marks the order refunded; a partial
    /// one only tells staff. Each event once.
    #[tracing::instrument(skip_all, fields(event = %refund.event.id))]
    pub async fn provider_refunded(&self, refund: ProviderRefund) -> Result<Noticed, OrderError> {
        let Some(order) = self
            .repository
            .order_by_payment(refund.provider, refund.payment_id.clone())
            .await?
        else {
            return Ok(Noticed::UnknownPayment);
        };
        let now = self.clock.now();
        if !refund.whole {
            if self
                .repository
                .record_partial_refund(order.id, refund.event, now)
                .await?
            {
                tracing::info!(order = %order.id, "order partly refunded at the provider");
                let step = OrderStep::PartlyRefunded;
                self.notices.order_changed(order.id, step).await;
            }
            return Ok(Noticed::Unchanged);
        }
        let provider = Some(refund.event.provider);
        match self
            .repository
            .mark_refunded(order.id, now, None, Some(refund.event), None)
            .await?
        {
            Applied::Changed => {
                tracing::info!(order = %order.id, "order refunded at the provider");
                let step = OrderStep::Refunded;
                self.notices.payment_changed(order.id, step, provider).await;
                Ok(Noticed::Changed(Box::new(
                    self.repository.order(order.id).await?,
                )))
            }
            Applied::Replayed | Applied::NotPending(_) => Ok(Noticed::Unchanged),
        }
    }

    /// A chargeback was opened: the order turns disputed, the buyer's Discord account, e-mail
    /// and Roblox username are blocked ("chargeback on order #N"), staff are told. Each event
    /// once.
    #[tracing::instrument(skip_all, fields(event = %event.id))]
    pub async fn dispute_opened(
        &self,
        provider: PaymentProvider,
        payment_id: String,
        reason: Option<String>,
        event: ProviderEvent,
    ) -> Result<Noticed, OrderError> {
        let Some(mut order) = self
            .repository
            .order_by_payment(provider, payment_id)
            .await?
        else {
            return Ok(Noticed::UnknownPayment);
        };
        let now = self.clock.now();
        if order.dispute(now).is_err() {
            // disputed already (a second dispute event), or never paid: record nothing
            return Ok(Noticed::Unchanged);
        }
        let blocks = chargeback_blocks(&order, now);
        let provider = Some(event.provider);
        match self
            .repository
            .open_dispute(order.id, now, event, reason, blocks)
            .await?
        {
            Applied::Changed => {
                tracing::warn!(order = %order.id, "order disputed; buyer blocked");
                let step = OrderStep::Disputed;
                self.notices.payment_changed(order.id, step, provider).await;
                Ok(Noticed::Changed(Box::new(order)))
            }
            Applied::Replayed | Applied::NotPending(_) => Ok(Noticed::Unchanged),
        }
    }

    /// The risk hold payment `payment_id` calls for, just paid through `provider`: the
    /// provider's risk level read (briefly: its webhook waits) and held when the policy names
    /// it. A read that fails holds nothing and is logged: a paid order is never lost to it.
    #[tracing::instrument(skip(self))]
    pub async fn risk_hold(
        &self,
        provider: PaymentProvider,
        payment_id: String,
    ) -> Option<NewHold> {
        match self.risk.risk_level(provider, payment_id).await {
            Ok(level) => {
                let hold = self.policy.hold_for(level.as_deref());
                if hold.is_some() {
                    tracing::warn!(
                        level = level.as_deref(),
                        "a risky payment: its order is held"
                    );
                }
                hold
            }
            Err(error) => {
                tracing::warn!(%error, "the payment's risk could not be read: its order is not held");
                None
            }
        }
    }

    /// Until when an order paid with `payment_id`, a method that confirms later (a voucher, a
    /// bank debit), holds its stock: the method's own deadline as the provider names it, else
    /// `delayed_payment_hold_hours` from now (also when the provider could not be read: the
    /// order is never left without a deadline).
    pub async fn delayed_payment_deadline(
        &self,
        provider: PaymentProvider,
        payment_id: String,
    ) -> chrono::DateTime<chrono::Utc> {
        let fallback = || {
            self.clock.now()
                + chrono::Duration::hours(i64::from(self.policy.delayed_payment_hold_hours))
        };
        match self.risk.payment_deadline(provider, payment_id).await {
            Ok(Some(deadline)) => deadline,
            Ok(None) => fallback(),
            Err(error) => {
                tracing::warn!(%error, "the payment method's deadline could not be read: the shop's own applies");
                fallback()
            }
        }
    }

    /// The card's issuer warned that the payment of an order looks fraudulent. A paid order
    /// (waiting for delivery, or held for its payment's risk) goes on the warning's hold, out of
    /// the delivery queue; with `refund_on_fraud_warning` it is then refunded at once through
    /// `providers` (a refund that fails leaves it on hold for staff). Any other order (delivered,
    /// refunded, disputed) only has the warning recorded for staff. Each event once.
    #[tracing::instrument(skip_all, fields(event = %warning.event.id))]
    pub async fn fraud_warned<G: PaymentProviders>(
        &self,
        warning: FraudWarning,
        providers: &G,
    ) -> Result<Noticed, OrderError> {
        let Some(order) = self
            .repository
            .order_by_payment(warning.provider, warning.payment_id.clone())
            .await?
        else {
            return Ok(Noticed::UnknownPayment);
        };
        let already_warned = order
            .held()
            .is_some_and(|hold| hold.reason == HoldReason::FraudWarning);
        let hold = (order.status() == OrderStatus::Paid && !already_warned).then(|| NewHold {
            reason: HoldReason::FraudWarning,
            detail: warning.fraud_type.clone(),
        });
        let warned = self
            .repository
            .record_fraud_warning(
                order.id,
                warning.event,
                warning.fraud_type,
                hold,
                self.clock.now(),
            )
            .await?;
        match warned {
            Warned::Replayed => Ok(Noticed::Unchanged),
            Warned::Noted => {
                tracing::warn!(order = %order.id, status = %order.status(), "fraud warning on an order past holding");
                Ok(Noticed::Unchanged)
            }
            Warned::Held => {
                tracing::warn!(order = %order.id, "fraud warning: the order is on hold");
                // the warning itself is for staff: the buyer hears only of the hold
                let step = OrderStep::RiskHeld;
                self.notices.order_changed(order.id, step).await;
                if self.policy.refund_on_fraud_warning {
                    match self.refund_as(order.id, providers, None).await {
                        Ok(_) => tracing::info!(order = %order.id, "refunded at the fraud warning"),
                        Err(error) => {
                            tracing::error!(order = %order.id, %error, "the refund at the fraud warning failed: the order stays on hold for staff")
                        }
                    }
                }
                Ok(Noticed::Changed(Box::new(
                    self.repository.order(order.id).await?,
                )))
            }
        }
    }

    /// A chargeback closed with `outcome`. Each event once.
    #[tracing::instrument(skip_all, fields(event = %event.id, outcome = outcome.as_str()))]
    pub async fn dispute_closed(
        &self,
        provider: PaymentProvider,
        payment_id: String,
        outcome: DisputeOutcome,
        event: ProviderEvent,
    ) -> Result<Noticed, OrderError> {
        let Some(order) = self
            .repository
            .order_by_payment(provider, payment_id)
            .await?
        else {
            return Ok(Noticed::UnknownPayment);
        };
        if order.status() != OrderStatus::Disputed {
            return Ok(Noticed::Unchanged);
        }
        let provider = Some(event.provider);
        match self
            .repository
            .close_dispute(order.id, outcome, self.clock.now(), event)
            .await?
        {
            Applied::Changed => {
                let step = match outcome {
                    DisputeOutcome::Won => OrderStep::DisputeWon,
                    DisputeOutcome::Lost => OrderStep::DisputeLost,
                };
                self.notices.payment_changed(order.id, step, provider).await;
                let order = self.repository.order(order.id).await?;
                tracing::info!(order = %order.id, outcome = outcome.as_str(), "dispute closed");
                Ok(Noticed::Changed(Box::new(order)))
            }
            Applied::Replayed | Applied::NotPending(_) => Ok(Noticed::Unchanged),
        }
    }
}

impl<R, C, K> PaymentRecords for AfterSale<R, C, K>
where
    R: AfterSaleRepository + OrderRepository,
    C: Clock,
    K: PaymentRisk,
{
    async fn risk_hold(&self, provider: PaymentProvider, payment_id: String) -> Option<NewHold> {
        AfterSale::risk_hold(self, provider, payment_id).await
    }

    async fn fraud_warned<G: PaymentProviders>(
        &self,
        warning: FraudWarning,
        providers: &G,
    ) -> Result<Noticed, OrderError> {
        AfterSale::fraud_warned(self, warning, providers).await
    }

    async fn payment_confirmed(&self, id: OrderId, payment_id: String) -> Result<(), OrderError> {
        AfterSale::payment_confirmed(self, id, payment_id).await
    }

    async fn payment_deadline(
        &self,
        provider: PaymentProvider,
        payment_id: String,
    ) -> chrono::DateTime<chrono::Utc> {
        AfterSale::delayed_payment_deadline(self, provider, payment_id).await
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
#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::sync::{Arc, Mutex};

    use std::future::Future;

    use blocklist::{BlockStatus, NewBlock};
    use chrono::{DateTime, TimeZone, Utc};
    use mockall::predicate::{always, eq};
    use orders::gateways::PaymentError;
    use orders::BlockKind;
    use shared::{FixedClock, UserId};

    use super::*;
    use crate::ports::MockPaymentRisk;
    use orders::gateways::RefundReceipt;
    use orders::MockPaymentProviders;

    /// Providers that reach every provider (Stripe and PayPal alike).
    fn reaching_all() -> MockPaymentProviders {
        let mut providers = MockPaymentProviders::new();
        providers.expect_reaches().returning(|_| true);
        providers
    }

    fn staff() -> Actor {
        Actor::staff(UserId::new(1), "Bo", "127.0.0.1")
    }
    use orders::{Closing, NewOrder, PendingCaps, PlaceError, Reservation};

    mockall::mock! {
        Repo {}
        impl AfterSaleRepository for Repo {
            fn order_by_payment(&self, provider: PaymentProvider, payment_id: String)
                -> impl Future<Output = Result<Option<Order>, OrderError>> + Send;
            fn record_payment_id(&self, id: OrderId, payment_id: String)
                -> impl Future<Output = Result<(), OrderError>> + Send;
            fn record_partial_refund(&self, id: OrderId, event: ProviderEvent, at: DateTime<Utc>)
                -> impl Future<Output = Result<bool, OrderError>> + Send;
            fn mark_refunded(&self, id: OrderId, at: DateTime<Utc>, refund_id: Option<String>,
                event: Option<ProviderEvent>, actor: Option<Actor>)
                -> impl Future<Output = Result<Applied, OrderError>> + Send;
            fn open_dispute(&self, id: OrderId, at: DateTime<Utc>, event: ProviderEvent,
                reason: Option<String>, blocks: Vec<NewBlock>)
                -> impl Future<Output = Result<Applied, OrderError>> + Send;
            fn close_dispute(&self, id: OrderId, outcome: DisputeOutcome, at: DateTime<Utc>,
                event: ProviderEvent)
                -> impl Future<Output = Result<Applied, OrderError>> + Send;
            fn record_fraud_warning(&self, id: OrderId, event: ProviderEvent,
                fraud_type: Option<String>, hold: Option<NewHold>, at: DateTime<Utc>)
                -> impl Future<Output = Result<Warned, OrderError>> + Send;
        }
        impl OrderRepository for Repo {
            fn place(&self, order: NewOrder, reservation: Reservation, caps: PendingCaps)
                -> impl Future<Output = Result<Order, PlaceError>> + Send;
            fn attach_payment_reference(&self, id: OrderId, reference: String, url: String)
                -> impl Future<Output = Result<(), OrderError>> + Send;
            fn keyed_order(&self, key: orders::ScopedKey, since: DateTime<Utc>)
                -> impl Future<Output = Result<Option<orders::KeyedOrder>, OrderError>> + Send;
            fn order(&self, id: OrderId) -> impl Future<Output = Result<Order, OrderError>> + Send;
            fn orders_of_user(&self, user_id: UserId)
                -> impl Future<Output = Result<Vec<Order>, OrderError>> + Send;
            fn mark_paid(&self, id: OrderId, at: DateTime<Utc>, event: Option<ProviderEvent>,
                hold: Option<orders::NewHold>)
                -> impl Future<Output = Result<Applied, OrderError>> + Send;
            fn mark_paid_too_late(&self, id: OrderId, at: DateTime<Utc>,
                event: Option<ProviderEvent>)
                -> impl Future<Output = Result<Applied, OrderError>> + Send;
            fn mark_awaiting_payment(&self, id: OrderId, payment_id: String,
                pay_by: DateTime<Utc>, at: DateTime<Utc>, event: Option<ProviderEvent>)
                -> impl Future<Output = Result<Applied, OrderError>> + Send;
            fn release(&self, id: OrderId, closing: Closing, at: DateTime<Utc>,
                event: Option<ProviderEvent>)
                -> impl Future<Output = Result<Applied, OrderError>> + Send;
            fn hold_for_review(&self, id: OrderId, reason: String)
                -> impl Future<Output = Result<Applied, OrderError>> + Send;
            fn pending_past_deadline(&self, usual_cutoff: DateTime<Utc>, now: DateTime<Utc>)
                -> impl Future<Output = Result<Vec<OrderId>, OrderError>> + Send;
            fn set_access_key_hash(&self, id: OrderId, hash: String)
                -> impl Future<Output = Result<(), OrderError>> + Send;
            fn units_held(&self, holders: orders::DropHolders)
                -> impl Future<Output = Result<Vec<orders::HeldUnits>, OrderError>> + Send;
        }
    }

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 24, 12, 0, 0).unwrap()
    }

    fn order(status: OrderStatus, payment_id: Option<&'static str>) -> Order {
        orders::testing::TestOrder {
            id: 7,
            email: "Kid@Example.com",
            reference: "cs_test_1",
            payment_id,
            paid: true,
            ..orders::testing::TestOrder::new(PaymentProvider::Stripe, status, now())
        }
        .build()
    }

    fn returning_order(repo: &mut MockRepo, current: Order) {
        repo.expect_order().returning(move |_| {
            let current = current.clone();
            Box::pin(async move { Ok(current) })
        });
    }

    fn service(repo: MockRepo) -> AfterSale<MockRepo, FixedClock, MockPaymentRisk> {
        with_policy(repo, MockPaymentRisk::new(), RiskPolicy::default())
    }

    fn with_policy(
        repo: MockRepo,
        risk: MockPaymentRisk,
        policy: RiskPolicy,
    ) -> AfterSale<MockRepo, FixedClock, MockPaymentRisk> {
        AfterSale::new(repo, FixedClock(now()), risk, policy)
    }

    #[tokio::test]
    async fn a_refund_the_provider_refuses_changes_nothing() {
        let mut repo = MockRepo::new();
        returning_order(&mut repo, order(OrderStatus::Paid, Some("pi_1")));
        repo.expect_mark_refunded().never();
        let mut gateway = reaching_all();
        gateway.expect_refund().times(1).returning(|_, _| {
            Box::pin(async { Err(PaymentError::Unavailable("Stripe answered 500".into())) })
        });
        let error = service(repo)
            .refund(OrderId::new(7), &gateway, &staff())
            .await
            .unwrap_err();
        assert!(matches!(error, RefundError::Provider(_)), "{error:?}");
    }

    #[tokio::test]
    async fn a_refund_the_provider_accepts_is_recorded_with_its_id_and_the_payment() {
        let mut repo = MockRepo::new();
        returning_order(&mut repo, order(OrderStatus::Delivered, None));
        repo.expect_record_payment_id()
            .withf(|id, payment| id.get() == 7 && payment == "pi_found")
            .times(1)
            .returning(|_, _| Box::pin(async { Ok(()) }));
        repo.expect_mark_refunded()
            .withf(|_, _, refund, event, actor| {
                refund.as_deref() == Some("re_1")
                    && event.is_none()
                    && actor.as_ref().and_then(|a| a.user_id) == Some(UserId::new(1))
            })
            .times(1)
            .returning(|_, _, _, _, _| Box::pin(async { Ok(Applied::Changed) }));
        let sent = Arc::new(Mutex::new(None));
        let seen = Arc::clone(&sent);
        let mut gateway = reaching_all();
        gateway
            .expect_refund()
            .with(eq(PaymentProvider::Stripe), always())
            .times(1)
            .returning(move |_, request| {
                *seen.lock().unwrap() = Some(request);
                Box::pin(async {
                    Ok(RefundReceipt {
                        refund_id: "re_1".into(),
                        payment_id: Some("pi_found".into()),
                    })
                })
            });
        service(repo)
            .refund(OrderId::new(7), &gateway, &staff())
            .await
            .unwrap();
        let request = sent.lock().unwrap().clone().unwrap();
        assert_eq!(request.idempotency_key, "refund-order-7");
        assert_eq!(request.provider_reference.as_deref(), Some("cs_test_1"));
        assert_eq!(request.payment_id, None);
    }

    #[tokio::test]
    async fn a_refund_overtaken_by_a_dispute_tells_the_member_of_staff_what_happened() {
        let mut repo = MockRepo::new();
        returning_order(&mut repo, order(OrderStatus::Paid, Some("pi_1")));
        repo.expect_mark_refunded()
            .times(1)
            .returning(|_, _, _, _, _| {
                Box::pin(async { Ok(Applied::NotPending(OrderStatus::Disputed)) })
            });
        let mut gateway = reaching_all();
        gateway.expect_refund().times(1).returning(|_, _| {
            Box::pin(async {
                Ok(RefundReceipt {
                    refund_id: "re_1".into(),
                    payment_id: None,
                })
            })
        });
        let error = service(repo)
            .refund(OrderId::new(7), &gateway, &staff())
            .await
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "The payment was refunded at the provider, but order #7 is disputed now: check it."
        );
    }

    #[tokio::test]
    async fn a_refund_through_a_provider_this_shop_does_not_reach_is_refused_first() {
        let mut repo = MockRepo::new();
        returning_order(&mut repo, order(OrderStatus::Pending, Some("pi_1")));
        repo.expect_mark_refunded().never();
        let mut providers = MockPaymentProviders::new();
        providers
            .expect_reaches()
            .with(eq(PaymentProvider::Stripe))
            .returning(|_| false);
        providers.expect_refund().never();
        let error = service(repo)
            .refund(OrderId::new(7), &providers, &staff())
            .await
            .unwrap_err();
        assert!(
            matches!(error, RefundError::NoProvider(PaymentProvider::Stripe)),
            "{error:?}"
        );
    }

    #[tokio::test]
    async fn only_paid_or_delivered_orders_reach_the_provider() {
        for status in [
            OrderStatus::Pending,
            OrderStatus::Disputed,
            OrderStatus::Expired,
        ] {
            let mut repo = MockRepo::new();
            returning_order(&mut repo, order(status, Some("pi_1")));
            let mut gateway = reaching_all();
            gateway.expect_refund().never();
            let error = service(repo)
                .refund(OrderId::new(7), &gateway, &staff())
                .await
                .unwrap_err();
            assert!(matches!(error, RefundError::Refused(_)), "{status}");
        }
        // refunded already: answered as it is, the provider is not asked again
        let mut repo = MockRepo::new();
        returning_order(&mut repo, order(OrderStatus::Refunded, Some("pi_1")));
        let mut gateway = reaching_all();
        gateway.expect_refund().never();
        let done = service(repo)
            .refund(OrderId::new(7), &gateway, &staff())
            .await
            .unwrap();
        assert_eq!(done.status(), OrderStatus::Refunded);
    }

    #[tokio::test]
    async fn a_dispute_blocks_the_buyer_and_keeps_the_reason_for_staff() {
        for applied in [Applied::Changed, Applied::Replayed] {
            let mut repo = MockRepo::new();
            repo.expect_order_by_payment().returning(|_, _| {
                let mut order = order(OrderStatus::Delivered, Some("pi_1"));
                order.client_ip = Some("2001:0db8::7".into());
                Box::pin(async move { Ok(Some(order)) })
            });
            repo.expect_open_dispute()
                .withf(|id, _, event, reason, blocks| {
                    let entries: Vec<_> = blocks
                        .iter()
                        .map(|b| (b.kind, b.value.as_str(), b.status, b.expires_at))
                        .collect();
                    id.get() == 7
                        && event.id == "evt_1"
                        && reason.as_deref() == Some("fraudulent")
                        && entries
                            == [
                                // what the shop verified blocks: the Discord account, and
                                // the address for 30 days
                                (
                                    BlockKind::DiscordId,
                                    "123456789012345678",
                                    BlockStatus::Active,
                                    None,
                                ),
                                // what the buyer typed could be a stranger's: flagged
                                (
                                    BlockKind::Email,
                                    "kid@example.com",
                                    BlockStatus::Flagged,
                                    None,
                                ),
                                (
                                    BlockKind::RobloxUsername,
                                    "builder_bob",
                                    BlockStatus::Flagged,
                                    None,
                                ),
                                (
                                    BlockKind::Ip,
                                    "2001:db8::7",
                                    BlockStatus::Active,
                                    Some(now() + chrono::Duration::days(30)),
                                ),
                            ]
                        && blocks
                            .iter()
                            .all(|b| b.added_by.is_none() && b.reason == "chargeback on order #7")
                })
                .times(1)
                .returning(move |_, _, _, _, _| Box::pin(async move { Ok(applied) }));
            let noticed = service(repo)
                .dispute_opened(
                    PaymentProvider::Stripe,
                    "pi_1".into(),
                    Some("fraudulent".into()),
                    ProviderEvent {
                        provider: PaymentProvider::Stripe,
                        id: "evt_1".into(),
                    },
                )
                .await
                .unwrap();
            match (applied, noticed) {
                (Applied::Changed, Noticed::Changed(order)) => {
                    assert_eq!(order.status(), OrderStatus::Disputed);
                    assert_eq!(order.dispute.unwrap().previous, OrderStatus::Delivered);
                }
                (Applied::Replayed, Noticed::Unchanged) => {}
                other => panic!("{other:?}"),
            }
        }
    }

    fn warning() -> FraudWarning {
        FraudWarning {
            provider: PaymentProvider::Stripe,
            payment_id: "pi_1".into(),
            fraud_type: Some("unauthorized_use_of_card".into()),
            event: ProviderEvent {
                provider: PaymentProvider::Stripe,
                id: "evt_efw".into(),
            },
        }
    }

    /// A store holding order 7 in `status`, which records the warning with `warned`.
    fn warned_store(status: OrderStatus, warned: Warned) -> MockRepo {
        let mut repo = MockRepo::new();
        repo.expect_order_by_payment()
            .returning(move |_, _| Box::pin(async move { Ok(Some(order(status, Some("pi_1")))) }));
        returning_order(&mut repo, order(status, Some("pi_1")));
        let hold_expected = status == OrderStatus::Paid;
        repo.expect_record_fraud_warning()
            .withf(move |id, event, fraud_type, hold, _| {
                let held = hold
                    .as_ref()
                    .map(|hold| (hold.reason, hold.detail.as_deref()));
                id.get() == 7
                    && event.id == "evt_efw"
                    && fraud_type.as_deref() == Some("unauthorized_use_of_card")
                    && held
                        == hold_expected
                            .then_some((HoldReason::FraudWarning, Some("unauthorized_use_of_card")))
            })
            .times(1)
            .returning(move |_, _, _, _, _| Box::pin(async move { Ok(warned) }));
        repo
    }

    fn refunding(policy: bool) -> RiskPolicy {
        RiskPolicy {
            refund_on_fraud_warning: policy,
            ..RiskPolicy::default()
        }
    }

    #[tokio::test]
    async fn a_fraud_warning_holds_a_paid_order_for_staff() {
        let mut repo = warned_store(OrderStatus::Paid, Warned::Held);
        repo.expect_mark_refunded().never();
        let mut providers = reaching_all();
        providers.expect_refund().never();
        let noticed = with_policy(repo, MockPaymentRisk::new(), refunding(false))
            .fraud_warned(warning(), &providers)
            .await
            .unwrap();
        assert!(matches!(noticed, Noticed::Changed(_)), "{noticed:?}");
    }

    #[tokio::test]
    async fn with_the_policy_a_fraud_warning_refunds_the_held_order_once_by_no_one() {
        let mut repo = warned_store(OrderStatus::Paid, Warned::Held);
        repo.expect_mark_refunded()
            .withf(|id, _, refund, event, actor| {
                id.get() == 7
                    && refund.as_deref() == Some("re_1")
                    && event.is_none()
                    && actor.is_none()
            })
            .times(1)
            .returning(|_, _, _, _, _| Box::pin(async { Ok(Applied::Changed) }));
        let mut providers = reaching_all();
        providers
            .expect_refund()
            .withf(|_, request| request.idempotency_key == "refund-order-7")
            .times(1)
            .returning(|_, _| {
                Box::pin(async {
                    Ok(RefundReceipt {
                        refund_id: "re_1".into(),
                        payment_id: None,
                    })
                })
            });
        with_policy(repo, MockPaymentRisk::new(), refunding(true))
            .fraud_warned(warning(), &providers)
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn a_replayed_or_late_fraud_warning_holds_and_refunds_nothing() {
        for (status, warned) in [
            (OrderStatus::Paid, Warned::Replayed),
            (OrderStatus::Delivered, Warned::Noted),
            (OrderStatus::Refunded, Warned::Noted),
        ] {
            let mut repo = warned_store(status, warned);
            repo.expect_mark_refunded().never();
            let mut providers = reaching_all();
            providers.expect_refund().never();
            let noticed = with_policy(repo, MockPaymentRisk::new(), refunding(true))
                .fraud_warned(warning(), &providers)
                .await
                .unwrap();
            assert_eq!(noticed, Noticed::Unchanged, "{status}");
        }
    }

    #[tokio::test]
    async fn a_failed_refund_at_a_fraud_warning_leaves_the_order_on_hold() {
        let mut repo = warned_store(OrderStatus::Paid, Warned::Held);
        repo.expect_mark_refunded().never();
        let mut providers = reaching_all();
        providers.expect_refund().times(1).returning(|_, _| {
            Box::pin(async { Err(PaymentError::Unavailable("Stripe timed out".into())) })
        });
        let noticed = with_policy(repo, MockPaymentRisk::new(), refunding(true))
            .fraud_warned(warning(), &providers)
            .await
            .unwrap();
        assert!(matches!(noticed, Noticed::Changed(_)), "{noticed:?}");
    }

    #[tokio::test]
    async fn a_risky_payment_is_held_and_one_whose_risk_cannot_be_read_is_not() {
        let rated = |answer: Result<Option<&'static str>, PaymentError>| {
            let answer = Mutex::new(Some(answer));
            let mut risk = MockPaymentRisk::new();
            risk.expect_risk_level()
                .with(eq(PaymentProvider::Stripe), eq("pi_1".to_owned()))
                .times(1)
                .returning(move |_, _| {
                    let answer = answer.lock().unwrap().take().unwrap();
                    Box::pin(async move { answer.map(|level| level.map(str::to_owned)) })
                });
            with_policy(MockRepo::new(), risk, RiskPolicy::default())
        };
        let held = rated(Ok(Some("elevated")))
            .risk_hold(PaymentProvider::Stripe, "pi_1".into())
            .await;
        assert_eq!(
            held,
            Some(NewHold {
                reason: HoldReason::RiskLevel,
                detail: Some("elevated".into()),
            })
        );
        for answer in [
            Ok(Some("normal")),
            Ok(None),
            Err(PaymentError::Unavailable("Stripe answered 503".into())),
        ] {
            let held = rated(answer)
                .risk_hold(PaymentProvider::Stripe, "pi_1".into())
                .await;
            assert_eq!(held, None);
        }
    }
}
