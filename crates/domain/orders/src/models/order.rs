use std::fmt;

use cart_pricing::{
    Conversion, CurrencyCode, Decimal, DiscountPercent, Money, PaymentMethod, PricedCart, Quantity,
    Rounding,
};
use catalog::ProductId;
use chrono::{DateTime, Utc};
use promo::{PromoCode, PromoId};
use shared::UserId;

use crate::{Buyer, Lifecycle, OrderHolder, OrderStatus, RiskHold, TransitionError};

/// An order's number, assigned by the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OrderId(i64);

impl OrderId {
    pub fn new(value: i64) -> Self {
        OrderId(value)
    }

    pub fn get(&self) -> i64 {
        self.0
    }
}

impl fmt::Display for OrderId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Who takes the payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PaymentProvider {
    Stripe,
    Paypal,
    /// The shop's own payment page, for development and tests.
    Dev,
}

impl PaymentProvider {
    pub const ALL: [PaymentProvider; 3] = [
        PaymentProvider::Stripe,
        PaymentProvider::Paypal,
        PaymentProvider::Dev,
    ];

    pub fn as_str(&self) -> &'static str {
        match self {
            PaymentProvider::Stripe => "stripe",
            PaymentProvider::Paypal => "paypal",
            PaymentProvider::Dev => "dev",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.as_str() == text)
    }

    /// The provider's name as people write it: "Stripe", "PayPal".
    pub fn name(&self) -> &'static str {
        match self {
            PaymentProvider::Stripe => "Stripe",
            PaymentProvider::Paypal => "PayPal",
            PaymentProvider::Dev => "The dev payment page",
        }
    }
}

impl fmt::Display for PaymentProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A notification from a payment provider, identified so that a repeated delivery is noticed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ProviderEvent {
    pub provider: PaymentProvider,
    /// The provider's event id, e.g. Stripe's `evt_...`.
    pub id: String,
}

/// One product bought, as it was when the order was placed.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderLine {
    pub product_id: ProductId,
    pub name: String,
    pub unit_price: Money,
    /// The unit price the buyer saw and paid, in minor units of the order's currency
    /// ([`Paid`]), before any promo discount.
    pub unit_price_paid: i64,
    pub quantity: Quantity,
    /// A bundle's components when it was placed (one of each per unit), whatever the bundle
    /// holds later: what the line's units count toward the drops' caps. Empty for a product.
    pub components: Vec<ProductId>,
}

impl OrderLine {
    pub fn total(&self) -> Money {
        self.unit_price.times(self.quantity.get())
    }
}

/// What the order costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Amounts {
    /// The lines' sum.
    pub subtotal: Money,
    /// Taken off by the promo code.
    pub discount: Money,
    /// The processing fee of the payment method.
    pub fee: Money,
    /// What the shopper pays: subtotal - discount + fee.
    pub total: Money,
    /// What the shopper paid, in the currency they paid in.
    pub paid: Paid,
}

/// What an order was charged in the shopper's currency: the currency, its rate against the
/// base currency at checkout, and the amount (the grand total, in its minor units). An order
/// in the base currency has rate 1 and the amount of its `total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paid {
    pub currency: CurrencyCode,
    /// Units of `currency` one unit of the base currency bought.
    pub rate: Decimal,
    /// The currency's decimals (2, or 0 for a zero-decimal currency).
    pub minor_units: u32,
    /// In minor units of `currency`.
    pub amount: i64,
}

impl Paid {
    /// `total` paid in the base currency `currency` itself.
    pub fn in_base(currency: CurrencyCode, total: Money) -> Paid {
        Paid {
            currency,
            rate: Decimal::ONE,
            minor_units: 2,
            amount: total.cents(),
        }
    }
}

impl Amounts {
    pub fn of(cart: &PricedCart) -> Self {
        Amounts {
            subtotal: cart.subtotal,
            discount: cart.discount,
            fee: cart.fee,
            total: cart.grand_total,
            paid: Paid {
                currency: cart.charge.currency,
                rate: cart.charge.rate,
                minor_units: cart.charge.minor_units,
                amount: cart.charge.grand_total,
            },
        }
    }

    /// The items' total after the discount, before the fee.
    pub fn items_total(&self) -> Money {
        self.subtotal
            .checked_sub(self.discount)
            .unwrap_or(Money::ZERO)
    }
}

/// The promo code an order used; its redemption is counted when the order is paid.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderPromo {
    pub id: PromoId,
    pub code: PromoCode,
    pub discount: DiscountPercent,
}

/// How the order is paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payment {
    pub method: PaymentMethod,
    pub provider: PaymentProvider,
    /// The provider's session or order id, known once the payment session exists.
    pub reference: Option<String>,
    /// The provider's id of the payment itself (Stripe's payment intent, PayPal's capture),
    /// recorded when the payment is confirmed; refunds and disputes name the order by it.
    pub payment_id: Option<String>,
}

/// An order about to be placed.
#[derive(Debug, Clone, PartialEq)]
pub struct NewOrder {
    pub lines: Vec<OrderLine>,
    pub buyer: Buyer,
    pub amounts: Amounts,
    pub promo: Option<OrderPromo>,
    pub method: PaymentMethod,
    pub provider: PaymentProvider,
    pub created_at: DateTime<Utc>,
    /// The browser session and address that placed it, for the caps on unpaid orders.
    pub holder: OrderHolder,
    /// The `Idempotency-Key` it is placed under, if any.
    pub idempotency: Option<crate::idempotency::KeyedPlacement>,
    /// When it expires unpaid, if sooner than the usual payment window: drop orders.
    pub pay_by: Option<DateTime<Utc>>,
    /// The drops' caps per account its lines (bundles' components included) must stay within.
    pub account_caps: Vec<crate::AccountCap>,
    /// The refund policy's version the checkout showed (linked beside Complete Payment).
    pub refund_policy_version: Option<String>,
}

/// What a shopper bought, from whom, for how much, and where it stands.
#[derive(Debug, Clone, PartialEq)]
pub struct Order {
    pub id: OrderId,
    pub lines: Vec<OrderLine>,
    pub buyer: Buyer,
    pub amounts: Amounts,
    pub promo: Option<OrderPromo>,
    pub payment: Payment,
    pub created_at: DateTime<Utc>,
    /// The member of staff delivering it (a user id), once someone took it from the queue.
    pub claimed_by: Option<UserId>,
    /// Why a pending order is held for staff (a PayPal capture that is pending or does not
    /// match); such an order is neither cancelled nor expired, and staff decide.
    pub review: Option<String>,
    /// The risk hold put on it once paid (a fraud warning, a risky payment), kept after it is
    /// refunded; see [`Order::held`].
    pub hold: Option<RiskHold>,
    /// The buyer's chargeback, once one was opened (the latest one).
    pub dispute: Option<crate::Dispute>,
    /// The client address the order was placed from, as the shop read it (through its trusted
    /// proxies); `None` when unknown.
    pub client_ip: Option<String>,
    /// When a pending order with a deadline of its own stops holding its stock: a drop's
    /// shorter window, or the deadline of a payment method that confirms later (a voucher, a
    /// bank debit). `None`: the usual payment window.
    pub pay_by: Option<DateTime<Utc>>,
    lifecycle: Lifecycle,
}

/// An order placed under a key, as a repeated checkout finds it.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyedOrder {
    pub order: Order,
    /// The fingerprint of the request that placed it.
    pub fingerprint: String,
    /// Its payment page, once it was opened and recorded.
    pub payment_url: Option<String>,
    /// The browser session's token it was placed with (for the caps on unpaid orders).
    pub buyer_token: Option<String>,
}

impl Order {
    /// A placed order: pending, no payment reference yet.
    pub fn placed(id: OrderId, new: NewOrder) -> Self {
        Order {
            id,
            lines: new.lines,
            buyer: new.buyer,
            amounts: new.amounts,
            promo: new.promo,
            payment: Payment {
                method: new.method,
                provider: new.provider,
                reference: None,
                payment_id: None,
            },
            created_at: new.created_at,
            claimed_by: None,
            review: None,
            hold: None,
            dispute: None,
            client_ip: new.holder.client_ip,
            pay_by: new.pay_by,
            lifecycle: Lifecycle::pending(),
        }
    }

    /// An order as it was stored, for the store's adapters.
    #[allow(clippy::too_many_arguments)]
    pub fn restore(
        id: OrderId,
        lines: Vec<OrderLine>,
        buyer: Buyer,
        amounts: Amounts,
        promo: Option<OrderPromo>,
        payment: Payment,
        created_at: DateTime<Utc>,
        claimed_by: Option<UserId>,
        lifecycle: Lifecycle,
    ) -> Self {
        Order {
            id,
            lines,
            buyer,
            amounts,
            promo,
            payment,
            created_at,
            claimed_by,
            review: None,
            hold: None,
            dispute: None,
            client_ip: None,
            pay_by: None,
            lifecycle,
        }
    }

    pub fn status(&self) -> OrderStatus {
        self.lifecycle.status()
    }

    /// Whether the buyer finished the provider's page with a method that confirms later (a
    /// voucher such as OXXO or Boleto, a bank debit): the order is pending, its payment known
    /// (the store records a pending order's payment id only then), and it waits for the money
    /// until [`pay_by`](Self::pay_by).
    pub fn awaits_delayed_payment(&self) -> bool {
        self.status() == OrderStatus::Pending && self.payment.payment_id.is_some()
    }

    /// The cart as it was priced when the order was placed (the lines keep their prices in
    /// both currencies, the promo its percent), for a payment page opened later.
    pub fn priced_cart(&self) -> PricedCart {
        let paid = self.amounts.paid;
        let conversion = Conversion {
            code: paid.currency,
            rate: paid.rate,
            minor_units: paid.minor_units,
            rounding: Rounding::Minor,
        };
        let discount = self.promo.as_ref().map(|promo| promo.discount);
        let charge = conversion.charge_converted(
            self.lines
                .iter()
                .map(|line| (line.unit_price_paid, line.quantity.get())),
            discount,
            self.payment.method,
        );
        PricedCart::charged(
            self.lines
                .iter()
                .map(|line| cart_pricing::CartLine {
                    product_id: line.product_id.get(),
                    name: line.name.clone(),
                    unit_price: line.unit_price,
                    quantity: line.quantity,
                    stock: None,
                })
                .collect(),
            discount,
            self.payment.method,
            charge,
        )
    }

    /// The risk hold keeping the order out of the delivery queue: only while it is paid (a
    /// refunded order's hold is history).
    pub fn held(&self) -> Option<&RiskHold> {
        self.hold
            .as_ref()
            .filter(|_| self.status() == OrderStatus::Paid)
    }

    pub fn lifecycle(&self) -> &Lifecycle {
        &self.lifecycle
    }

    pub fn paid_at(&self) -> Option<DateTime<Utc>> {
        self.lifecycle.paid_at()
    }

    pub fn delivered_at(&self) -> Option<DateTime<Utc>> {
        self.lifecycle.delivered_at()
    }

    pub fn pay(&mut self, at: DateTime<Utc>) -> Result<(), TransitionError> {
        self.lifecycle.pay(at)
    }

    pub fn deliver(&mut self, at: DateTime<Utc>) -> Result<(), TransitionError> {
        self.lifecycle.deliver(at)
    }

    pub fn expire(&mut self, at: DateTime<Utc>) -> Result<(), TransitionError> {
        self.lifecycle.expire(at)
    }

    pub fn cancel(&mut self, at: DateTime<Utc>) -> Result<(), TransitionError> {
        self.lifecycle.cancel(at)
    }

    pub fn refund(&mut self, at: DateTime<Utc>) -> Result<(), TransitionError> {
        self.lifecycle.refund(at)
    }

    /// Opens a chargeback on the order: it stays disputed until the dispute closes.
    pub fn dispute(&mut self, at: DateTime<Utc>) -> Result<(), TransitionError> {
        let previous = self.status();
        self.lifecycle.dispute(at)?;
        self.dispute = Some(crate::Dispute {
            opened_at: at,
            previous,
            outcome: None,
            closed_at: None,
        });
        Ok(())
    }
}

/// How a closed dispute ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DisputeOutcome {
    /// The money stays with the shop: the order returns to its earlier status.
    Won,
    /// The bank gave the money back to the buyer: the order stays disputed.
    Lost,
}

impl DisputeOutcome {
    pub fn as_str(&self) -> &'static str {
        match self {
            DisputeOutcome::Won => "won",
            DisputeOutcome::Lost => "lost",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "won" => Some(DisputeOutcome::Won),
            "lost" => Some(DisputeOutcome::Lost),
            _ => None,
        }
    }
}

/// A chargeback on an order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dispute {
    pub opened_at: DateTime<Utc>,
    /// The order's status when the dispute opened; a won dispute returns it there.
    pub previous: OrderStatus,
    /// `None` while the dispute is open.
    pub outcome: Option<DisputeOutcome>,
    pub closed_at: Option<DateTime<Utc>>,
}
