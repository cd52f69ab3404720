//! Checkout's payment step: opening the provider's page for a placed order (cancelling the
//! order when that fails), and capturing a payment the buyer approved on the provider's side
//! (PayPal's return).

use chrono::Duration;

use crate::gateways::{
    CaptureOutcome, HostedCheckoutRequest, PaymentCapture, PaymentError, PaymentGateway,
};
use crate::idempotency::{ScopedKey, IDEMPOTENCY_WINDOW_HOURS, PAGE_GRACE_SECONDS};
use crate::{
    Checkout, CheckoutError, CheckoutPorts, CheckoutRequest, CheckoutService, ConfirmError,
    Confirmation, KeyedOrder, Order, OrderError, OrderId, OrderRepository, OrderStatus,
    PaymentNotice, PaymentProvider, PlacedOrder, TransitionError, PAYMENT_WINDOW_MINUTES,
};

/// Where the provider sends the shopper back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReturnUrls {
    /// After paying (PayPal: after approving, to capture).
    pub success_url: String,
    /// After giving up.
    pub cancel_url: String,
    /// The shop's own page of a paid order (`/success`), for a repeated checkout of an order
    /// paid since.
    pub paid_url: String,
}

/// A placed order whose payment page is open.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenedCheckout {
    pub placed: PlacedOrder,
    /// Where to send the shopper to pay (for an order paid already: the success page).
    pub redirect_url: String,
    /// `Some` when this is the answer to a repeated request: the order was placed before,
    /// under the same `Idempotency-Key`.
    pub replayed: Option<Replayed>,
}

/// What a repeated checkout answers besides the order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replayed {
    /// The browser session's token the order was placed with, for a session that lost it (the
    /// first answer never arrived, and neither did the session's cookie).
    pub buyer_token: Option<String>,
}

/// Why checkout did not end on a payment page.
#[derive(Debug, thiserror::Error)]
pub enum OpenCheckoutError {
    /// Nothing was reserved: the cart, the promo code, the stock or a cap refused it.
    #[error(transparent)]
    Refused(#[from] CheckoutError),
    /// The provider could not open its page, or the page could not be recorded with the order:
    /// the order was cancelled (its stock and promo use released) and any page that was opened
    /// closed.
    #[error("Payment failed.")]
    PaymentFailed {
        order_id: OrderId,
        #[source]
        cause: anyhow::Error,
    },
}

/// What a return from the provider after the buyer approved did.
#[derive(Debug, Clone, PartialEq)]
pub enum Captured {
    /// Captured and confirmed through the same call as a webhook: the order is paid (or was
    /// paid by a confirmation that arrived first).
    Confirmed(Box<Confirmation>),
    /// The order was paid before this return: nothing was captured.
    PaidBefore,
    /// The order is expired or cancelled, or the provider did not complete the capture: no
    /// money was taken for an order whose stock may be gone.
    NotPaid,
    /// The money moved but the shop cannot deliver on it as it is (the captured amount is not
    /// the order's total, or the provider holds the payment): the order is held for staff with
    /// `reason`. `newly_held` is false when it was held already (a repeated return).
    Held {
        order: Box<Order>,
        reason: String,
        newly_held: bool,
    },
    /// Captured, but the order had expired or been cancelled meanwhile: the payment has to be
    /// refunded by staff.
    TooLate(TransitionError),
}

impl Captured {
    /// Whether the shopper goes to the success page (otherwise to the cancel page).
    pub fn is_success(&self) -> bool {
        matches!(
            self,
            Captured::Confirmed(_) | Captured::PaidBefore | Captured::Held { .. }
        )
    }
}

/// Why a return from the provider was not applied.
#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    #[error("Order not found.")]
    NotFound(OrderId),
    /// The provider's token is not the payment recorded with the order.
    #[error("This {} payment does not belong to this order.", .provider.name())]
    NotThisPayment {
        order_id: OrderId,
        provider: PaymentProvider,
    },
    /// The provider could not capture (refused, unreachable, unreadable answer); the order is
    /// unchanged and may be tried again.
    #[error("Payment failed.")]
    Provider(#[source] PaymentError),
    #[error(transparent)]
    Unknown(anyhow::Error),
}

impl From<OrderError> for CaptureError {
    fn from(error: OrderError) -> Self {
        match error {
            OrderError::NotFound(id) => CaptureError::NotFound(id),
            OrderError::Unknown(e) => CaptureError::Unknown(e),
        }
    }
}

/// What the provider's page shows for a placed order: the cart's hosted lines (each at its
/// discounted unit price, exact to the cent) and the fee line.
pub fn hosted_request(
    placed: &PlacedOrder,
    urls: ReturnUrls,
    expires_at: chrono::DateTime<chrono::Utc>,
) -> HostedCheckoutRequest {
    let page = placed.cart.hosted_lines();
    HostedCheckoutRequest {
        order_id: placed.order.id.to_string(),
        currency: page.currency,
        minor_units: page.minor_units,
        lines: page.lines,
        processing_fee: page.processing_fee,
        customer_email: placed.order.buyer.email.to_string(),
        success_url: urls.success_url,
        cancel_url: urls.cancel_url,
        expires_at,
        // a drop's order (paid within its own shorter window) never waits for a voucher
        instant_only: placed.order.pay_by.is_some(),
    }
}

impl<K: CheckoutPorts> Checkout<K> {
    /// Places the order (see [`CheckoutService::place_order`]) and opens `gateway`'s payment
    /// page for it, returning to `urls(order id)`. When the page cannot be opened, or opened but
    /// not recorded with the order, the page is closed and the order cancelled: nothing stays
    /// reserved for a page nobody can pay.
    ///
    /// A request with an idempotency key whose order exists (placed under the same key in the
    /// last 24 hours, before this request or while it ran) answers that order instead (see
    /// `answer_again`).
    #[tracing::instrument(skip_all, fields(keyed = request.idempotency.is_some()))]
    pub async fn place_and_open<G: PaymentGateway>(
        &self,
        request: CheckoutRequest,
        gateway: &G,
        urls: impl FnOnce(OrderId) -> ReturnUrls,
    ) -> Result<OpenedCheckout, OpenCheckoutError> {
        let key = request.idempotency.clone();
        let fingerprint = request.fingerprint();
        if let Some(key) = &key {
            if let Some(found) = self.keyed_order(key).await? {
                return self
                    .answer_again(key, found, &fingerprint, gateway, urls)
                    .await;
            }
        }
        let placed = match self.place_order(request).await {
            Ok(placed) => placed,
            Err(refused) => {
                // Another request with the same key placed the order meanwhile: this one was
                // refused for what that one did (its stock, its promo use, its place in the
                // caps, or the key itself), and answers that order instead.
                if let Some(key) = &key {
                    if let Some(found) = self.keyed_order(key).await? {
                        return self
                            .answer_again(key, found, &fingerprint, gateway, urls)
                            .await;
                    }
                }
                return Err(refused.into());
            }
        };
        self.open_page(placed, key.as_ref(), gateway, urls).await
    }

    /// The order placed under `key` in the last 24 hours.
    async fn keyed_order(&self, key: &ScopedKey) -> Result<Option<KeyedOrder>, CheckoutError> {
        let since = self.now() - Duration::hours(IDEMPOTENCY_WINDOW_HOURS);
        self.orders_port()
            .keyed_order(key.clone(), since)
            .await
            .map_err(|error| match error {
                OrderError::Unknown(cause) => CheckoutError::Unknown(cause),
                other => CheckoutError::Unknown(anyhow::Error::new(other)),
            })
    }

    /// The answer to a repeated request, from the order its key placed:
    /// - another request (its fingerprint differs): 422, nothing read or reserved;
    /// - a pending order with its page: the page, as the first answer said;
    /// - a pending order without a page: the first request is still opening it (409, try
    ///   again in a moment), or, [`PAGE_GRACE_SECONDS`] after the order was placed, died
    ///   before it could: the page is opened now, as that request would have;
    /// - an order paid since: the shop's success page (`urls(id).paid_url`);
    /// - an order cancelled or expired: 409, nothing is reserved for it any more.
    async fn answer_again<G: PaymentGateway>(
        &self,
        key: &ScopedKey,
        found: KeyedOrder,
        fingerprint: &str,
        gateway: &G,
        urls: impl FnOnce(OrderId) -> ReturnUrls,
    ) -> Result<OpenedCheckout, OpenCheckoutError> {
        if found.fingerprint != fingerprint {
            tracing::info!(order = %found.order.id, "idempotency key reused for another request");
            return Err(CheckoutError::KeyReused.into());
        }
        let order = found.order;
        let id = order.id;
        let status = order.status();
        let replayed = Some(Replayed {
            buyer_token: found.buyer_token,
        });
        let placed = PlacedOrder {
            cart: order.priced_cart(),
            access_key: self.access_keys().map(|keys| keys.key_for(id)),
            order,
        };
        tracing::info!(order = %id, status = %status, "repeated checkout answered with its order");
        if status.was_paid() {
            return Ok(OpenedCheckout {
                placed,
                redirect_url: urls(id).paid_url,
                replayed,
            });
        }
        if status != OrderStatus::Pending {
            return Err(CheckoutError::KeyClosed { order: id, status }.into());
        }
        if let Some(url) = found.payment_url {
            return Ok(OpenedCheckout {
                placed,
                redirect_url: url,
                replayed,
            });
        }
        let waited = self.now() - placed.order.created_at;
        let grace = Duration::seconds(PAGE_GRACE_SECONDS);
        if waited < grace {
            let retry_after = (grace - waited).clamp(Duration::seconds(1), Duration::seconds(5));
            return Err(CheckoutError::StillPlacing {
                order: id,
                retry_after,
            }
            .into());
        }
        tracing::warn!(order = %id, "the payment page of a keyed order was never opened; opening it now");
        let key = ScopedKey::clone(key);
        let mut opened = self.open_page(placed, Some(&key), gateway, urls).await?;
        opened.replayed = replayed;
        Ok(opened)
    }

    /// Opens `gateway`'s payment page for a placed order and records it with the order; when
    /// that fails, the page is closed and the order cancelled. An order placed under `key` may
    /// have had its page opened by a retry meanwhile (this request outlived the grace a retry
    /// gives it): then that page stands, and this one is closed instead of the order.
    async fn open_page<G: PaymentGateway>(
        &self,
        placed: PlacedOrder,
        key: Option<&ScopedKey>,
        gateway: &G,
        urls: impl FnOnce(OrderId) -> ReturnUrls,
    ) -> Result<OpenedCheckout, OpenCheckoutError> {
        let order_id = placed.order.id;
        // Stripe wants at least 30 minutes from its own clock: a minute of margin.
        let expires_at = self.now() + Duration::minutes(PAYMENT_WINDOW_MINUTES + 1);
        let page = match gateway
            .create_checkout(hosted_request(&placed, urls(order_id), expires_at))
            .await
        {
            Ok(page) => page,
            Err(error) => {
                if let Some(opened) = self.opened_by_a_retry(key, &placed).await {
                    return Ok(opened);
                }
                return Err(self.cancel_unopened(order_id, error.into()).await);
            }
        };
        if let Err(error) = self
            .attach_payment(
                order_id,
                page.provider_reference.clone(),
                page.redirect_url.clone(),
            )
            .await
        {
            // the page exists but the order does not know it: close it so it cannot be paid
            if let Err(close) = gateway.close_checkout(page.provider_reference).await {
                tracing::error!(order = %order_id, error = ?close, "could not close the payment page of an order that failed");
            }
            if let Some(opened) = self.opened_by_a_retry(key, &placed).await {
                return Ok(opened);
            }
            return Err(self.cancel_unopened(order_id, error.into()).await);
        }
        Ok(OpenedCheckout {
            placed,
            redirect_url: page.redirect_url,
            replayed: None,
        })
    }

    /// The page a retry with the same key opened for this order, if one did.
    async fn opened_by_a_retry(
        &self,
        key: Option<&ScopedKey>,
        placed: &PlacedOrder,
    ) -> Option<OpenedCheckout> {
        let found = self.keyed_order(key?).await.ok()??;
        let url = found
            .payment_url
            .filter(|_| found.order.id == placed.order.id)?;
        tracing::info!(order = %placed.order.id, "a retry opened the payment page meanwhile; keeping it");
        Some(OpenedCheckout {
            placed: placed.clone(),
            redirect_url: url,
            replayed: None,
        })
    }

    /// The compensation of a failed [`Checkout::place_and_open`]: the order is cancelled.
    async fn cancel_unopened(&self, order_id: OrderId, cause: anyhow::Error) -> OpenCheckoutError {
        tracing::error!(order = %order_id, error = ?cause, "the payment page could not be opened; cancelling the order");
        if let Err(cancel) = self.cancel(order_id).await {
            tracing::error!(order = %order_id, error = ?cancel, "could not cancel the order after the failed payment");
        }
        OpenCheckoutError::PaymentFailed { order_id, cause }
    }

    /// The buyer approved the payment of order `id` on the provider's side (PayPal) and came
    /// back with the provider's `token`: captures the payment and confirms the order through
    /// the same call as a webhook. An order that is no longer pending is not captured; an
    /// amount other than the order's total, or a payment the provider holds back, holds the
    /// order for staff.
    #[tracing::instrument(skip(self, token, capture))]
    pub async fn confirm_capture<G: PaymentCapture>(
        &self,
        id: OrderId,
        provider: PaymentProvider,
        token: &str,
        capture: &G,
    ) -> Result<Captured, CaptureError> {
        let order = self.order(id).await?;
        let reference = order.payment.reference.clone().unwrap_or_default();
        if order.payment.provider != provider || reference.is_empty() || token != reference {
            return Err(CaptureError::NotThisPayment {
                order_id: id,
                provider,
            });
        }
        match order.status() {
            OrderStatus::Pending => {}
            status if status.was_paid() => return Ok(Captured::PaidBefore),
            // expired or cancelled: never take money for an order whose stock is gone
            _ => return Ok(Captured::NotPaid),
        }
        let name = provider.name();
        match capture
            .capture(reference.clone())
            .await
            .map_err(CaptureError::Provider)?
        {
            CaptureOutcome::Completed { amount }
                if !amount
                    .as_ref()
                    .is_some_and(|amount| amount.is_exactly(order.amounts.total)) =>
            {
                let took = amount.map_or_else(
                    || format!("an amount {name} did not state"),
                    |amount| format!("{} {}", amount.value, amount.currency),
                );
                let reason = format!(
                    "{name} captured {took}, but the order's total is {} USD: check the \
                     payment and refund or settle it.",
                    order.amounts.total.as_decimal()
                );
                return self.held(&order, reason).await;
            }
            CaptureOutcome::Completed { .. } | CaptureOutcome::AlreadyCaptured => {}
            CaptureOutcome::Pending { reason } => {
                let reason = format!(
                    "{name} has not released the payment yet (capture {reason}): deliver once \
                     it completes in {name}, or refund it."
                );
                return self.held(&order, reason).await;
            }
            CaptureOutcome::NotCompleted { status } => {
                tracing::warn!(order = %id, %status, "the provider did not complete the capture");
                return Ok(Captured::NotPaid);
            }
        }
        let notice = PaymentNotice {
            order_id: id,
            provider,
            reference,
            event: None,
            hold: None,
        };
        match self.confirm_paid(notice).await {
            Ok(confirmation) => Ok(Captured::Confirmed(Box::new(confirmation))),
            Err(ConfirmError::Refused(refused)) => Ok(Captured::TooLate(refused)),
            Err(ConfirmError::NotFound(id) | ConfirmError::ReferenceMismatch(id)) => {
                Err(CaptureError::NotFound(id))
            }
            Err(ConfirmError::Unknown(e)) => Err(CaptureError::Unknown(e)),
        }
    }

    async fn held(&self, order: &Order, reason: String) -> Result<Captured, CaptureError> {
        let newly_held = self.hold_for_review(order.id, reason.clone()).await?;
        Ok(Captured::Held {
            order: Box::new(order.clone()),
            reason,
            newly_held,
        })
    }
}
