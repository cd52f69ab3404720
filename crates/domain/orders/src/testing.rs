//! What the tests of this crate and, with the `mocks` feature, of the domains built on it start
//! from: a placed order ([`TestOrder`]: a $10.77 card order of a buyer linked with Discord, paid
//! through `provider` on the page `reference`, restored in `status`), a store holding it, and a
//! checkout over mocks at a fixed time.
#![allow(clippy::unwrap_used)]

use chrono::{DateTime, Utc};

use promo::{FixedClock, MockPromoRepository};

use crate::ports::{MockOrderRepository, MockProductLookup};
use crate::{
    Amounts, Buyer, Checkout, CheckoutPorts, DiscordId, DiscordIdentity, Email, Lifecycle, Money,
    NewOrder, NoBlocklist, Order, OrderHolder, OrderId, OrderStatus, PaymentMethod,
    PaymentProvider, RobloxUsername,
};

/// The order's parts a test chooses; [`TestOrder::new`] fills the rest.
#[derive(Debug, Clone)]
pub struct TestOrder {
    pub id: i64,
    pub provider: PaymentProvider,
    pub status: OrderStatus,
    pub email: &'static str,
    /// The provider's page.
    pub reference: &'static str,
    /// The provider's payment, once paid.
    pub payment_id: Option<&'static str>,
    /// Whether it was paid at `at`.
    pub paid: bool,
    /// When it was placed (and paid, when `paid`).
    pub at: DateTime<Utc>,
}

impl TestOrder {
    /// Order 9 by `kid@example.com`, on the page `cs_9`, not paid.
    pub fn new(provider: PaymentProvider, status: OrderStatus, at: DateTime<Utc>) -> Self {
        TestOrder {
            id: 9,
            provider,
            status,
            email: "kid@example.com",
            reference: "cs_9",
            payment_id: None,
            paid: false,
            at,
        }
    }

    pub fn build(&self) -> Order {
        let placed = Order::placed(
            OrderId::new(self.id),
            NewOrder {
                lines: vec![],
                buyer: Buyer {
                    discord: Some(DiscordIdentity {
                        discord_id: DiscordId::parse("123456789012345678").unwrap(),
                        username: "gardener".into(),
                        avatar_url: None,
                    }),
                    roblox_username: RobloxUsername::parse("Builder_Bob").unwrap(),
                    email: Email::parse(self.email).unwrap(),
                    user_id: None,
                    language: shared::Language::English,
                },
                amounts: Amounts {
                    subtotal: Money::parse("10").unwrap(),
                    discount: Money::ZERO,
                    fee: Money::parse("0.77").unwrap(),
                    total: Money::parse("10.77").unwrap(),
                    paid: crate::Paid::in_base(
                        cart_pricing::CurrencyCode::USD,
                        Money::parse("10.77").unwrap(),
                    ),
                },
                promo: None,
                method: PaymentMethod::Card,
                provider: self.provider,
                created_at: self.at,
                holder: OrderHolder::default(),
                idempotency: None,
                pay_by: None,
                account_caps: vec![],
                refund_policy_version: None,
            },
        );
        let mut payment = placed.payment.clone();
        payment.reference = Some(self.reference.into());
        payment.payment_id = self.payment_id.map(Into::into);
        Order::restore(
            placed.id,
            placed.lines,
            placed.buyer,
            placed.amounts,
            None,
            payment,
            self.at,
            None,
            Lifecycle::restore(self.status, self.paid.then_some(self.at), None, None),
        )
    }
}

/// A store holding `current` as every order it is asked for.
pub fn holding(current: Order) -> MockOrderRepository {
    let mut orders = MockOrderRepository::new();
    orders.expect_order().returning(move |_| {
        let current = current.clone();
        Box::pin(async move { Ok(current) })
    });
    orders
}

/// The ports of checkout over mocks, a fixed clock and no blocklist.
#[derive(Debug)]
pub struct Mocks;

impl CheckoutPorts for Mocks {
    type Orders = MockOrderRepository;
    type Products = MockProductLookup;
    type Promos = MockPromoRepository;
    type Clock = FixedClock;
    type Blocklist = NoBlocklist;
}

/// Checkout over mocks and a fixed clock.
pub type TestCheckout = Checkout<Mocks>;

/// Checkout over `orders`, `products` and `promos`, at `at`.
pub fn checkout_with(
    orders: MockOrderRepository,
    products: MockProductLookup,
    promos: MockPromoRepository,
    at: DateTime<Utc>,
) -> TestCheckout {
    TestCheckout::new(orders, products, promos, FixedClock(at), NoBlocklist)
}

/// Checkout over `orders`, with no product or promo lookups expected, at `at`.
pub fn checkout(orders: MockOrderRepository, at: DateTime<Utc>) -> TestCheckout {
    let promos = MockPromoRepository::new();
    checkout_with(orders, MockProductLookup::new(), promos, at)
}
