//! Closing an unpaid order: the shopper's cancel and the sweeper's expiry. Its payment page is
//! closed at its provider first, so nobody can pay it afterwards; a page the buyer had paid
//! already confirms the order instead, and a provider that cannot close the page leaves the
//! order pending (it could still be paid), to be tried again.

use crate::gateways::{PaymentError, SessionClosing};
use crate::{
    Checkout, CheckoutPorts, CheckoutService, Closing, ConfirmError, Confirmation, Order,
    OrderStatus, PaymentNotice, PaymentProviders, Release, ReleaseError, TransitionError,
};

/// How closing an unpaid order ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Closed {
    /// Cancelled or expired: its payment page is closed and its stock and promo use are back.
    Released(Box<Order>),
    /// The provider said the buyer had paid already: the order was confirmed as paid instead.
    Paid,
}

/// Why an unpaid order was not closed.
#[derive(Debug, thiserror::Error)]
pub enum CloseError {
    /// Not closed: held for staff review, no longer pending, or gone.
    #[error(transparent)]
    Release(#[from] ReleaseError),
    /// The provider could not close the payment page: the order stays pending (it could still
    /// be paid), to be tried again.
    #[error("the payment page could not be closed")]
    Provider(#[source] PaymentError),
    /// The page was paid, but the payment could not be confirmed (`ConfirmError::Refused`: the
    /// order had left pending first; its payment is recorded for staff to refund).
    #[error(transparent)]
    Confirm(ConfirmError),
}

impl<K: CheckoutPorts> Checkout<K> {
    /// Cancels (the shopper) or expires (the sweeper) a pending order. An order held for staff
    /// review is refused. Its payment page is closed at its provider first (Stripe: the
    /// Checkout Session is expired); when the provider says it was paid already, the order is
    /// confirmed through the same call as the provider's own confirmation instead. A provider
    /// this instance no longer reaches has nothing to close.
    #[tracing::instrument(skip_all, fields(order = %order.id, ?closing))]
    pub async fn close_unpaid<G: PaymentProviders>(
        &self,
        order: &Order,
        closing: Closing,
        providers: &G,
    ) -> Result<Closed, CloseError> {
        if order.review.is_some() {
            return Err(ReleaseError::UnderReview(order.id).into());
        }
        if let (OrderStatus::Pending, Some(reference)) = (order.status(), &order.payment.reference)
        {
            let provider = order.payment.provider;
            let closed = if providers.reaches(provider) {
                providers
                    .close_page(provider, reference.clone())
                    .await
                    .map_err(CloseError::Provider)?
            } else {
                SessionClosing::Closed
            };
            if closed == SessionClosing::Completed {
                tracing::info!(order = %order.id, "the payment page was paid before it closed");
                let notice = PaymentNotice {
                    order_id: order.id,
                    provider,
                    reference: reference.clone(),
                    event: None,
                    hold: None,
                };
                return match self.confirm_paid(notice).await {
                    Ok(
                        Confirmation::Paid(_)
                        | Confirmation::AlreadyPaid(_)
                        | Confirmation::Replayed,
                    ) => Ok(Closed::Paid),
                    Err(error) => Err(CloseError::Confirm(error)),
                };
            }
        }
        let released = match closing {
            Closing::Cancelled => self.cancel(order.id).await?,
            Closing::Expired => self.expire_unpaid(order.id).await?,
        };
        let from = match released {
            Release::Released(order) => return Ok(Closed::Released(Box::new(order))),
            Release::AlreadyClosed(order) => order.status(),
            Release::Replayed => OrderStatus::Pending,
        };
        Err(ReleaseError::Refused(TransitionError {
            from,
            to: closing.status(),
        })
        .into())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use chrono::{DateTime, TimeZone, Utc};
    use mockall::predicate::eq;

    use super::*;
    use crate::ports::{MockOrderRepository, MockPaymentProviders};
    use crate::{Applied, PaymentProvider};

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 26, 12, 0, 0).unwrap()
    }

    /// Order 9, placed through `provider` with the page `cs_9`, in `status`.
    fn order(provider: PaymentProvider, status: OrderStatus) -> Order {
        crate::testing::TestOrder::new(provider, status, now()).build()
    }

    use crate::testing::holding;

    fn checkout(orders: MockOrderRepository) -> crate::testing::TestCheckout {
        crate::testing::checkout(orders, now())
    }

    /// Providers reaching Stripe alone, whose `close_page` answers `closing`.
    fn stripe_closing(closing: Result<SessionClosing, PaymentError>) -> MockPaymentProviders {
        let mut providers = MockPaymentProviders::new();
        providers
            .expect_reaches()
            .returning(|provider| provider == PaymentProvider::Stripe);
        let closing = std::sync::Mutex::new(Some(closing));
        providers
            .expect_close_page()
            .with(eq(PaymentProvider::Stripe), eq("cs_9".to_owned()))
            .times(1)
            .returning(move |_, _| {
                let answer = closing.lock().unwrap().take().unwrap();
                Box::pin(async move { answer })
            });
        providers
    }

    #[tokio::test]
    async fn a_cancel_closes_the_page_at_its_provider_then_releases_the_stock() {
        let pending = order(PaymentProvider::Stripe, OrderStatus::Pending);
        let mut orders = holding(pending.clone());
        orders
            .expect_release()
            .withf(|id, closing, _, event| {
                id.get() == 9 && *closing == Closing::Cancelled && event.is_none()
            })
            .times(1)
            .returning(|_, _, _, _| Box::pin(async { Ok(Applied::Changed) }));
        let providers = stripe_closing(Ok(SessionClosing::Closed));
        let closed = checkout(orders)
            .close_unpaid(&pending, Closing::Cancelled, &providers)
            .await
            .unwrap();
        let Closed::Released(order) = closed else {
            panic!("not released: {closed:?}");
        };
        assert_eq!(order.status(), OrderStatus::Cancelled);
    }

    #[tokio::test]
    async fn a_page_paid_before_it_closed_confirms_the_order_instead_of_expiring_it() {
        let pending = order(PaymentProvider::Stripe, OrderStatus::Pending);
        let mut orders = holding(pending.clone());
        orders
            .expect_mark_paid()
            .withf(|id, _, event, _| id.get() == 9 && event.is_none())
            .times(1)
            .returning(|_, _, _, _| Box::pin(async { Ok(Applied::Changed) }));
        orders.expect_release().never();
        let providers = stripe_closing(Ok(SessionClosing::Completed));
        let closed = checkout(orders)
            .close_unpaid(&pending, Closing::Expired, &providers)
            .await
            .unwrap();
        assert_eq!(closed, Closed::Paid);
    }

    #[tokio::test]
    async fn a_page_the_provider_could_not_close_leaves_the_order_pending() {
        let pending = order(PaymentProvider::Stripe, OrderStatus::Pending);
        let mut orders = holding(pending.clone());
        orders.expect_release().never();
        orders.expect_mark_paid().never();
        let providers = stripe_closing(Err(PaymentError::Unavailable("timed out".into())));
        let refused = checkout(orders)
            .close_unpaid(&pending, Closing::Cancelled, &providers)
            .await;
        assert!(
            matches!(refused, Err(CloseError::Provider(_))),
            "{refused:?}"
        );
    }

    #[tokio::test]
    async fn an_order_held_for_review_is_neither_closed_at_the_provider_nor_released() {
        let mut held = order(PaymentProvider::Stripe, OrderStatus::Pending);
        held.review = Some("PayPal captured another amount".into());
        let mut orders = MockOrderRepository::new();
        orders.expect_release().never();
        let mut providers = MockPaymentProviders::new();
        providers.expect_close_page().never();
        let refused = checkout(orders)
            .close_unpaid(&held, Closing::Expired, &providers)
            .await;
        assert!(
            matches!(refused, Err(CloseError::Release(ReleaseError::UnderReview(id))) if id.get() == 9),
            "{refused:?}"
        );
    }

    #[tokio::test]
    async fn a_provider_this_instance_no_longer_reaches_has_nothing_to_close() {
        let pending = order(PaymentProvider::Paypal, OrderStatus::Pending);
        let mut orders = holding(pending.clone());
        orders
            .expect_release()
            .times(1)
            .returning(|_, _, _, _| Box::pin(async { Ok(Applied::Changed) }));
        let mut providers = MockPaymentProviders::new();
        providers
            .expect_reaches()
            .with(eq(PaymentProvider::Paypal))
            .returning(|_| false);
        providers.expect_close_page().never();
        let closed = checkout(orders)
            .close_unpaid(&pending, Closing::Expired, &providers)
            .await
            .unwrap();
        assert!(matches!(closed, Closed::Released(_)), "{closed:?}");
    }

    #[tokio::test]
    async fn an_order_closed_meanwhile_is_refused_from_its_status() {
        let pending = order(PaymentProvider::Stripe, OrderStatus::Pending);
        let expired = order(PaymentProvider::Stripe, OrderStatus::Expired);
        let mut orders = MockOrderRepository::new();
        orders.expect_order().returning(move |_| {
            let expired = expired.clone();
            Box::pin(async move { Ok(expired) })
        });
        let providers = stripe_closing(Ok(SessionClosing::Closed));
        let refused = checkout(orders)
            .close_unpaid(&pending, Closing::Cancelled, &providers)
            .await;
        assert!(
            matches!(
                refused,
                Err(CloseError::Release(ReleaseError::Refused(
                    TransitionError {
                        from: OrderStatus::Expired,
                        to: OrderStatus::Cancelled
                    }
                )))
            ),
            "{refused:?}"
        );
    }
}
