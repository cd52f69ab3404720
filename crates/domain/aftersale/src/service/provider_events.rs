//! What the shop does when a payment provider reports on a payment: the policy behind Stripe's
//! webhook and PayPal's return. An adapter translates its provider's verified event into a
//! [`PaymentEvent`]; [`apply_payment_event`] decides what it changes and whether the
//! provider is told it was taken ([`Handled`]) or is to send it again
//! ([`EventError::Unknown`]).
//!
//! - A paid payment page confirms its order; the provider's payment id is recorded with it for
//!   refunds and disputes. Before a pending order is confirmed, the provider is asked the
//!   payment's risk: a risky payment is paid on a risk hold, never entering the delivery queue
//!   before staff look at it. A payment for an order that had expired or been cancelled is
//!   recorded for staff to refund (`paid_after_expiry`) and taken: sending it again would not
//!   change that.
//! - An expired page expires its order and gives its stock back.
//! - A refund made at the provider, a chargeback, a closed chargeback and the card issuer's
//!   fraud warning go to after the sale (`AfterSale`).
//! - The buyer's return from PayPal captures the payment, then confirms the order through the
//!   same confirmation as a webhook.
//! - Events the shop does not act on, events about no order of ours and repeated deliveries
//!   are taken and change nothing: each event id is recorded with the change it makes, so a
//!   replayed event changes the order once.

use orders::gateways::{CaptureOutcome, PaymentCapture, PaymentError};
use orders::{
    Checkout, CheckoutPorts, CheckoutService, ConfirmError, OrderError, OrderId, OrderStatus,
    PaymentNotice, PaymentProvider, PaymentProviders, ProviderEvent, ReleaseError,
};

use crate::error::EventError;
use crate::models::{FraudWarning, Handled, Noticed, PaymentEvent, ProviderRefund};
use crate::ports::PaymentRecords;

/// One provider of [`PaymentProviders`] as the capture of [`Checkout::confirm_capture`].
struct CaptureThrough<'a, G> {
    providers: &'a G,
    provider: PaymentProvider,
}

impl<G: PaymentProviders> PaymentCapture for CaptureThrough<'_, G> {
    async fn capture(&self, provider_reference: String) -> Result<CaptureOutcome, PaymentError> {
        self.providers
            .capture(self.provider, provider_reference)
            .await
    }
}

/// The answer to a refund or dispute event: taken unless the store failed.
fn noticed(
    result: Result<Noticed, OrderError>,
    event: &ProviderEvent,
) -> Result<Handled, EventError> {
    match result {
        Ok(Noticed::Changed(order)) => {
            tracing::info!(order = %order.id, event = %event.id, status = %order.status(), "provider event applied");
            Ok(Handled::Taken)
        }
        Ok(Noticed::Unchanged) | Err(OrderError::NotFound(_)) => Ok(Handled::Taken),
        Ok(Noticed::UnknownPayment) => {
            tracing::warn!(event = %event.id, "provider event for a payment of no order of ours");
            Ok(Handled::Taken)
        }
        Err(OrderError::Unknown(cause)) => {
            tracing::error!(event = %event.id, "could not apply a provider event");
            Err(EventError::Unknown(cause))
        }
    }
}

/// Applies a provider's event through `checkout` (see the module's rules): `Ok` when the
/// provider is told it was taken, or with what the buyer's return captured. `records` takes
/// what happens after the sale; `providers` captures an approved payment.
#[tracing::instrument(skip_all)]
pub async fn apply_payment_event<K, A, G>(
    checkout: &Checkout<K>,
    event: PaymentEvent,
    records: &A,
    providers: &G,
) -> Result<Handled, EventError>
where
    K: CheckoutPorts,
    A: PaymentRecords,
    G: PaymentProviders,
{
    match event {
        PaymentEvent::PageCompleted {
            event,
            order,
            reference,
            paid,
            payment_id,
        } => {
            let Some(order) = order else {
                tracing::info!(event = %event.id, "payment page of no order of ours");
                return Ok(Handled::Taken);
            };
            let page = CompletedPage {
                order,
                reference,
                payment_id,
                event,
            };
            if paid {
                page_paid(checkout, page, records).await
            } else {
                page_awaiting(checkout, page, records).await
            }
        }
        PaymentEvent::PageExpired {
            event,
            order,
            reference,
        } => match order {
            Some(order) => page_expired(checkout, order, reference, event).await,
            None => Ok(Handled::Taken),
        },
        after_sale @ (PaymentEvent::Refunded { .. }
        | PaymentEvent::DisputeOpened { .. }
        | PaymentEvent::DisputeClosed { .. }
        | PaymentEvent::FraudWarning { .. }) => {
            after_the_sale(after_sale, records, providers).await
        }
        // recorded by the disputes' own service
        PaymentEvent::DisputeUpdated { .. } => Ok(Handled::Taken),
        PaymentEvent::Approved {
            provider,
            order,
            token,
        } => {
            let capture = CaptureThrough {
                providers,
                provider,
            };
            checkout
                .confirm_capture(order, provider, &token, &capture)
                .await
                .map(Handled::Captured)
                .map_err(EventError::Capture)
        }
        PaymentEvent::Other { event, kind } => {
            tracing::debug!(event = %event.id, %kind, "provider event ignored");
            Ok(Handled::Taken)
        }
    }
}

/// A refund made at the provider, a chargeback opened or closed, the issuer's fraud warning: a
/// change after the sale, through `records`.
async fn after_the_sale<A: PaymentRecords, G: PaymentProviders>(
    event: PaymentEvent,
    records: &A,
    providers: &G,
) -> Result<Handled, EventError> {
    match event {
        PaymentEvent::Refunded {
            event,
            payment_id: Some(payment_id),
            whole,
        } => {
            let refund = ProviderRefund {
                provider: event.provider,
                payment_id,
                whole,
                event: event.clone(),
            };
            noticed(records.provider_refunded(refund).await, &event)
        }
        PaymentEvent::DisputeOpened {
            event,
            payment_id: Some(payment_id),
            reason,
            ..
        } => {
            let opened = records
                .dispute_opened(event.provider, payment_id, reason, event.clone())
                .await;
            noticed(opened, &event)
        }
        PaymentEvent::DisputeClosed {
            event,
            outcome: Err(status),
            ..
        } => {
            tracing::info!(event = %event.id, %status, "dispute closed without an outcome we know");
            Ok(Handled::Taken)
        }
        PaymentEvent::DisputeClosed {
            event,
            payment_id: Some(payment_id),
            outcome: Ok(outcome),
            ..
        } => {
            let closed = records
                .dispute_closed(event.provider, payment_id, outcome, event.clone())
                .await;
            noticed(closed, &event)
        }
        PaymentEvent::FraudWarning {
            event,
            payment_id: Some(payment_id),
            fraud_type,
            ..
        } => {
            let warning = FraudWarning {
                provider: event.provider,
                payment_id,
                fraud_type,
                event: event.clone(),
            };
            noticed(records.fraud_warned(warning, providers).await, &event)
        }
        // a refund, dispute or warning of no payment: nothing of ours to find
        _ => Ok(Handled::Taken),
    }
}

/// A payment page of one of our orders, completed (paid, or with a method that confirms
/// later), as the provider's event names it.
struct CompletedPage {
    order: OrderId,
    reference: String,
    payment_id: Option<String>,
    event: ProviderEvent,
}

/// The buyer finished the page of `order` with a method that confirms later (a voucher, a
/// bank debit): the order stays pending, its stock held until the method's deadline, its
/// payment id recorded; once however often the provider says so. A page without a payment
/// names nothing to wait for (and nothing to refund): it is taken and changes nothing.
async fn page_awaiting<A: PaymentRecords>(
    checkout: &impl CheckoutService,
    page: CompletedPage,
    records: &A,
) -> Result<Handled, EventError> {
    let CompletedPage {
        order,
        reference,
        payment_id,
        event,
    } = page;
    let event_id = event.id.clone();
    let Some(payment_id) = payment_id else {
        tracing::warn!(event = %event_id, "payment page completed unpaid without a payment");
        return Ok(Handled::Taken);
    };
    // a replay, or an order paid or closed meanwhile, asks the provider nothing
    let pending = matches!(
        checkout.order(order).await,
        Ok(current) if current.status() == OrderStatus::Pending && !current.awaits_delayed_payment()
    );
    if !pending {
        tracing::info!(event = %event_id, "payment page completed unpaid: nothing to change");
        return Ok(Handled::Taken);
    }
    let pay_by = records
        .payment_deadline(event.provider, payment_id.clone())
        .await;
    let notice = PaymentNotice {
        order_id: order,
        provider: event.provider,
        reference,
        event: Some(event),
        hold: None,
    };
    match checkout.await_payment(notice, payment_id, pay_by).await {
        Ok(_) | Err(ConfirmError::NotFound(_) | ConfirmError::Refused(_)) => Ok(Handled::Taken),
        Err(ConfirmError::ReferenceMismatch(id)) => {
            tracing::warn!(event = %event_id, order = %id, "awaiting not applied: another page");
            Err(EventError::WrongPage(id))
        }
        Err(ConfirmError::Unknown(cause)) => {
            tracing::warn!(event = %event_id, error = %cause, "awaiting not applied");
            Err(EventError::Unknown(cause))
        }
    }
}

/// The buyer paid the page of `order`: a pending order's payment is first rated (a risky one
/// is paid on a risk hold), then confirmed through the same call as every payment, then its
/// payment id recorded. A payment for an order closed meanwhile (a delayed method that paid
/// after its deadline) keeps its payment id too, for staff to refund it.
async fn page_paid<A: PaymentRecords>(
    checkout: &impl CheckoutService,
    page: CompletedPage,
    records: &A,
) -> Result<Handled, EventError> {
    let CompletedPage {
        order,
        reference,
        payment_id,
        event,
    } = page;
    let event_id = event.id.clone();
    // a replay, or an order closed meanwhile, is not rated again
    let pending = matches!(
        checkout.order(order).await,
        Ok(current) if current.status() == OrderStatus::Pending
    );
    let hold = match &payment_id {
        Some(payment_id) if pending => records.risk_hold(event.provider, payment_id.clone()).await,
        _ => None,
    };
    let notice = PaymentNotice {
        order_id: order,
        provider: event.provider,
        reference,
        event: Some(event),
        hold,
    };
    match checkout.confirm_paid(notice).await {
        Ok(_) => {
            if let Some(payment_id) = payment_id {
                records
                    .payment_confirmed(order, payment_id)
                    .await
                    .inspect_err(|_| tracing::error!(event = %event_id, "could not record a provider's payment id"))?;
            }
            Ok(Handled::Taken)
        }
        // Paid after it expired: recorded for staff (`paid_after_expiry`) with its payment,
        // which they refund; sending it again will not change that, so the provider is told it
        // was taken.
        Err(ConfirmError::Refused(_)) => {
            if let Some(payment_id) = payment_id {
                records
                    .payment_confirmed(order, payment_id)
                    .await
                    .inspect_err(|_| tracing::error!(event = %event_id, "could not record a late payment's id"))?;
            }
            Ok(Handled::Taken)
        }
        Err(ConfirmError::NotFound(_)) => Ok(Handled::Taken),
        Err(ConfirmError::ReferenceMismatch(id)) => {
            tracing::warn!(event = %event_id, order = %id, "payment not applied: another page");
            Err(EventError::WrongPage(id))
        }
        Err(ConfirmError::Unknown(cause)) => {
            tracing::warn!(event = %event_id, error = %cause, "payment not applied");
            Err(EventError::Unknown(cause))
        }
    }
}

/// The page of `order` expired unpaid: the order expires and gives its stock back, once.
async fn page_expired(
    checkout: &impl CheckoutService,
    order: OrderId,
    reference: String,
    event: ProviderEvent,
) -> Result<Handled, EventError> {
    let event_id = event.id.clone();
    let notice = PaymentNotice {
        order_id: order,
        provider: event.provider,
        reference,
        event: Some(event),
        hold: None,
    };
    match checkout.expire(notice).await {
        Ok(_)
        | Err(
            ReleaseError::NotFound(_) | ReleaseError::Refused(_) | ReleaseError::UnderReview(_),
        ) => Ok(Handled::Taken),
        Err(ReleaseError::ReferenceMismatch(id)) => {
            tracing::warn!(event = %event_id, order = %id, "expiry not applied: another page");
            Err(EventError::WrongPage(id))
        }
        Err(ReleaseError::Unknown(cause)) => {
            tracing::warn!(event = %event_id, error = %cause, "expiry not applied");
            Err(EventError::Unknown(cause))
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use chrono::{DateTime, TimeZone, Utc};
    use mockall::predicate::eq;

    use super::*;
    use crate::ports::MockPaymentRecords;
    use orders::gateways::CapturedAmount;
    use orders::{Applied, Closing, Confirmation, HoldReason, NewHold, Order, OrderStatus};
    use orders::{CaptureError, Captured, DisputeOutcome};
    use orders::{MockOrderRepository, MockPaymentProviders};

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 26, 12, 0, 0).unwrap()
    }

    /// Order 9, placed through `provider` with the page `cs_9`, in `status`; $10.77.
    fn order(provider: PaymentProvider, status: OrderStatus) -> Order {
        orders::testing::TestOrder::new(provider, status, now()).build()
    }

    /// A store holding order 9 through Stripe in `status`.
    fn holding(status: OrderStatus) -> MockOrderRepository {
        orders::testing::holding(order(PaymentProvider::Stripe, status))
    }

    fn checkout(orders: MockOrderRepository) -> orders::testing::TestCheckout {
        orders::testing::checkout(orders, now())
    }

    fn stripe(id: &str) -> ProviderEvent {
        ProviderEvent {
            provider: PaymentProvider::Stripe,
            id: id.into(),
        }
    }

    /// The completed page `cs_9` of order 9, paid with `pi_9`.
    fn paid_page() -> PaymentEvent {
        PaymentEvent::PageCompleted {
            event: stripe("evt_paid"),
            order: Some(OrderId::new(9)),
            reference: "cs_9".into(),
            paid: true,
            payment_id: Some("pi_9".into()),
        }
    }

    /// Records that expect nothing; providers that reach nothing.
    fn quiet() -> (MockPaymentRecords, MockPaymentProviders) {
        (MockPaymentRecords::new(), MockPaymentProviders::new())
    }

    /// Records that rate payment `pi_9` once and hold it with `hold`.
    fn rating(hold: Option<NewHold>) -> (MockPaymentRecords, MockPaymentProviders) {
        let (mut records, providers) = quiet();
        records
            .expect_risk_hold()
            .with(eq(PaymentProvider::Stripe), eq("pi_9".to_owned()))
            .times(1)
            .returning(move |_, _| {
                let hold = hold.clone();
                Box::pin(async move { hold })
            });
        (records, providers)
    }

    async fn apply(
        orders: MockOrderRepository,
        event: PaymentEvent,
        records: &MockPaymentRecords,
        providers: &MockPaymentProviders,
    ) -> Result<Handled, EventError> {
        apply_payment_event(&checkout(orders), event, records, providers).await
    }

    /// Applies `event` with records and providers that expect nothing: taken.
    async fn taken(orders: MockOrderRepository, event: PaymentEvent) {
        let (records, providers) = quiet();
        let handled = apply(orders, event, &records, &providers).await;
        assert_eq!(handled.unwrap(), Handled::Taken);
    }

    fn store_failed() -> OrderError {
        OrderError::Unknown(anyhow::anyhow!("the database is gone"))
    }

    #[tokio::test]
    async fn a_paid_page_confirms_its_order_and_records_the_payment_id() {
        let mut orders = holding(OrderStatus::Pending);
        orders
            .expect_mark_paid()
            .withf(|id, _, event, _| id.get() == 9 && *event == Some(stripe("evt_paid")))
            .times(1)
            .returning(|_, _, _, _| Box::pin(async { Ok(Applied::Changed) }));
        let (mut records, providers) = rating(None);
        records
            .expect_payment_confirmed()
            .with(eq(OrderId::new(9)), eq("pi_9".to_owned()))
            .times(1)
            .returning(|_, _| Box::pin(async { Ok(()) }));
        let handled = apply(orders, paid_page(), &records, &providers).await;
        assert_eq!(handled.unwrap(), Handled::Taken);
    }

    #[tokio::test]
    async fn a_replayed_payment_changes_nothing_and_is_taken() {
        let mut orders = holding(OrderStatus::Pending);
        orders
            .expect_mark_paid()
            .times(1)
            .returning(|_, _, _, _| Box::pin(async { Ok(Applied::Replayed) }));
        let (mut records, providers) = rating(None);
        records
            .expect_payment_confirmed()
            .times(1)
            .returning(|_, _| Box::pin(async { Ok(()) }));
        let handled = apply(orders, paid_page(), &records, &providers).await;
        assert_eq!(handled.unwrap(), Handled::Taken);
    }

    #[tokio::test]
    async fn a_risky_payment_is_paid_on_its_hold() {
        let hold = NewHold {
            reason: HoldReason::RiskLevel,
            detail: Some("elevated".into()),
        };
        let mut orders = holding(OrderStatus::Pending);
        orders
            .expect_mark_paid()
            .with(
                eq(OrderId::new(9)),
                mockall::predicate::always(),
                eq(Some(stripe("evt_paid"))),
                eq(Some(hold.clone())),
            )
            .times(1)
            .returning(|_, _, _, _| Box::pin(async { Ok(Applied::Changed) }));
        let (mut records, providers) = rating(Some(hold));
        records
            .expect_payment_confirmed()
            .times(1)
            .returning(|_, _| Box::pin(async { Ok(()) }));
        let handled = apply(orders, paid_page(), &records, &providers).await;
        assert_eq!(handled.unwrap(), Handled::Taken);
    }

    #[tokio::test]
    async fn a_payment_of_an_order_paid_before_is_not_rated_again() {
        let orders = holding(OrderStatus::Paid);
        let (mut records, providers) = quiet();
        records.expect_risk_hold().never();
        records
            .expect_payment_confirmed()
            .times(1)
            .returning(|_, _| Box::pin(async { Ok(()) }));
        let handled = apply(orders, paid_page(), &records, &providers).await;
        assert_eq!(handled.unwrap(), Handled::Taken);
    }

    #[tokio::test]
    async fn a_fraud_warning_goes_to_after_the_sale_and_one_of_no_payment_is_taken() {
        let (mut records, providers) = quiet();
        records
            .expect_fraud_warned::<MockPaymentProviders>()
            .withf(|warning, _| {
                *warning
                    == FraudWarning {
                        provider: PaymentProvider::Stripe,
                        payment_id: "pi_9".into(),
                        fraud_type: Some("misc".into()),
                        event: stripe("evt_efw"),
                    }
            })
            .times(1)
            .returning(|_, _| Box::pin(async { Ok(Noticed::Unchanged) }));
        let warning = |payment_id: Option<&str>| PaymentEvent::FraudWarning {
            event: stripe("evt_efw"),
            payment_id: payment_id.map(str::to_owned),
            warning_id: "issfr_1".into(),
            charge_id: Some("ch_1".into()),
            fraud_type: Some("misc".into()),
        };
        let handled = apply(
            MockOrderRepository::new(),
            warning(Some("pi_9")),
            &records,
            &providers,
        )
        .await;
        assert_eq!(handled.unwrap(), Handled::Taken);
        let handled = apply(
            MockOrderRepository::new(),
            warning(None),
            &records,
            &providers,
        )
        .await;
        assert_eq!(handled.unwrap(), Handled::Taken);
    }

    #[tokio::test]
    async fn a_payment_too_late_is_recorded_for_staff_and_taken() {
        let mut orders = holding(OrderStatus::Expired);
        orders.expect_mark_paid().never();
        orders
            .expect_mark_paid_too_late()
            .withf(|id, _, event| id.get() == 9 && *event == Some(stripe("evt_paid")))
            .times(1)
            .returning(|_, _, _| Box::pin(async { Ok(Applied::Changed) }));
        let (mut records, providers) = quiet();
        // kept with the order, for staff to refund it
        records
            .expect_payment_confirmed()
            .with(eq(OrderId::new(9)), eq("pi_9".to_owned()))
            .times(1)
            .returning(|_, _| Box::pin(async { Ok(()) }));
        let handled = apply(orders, paid_page(), &records, &providers).await;
        assert_eq!(handled.unwrap(), Handled::Taken);
    }

    /// The page `cs_9` of order 9 finished with a voucher `pi_9` not paid yet.
    fn unpaid_page(payment_id: Option<&str>) -> PaymentEvent {
        PaymentEvent::PageCompleted {
            event: stripe("evt_unpaid"),
            order: Some(OrderId::new(9)),
            reference: "cs_9".into(),
            paid: false,
            payment_id: payment_id.map(str::to_owned),
        }
    }

    #[tokio::test]
    async fn a_page_completed_before_the_money_arrived_holds_the_order_until_the_methods_deadline()
    {
        let deadline = now() + chrono::Duration::days(3);
        let mut orders = holding(OrderStatus::Pending);
        orders.expect_mark_paid().never();
        orders
            .expect_mark_awaiting_payment()
            .withf(move |id, payment, pay_by, _, event| {
                id.get() == 9
                    && payment == "pi_9"
                    && *pay_by == deadline
                    && *event == Some(stripe("evt_unpaid"))
            })
            .times(1)
            .returning(|_, _, _, _, _| Box::pin(async { Ok(Applied::Changed) }));
        let (mut records, providers) = quiet();
        records.expect_risk_hold().never();
        records
            .expect_payment_deadline()
            .with(eq(PaymentProvider::Stripe), eq("pi_9".to_owned()))
            .times(1)
            .returning(move |_, _| Box::pin(async move { deadline }));
        let handled = apply(orders, unpaid_page(Some("pi_9")), &records, &providers).await;
        assert_eq!(handled.unwrap(), Handled::Taken);
    }

    #[tokio::test]
    async fn an_unpaid_page_of_an_order_paid_closed_or_awaiting_already_changes_nothing() {
        for status in [OrderStatus::Paid, OrderStatus::Expired] {
            let mut orders = holding(status);
            orders.expect_mark_awaiting_payment().never();
            taken(orders, unpaid_page(Some("pi_9"))).await;
        }
        let awaiting = orders::testing::TestOrder {
            payment_id: Some("pi_9"),
            ..orders::testing::TestOrder::new(PaymentProvider::Stripe, OrderStatus::Pending, now())
        }
        .build();
        let mut orders = orders::testing::holding(awaiting);
        orders.expect_mark_awaiting_payment().never();
        taken(orders, unpaid_page(Some("pi_9"))).await;
        // without a payment there is nothing to wait for
        let mut orders = MockOrderRepository::new();
        orders.expect_order().never();
        taken(orders, unpaid_page(None)).await;
    }

    #[tokio::test]
    async fn a_page_of_no_order_of_ours_is_taken() {
        let mut orders = MockOrderRepository::new();
        orders.expect_order().never();
        let event = PaymentEvent::PageExpired {
            event: stripe("evt_foreign"),
            order: None,
            reference: "cs_other".into(),
        };
        taken(orders, event).await;
    }

    #[tokio::test]
    async fn another_page_than_the_orders_is_refused() {
        let mut orders = holding(OrderStatus::Pending);
        orders.expect_mark_paid().never();
        let (records, providers) = quiet();
        let event = PaymentEvent::PageCompleted {
            event: stripe("evt_paid"),
            order: Some(OrderId::new(9)),
            reference: "cs_forged".into(),
            paid: true,
            payment_id: None,
        };
        let refused = apply(orders, event, &records, &providers).await;
        assert!(
            matches!(refused, Err(EventError::WrongPage(id)) if id.get() == 9),
            "{refused:?}"
        );
    }

    #[tokio::test]
    async fn a_store_failure_has_the_provider_send_the_payment_again() {
        let mut orders = holding(OrderStatus::Pending);
        orders
            .expect_mark_paid()
            .times(1)
            .returning(|_, _, _, _| Box::pin(async { Err(store_failed()) }));
        let (mut records, providers) = rating(None);
        records.expect_payment_confirmed().never();
        let retried = apply(orders, paid_page(), &records, &providers).await;
        assert!(
            matches!(retried, Err(EventError::Unknown(_))),
            "{retried:?}"
        );
    }

    #[tokio::test]
    async fn an_expired_page_releases_its_order_once() {
        let mut orders = holding(OrderStatus::Pending);
        orders
            .expect_release()
            .withf(|id, closing, _, event| {
                id.get() == 9 && *closing == Closing::Expired && *event == Some(stripe("evt_exp"))
            })
            .times(1)
            .returning(|_, _, _, _| Box::pin(async { Ok(Applied::Changed) }));
        let event = PaymentEvent::PageExpired {
            event: stripe("evt_exp"),
            order: Some(OrderId::new(9)),
            reference: "cs_9".into(),
        };
        taken(orders, event).await;
    }

    #[tokio::test]
    async fn an_expired_page_of_an_order_paid_meanwhile_keeps_its_stock() {
        let mut orders = holding(OrderStatus::Paid);
        orders.expect_release().never();
        let event = PaymentEvent::PageExpired {
            event: stripe("evt_exp"),
            order: Some(OrderId::new(9)),
            reference: "cs_9".into(),
        };
        taken(orders, event).await;
    }

    #[tokio::test]
    async fn a_whole_refund_at_the_provider_goes_to_after_the_sale() {
        let (mut records, providers) = quiet();
        records
            .expect_provider_refunded()
            .with(eq(ProviderRefund {
                provider: PaymentProvider::Stripe,
                payment_id: "pi_9".into(),
                whole: true,
                event: stripe("evt_refund"),
            }))
            .times(1)
            .returning(|_| {
                let refunded = order(PaymentProvider::Stripe, OrderStatus::Refunded);
                Box::pin(async move { Ok(Noticed::Changed(Box::new(refunded))) })
            });
        let event = PaymentEvent::Refunded {
            event: stripe("evt_refund"),
            payment_id: Some("pi_9".into()),
            whole: true,
        };
        let handled = apply(MockOrderRepository::new(), event, &records, &providers).await;
        assert_eq!(handled.unwrap(), Handled::Taken);
    }

    #[tokio::test]
    async fn a_refund_of_no_payment_of_ours_is_taken_and_a_store_failure_is_not() {
        let (mut records, providers) = quiet();
        records
            .expect_provider_refunded()
            .times(1)
            .returning(|_| Box::pin(async { Ok(Noticed::UnknownPayment) }));
        let event = PaymentEvent::Refunded {
            event: stripe("evt_refund"),
            payment_id: Some("pi_unknown".into()),
            whole: true,
        };
        let handled = apply(
            MockOrderRepository::new(),
            event.clone(),
            &records,
            &providers,
        );
        assert_eq!(handled.await.unwrap(), Handled::Taken);

        let (mut records, providers) = quiet();
        records
            .expect_provider_refunded()
            .times(1)
            .returning(|_| Box::pin(async { Err(store_failed()) }));
        let retried = apply(MockOrderRepository::new(), event, &records, &providers).await;
        assert!(
            matches!(retried, Err(EventError::Unknown(_))),
            "{retried:?}"
        );
    }

    #[tokio::test]
    async fn a_refund_without_a_payment_id_changes_nothing() {
        let (mut records, providers) = quiet();
        records.expect_provider_refunded().never();
        let event = PaymentEvent::Refunded {
            event: stripe("evt_refund"),
            payment_id: None,
            whole: true,
        };
        let handled = apply(MockOrderRepository::new(), event, &records, &providers).await;
        assert_eq!(handled.unwrap(), Handled::Taken);
    }

    #[tokio::test]
    async fn a_dispute_opened_goes_to_after_the_sale_with_its_reason() {
        let (mut records, providers) = quiet();
        records
            .expect_dispute_opened()
            .with(
                eq(PaymentProvider::Stripe),
                eq("pi_9".to_owned()),
                eq(Some("fraudulent".to_owned())),
                eq(stripe("evt_dispute")),
            )
            .times(1)
            .returning(|_, _, _, _| Box::pin(async { Ok(Noticed::Unchanged) }));
        let event = PaymentEvent::DisputeOpened {
            event: stripe("evt_dispute"),
            payment_id: Some("pi_9".into()),
            reason: Some("fraudulent".into()),
            dispute: None,
        };
        let handled = apply(MockOrderRepository::new(), event, &records, &providers).await;
        assert_eq!(handled.unwrap(), Handled::Taken);
    }

    #[tokio::test]
    async fn a_dispute_won_or_lost_goes_to_after_the_sale_with_its_outcome() {
        for outcome in [DisputeOutcome::Won, DisputeOutcome::Lost] {
            let (mut records, providers) = quiet();
            records
                .expect_dispute_closed()
                .with(
                    eq(PaymentProvider::Stripe),
                    eq("pi_9".to_owned()),
                    eq(outcome),
                    eq(stripe("evt_closed")),
                )
                .times(1)
                .returning(|_, _, _, _| {
                    let paid = order(PaymentProvider::Stripe, OrderStatus::Paid);
                    Box::pin(async move { Ok(Noticed::Changed(Box::new(paid))) })
                });
            let event = PaymentEvent::DisputeClosed {
                event: stripe("evt_closed"),
                payment_id: Some("pi_9".into()),
                outcome: Ok(outcome),
                dispute: None,
            };
            let handled = apply(MockOrderRepository::new(), event, &records, &providers).await;
            assert_eq!(handled.unwrap(), Handled::Taken, "{outcome:?}");
        }
    }

    #[tokio::test]
    async fn a_dispute_closed_without_an_outcome_we_know_changes_nothing() {
        let (mut records, providers) = quiet();
        records.expect_dispute_closed().never();
        let event = PaymentEvent::DisputeClosed {
            event: stripe("evt_closed"),
            payment_id: Some("pi_9".into()),
            outcome: Err("under_review".into()),
            dispute: None,
        };
        let handled = apply(MockOrderRepository::new(), event, &records, &providers).await;
        assert_eq!(handled.unwrap(), Handled::Taken);
    }

    #[tokio::test]
    async fn an_event_the_shop_does_not_act_on_is_taken() {
        let mut orders = MockOrderRepository::new();
        orders.expect_order().never();
        let event = PaymentEvent::Other {
            event: stripe("evt_other"),
            kind: "customer.created".into(),
        };
        taken(orders, event).await;
    }

    /// PayPal's return for order 9 (its page `cs_9`), captured with `outcome`.
    async fn approved(
        orders: MockOrderRepository,
        outcome: Result<CaptureOutcome, PaymentError>,
    ) -> Result<Handled, EventError> {
        let records = MockPaymentRecords::new();
        let mut providers = MockPaymentProviders::new();
        let outcome = std::sync::Mutex::new(Some(outcome));
        providers
            .expect_capture()
            .with(eq(PaymentProvider::Paypal), eq("cs_9".to_owned()))
            .times(1)
            .returning(move |_, _| {
                let answer = outcome.lock().unwrap().take().unwrap();
                Box::pin(async move { answer })
            });
        let event = PaymentEvent::Approved {
            provider: PaymentProvider::Paypal,
            order: OrderId::new(9),
            token: "cs_9".into(),
        };
        apply(orders, event, &records, &providers).await
    }

    fn paypal_pending() -> MockOrderRepository {
        let pending = order(PaymentProvider::Paypal, OrderStatus::Pending);
        let mut orders = MockOrderRepository::new();
        orders.expect_order().returning(move |_| {
            let pending = pending.clone();
            Box::pin(async move { Ok(pending) })
        });
        orders
    }

    #[tokio::test]
    async fn an_approved_payment_is_captured_through_its_provider_then_confirmed() {
        let mut orders = paypal_pending();
        orders
            .expect_mark_paid()
            .withf(|id, _, event, _| id.get() == 9 && event.is_none())
            .times(1)
            .returning(|_, _, _, _| Box::pin(async { Ok(Applied::Changed) }));
        let captured = approved(
            orders,
            Ok(CaptureOutcome::Completed {
                amount: Some(CapturedAmount {
                    value: "10.77".into(),
                    currency: "USD".into(),
                }),
            }),
        )
        .await
        .unwrap();
        let Handled::Captured(Captured::Confirmed(confirmation)) = captured else {
            panic!("not confirmed: {captured:?}");
        };
        assert!(matches!(*confirmation, Confirmation::Paid(_)));
    }

    #[tokio::test]
    async fn a_capture_the_provider_failed_leaves_the_order_to_be_tried_again() {
        let mut orders = paypal_pending();
        orders.expect_mark_paid().never();
        let failed = approved(
            orders,
            Err(PaymentError::Unavailable("PayPal timed out".into())),
        )
        .await;
        assert!(
            matches!(failed, Err(EventError::Capture(CaptureError::Provider(_)))),
            "{failed:?}"
        );
    }
}
