use std::sync::{Arc, Mutex};

use cart_pricing::{Decimal, DiscountPercent, Money, PaymentMethod};
use catalog::Stock;
use chrono::{DateTime, TimeZone, Utc};
use mockall::predicate::eq;
use promo::{MockPromoRepository, Promo, PromoId, PromoUsage};
use rust_decimal_macros::dec;

use super::*;
use crate::ports::{MockOrderRepository, MockProductLookup};
use crate::testing::{checkout_with, TestCheckout};
use crate::{
    DiscordId, DiscordIdentity, Email, HeldBy, PendingCapReached, PendingCaps, RobloxUsername,
};
use crate::{OrderHolder, PaymentProvider};

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 0).unwrap()
}

fn money(text: &str) -> Money {
    Money::parse(text).unwrap()
}

fn product(id: i64, price: &str, stock: Stock) -> Product {
    Product {
        max_per_account: None,
        release_at: None,
        id: ProductId::new(id),
        name: format!("Pet {id}"),
        description: String::new(),
        price: money(price),
        category: "Pets".into(),
        image: None,
        stock,
        weight: None,
        mutation: None,
        savings: None,
        sort_order: None,
        delete_after_out_of_stock: false,
        related_ids: vec![],
        dupe_warning: false,
        archived: false,
    }
}

fn buyer() -> Buyer {
    Buyer {
        discord: Some(DiscordIdentity {
            discord_id: DiscordId::parse("123456789012345678").unwrap(),
            username: "gardener".into(),
            avatar_url: None,
        }),
        roblox_username: RobloxUsername::parse("Builder_Bob").unwrap(),
        email: Email::parse("kid@example.com").unwrap(),
        user_id: Some(UserId::new(4)),
        language: shared::Language::English,
    }
}

fn item(id: i64, qty: i64) -> RequestedItem {
    RequestedItem {
        product_id: ProductId::new(id),
        quantity: Quantity::new(qty).unwrap(),
    }
}

fn request(items: Vec<RequestedItem>, client_total: Decimal) -> CheckoutRequest {
    CheckoutRequest {
        items,
        promo_code: None,
        buyer: buyer(),
        method: PaymentMethod::Card,
        provider: PaymentProvider::Stripe,
        client_total,
        currency: cart_pricing::Conversion::base(cart_pricing::CurrencyCode::USD),
        holder: OrderHolder::default(),
        idempotency: None,
    }
}

/// A lookup that answers from a fixed catalog, as the store would.
fn lookup(catalog: Vec<Product>) -> MockProductLookup {
    let mut products = MockProductLookup::new();
    products.expect_products().returning(move |ids| {
        let found: Vec<Product> = catalog
            .iter()
            .filter(|p| ids.contains(&p.id))
            .cloned()
            .collect();
        Box::pin(async move { Ok(found) })
    });
    products
}

/// An order repository that places orders as id 1 and remembers the reservation it got.
fn placing(reserved: Arc<Mutex<Option<Reservation>>>) -> MockOrderRepository {
    let mut orders = MockOrderRepository::new();
    orders.expect_place().returning(move |new, reservation, _| {
        *reserved.lock().unwrap() = Some(reservation);
        Box::pin(async move { Ok(Order::placed(OrderId::new(1), new)) })
    });
    orders
}

/// Notices that write down what they were told.
#[derive(Default)]
struct Told(Mutex<Vec<String>>);

impl Told {
    fn note(&self, what: String) -> shared::Published<'_> {
        self.0.lock().unwrap().push(what);
        Box::pin(async {})
    }

    fn all(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
}

impl catalog::StockNotices for Told {
    fn stock_changed(&self) -> shared::Published<'_> {
        self.note("stock".into())
    }
}

impl OrderNotices for Told {
    fn order_changed(&self, id: OrderId, step: OrderStep) -> shared::Published<'_> {
        self.note(format!("order {id} {}", step.as_str()))
    }

    fn payment_changed(
        &self,
        id: OrderId,
        step: OrderStep,
        provider: Option<PaymentProvider>,
    ) -> shared::Published<'_> {
        self.note(format!("payment {id} {} {provider:?}", step.as_str()))
    }
}

fn checkout(orders: MockOrderRepository, products: MockProductLookup) -> TestCheckout {
    checkout_with(orders, products, MockPromoRepository::new(), now())
}

fn entries(reservation: &Reservation) -> Vec<(i64, u32)> {
    reservation
        .entries()
        .iter()
        .map(|(id, q)| (id.get(), *q))
        .collect()
}

#[tokio::test]
async fn an_order_is_priced_from_the_database_and_its_finite_stock_reserved() {
    let reserved = Arc::new(Mutex::new(None));
    let catalog = vec![
        product(1, "4.99", Stock::Finite(5)),
        product(2, "1.00", Stock::Unlimited),
    ];
    let service = checkout(placing(reserved.clone()), lookup(catalog));
    let placed = service
        .place_order(request(vec![item(1, 2), item(2, 3)], dec!(12.98)))
        .await
        .unwrap();

    let order = placed.order;
    assert_eq!(order.status(), OrderStatus::Pending);
    assert_eq!(order.amounts.subtotal, money("12.98"));
    assert_eq!(order.amounts.discount, Money::ZERO);
    // (12.98 + 0.30) / 0.956 = 13.891213... -> 13.89
    assert_eq!(order.amounts.total, money("13.89"));
    assert_eq!(order.amounts.fee, money("0.91"));
    assert_eq!(order.lines.len(), 2);
    assert_eq!(order.lines[0].name, "Pet 1");
    assert_eq!(order.lines[0].unit_price, money("4.99"));
    assert_eq!(order.payment.provider, PaymentProvider::Stripe);
    assert_eq!(order.payment.reference, None);
    assert_eq!(order.created_at, now());
    assert_eq!(order.buyer.user_id, Some(UserId::new(4)));
    let reservation = reserved.lock().unwrap().clone().unwrap();
    assert_eq!(entries(&reservation), [(1, 2)]);
}

#[tokio::test]
async fn a_client_total_off_by_more_than_a_cent_gets_the_fresh_cart_and_reserves_nothing() {
    let mut orders = MockOrderRepository::new();
    orders.expect_place().never();
    let service = checkout(orders, lookup(vec![product(1, "4.99", Stock::Finite(5))]));
    let result = service
        .place_order(request(vec![item(1, 2)], dec!(9.00)))
        .await;
    let Err(CheckoutError::PriceChanged(cart)) = result else {
        panic!("expected a price change, got {result:?}");
    };
    assert_eq!(cart.total, money("9.98"));
    assert_eq!(cart.grand_total, money("10.75"));
    assert_eq!(cart.lines[0].stock, Some(5));
}

#[tokio::test]
async fn a_client_total_one_cent_off_is_accepted() {
    let reserved = Arc::new(Mutex::new(None));
    let service = checkout(
        placing(reserved),
        lookup(vec![product(1, "4.99", Stock::Finite(5))]),
    );
    let placed = service
        .place_order(request(vec![item(1, 2)], dec!(9.97)))
        .await
        .unwrap();
    assert_eq!(placed.cart.total, money("9.98"));
}

#[tokio::test]
async fn unknown_and_archived_products_are_refused() {
    let mut orders = MockOrderRepository::new();
    orders.expect_place().never();
    let archived = Product {
        archived: true,
        ..product(2, "1.00", Stock::Finite(3))
    };
    let service = checkout(
        orders,
        lookup(vec![product(1, "1.00", Stock::Unlimited), archived]),
    );
    let result = service
        .place_order(request(vec![item(1, 1), item(2, 1), item(99, 1)], dec!(3)))
        .await;
    let Err(CheckoutError::Unavailable(missing)) = result else {
        panic!("expected unavailable products, got {result:?}");
    };
    let messages: Vec<String> = missing.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        [
            "- Pet 2 is no longer available.",
            "- Product #99 is no longer available."
        ]
    );
}

#[tokio::test]
async fn short_stock_is_refused_with_the_spec_messages_before_anything_is_reserved() {
    let mut orders = MockOrderRepository::new();
    orders.expect_place().never();
    let catalog = vec![
        product(1, "1.00", Stock::Finite(0)),
        product(2, "1.00", Stock::Finite(2)),
    ];
    let service = checkout(orders, lookup(catalog));
    let result = service
        .place_order(request(vec![item(1, 1), item(2, 3)], dec!(4)))
        .await;
    let Err(error @ CheckoutError::OutOfStock(_)) = result else {
        panic!("expected a stock problem, got {result:?}");
    };
    assert_eq!(
        error.to_string(),
        "Please fix the following issues before continuing:\n\
         - Pet 1 is out of stock.\n\
         - Pet 2 has only 2 in stock, but you selected 3."
    );
}

#[tokio::test]
async fn when_another_order_takes_the_stock_first_the_fresh_stock_is_reported() {
    let mut orders = MockOrderRepository::new();
    orders
        .expect_place()
        .times(1)
        .returning(|_, _, _| Box::pin(async { Err(PlaceError::OutOfStock(ProductId::new(1))) }));
    // the first read sees 2 in stock; the read after the refused reservation sees 1
    let mut products = MockProductLookup::new();
    let mut reads = 0;
    products.expect_products().returning(move |_| {
        reads += 1;
        let stock = if reads == 1 { 2 } else { 1 };
        Box::pin(async move { Ok(vec![product(1, "1.00", Stock::Finite(stock))]) })
    });
    let service = checkout(orders, products);
    let result = service
        .place_order(request(vec![item(1, 2)], dec!(2)))
        .await;
    let Err(CheckoutError::OutOfStock(problems)) = result else {
        panic!("expected a stock problem, got {result:?}");
    };
    assert_eq!(
        problems[0].to_string(),
        "- Pet 1 has only 1 in stock, but you selected 2."
    );
}

#[tokio::test]
async fn a_bundle_loads_and_reserves_its_components() {
    let reserved = Arc::new(Mutex::new(None));
    let bundle = Product {
        related_ids: vec![ProductId::new(1), ProductId::new(2)],
        ..product(10, "5.00", Stock::Finite(3))
    };
    let catalog = vec![
        product(1, "1.00", Stock::Finite(4)),
        product(2, "1.00", Stock::Unlimited),
        bundle,
    ];
    let service = checkout(placing(reserved.clone()), lookup(catalog));
    service
        .place_order(request(vec![item(10, 2)], dec!(10)))
        .await
        .unwrap();
    let reservation = reserved.lock().unwrap().clone().unwrap();
    assert_eq!(entries(&reservation), [(1, 2), (10, 2)]);
}

#[tokio::test]
async fn a_bundle_whose_component_is_short_cannot_be_bought() {
    let mut orders = MockOrderRepository::new();
    orders.expect_place().never();
    let bundle = Product {
        related_ids: vec![ProductId::new(1)],
        ..product(10, "5.00", Stock::Finite(3))
    };
    let service = checkout(
        orders,
        lookup(vec![product(1, "1.00", Stock::Finite(0)), bundle]),
    );
    let result = service
        .place_order(request(vec![item(10, 1)], dec!(5)))
        .await;
    let Err(CheckoutError::OutOfStock(problems)) = result else {
        panic!("expected a stock problem, got {result:?}");
    };
    assert_eq!(problems[0].to_string(), "- Pet 10 is out of stock.");
}

#[tokio::test]
async fn a_drop_before_its_release_is_refused_and_so_is_a_bundle_holding_it() {
    let at = now() + chrono::Duration::minutes(5);
    let drop = Product {
        release_at: Some(at),
        ..product(1, "1.00", Stock::Finite(4))
    };
    let bundle = Product {
        related_ids: vec![ProductId::new(1)],
        ..product(10, "5.00", Stock::Finite(3))
    };
    for (wanted, total, refused) in [(1, dec!(1), "Pet 1"), (10, dec!(5), "Pet 10")] {
        let mut orders = MockOrderRepository::new();
        orders.expect_place().never();
        let service = checkout(orders, lookup(vec![drop.clone(), bundle.clone()]));
        let result = service
            .place_order(request(vec![item(wanted, 1)], total))
            .await;
        let Err(error @ CheckoutError::NotReleased { .. }) = result else {
            panic!("expected a refusal, got {result:?}");
        };
        assert_eq!(
            error.to_string(),
            format!("This item drops at 2026-11-21 12:05 UTC: {refused} is not on sale yet.")
        );
    }
    // from its release on it sells, and its order must be paid within the drop's window
    let released = Product {
        release_at: Some(now()),
        max_per_account: Some(2),
        ..drop
    };
    let mut orders = MockOrderRepository::new();
    orders
        .expect_place()
        .withf(|new, _, _| {
            new.pay_by == Some(now() + chrono::Duration::minutes(10))
                && new.account_caps
                    == vec![AccountCap {
                        product: ProductId::new(1),
                        max: 2,
                        wanted: 2,
                    }]
        })
        .returning(|new, _, _| Box::pin(async move { Ok(Order::placed(OrderId::new(1), new)) }));
    let service = checkout(orders, lookup(vec![released.clone()]));
    service
        .place_order(request(vec![item(1, 2)], dec!(2)))
        .await
        .unwrap();
    // more than the cap in one order is refused before the store is asked
    let mut orders = MockOrderRepository::new();
    orders.expect_place().never();
    let service = checkout(orders, lookup(vec![released]));
    let result = service
        .place_order(request(vec![item(1, 3)], dec!(3)))
        .await;
    let Err(error @ CheckoutError::AccountCap { .. }) = result else {
        panic!("expected the cap, got {result:?}");
    };
    assert_eq!(
        error.to_string(),
        "Pet 1 is limited to 2 per account, and your Discord account already holds 0."
    );
}

#[tokio::test]
async fn a_drop_inside_a_bundle_counts_against_its_cap_and_its_payment_window() {
    let drop = Product {
        release_at: Some(now()),
        max_per_account: Some(2),
        ..product(1, "1.00", Stock::Finite(30))
    };
    let bundle = Product {
        related_ids: vec![ProductId::new(1), ProductId::new(2)],
        ..product(10, "5.00", Stock::Finite(30))
    };
    let other = product(2, "1.00", Stock::Unlimited);
    // one drop alone and one inside the bundle: two units of the drop, within its cap of 2; the
    // order pays within the drop's window and its bundle line keeps the bundle's parts
    let mut orders = MockOrderRepository::new();
    orders
        .expect_place()
        .withf(|new, _, _| {
            new.pay_by == Some(now() + chrono::Duration::minutes(10))
                && new.account_caps
                    == vec![AccountCap {
                        product: ProductId::new(1),
                        max: 2,
                        wanted: 2,
                    }]
                && new.lines[1].components == vec![ProductId::new(1), ProductId::new(2)]
                && new.lines[0].components.is_empty()
        })
        .returning(|new, _, _| Box::pin(async move { Ok(Order::placed(OrderId::new(1), new)) }));
    let catalog = vec![drop.clone(), bundle.clone(), other.clone()];
    let service = checkout(orders, lookup(catalog.clone()));
    service
        .place_order(request(vec![item(1, 1), item(10, 1)], dec!(6)))
        .await
        .unwrap();
    // the bundle alone, its drop released long ago: still the drop's window and cap
    let mut orders = MockOrderRepository::new();
    orders
        .expect_place()
        .withf(|new, _, _| {
            new.pay_by == Some(now() + chrono::Duration::minutes(10))
                && new.account_caps.len() == 1
                && new.account_caps[0].wanted == 2
        })
        .returning(|new, _, _| Box::pin(async move { Ok(Order::placed(OrderId::new(1), new)) }));
    let service = checkout(orders, lookup(catalog.clone()));
    service
        .place_order(request(vec![item(10, 2)], dec!(10)))
        .await
        .unwrap();
    // three bundles are three of the drop: over its cap in this one order
    let mut orders = MockOrderRepository::new();
    orders.expect_place().never();
    let service = checkout(orders, lookup(catalog));
    let result = service
        .place_order(request(vec![item(10, 3)], dec!(15)))
        .await;
    let Err(error @ CheckoutError::AccountCap { .. }) = result else {
        panic!("expected the cap, got {result:?}");
    };
    assert_eq!(
        error.to_string(),
        "Pet 1 is limited to 2 per account, and your Discord account already holds 0."
    );
}

#[tokio::test]
async fn repeated_lines_for_one_product_are_added_up() {
    let reserved = Arc::new(Mutex::new(None));
    let service = checkout(
        placing(reserved.clone()),
        lookup(vec![product(1, "1.00", Stock::Finite(5))]),
    );
    let placed = service
        .place_order(request(vec![item(1, 2), item(1, 3)], dec!(5)))
        .await
        .unwrap();
    assert_eq!(placed.order.lines.len(), 1);
    assert_eq!(placed.order.lines[0].quantity.get(), 5);
    assert_eq!(
        entries(&reserved.lock().unwrap().clone().unwrap()),
        [(1, 5)]
    );

    let service = checkout(MockOrderRepository::new(), lookup(vec![]));
    let result = service
        .place_order(request(vec![item(1, 20), item(1, 1)], dec!(0)))
        .await;
    assert!(matches!(
        result,
        Err(CheckoutError::TooMany { max: 20, .. })
    ));
}

#[tokio::test]
async fn an_empty_cart_is_refused() {
    let service = checkout(MockOrderRepository::new(), MockProductLookup::new());
    let result = service.place_order(request(vec![], dec!(0))).await;
    assert!(matches!(result, Err(CheckoutError::EmptyCart)));
}

fn promo_usage(max_uses: Option<i64>, uses: u32, used_by_account: bool) -> PromoUsage {
    PromoUsage {
        promo: Promo {
            id: PromoId::new(3),
            code: PromoCode::parse("SPRING").unwrap(),
            discount: DiscountPercent::new(10).unwrap(),
            expires_at: None,
            max_uses: max_uses.and_then(promo::MaxUses::new),
            active: true,
            created_at: now(),
        },
        uses,
        used_by_account,
    }
}

fn promos(usage: Option<PromoUsage>) -> MockPromoRepository {
    let mut promos = MockPromoRepository::new();
    promos
        .expect_usage()
        .with(
            eq(PromoCode::parse("SPRING").unwrap()),
            eq(promo::DiscordId::parse("123456789012345678").unwrap()),
        )
        .returning(move |_, _| {
            let usage = usage.clone();
            Box::pin(async move { Ok(usage) })
        });
    promos
}

#[tokio::test]
async fn a_promo_code_is_applied_again_on_the_server() {
    let reserved = Arc::new(Mutex::new(None));
    let service = checkout_with(
        placing(reserved),
        lookup(vec![product(1, "24.99", Stock::Unlimited)]),
        promos(Some(promo_usage(None, 0, false))),
        now(),
    );
    let placed = service
        .place_order(CheckoutRequest {
            promo_code: Some(" spring ".into()),
            ..request(vec![item(1, 1)], dec!(22.49))
        })
        .await
        .unwrap();
    let order = placed.order;
    assert_eq!(order.amounts.discount, money("2.50"));
    assert_eq!(order.amounts.items_total(), money("22.49"));
    assert_eq!(order.amounts.total, money("23.84"));
    assert_eq!(order.promo.map(|p| p.id), Some(PromoId::new(3)));
}

#[tokio::test]
async fn a_promo_code_that_no_longer_applies_refuses_the_checkout_with_its_reason() {
    for (usage, reason) in [
        (None, Rejection::Invalid),
        (Some(promo_usage(Some(1), 1, false)), Rejection::UsedUp),
        (Some(promo_usage(None, 1, true)), Rejection::AlreadyUsed),
    ] {
        let mut orders = MockOrderRepository::new();
        orders.expect_place().never();
        let service = checkout_with(
            orders,
            lookup(vec![product(1, "24.99", Stock::Unlimited)]),
            promos(usage),
            now(),
        );
        let result = service
            .place_order(CheckoutRequest {
                promo_code: Some("SPRING".into()),
                ..request(vec![item(1, 1)], dec!(22.49))
            })
            .await;
        assert!(
            matches!(result, Err(CheckoutError::Promo(r)) if r == reason),
            "{reason:?}"
        );
    }
}

#[tokio::test]
async fn a_blank_promo_code_is_no_promo_code() {
    let reserved = Arc::new(Mutex::new(None));
    let service = checkout(
        placing(reserved),
        lookup(vec![product(1, "2.00", Stock::Unlimited)]),
    );
    let placed = service
        .place_order(CheckoutRequest {
            promo_code: Some("   ".into()),
            ..request(vec![item(1, 1)], dec!(2))
        })
        .await
        .unwrap();
    assert_eq!(placed.order.promo, None);
}

// ---- the lifecycle after placement ----

fn stored(status: OrderStatus) -> Order {
    let mut order = Order::placed(
        OrderId::new(7),
        NewOrder {
            account_caps: vec![],
            refund_policy_version: None,
            pay_by: None,
            lines: vec![],
            buyer: buyer(),
            amounts: Amounts {
                subtotal: money("1"),
                discount: Money::ZERO,
                fee: money("0.35"),
                total: money("1.35"),
                paid: crate::Paid::in_base(cart_pricing::CurrencyCode::USD, money("1.35")),
            },
            promo: None,
            method: PaymentMethod::Card,
            provider: PaymentProvider::Stripe,
            created_at: now(),
            holder: OrderHolder::default(),
            idempotency: None,
        },
    );
    order.payment.reference = Some("cs_test_1".into());
    let lifecycle = crate::Lifecycle::restore(status, None, None, None);
    Order::restore(
        order.id,
        order.lines,
        order.buyer,
        order.amounts,
        order.promo,
        order.payment,
        order.created_at,
        None,
        lifecycle,
    )
}

fn stored_as(status: OrderStatus) -> MockOrderRepository {
    let mut orders = MockOrderRepository::new();
    orders
        .expect_order()
        .with(eq(OrderId::new(7)))
        .returning(move |_| Box::pin(async move { Ok(stored(status)) }));
    orders
}

fn event() -> ProviderEvent {
    ProviderEvent {
        provider: PaymentProvider::Stripe,
        id: "evt_1".into(),
    }
}

fn notice(reference: &str) -> PaymentNotice {
    PaymentNotice {
        order_id: OrderId::new(7),
        provider: PaymentProvider::Stripe,
        reference: reference.into(),
        event: Some(event()),
        hold: None,
    }
}

#[tokio::test]
async fn a_confirmed_payment_marks_the_pending_order_paid_with_its_event() {
    let mut orders = stored_as(OrderStatus::Pending);
    orders
        .expect_mark_paid()
        .with(eq(OrderId::new(7)), eq(now()), eq(Some(event())), eq(None))
        .times(1)
        .returning(|_, _, _, _| Box::pin(async { Ok(Applied::Changed) }));
    let told = Arc::new(Told::default());
    let service = checkout(orders, MockProductLookup::new()).with_notices(told.clone());
    let Confirmation::Paid(order) = service.confirm_paid(notice("cs_test_1")).await.unwrap() else {
        panic!("expected the order to be paid");
    };
    assert_eq!(order.status(), OrderStatus::Paid);
    assert_eq!(order.paid_at(), Some(now()));
    assert_eq!(
        told.all(),
        ["stock", "payment 7 paid Some(Stripe)"],
        "the sale reaches the product list, then the order's step and the payment metric, once"
    );
}

#[tokio::test]
async fn a_risky_payment_is_paid_on_its_hold_in_one_change() {
    let hold = crate::NewHold {
        reason: crate::HoldReason::RiskLevel,
        detail: Some("elevated".into()),
    };
    let mut orders = stored_as(OrderStatus::Pending);
    orders
        .expect_mark_paid()
        .with(
            eq(OrderId::new(7)),
            eq(now()),
            eq(Some(event())),
            eq(Some(hold.clone())),
        )
        .times(1)
        .returning(|_, _, _, _| Box::pin(async { Ok(Applied::Changed) }));
    let service = checkout(orders, MockProductLookup::new());
    let held = PaymentNotice {
        hold: Some(hold),
        ..notice("cs_test_1")
    };
    let Confirmation::Paid(order) = service.confirm_paid(held).await.unwrap() else {
        panic!("expected the order to be paid");
    };
    assert_eq!(
        order.held(),
        Some(&crate::RiskHold {
            reason: crate::HoldReason::RiskLevel,
            since: now(),
        })
    );
}

#[tokio::test]
async fn a_replayed_event_changes_nothing() {
    let mut orders = stored_as(OrderStatus::Pending);
    orders
        .expect_mark_paid()
        .returning(|_, _, _, _| Box::pin(async { Ok(Applied::Replayed) }));
    let told = Arc::new(Told::default());
    let service = checkout(orders, MockProductLookup::new()).with_notices(told.clone());
    assert_eq!(
        service.confirm_paid(notice("cs_test_1")).await.unwrap(),
        Confirmation::Replayed
    );
    assert!(told.all().is_empty(), "a replayed event tells no one");
}

#[tokio::test]
async fn confirming_a_paid_order_again_changes_nothing() {
    let mut orders = stored_as(OrderStatus::Paid);
    orders.expect_mark_paid().never();
    let service = checkout(orders, MockProductLookup::new());
    assert!(matches!(
        service.confirm_paid(notice("cs_test_1")).await,
        Ok(Confirmation::AlreadyPaid(_))
    ));
}

#[tokio::test]
async fn a_notice_for_another_payment_session_is_refused() {
    let mut orders = stored_as(OrderStatus::Pending);
    orders.expect_mark_paid().never();
    orders.expect_release().never();
    let service = checkout(orders, MockProductLookup::new());
    assert!(matches!(
        service.confirm_paid(notice("cs_test_other")).await,
        Err(ConfirmError::ReferenceMismatch(_))
    ));
    let from_paypal = PaymentNotice {
        provider: PaymentProvider::Paypal,
        ..notice("cs_test_1")
    };
    assert!(matches!(
        service.confirm_paid(from_paypal).await,
        Err(ConfirmError::ReferenceMismatch(_))
    ));
    assert!(matches!(
        service.expire(notice("cs_test_other")).await,
        Err(ReleaseError::ReferenceMismatch(_))
    ));
}

#[tokio::test]
async fn an_expired_order_cannot_be_paid_and_its_payment_is_recorded_for_staff() {
    let mut orders = stored_as(OrderStatus::Expired);
    orders.expect_mark_paid().never();
    orders
        .expect_mark_paid_too_late()
        .withf(|id, _, event| {
            *id == OrderId::new(7) && event.as_ref().is_some_and(|e| e.id == "evt_1")
        })
        .times(1)
        .returning(|_, _, _| Box::pin(async { Ok(Applied::Changed) }));
    let service = checkout(orders, MockProductLookup::new());
    let result = service.confirm_paid(notice("cs_test_1")).await;
    assert!(matches!(
        result,
        Err(ConfirmError::Refused(TransitionError {
            from: OrderStatus::Expired,
            to: OrderStatus::Paid
        }))
    ));
}

#[tokio::test]
async fn an_order_that_expired_during_the_confirmation_is_refused() {
    let mut orders = stored_as(OrderStatus::Pending);
    orders
        .expect_mark_paid()
        .returning(|_, _, _, _| Box::pin(async { Ok(Applied::NotPending(OrderStatus::Expired)) }));
    orders
        .expect_mark_paid_too_late()
        .times(1)
        .returning(|_, _, _| Box::pin(async { Ok(Applied::Replayed) }));
    let service = checkout(orders, MockProductLookup::new());
    assert!(matches!(
        service.confirm_paid(notice("cs_test_1")).await,
        Err(ConfirmError::Refused(_))
    ));
}

#[tokio::test]
async fn a_late_payment_that_cannot_be_recorded_is_an_error_the_provider_retries() {
    let mut orders = stored_as(OrderStatus::Cancelled);
    orders
        .expect_mark_paid_too_late()
        .times(1)
        .returning(|_, _, _| Box::pin(async { Err(OrderError::Unknown(anyhow::anyhow!("down"))) }));
    let service = checkout(orders, MockProductLookup::new());
    assert!(matches!(
        service.confirm_paid(notice("cs_test_1")).await,
        Err(ConfirmError::Unknown(_))
    ));
}

#[tokio::test]
async fn an_unknown_order_is_not_found() {
    let mut orders = MockOrderRepository::new();
    orders
        .expect_order()
        .returning(|id| Box::pin(async move { Err(OrderError::NotFound(id)) }));
    let service = checkout(orders, MockProductLookup::new());
    assert!(matches!(
        service.confirm_paid(notice("cs_test_1")).await,
        Err(ConfirmError::NotFound(id)) if id == OrderId::new(7)
    ));
}

#[tokio::test]
async fn an_expired_session_expires_the_pending_order_and_releases_its_stock() {
    let mut orders = stored_as(OrderStatus::Pending);
    orders
        .expect_release()
        .with(
            eq(OrderId::new(7)),
            eq(Closing::Expired),
            eq(now()),
            eq(Some(event())),
        )
        .times(1)
        .returning(|_, _, _, _| Box::pin(async { Ok(Applied::Changed) }));
    let told = Arc::new(Told::default());
    let service = checkout(orders, MockProductLookup::new()).with_notices(told.clone());
    let Release::Released(order) = service.expire(notice("cs_test_1")).await.unwrap() else {
        panic!("expected the order to be released");
    };
    assert_eq!(order.status(), OrderStatus::Expired);
    assert_eq!(told.all(), ["stock", "payment 7 expired Some(Stripe)"]);
}

#[tokio::test]
async fn an_expiry_after_payment_is_refused_and_keeps_the_stock_sold() {
    let mut orders = stored_as(OrderStatus::Paid);
    orders.expect_release().never();
    let service = checkout(orders, MockProductLookup::new());
    assert!(matches!(
        service.expire(notice("cs_test_1")).await,
        Err(ReleaseError::Refused(TransitionError {
            from: OrderStatus::Paid,
            to: OrderStatus::Expired
        }))
    ));
}

#[tokio::test]
async fn a_closed_order_is_not_released_twice() {
    for status in [OrderStatus::Expired, OrderStatus::Cancelled] {
        let mut orders = stored_as(status);
        orders.expect_release().never();
        let service = checkout(orders, MockProductLookup::new());
        assert!(matches!(
            service.cancel(OrderId::new(7)).await,
            Ok(Release::AlreadyClosed(_))
        ));
    }
}

#[tokio::test]
async fn a_cancel_racing_a_payment_is_refused() {
    let mut orders = stored_as(OrderStatus::Pending);
    orders
        .expect_release()
        .returning(|_, _, _, _| Box::pin(async { Ok(Applied::NotPending(OrderStatus::Paid)) }));
    let service = checkout(orders, MockProductLookup::new());
    assert!(matches!(
        service.cancel(OrderId::new(7)).await,
        Err(ReleaseError::Refused(TransitionError {
            from: OrderStatus::Paid,
            to: OrderStatus::Cancelled
        }))
    ));
}

#[tokio::test]
async fn the_sweeper_finds_orders_pending_past_the_window_and_its_grace() {
    let mut orders = MockOrderRepository::new();
    orders
        .expect_pending_past_deadline()
        .with(eq(now() - Duration::minutes(35)), eq(now()))
        .returning(|_, _| Box::pin(async { Ok(vec![OrderId::new(1), OrderId::new(2)]) }));
    let service = checkout(orders, MockProductLookup::new());
    assert_eq!(
        service.stale_orders().await.unwrap(),
        [OrderId::new(1), OrderId::new(2)]
    );
}

#[tokio::test]
async fn a_stale_order_expires_once_and_one_paid_meanwhile_is_left_alone() {
    let mut orders = stored_as(OrderStatus::Pending);
    orders
        .expect_release()
        .with(
            eq(OrderId::new(7)),
            eq(Closing::Expired),
            eq(now()),
            eq(None),
        )
        .times(1)
        .returning(|_, _, _, _| Box::pin(async { Ok(Applied::Changed) }));
    let service = checkout(orders, MockProductLookup::new());
    assert!(matches!(
        service.expire_unpaid(OrderId::new(7)).await,
        Ok(Release::Released(order)) if order.status() == OrderStatus::Expired
    ));

    let mut orders = stored_as(OrderStatus::Pending);
    orders
        .expect_release()
        .returning(|_, _, _, _| Box::pin(async { Ok(Applied::NotPending(OrderStatus::Paid)) }));
    let service = checkout(orders, MockProductLookup::new());
    assert!(matches!(
        service.expire_unpaid(OrderId::new(7)).await,
        Err(ReleaseError::Refused(TransitionError {
            from: OrderStatus::Paid,
            ..
        }))
    ));
}

#[tokio::test]
async fn an_order_held_for_review_is_neither_cancelled_nor_expired() {
    let mut held = stored(OrderStatus::Pending);
    held.review = Some("PayPal capture pending".into());
    let mut orders = MockOrderRepository::new();
    orders.expect_order().returning(move |_| {
        let held = held.clone();
        Box::pin(async move { Ok(held) })
    });
    orders.expect_release().never();
    let service = checkout(orders, MockProductLookup::new());
    assert!(matches!(
        service.cancel(OrderId::new(7)).await,
        Err(ReleaseError::UnderReview(_))
    ));
    assert!(matches!(
        service.expire_unpaid(OrderId::new(7)).await,
        Err(ReleaseError::UnderReview(_))
    ));
}

#[tokio::test]
async fn a_cart_over_the_line_cap_is_refused_before_anything_is_read() {
    let mut products = MockProductLookup::new();
    products.expect_products().never();
    let mut orders = MockOrderRepository::new();
    orders.expect_place().never();
    let service = checkout(orders, products).with_limits(CheckoutLimits {
        max_lines: 3,
        ..CheckoutLimits::default()
    });
    let items = (1..=4).map(|id| item(id, 1)).collect();
    assert!(matches!(
        service.place_order(request(items, dec!(4))).await,
        Err(CheckoutError::TooManyLines { max: 3 })
    ));
}

#[tokio::test]
async fn the_caps_go_to_the_store_and_a_full_one_says_when_it_frees_up() {
    let limits = CheckoutLimits {
        pending: PendingCaps {
            per_account: 1,
            per_session: 3,
            per_address: 9,
        },
        ..CheckoutLimits::default()
    };
    let mut orders = MockOrderRepository::new();
    orders
        .expect_place()
        .withf(move |_, _, caps| *caps == limits.pending)
        .times(1)
        .returning(|_, _, _| {
            Box::pin(async {
                Err(PlaceError::TooManyPending(PendingCapReached {
                    by: HeldBy::Account,
                    max: 1,
                    oldest: now() - Duration::minutes(5),
                }))
            })
        });
    let service =
        checkout(orders, lookup(vec![product(1, "1.00", Stock::Unlimited)])).with_limits(limits);
    let result = service
        .place_order(request(vec![item(1, 1)], dec!(1)))
        .await;
    let Err(CheckoutError::TooManyPending {
        reached,
        retry_after,
    }) = result
    else {
        panic!("expected the cap, got {result:?}");
    };
    assert_eq!(reached.by, HeldBy::Account);
    // placed 5 minutes ago, expired by the sweeper 35 minutes after it was placed
    assert_eq!(retry_after, Duration::minutes(30));
}

#[tokio::test]
async fn a_promo_claim_the_store_refuses_is_the_promo_reason() {
    let mut orders = MockOrderRepository::new();
    orders
        .expect_place()
        .returning(|_, _, _| Box::pin(async { Err(PlaceError::Promo(Rejection::UsedUp)) }));
    let service = checkout_with(
        orders,
        lookup(vec![product(1, "24.99", Stock::Unlimited)]),
        promos(Some(promo_usage(Some(1), 0, false))),
        now(),
    );
    let result = service
        .place_order(CheckoutRequest {
            promo_code: Some("SPRING".into()),
            ..request(vec![item(1, 1)], dec!(22.49))
        })
        .await;
    assert!(matches!(
        result,
        Err(CheckoutError::Promo(Rejection::UsedUp))
    ));
}

/// A hint that knows product 1 as sold out and product 2 with 1 left.
struct SoldOutOne;

impl crate::StockHint for SoldOutOne {
    fn products(&self, ids: &[ProductId]) -> Vec<Product> {
        [
            product(1, "4.99", Stock::Finite(0)),
            product(2, "4.99", Stock::Finite(1)),
        ]
        .into_iter()
        .filter(|product| ids.contains(&product.id))
        .collect()
    }
}

#[tokio::test]
async fn what_the_hint_knows_as_sold_out_is_refused_without_reading_the_database() {
    let mut orders = MockOrderRepository::new();
    orders.expect_place().never();
    let mut products = MockProductLookup::new();
    products.expect_products().never();
    let service = checkout(orders, products).with_stock_hint(SoldOutOne);
    let refused = service
        .place_order(request(vec![item(2, 3), item(1, 1)], dec!(19.96)))
        .await;
    let Err(CheckoutError::OutOfStock(problems)) = refused else {
        panic!("expected out of stock, got {refused:?}");
    };
    // every problem of the cart, as the database's check would list them
    assert_eq!(
        problems,
        vec![
            StockProblem::NotEnough {
                name: "Pet 2".into(),
                available: 1,
                requested: 3
            },
            StockProblem::OutOfStock {
                name: "Pet 1".into()
            }
        ]
    );
}

/// A hint that sees product 1 in stock at first and sold out from its `after`-th answer on (the
/// sales of other requests landing while this one waits for its turn).
struct SellsOutAfter {
    answers: std::sync::atomic::AtomicUsize,
    after: usize,
}

impl crate::StockHint for SellsOutAfter {
    fn products(&self, ids: &[ProductId]) -> Vec<Product> {
        let seen = self
            .answers
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let stock = if seen + 1 >= self.after { 0 } else { 4 };
        [product(1, "4.99", Stock::Finite(stock))]
            .into_iter()
            .filter(|product| ids.contains(&product.id))
            .collect()
    }
}

#[tokio::test]
async fn a_sale_made_while_the_request_waited_for_its_turn_refuses_it_before_any_read() {
    let mut orders = MockOrderRepository::new();
    orders.expect_place().never();
    let mut products = MockProductLookup::new();
    products.expect_products().never();
    let service = checkout(orders, products).with_stock_hint(SellsOutAfter {
        answers: 0.into(),
        after: 2,
    });
    let refused = service
        .place_order(request(vec![item(1, 1)], dec!(4.99)))
        .await;
    let Err(CheckoutError::OutOfStock(problems)) = refused else {
        panic!("expected out of stock, got {refused:?}");
    };
    assert_eq!(
        problems,
        vec![StockProblem::OutOfStock {
            name: "Pet 1".into()
        }]
    );
}

/// What checkout taught a hint: the version, and each product's id and stock.
type Lesson = (u64, Vec<(i64, Stock)>);

/// A hint that saw product 1 in stock and records what checkout teaches it.
#[derive(Default)]
struct Learning {
    version: std::sync::atomic::AtomicU64,
    learned: Mutex<Vec<Lesson>>,
}

impl crate::StockHint for Arc<Learning> {
    fn products(&self, ids: &[ProductId]) -> Vec<Product> {
        [product(1, "4.99", Stock::Finite(4))]
            .into_iter()
            .filter(|product| ids.contains(&product.id))
            .collect()
    }

    fn version(&self) -> u64 {
        // moves on each time it is asked, as if the catalog were read in between
        self.version
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst)
    }

    fn learned(&self, version: u64, products: &[Product]) {
        let seen = products.iter().map(|p| (p.id.get(), p.stock)).collect();
        self.learned.lock().unwrap().push((version, seen));
    }
}

#[tokio::test]
async fn a_sale_the_database_refuses_teaches_the_hint_what_it_read_afterwards() {
    let mut orders = MockOrderRepository::new();
    orders
        .expect_place()
        .returning(|_, _, _| Box::pin(async { Err(PlaceError::OutOfStock(ProductId::new(1))) }));
    let mut products = MockProductLookup::new();
    let mut reads = 0;
    products.expect_products().returning(move |_| {
        reads += 1;
        // the cart was read with stock; after the refusal the product is sold out
        let stock = if reads == 1 { 4 } else { 0 };
        let found = vec![product(1, "4.99", Stock::Finite(stock))];
        Box::pin(async move { Ok(found) })
    });
    let hint = Arc::new(Learning::default());
    let service = checkout(orders, products).with_stock_hint(hint.clone());
    let refused = service
        .place_order(request(vec![item(1, 1)], dec!(4.99)))
        .await;
    assert!(matches!(refused, Err(CheckoutError::OutOfStock(_))));
    // the version taken before the second read (the first was taken before the first), and
    // the stock that read showed
    assert_eq!(
        *hint.learned.lock().unwrap(),
        vec![(1, vec![(1, Stock::Finite(0))])]
    );
}

#[tokio::test]
async fn a_sale_that_takes_the_last_units_teaches_the_hint_that_the_product_is_sold_out() {
    let hint = Arc::new(Learning::default());
    let service = checkout(
        placing(Arc::new(Mutex::new(None))),
        lookup(vec![
            product(1, "4.99", Stock::Finite(4)),
            product(2, "1.00", Stock::Unlimited),
        ]),
    )
    .with_stock_hint(hint.clone());
    service
        .place_order(request(vec![item(1, 4), item(2, 3)], dec!(22.96)))
        .await
        .unwrap();
    // the version taken before the read the sale was priced from, and what the sale left of
    // the finite stock it took (unlimited stock has nothing to teach)
    assert_eq!(
        *hint.learned.lock().unwrap(),
        vec![(0, vec![(1, Stock::Finite(0))])]
    );
}

#[tokio::test]
async fn a_sale_that_leaves_stock_teaches_the_hint_what_is_left() {
    let hint = Arc::new(Learning::default());
    let service = checkout(
        placing(Arc::new(Mutex::new(None))),
        lookup(vec![product(1, "4.99", Stock::Finite(4))]),
    )
    .with_stock_hint(hint.clone());
    service
        .place_order(request(vec![item(1, 1)], dec!(4.99)))
        .await
        .unwrap();
    assert_eq!(
        *hint.learned.lock().unwrap(),
        vec![(0, vec![(1, Stock::Finite(3))])]
    );
}

#[tokio::test]
async fn the_database_still_judges_what_the_hint_does_not_know() {
    let reserved = Arc::new(Mutex::new(None));
    // the hint saw product 1 sold out, but it is not in this cart; product 2 is short in the
    // hint's view yet not sold out, so the database decides (and here has stock)
    let service = checkout(
        placing(reserved.clone()),
        lookup(vec![product(2, "4.99", Stock::Finite(5))]),
    )
    .with_stock_hint(SoldOutOne);
    service
        .place_order(request(vec![item(2, 1)], dec!(4.99)))
        .await
        .unwrap();
    assert_eq!(
        entries(reserved.lock().unwrap().as_ref().unwrap()),
        vec![(2, 1)]
    );
}

// ---- the payment step: opening the provider's page, capturing on the provider's return

mod payment {
    use super::*;
    use crate::gateways::{
        CaptureOutcome, CapturedAmount, HostedCheckout, MockPaymentCapture, MockPaymentGateway,
        PaymentError, SessionClosing,
    };
    use crate::{CaptureError, Captured, OpenCheckoutError, ReturnUrls};

    fn urls(id: OrderId) -> ReturnUrls {
        ReturnUrls {
            success_url: format!("http://shop/success?order_id={id}"),
            cancel_url: format!("http://shop/cancel?order_id={id}"),
            paid_url: format!("http://shop/success?order_id={id}"),
        }
    }

    fn keyed(request: CheckoutRequest) -> CheckoutRequest {
        CheckoutRequest {
            idempotency: Some(crate::IdempotencyKey::parse("press-1").unwrap().scoped("s")),
            ..request
        }
    }

    #[test]
    fn the_fingerprint_is_the_request_as_the_server_reads_it() {
        let base = request(vec![item(1, 2), item(2, 1)], dec!(9.98));
        let same = request(vec![item(2, 1), item(1, 1), item(1, 1)], dec!(9.980));
        assert_eq!(base.fingerprint(), same.fingerprint());
        for other in [
            request(vec![item(1, 3), item(2, 1)], dec!(9.98)),
            request(vec![item(1, 2), item(2, 1)], dec!(9.99)),
            CheckoutRequest {
                method: PaymentMethod::Paypal,
                ..base.clone()
            },
            CheckoutRequest {
                promo_code: Some("spring".into()),
                ..base.clone()
            },
        ] {
            assert_ne!(base.fingerprint(), other.fingerprint(), "{other:?}");
        }
        // where it came from does not count
        let elsewhere = CheckoutRequest {
            holder: OrderHolder {
                buyer_token: Some("t".into()),
                client_ip: Some("10.0.0.9".into()),
                client_net: Some("10.0.0.9".into()),
            },
            ..base.clone()
        };
        assert_eq!(base.fingerprint(), elsewhere.fingerprint());
    }

    #[tokio::test]
    async fn a_request_refused_while_its_key_placed_an_order_answers_that_order() {
        let first = request(vec![item(1, 2)], dec!(9.98));
        let fingerprint = first.fingerprint();
        let winner = Order::placed(
            OrderId::new(1),
            NewOrder {
                account_caps: vec![],
                refund_policy_version: None,
                pay_by: None,
                lines: vec![],
                buyer: buyer(),
                amounts: Amounts {
                    subtotal: money("9.98"),
                    discount: Money::ZERO,
                    fee: money("0.77"),
                    total: money("10.75"),
                    paid: crate::Paid::in_base(cart_pricing::CurrencyCode::USD, money("10.75")),
                },
                promo: None,
                method: PaymentMethod::Card,
                provider: PaymentProvider::Stripe,
                created_at: now(),
                holder: OrderHolder::default(),
                idempotency: None,
            },
        );
        let mut orders = MockOrderRepository::new();
        let lookups = Arc::new(Mutex::new(0));
        orders.expect_keyed_order().returning(move |_, since| {
            assert_eq!(since, now() - Duration::hours(24));
            let mut n = lookups.lock().unwrap();
            *n += 1;
            let found = (*n > 1).then(|| crate::KeyedOrder {
                order: winner.clone(),
                fingerprint: fingerprint.clone(),
                payment_url: Some("https://pay/cs_1".into()),
                buyer_token: Some("token-1".into()),
            });
            Box::pin(async move { Ok(found) })
        });
        orders
            .expect_place()
            .withf(|new, _, _| new.idempotency.is_some())
            .returning(|_, _, _| {
                Box::pin(async { Err(PlaceError::AlreadyPlaced(OrderId::new(1))) })
            });
        orders.expect_attach_payment_reference().never();
        let mut gateway = MockPaymentGateway::new();
        gateway.expect_create_checkout().never();
        let opened = service(orders)
            .place_and_open(keyed(first), &gateway, urls)
            .await
            .unwrap();
        assert_eq!(opened.placed.order.id, OrderId::new(1));
        assert_eq!(opened.redirect_url, "https://pay/cs_1");
        assert_eq!(
            opened.replayed,
            Some(crate::Replayed {
                buyer_token: Some("token-1".into())
            })
        );
    }

    #[tokio::test]
    async fn a_key_found_with_another_request_is_refused_before_anything_is_placed() {
        let mut orders = MockOrderRepository::new();
        orders.expect_keyed_order().returning(|_, _| {
            Box::pin(async {
                Ok(Some(crate::KeyedOrder {
                    order: stored(OrderStatus::Pending),
                    fingerprint: "another request".into(),
                    payment_url: Some("https://pay/cs_1".into()),
                    buyer_token: None,
                }))
            })
        });
        orders.expect_place().never();
        let gateway = MockPaymentGateway::new();
        let refused = service(orders)
            .place_and_open(keyed(request(vec![item(1, 1)], dec!(4.99))), &gateway, urls)
            .await;
        assert!(matches!(
            refused,
            Err(OpenCheckoutError::Refused(CheckoutError::KeyReused))
        ));
    }

    /// Places order 1, then answers `order(1)` with the placed order as pending.
    fn placing_order_one() -> MockOrderRepository {
        let placed = Arc::new(Mutex::new(None));
        let mut orders = MockOrderRepository::new();
        let keep = placed.clone();
        orders.expect_place().returning(move |new, _, _| {
            let order = Order::placed(OrderId::new(1), new);
            *keep.lock().unwrap() = Some(order.clone());
            Box::pin(async move { Ok(order) })
        });
        orders.expect_order().returning(move |_| {
            let order = placed.lock().unwrap().clone().unwrap();
            Box::pin(async move { Ok(order) })
        });
        orders
    }

    fn service(orders: MockOrderRepository) -> TestCheckout {
        checkout(orders, lookup(vec![product(1, "4.99", Stock::Finite(5))]))
    }

    #[tokio::test]
    async fn an_opened_page_is_recorded_with_the_order_and_charges_its_grand_total() {
        let mut orders = placing_order_one();
        orders
            .expect_attach_payment_reference()
            .with(
                eq(OrderId::new(1)),
                eq("cs_1".to_owned()),
                eq("https://pay/cs_1".to_owned()),
            )
            .times(1)
            .returning(|_, _, _| Box::pin(async { Ok(()) }));
        orders.expect_release().never();
        let mut gateway = MockPaymentGateway::new();
        gateway
            .expect_create_checkout()
            .times(1)
            .withf(|request| {
                request.total() == 1075
                    && request.currency.as_str() == "USD"
                    && request.expires_at == now() + Duration::minutes(31)
                    && request.success_url == "http://shop/success?order_id=1"
            })
            .returning(|_| {
                Box::pin(async {
                    Ok(HostedCheckout {
                        provider_reference: "cs_1".into(),
                        redirect_url: "https://pay/cs_1".into(),
                    })
                })
            });
        gateway.expect_close_checkout().never();
        let opened = service(orders)
            .place_and_open(request(vec![item(1, 2)], dec!(9.98)), &gateway, urls)
            .await
            .unwrap();
        assert_eq!(opened.redirect_url, "https://pay/cs_1");
        assert_eq!(opened.placed.order.amounts.total, money("10.75"));
    }

    #[tokio::test]
    async fn a_page_the_provider_could_not_open_cancels_the_order() {
        let mut orders = placing_order_one();
        orders.expect_attach_payment_reference().never();
        orders
            .expect_release()
            .withf(|id, closing, _, _| *id == OrderId::new(1) && *closing == Closing::Cancelled)
            .times(1)
            .returning(|_, _, _, _| Box::pin(async { Ok(Applied::Changed) }));
        let mut gateway = MockPaymentGateway::new();
        gateway
            .expect_create_checkout()
            .returning(|_| Box::pin(async { Err(PaymentError::Unavailable("timed out".into())) }));
        gateway.expect_close_checkout().never();
        let failed = service(orders)
            .place_and_open(request(vec![item(1, 2)], dec!(9.98)), &gateway, urls)
            .await;
        assert!(matches!(
            failed,
            Err(OpenCheckoutError::PaymentFailed { order_id, .. }) if order_id == OrderId::new(1)
        ));
    }

    #[tokio::test]
    async fn a_page_that_could_not_be_recorded_is_closed_and_the_order_cancelled() {
        let mut orders = placing_order_one();
        orders
            .expect_attach_payment_reference()
            .returning(|id, _, _| Box::pin(async move { Err(OrderError::NotFound(id)) }));
        orders
            .expect_release()
            .times(1)
            .returning(|_, _, _, _| Box::pin(async { Ok(Applied::Changed) }));
        let mut gateway = MockPaymentGateway::new();
        gateway.expect_create_checkout().returning(|_| {
            Box::pin(async {
                Ok(HostedCheckout {
                    provider_reference: "cs_1".into(),
                    redirect_url: "https://pay/cs_1".into(),
                })
            })
        });
        gateway
            .expect_close_checkout()
            .with(eq("cs_1".to_owned()))
            .times(1)
            .returning(|_| Box::pin(async { Ok(SessionClosing::Closed) }));
        let failed = service(orders)
            .place_and_open(request(vec![item(1, 2)], dec!(9.98)), &gateway, urls)
            .await;
        assert!(matches!(
            failed,
            Err(OpenCheckoutError::PaymentFailed { .. })
        ));
    }

    #[tokio::test]
    async fn a_refused_cart_opens_no_page() {
        let mut orders = MockOrderRepository::new();
        orders.expect_place().never();
        let mut gateway = MockPaymentGateway::new();
        gateway.expect_create_checkout().never();
        let refused = service(orders)
            .place_and_open(request(vec![item(1, 9)], dec!(44.91)), &gateway, urls)
            .await;
        assert!(matches!(
            refused,
            Err(OpenCheckoutError::Refused(CheckoutError::OutOfStock(_)))
        ));
    }

    fn paypal_order(status: OrderStatus) -> MockOrderRepository {
        let mut orders = MockOrderRepository::new();
        orders.expect_order().returning(move |_| {
            let mut order = stored(status);
            order.payment.provider = PaymentProvider::Paypal;
            Box::pin(async move { Ok(order) })
        });
        orders
    }

    fn capturing(outcome: Result<CaptureOutcome, PaymentError>) -> MockPaymentCapture {
        let mut capture = MockPaymentCapture::new();
        let outcome = Mutex::new(Some(outcome));
        capture
            .expect_capture()
            .with(eq("cs_test_1".to_owned()))
            .times(1)
            .returning(move |_| {
                let outcome = outcome.lock().unwrap().take().unwrap();
                Box::pin(async move { outcome })
            });
        capture
    }

    fn dollars(value: &str) -> Option<CapturedAmount> {
        Some(CapturedAmount {
            value: value.into(),
            currency: "USD".into(),
        })
    }

    #[tokio::test]
    async fn a_completed_capture_of_the_total_confirms_the_order() {
        let mut orders = paypal_order(OrderStatus::Pending);
        orders
            .expect_mark_paid()
            .times(1)
            .returning(|_, _, _, _| Box::pin(async { Ok(Applied::Changed) }));
        let capture = capturing(Ok(CaptureOutcome::Completed {
            amount: dollars("1.35"),
        }));
        let captured = checkout(orders, MockProductLookup::new())
            .confirm_capture(
                OrderId::new(7),
                PaymentProvider::Paypal,
                "cs_test_1",
                &capture,
            )
            .await
            .unwrap();
        assert!(
            matches!(&captured, Captured::Confirmed(c) if matches!(**c, Confirmation::Paid(_)))
        );
        assert!(captured.is_success());
    }

    #[tokio::test]
    async fn another_amount_holds_the_order_for_staff_without_paying_it() {
        let mut orders = paypal_order(OrderStatus::Pending);
        orders.expect_mark_paid().never();
        orders
            .expect_hold_for_review()
            .withf(|_, reason| {
                reason.starts_with("PayPal captured 1.00 USD, but the order's total is 1.35 USD")
            })
            .times(1)
            .returning(|_, _| Box::pin(async { Ok(Applied::Changed) }));
        let capture = capturing(Ok(CaptureOutcome::Completed {
            amount: dollars("1.00"),
        }));
        let captured = checkout(orders, MockProductLookup::new())
            .confirm_capture(
                OrderId::new(7),
                PaymentProvider::Paypal,
                "cs_test_1",
                &capture,
            )
            .await
            .unwrap();
        assert!(matches!(
            captured,
            Captured::Held {
                newly_held: true,
                ..
            }
        ));
    }

    #[tokio::test]
    async fn a_token_of_another_payment_captures_nothing() {
        let capture = MockPaymentCapture::new();
        let service = checkout(paypal_order(OrderStatus::Pending), MockProductLookup::new());
        let refused = service
            .confirm_capture(OrderId::new(7), PaymentProvider::Paypal, "forged", &capture)
            .await;
        assert!(matches!(refused, Err(CaptureError::NotThisPayment { .. })));
        // a Stripe order's own session id is not a PayPal payment either
        let service = checkout(stored_as(OrderStatus::Pending), MockProductLookup::new());
        let refused = service
            .confirm_capture(
                OrderId::new(7),
                PaymentProvider::Paypal,
                "cs_test_1",
                &capture,
            )
            .await;
        assert!(matches!(refused, Err(CaptureError::NotThisPayment { .. })));
    }

    #[tokio::test]
    async fn an_order_no_longer_pending_is_not_captured() {
        let capture = MockPaymentCapture::new();
        for (status, expected) in [
            (OrderStatus::Paid, Captured::PaidBefore),
            (OrderStatus::Expired, Captured::NotPaid),
            (OrderStatus::Cancelled, Captured::NotPaid),
        ] {
            let service = checkout(paypal_order(status), MockProductLookup::new());
            let captured = service
                .confirm_capture(
                    OrderId::new(7),
                    PaymentProvider::Paypal,
                    "cs_test_1",
                    &capture,
                )
                .await
                .unwrap();
            assert_eq!(captured, expected, "{status:?}");
        }
    }

    #[tokio::test]
    async fn a_capture_the_provider_failed_changes_nothing() {
        let mut orders = paypal_order(OrderStatus::Pending);
        orders.expect_mark_paid().never();
        orders.expect_hold_for_review().never();
        let capture = capturing(Err(PaymentError::Unavailable("503".into())));
        let failed = checkout(orders, MockProductLookup::new())
            .confirm_capture(
                OrderId::new(7),
                PaymentProvider::Paypal,
                "cs_test_1",
                &capture,
            )
            .await;
        assert!(matches!(failed, Err(CaptureError::Provider(_))));
    }
}

#[tokio::test]
async fn a_placed_order_gets_a_link_key_whose_hash_alone_is_stored() {
    let keys = crate::OrderKeys::new(&[3u8; 64]).unwrap();
    let expected = keys.key_for(OrderId::new(1));
    let mut orders = placing(Arc::new(Mutex::new(None)));
    let hash = expected.hash();
    orders
        .expect_set_access_key_hash()
        .with(eq(OrderId::new(1)), eq(hash))
        .times(1)
        .returning(|_, _| Box::pin(async { Ok(()) }));
    let service =
        checkout(orders, lookup(vec![product(1, "5.00", Stock::Unlimited)])).with_access_keys(keys);
    let placed = service
        .place_order(request(vec![item(1, 1)], dec!(5.00)))
        .await
        .unwrap();
    assert_eq!(placed.access_key, Some(expected));
}

#[tokio::test]
async fn a_placement_lets_the_next_one_go_before_the_product_list_catches_up() {
    // every placement's list refresh waits until one more placement than there are turns has
    // reached the database: with the turn held through the refresh, the last could never go
    let everyone = crate::gates::PLACEMENTS_AT_ONCE + 1;
    let (placed, watch) = tokio::sync::watch::channel(0_usize);
    let placed = Arc::new(placed);
    let mut orders = MockOrderRepository::new();
    orders.expect_place().returning(move |new, _, _| {
        placed.send_modify(|count| *count += 1);
        Box::pin(async move { Ok(Order::placed(OrderId::new(1), new)) })
    });
    /// Refreshes the list once everyone has reached the database.
    struct Refresh(tokio::sync::watch::Receiver<usize>, usize);
    impl catalog::StockNotices for Refresh {
        fn stock_changed(&self) -> shared::Published<'_> {
            let (mut watch, everyone) = (self.0.clone(), self.1);
            Box::pin(async move {
                let _ = watch.wait_for(|count| *count >= everyone).await;
            })
        }
    }
    impl OrderNotices for Refresh {
        fn order_changed(&self, _: OrderId, _: OrderStep) -> shared::Published<'_> {
            Box::pin(async {})
        }
        fn payment_changed(
            &self,
            _: OrderId,
            _: OrderStep,
            _: Option<PaymentProvider>,
        ) -> shared::Published<'_> {
            Box::pin(async {})
        }
    }
    let service = checkout(orders, lookup(vec![product(1, "4.99", Stock::Finite(100))]))
        .with_stock_hint(Arc::new(Learning::default()))
        .with_notices(Arc::new(Refresh(watch, everyone)));
    let rush = (0..everyone).map(|_| service.place_order(request(vec![item(1, 1)], dec!(4.99))));
    let answers = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        futures::future::join_all(rush),
    )
    .await
    .expect("every placement went while the earlier ones refreshed the list");
    assert!(answers.iter().all(Result::is_ok), "{answers:?}");
}

mod holdings {
    use super::*;
    use crate::{DropHolders, HeldUnits};

    fn held(product: i64, max: u32, (discord, user, browser): (u32, u32, u32)) -> HeldUnits {
        HeldUnits {
            product: ProductId::new(product),
            max_per_account: max,
            by_discord: discord,
            by_user: user,
            by_browser: browser,
        }
    }

    fn holders() -> DropHolders {
        DropHolders {
            discord: Some(DiscordId::parse("123456789012345678").unwrap()),
            user: Some(UserId::new(4)),
            buyer_token: Some("token".into()),
        }
    }

    #[tokio::test]
    async fn a_buyer_holds_the_most_any_one_of_its_holders_holds_in_product_order() {
        let mut orders = MockOrderRepository::new();
        orders
            .expect_units_held()
            .with(eq(holders()))
            .times(1)
            .returning(|_| {
                Box::pin(async {
                    Ok(vec![
                        held(9, 3, (0, 0, 2)),
                        held(2, 1, (1, 0, 0)),
                        held(5, 4, (1, 3, 2)),
                    ])
                })
            });
        let service = checkout(orders, MockProductLookup::new());
        let holdings = service.holdings(holders()).await.unwrap();
        let seen: Vec<(i64, u32, u32, u32)> = holdings
            .iter()
            .map(|h| (h.product.get(), h.held, h.max_per_account, h.room()))
            .collect();
        assert_eq!(seen, vec![(2, 1, 1, 0), (5, 3, 4, 1), (9, 2, 3, 1)]);
    }

    #[tokio::test]
    async fn no_holder_reads_nothing_and_holds_nothing() {
        // no expectation: a call to the repository would fail the test
        let service = checkout(MockOrderRepository::new(), MockProductLookup::new());
        let holdings = service.holdings(DropHolders::default()).await.unwrap();
        assert!(holdings.is_empty());
    }

    #[tokio::test]
    async fn a_holding_over_a_lowered_cap_has_no_room_left() {
        let mut orders = MockOrderRepository::new();
        orders
            .expect_units_held()
            .returning(|_| Box::pin(async { Ok(vec![held(1, 1, (0, 0, 3))]) }));
        let service = checkout(orders, MockProductLookup::new());
        let holdings = service.holdings(holders()).await.unwrap();
        assert_eq!(holdings[0].held, 3);
        assert_eq!(holdings[0].room(), 0);
    }
}

// ---- a visitor's open orders ----

fn stored_at(id: i64, status: OrderStatus, minutes_ago: i64) -> Order {
    let order = stored(status);
    Order::restore(
        OrderId::new(id),
        order.lines,
        order.buyer,
        order.amounts,
        order.promo,
        order.payment,
        now() - Duration::minutes(minutes_ago),
        None,
        crate::Lifecycle::restore(status, None, None, None),
    )
}

#[tokio::test]
async fn a_visitors_open_orders_are_their_newest_pending_or_paid_ones_of_this_browser_and_account()
{
    let mut orders = MockOrderRepository::new();
    // placed in this browser, oldest first: 2 paid, 3 delivered, 4 gone, 11 pending, the rest
    // cancelled; 1 is older than the ten read
    let here = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(OrderId::new);
    orders.expect_order().returning(|id| {
        let id = id.get();
        Box::pin(async move {
            match id {
                1 => panic!("only the newest ten placed here are read"),
                2 => Ok(stored_at(2, OrderStatus::Paid, 50)),
                3 => Ok(stored_at(3, OrderStatus::Delivered, 5)),
                4 => Err(OrderError::NotFound(OrderId::new(4))),
                11 => Ok(stored_at(11, OrderStatus::Pending, 40)),
                other => Ok(stored_at(other, OrderStatus::Cancelled, 1)),
            }
        })
    });
    // the account's: 11 again (placed here while logged in), 20 (paid, newest), 21 (refunded)
    orders
        .expect_orders_of_user()
        .with(eq(UserId::new(5)))
        .returning(|_| {
            Box::pin(async {
                Ok(vec![
                    stored_at(20, OrderStatus::Paid, 2),
                    stored_at(11, OrderStatus::Pending, 40),
                    stored_at(21, OrderStatus::Refunded, 3),
                ])
            })
        });
    let service = checkout(orders, lookup(vec![]));
    let open = service
        .open_orders(&here, Some(UserId::new(5)))
        .await
        .unwrap();
    let ids: Vec<i64> = open.iter().map(|order| order.id.get()).collect();
    assert_eq!(ids, [20, 11, 2]);
}

#[tokio::test]
async fn a_visitor_shows_at_most_three_open_orders_and_none_without_an_account_or_orders() {
    let mut orders = MockOrderRepository::new();
    orders.expect_order().returning(|id| {
        let id = id.get();
        Box::pin(async move { Ok(stored_at(id, OrderStatus::Paid, 100 - id)) })
    });
    orders.expect_orders_of_user().never();
    let service = checkout(orders, lookup(vec![]));
    let here = [1, 2, 3, 4, 5].map(OrderId::new);
    let open = service.open_orders(&here, None).await.unwrap();
    let ids: Vec<i64> = open.iter().map(|order| order.id.get()).collect();
    assert_eq!(ids, [5, 4, 3]);
    assert!(service.open_orders(&[], None).await.unwrap().is_empty());
}
