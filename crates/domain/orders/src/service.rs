use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use cart_pricing::{PricedCart, Quantity, StockProblem};
use catalog::{Product, ProductId};
use chrono::{DateTime, Duration, Utc};
use promo::{evaluate, Clock, PromoCode, PromoRepository, PromoValidation, Rejection};
use shared::UserId;

use crate::block_check::{Blocklist, BuyerIdentities};
use crate::gates::ProductGates;
use crate::idempotency::{KeyedPlacement, IDEMPOTENCY_WINDOW_HOURS};
use crate::link_keys::OrderKeys;
use crate::{
    drop_caps, frees_up_in, stock_problems, takes_a_drop, AccountCap, AccountCapReached, Amounts,
    Applied, Buyer, CapHolder, CartItem, CheckoutError, CheckoutLimits, CheckoutRequest,
    CheckoutService, Closing, ConfirmError, Confirmation, DropHolders, DropHolding, HeldUnits,
    NewOrder, Order, OrderError, OrderId, OrderLine, OrderNotices, OrderPromo, OrderRepository,
    OrderStatus, OrderStep, PaymentNotice, PlaceError, PlacedOrder, ProductLookup, ProviderEvent,
    Release, ReleaseError, RequestedItem, Reservation, RiskHold, StockHint, TransitionError,
    Unavailable,
};

/// How long a payment session lasts (Stripe's `expires_at`).
pub const PAYMENT_WINDOW_MINUTES: i64 = 30;
/// How long past the payment window the sweeper waits before expiring a pending order, so the
/// provider's own confirmation or expiry of a session that ended at the last second wins.
pub const SWEEP_GRACE_MINUTES: i64 = 5;

/// How many of a visitor's open orders are shown to them at most (the help chat's assistant
/// links them).
const OPEN_ORDERS_SHOWN: usize = 3;
/// How many of the orders placed in a browser (newest first) are read to find its open ones.
const PLACED_HERE_READ: usize = 10;

/// The ports checkout runs on, named once (the app's wiring names the store's, the tests their
/// mocks'): the orders, the catalog, the promo codes, the clock and the blocklist checked first.
pub trait CheckoutPorts: 'static {
    type Orders: OrderRepository;
    type Products: ProductLookup;
    type Promos: PromoRepository;
    type Clock: Clock;
    type Blocklist: Blocklist;
}

/// Checkout and the order lifecycle over their ports.
pub struct Checkout<K: CheckoutPorts> {
    orders: K::Orders,
    products: K::Products,
    promos: K::Promos,
    clock: K::Clock,
    limits: CheckoutLimits,
    hint: Option<Arc<dyn StockHint>>,
    notices: Arc<dyn OrderNotices>,
    /// With a hint: one placement at a time per product in this process (see `gates`).
    gates: Arc<ProductGates>,
    blocklist: K::Blocklist,
    keys: Option<OrderKeys>,
    /// The refund policy's version the checkout links beside Complete Payment.
    refund_policy: Option<String>,
}

impl<K: CheckoutPorts> std::fmt::Debug for Checkout<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checkout")
            .field("limits", &self.limits)
            .field("hint", &self.hint.is_some())
            .finish_non_exhaustive()
    }
}

impl<K: CheckoutPorts> Checkout<K> {
    /// Checkout refusing the buyers `blocklist` names.
    pub fn new(
        orders: K::Orders,
        products: K::Products,
        promos: K::Promos,
        clock: K::Clock,
        blocklist: K::Blocklist,
    ) -> Self {
        Checkout {
            orders,
            products,
            promos,
            clock,
            limits: CheckoutLimits::default(),
            hint: None,
            notices: Arc::new(shared::Unheard),
            gates: Arc::default(),
            blocklist,
            keys: None,
            refund_policy: None,
        }
    }

    /// The same service recording on every placed order that the checkout showed the refund
    /// policy of `version` (the page links it beside Complete Payment).
    pub fn with_refund_policy(mut self, version: impl Into<String>) -> Self {
        self.refund_policy = Some(version.into());
        self
    }

    /// The same service, refusing at once what `hint` knows to be sold out.
    pub fn with_stock_hint(mut self, hint: impl StockHint) -> Self {
        self.hint = Some(Arc::new(hint));
        self
    }

    /// The same service telling `notices` of each change it makes.
    pub fn with_notices(mut self, notices: Arc<dyn OrderNotices>) -> Self {
        self.notices = notices;
        self
    }

    /// The same service giving every placed order a link key derived with `keys`.
    pub fn with_access_keys(mut self, keys: OrderKeys) -> Self {
        self.keys = Some(keys);
        self
    }

    /// The same service with these limits instead of the defaults.
    pub fn with_limits(mut self, limits: CheckoutLimits) -> Self {
        self.limits = limits;
        self
    }

    /// The orders port, for the checkout's payment step.
    pub(crate) fn orders_port(&self) -> &K::Orders {
        &self.orders
    }

    /// The keys of the orders' links, when the service has them.
    pub(crate) fn access_keys(&self) -> Option<&OrderKeys> {
        self.keys.as_ref()
    }

    pub fn limits(&self) -> CheckoutLimits {
        self.limits
    }

    /// What `holders` already hold of each product with a cap per account, counted as
    /// placing an order counts it against the cap (`OrderRepository::units_held`): the most any
    /// one holder holds. Empty when they hold nothing of a capped product, or there is no
    /// holder. Fails only with `OrderError::Unknown`.
    pub async fn holdings(&self, holders: DropHolders) -> Result<Vec<DropHolding>, OrderError> {
        if holders.is_empty() {
            return Ok(Vec::new());
        }
        let mut held: Vec<DropHolding> = self
            .orders
            .units_held(holders)
            .await?
            .iter()
            .map(HeldUnits::holding)
            .filter(|holding| holding.held > 0)
            .collect();
        held.sort_by_key(|holding| holding.product);
        Ok(held)
    }

    /// The service's clock now.
    pub fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.clock.now()
    }

    /// The cart's stock problems as the hint sees them, when it knows every product of the
    /// cart and one of them is sold out; `None` leaves the judgement to the database.
    fn sold_out_by_hint(&self, items: &[RequestedItem]) -> Option<Vec<StockProblem>> {
        let hint = self.hint.as_ref()?;
        let ids: Vec<ProductId> = items.iter().map(|item| item.product_id).collect();
        let known: HashMap<ProductId, Product> = hint
            .products(&ids)
            .into_iter()
            .map(|product| (product.id, product))
            .collect();
        let cart = items
            .iter()
            .map(|item| {
                let product = known.get(&item.product_id).filter(|p| !p.archived)?;
                Some(CartItem {
                    product: product.clone(),
                    quantity: item.quantity,
                })
            })
            .collect::<Option<Vec<CartItem>>>()?;
        let sold_out = cart.iter().any(|item| {
            item.product.available_stock(|id| known.get(&id)) == catalog::Stock::Finite(0)
        });
        let problems = stock_problems(&cart, &known);
        (sold_out && !problems.is_empty()).then_some(problems)
    }

    /// Tells the hint what the database showed when it refused a cart for stock (`version`: where
    /// the hint stood before that read).
    fn teach_hint(&self, version: Option<u64>, read: &HashMap<ProductId, Product>) {
        if read.is_empty() {
            // nothing read (or a sale of unlimited stock only): nothing to learn
            return;
        }
        if let (Some(hint), Some(version)) = (&self.hint, version) {
            let products: Vec<Product> = read.values().cloned().collect();
            hint.learned(version, &products);
            // the checkouts waiting for what is gone now ask whether they lost
            let gone = read.values().filter(|product| {
                product.available_stock(|id| read.get(&id)) == catalog::Stock::Finite(0)
            });
            self.gates.sold_out(gone.map(|product| product.id));
        }
    }

    /// Every product the cart needs, by id: the items and, for bundles, their components.
    async fn load_products(
        &self,
        items: &[RequestedItem],
    ) -> Result<HashMap<ProductId, Product>, CheckoutError> {
        let ids: Vec<ProductId> = items.iter().map(|item| item.product_id).collect();
        let mut known: HashMap<ProductId, Product> = self
            .products
            .products(ids)
            .await
            .map_err(unknown)?
            .into_iter()
            .map(|p| (p.id, p))
            .collect();
        let mut missing: Vec<ProductId> = known
            .values()
            .flat_map(|p| p.related_ids.iter().copied())
            .filter(|id| !known.contains_key(id))
            .collect();
        missing.sort();
        missing.dedup();
        if !missing.is_empty() {
            let components = self.products.products(missing).await.map_err(unknown)?;
            known.extend(components.into_iter().map(|p| (p.id, p)));
        }
        Ok(known)
    }

    async fn apply_promo(
        &self,
        typed: Option<&str>,
        buyer: &Buyer,
    ) -> Result<Option<OrderPromo>, CheckoutError> {
        let Some(typed) = typed.map(str::trim).filter(|t| !t.is_empty()) else {
            return Ok(None);
        };
        let code = PromoCode::parse(typed).map_err(|_| CheckoutError::Promo(Rejection::Invalid))?;
        // a code is redeemed once per Discord account; checkout always has one
        let Some(account) = buyer.discord.as_ref().map(|d| &d.discord_id) else {
            return Err(CheckoutError::Promo(Rejection::Invalid));
        };
        let usage = self
            .promos
            .usage(&code, account)
            .await
            .map_err(|e| CheckoutError::Unknown(e.into()))?
            .ok_or(CheckoutError::Promo(Rejection::Invalid))?;
        match evaluate(&usage, self.clock.now()) {
            PromoValidation::Valid(applied) => Ok(Some(OrderPromo {
                id: applied.id,
                code: applied.code,
                discount: applied.discount,
            })),
            PromoValidation::Rejected(reason) => Err(CheckoutError::Promo(reason)),
        }
    }

    /// The stock check's messages after the store refused a reservation: read the stock again
    /// (another order took it meanwhile).
    async fn stock_problems_now(&self, items: &[RequestedItem], short: ProductId) -> CheckoutError {
        let version = self.hint.as_ref().map(|hint| hint.version());
        let fresh = match self.load_products(items).await {
            Ok(fresh) => fresh,
            Err(error) => return error,
        };
        self.teach_hint(version, &fresh);
        let cart: Vec<CartItem> = items
            .iter()
            .filter_map(|item| {
                fresh.get(&item.product_id).map(|product| CartItem {
                    product: product.clone(),
                    quantity: item.quantity,
                })
            })
            .collect();
        let mut problems = stock_problems(&cart, &fresh);
        if problems.is_empty() {
            let name = fresh
                .get(&short)
                .map_or_else(|| format!("Product #{short}"), |p| p.name.clone());
            problems.push(StockProblem::OutOfStock { name });
        }
        CheckoutError::OutOfStock(problems)
    }
}

/// The reserved products with their finite stock less what `reservation` takes, as `known`
/// (read in turn) showed them before the sale.
fn stock_after(
    known: &HashMap<ProductId, Product>,
    reservation: &Reservation,
) -> HashMap<ProductId, Product> {
    reservation
        .entries()
        .iter()
        .filter_map(|(id, quantity)| {
            let product = known.get(id)?;
            let catalog::Stock::Finite(stock) = product.stock else {
                return None;
            };
            let mut left = product.clone();
            left.stock = catalog::Stock::Finite(stock.saturating_sub(*quantity));
            Some((*id, left))
        })
        .collect()
}

fn unknown(error: catalog::CatalogError) -> CheckoutError {
    CheckoutError::Unknown(anyhow::Error::new(error).context("failed to load the cart's products"))
}

/// The cart of `items` as `known` has their products; refused with every product that is
/// archived or gone.
fn cart_of(
    items: &[RequestedItem],
    known: &HashMap<ProductId, Product>,
) -> Result<Vec<CartItem>, CheckoutError> {
    let mut cart = Vec::with_capacity(items.len());
    let mut unavailable = Vec::new();
    for item in items {
        match known.get(&item.product_id) {
            Some(product) if !product.archived => cart.push(CartItem {
                product: product.clone(),
                quantity: item.quantity,
            }),
            found => unavailable.push(Unavailable {
                product_id: item.product_id,
                name: found.map(|p| p.name.clone()),
            }),
        }
    }
    if !unavailable.is_empty() {
        return Err(CheckoutError::Unavailable(unavailable));
    }
    Ok(cart)
}

/// What the drops in a cart ask of its order: their caps per account, and the drop's shorter
/// payment window's end when it holds one.
type DropTerms = (Vec<AccountCap>, Option<DateTime<Utc>>);

/// The drops' terms of `cart` at `now`: refused when a drop (alone or inside a bundle) is not
/// released yet, or when the order alone wants more than a drop's cap.
fn drop_terms(
    cart: &[CartItem],
    known: &HashMap<ProductId, Product>,
    now: DateTime<Utc>,
    drop_payment_minutes: u32,
) -> Result<DropTerms, CheckoutError> {
    // A drop sells from its release on, by this clock and the product as the database has
    // it; a bundle holding a drop not released yet waits for it too.
    let unreleased = cart.iter().find_map(|item| {
        std::iter::once(&item.product)
            .chain(
                item.product
                    .related_ids
                    .iter()
                    .filter_map(|id| known.get(id)),
            )
            .find(|product| !product.is_released(now))
            .map(|drop| (item, drop.release_at.unwrap_or(now)))
    });
    if let Some((item, at)) = unreleased {
        return Err(CheckoutError::NotReleased {
            product: item.product.id,
            name: item.product.name.clone(),
            at,
        });
    }
    // A drop's units count against its cap and its payment window applies however they
    // are bought: alone or inside bundles (their components as the database has them now,
    // which the order lines keep).
    let caps = drop_caps(cart, known);
    // more than the cap in this one order: refused before anything is locked
    if let Some((cap, drop)) = caps.iter().find(|(cap, _)| cap.wanted > cap.max) {
        return Err(CheckoutError::AccountCap {
            name: drop.name.clone(),
            reached: AccountCapReached {
                product: cap.product,
                max: cap.max,
                held: 0,
                by: CapHolder::Discord,
            },
        });
    }
    let account_caps: Vec<AccountCap> = caps.into_iter().map(|(cap, _)| cap).collect();
    // An order holding a drop's units is paid within the drop's shorter window.
    let pay_by =
        takes_a_drop(cart, known).then(|| now + Duration::minutes(i64::from(drop_payment_minutes)));
    Ok((account_caps, pay_by))
}

/// The order's lines: each product at its price (and `paid`, the price in the shopper's
/// currency, in the cart's order), a bundle with its components.
fn order_lines(
    cart: &[CartItem],
    known: &HashMap<ProductId, Product>,
    paid: &[i64],
) -> Vec<OrderLine> {
    cart.iter()
        .zip(paid)
        .map(|(item, paid)| OrderLine {
            product_id: item.product.id,
            name: item.product.name.clone(),
            unit_price: item.product.price,
            unit_price_paid: *paid,
            quantity: item.quantity,
            components: item.components(known),
        })
        .collect()
}

/// One line per product, quantities of repeated lines added up, in the cart's order; at most
/// `max` of one product.
fn merge_lines(items: &[RequestedItem], max: u32) -> Result<Vec<RequestedItem>, CheckoutError> {
    let mut order: Vec<ProductId> = Vec::new();
    let mut totals: BTreeMap<ProductId, i64> = BTreeMap::new();
    for item in items {
        let total = totals.entry(item.product_id).or_insert_with(|| {
            order.push(item.product_id);
            0
        });
        *total += i64::from(item.quantity.get());
    }
    order
        .into_iter()
        .map(|product_id| {
            let wanted = totals.get(&product_id).copied().unwrap_or_default();
            Some(wanted)
                .filter(|wanted| *wanted <= i64::from(max))
                .and_then(Quantity::new)
                .map(|quantity| RequestedItem {
                    product_id,
                    quantity,
                })
                .ok_or(CheckoutError::TooMany {
                    product: product_id,
                    max,
                })
        })
        .collect()
}

impl<K: CheckoutPorts> CheckoutService for Checkout<K> {
    #[tracing::instrument(skip_all, fields(lines = request.items.len(), method = %request.method))]
    async fn place_order(&self, request: CheckoutRequest) -> Result<PlacedOrder, CheckoutError> {
        let items = self.admit(&request).await?;
        // With a hint, checkouts of one product take turns from here (in memory, not on the
        // row lock with a pooled connection each, and before they read the catalog), and each
        // asks the hint again when its turn comes: once a refusal has taught it that the
        // product is sold out, the rest of a rush is refused without another statement. The
        // turns go by the products asked for; a bundle and one of its components bought at
        // once meet at the row lock, as they would without turns. The database stays the
        // judge of every sale.
        // A checkout that cannot win any more leaves the line as soon as the product sells out,
        // without waiting for its turn.
        let entered = match &self.hint {
            Some(_) => {
                let ids = items.iter().map(|item| item.product_id);
                let lost = || self.sold_out_by_hint(&items).is_some();
                self.gates.enter(ids, lost).await
            }
            None => None,
        };
        if let Some(problems) = self.sold_out_by_hint(&items) {
            return Err(CheckoutError::OutOfStock(problems));
        }
        let version = self.hint.as_ref().map(|hint| hint.version());
        let known = self.load_products(&items).await?;
        let cart = cart_of(&items, &known)?;
        let now = self.clock.now();
        let terms = drop_terms(&cart, &known, now, self.limits.drop_payment_minutes)?;
        let promo = self
            .apply_promo(request.promo_code.as_deref(), &request.buyer)
            .await?;
        let priced = PricedCart::new(
            cart.iter().map(|item| item.cart_line(&known)).collect(),
            promo.as_ref().map(|p| p.discount),
            request.method,
            &request.currency,
        );
        if priced.differs_from_client_total(request.client_total) {
            return Err(CheckoutError::PriceChanged(Box::new(priced)));
        }
        let problems = stock_problems(&cart, &known);
        if !problems.is_empty() {
            self.teach_hint(version, &known);
            return Err(CheckoutError::OutOfStock(problems));
        }

        let reservation = Reservation::for_items(&cart, &known);
        let left_after_sale = stock_after(&known, &reservation);
        let lines = order_lines(&cart, &known, &priced.charge.unit_prices);
        let new_order = self.new_order(request, lines, &priced, promo, now, terms);
        match self
            .orders
            .place(new_order, reservation, self.limits.pending)
            .await
        {
            Ok(order) => {
                // what this sale left, read and sold in turn: a sale that took the last units
                // tells the next in line that the product is sold out (a restock or a catalog
                // read since the read moved the hint on, and it ignores the lesson)
                self.teach_hint(version, &left_after_sale);
                drop(entered);
                // the next in line goes while the product list catches up with this sale (the
                // buyer's answer still waits for it)
                self.notices.stock_changed().await;
                self.placed(order, priced).await
            }
            // still in turn: the next one in line asks the hint after it has learned
            Err(refused) => Err(self.refused(refused, &items, &known).await),
        }
    }

    #[tracing::instrument(skip(self, reference, url))]
    async fn attach_payment(
        &self,
        id: OrderId,
        reference: String,
        url: String,
    ) -> Result<(), OrderError> {
        self.orders
            .attach_payment_reference(id, reference, url)
            .await
    }

    async fn order(&self, id: OrderId) -> Result<Order, OrderError> {
        self.orders.order(id).await
    }

    async fn orders_of_user(&self, user_id: UserId) -> Result<Vec<Order>, OrderError> {
        self.orders.orders_of_user(user_id).await
    }

    async fn open_orders(
        &self,
        placed_here: &[OrderId],
        user: Option<UserId>,
    ) -> Result<Vec<Order>, OrderError> {
        let mut orders = vec![];
        for id in placed_here.iter().rev().take(PLACED_HERE_READ) {
            match self.orders.order(*id).await {
                Ok(order) => orders.push(order),
                Err(OrderError::NotFound(_)) => {}
                Err(error) => return Err(error),
            }
        }
        if let Some(user) = user {
            orders.extend(self.orders.orders_of_user(user).await?);
        }
        orders.retain(|order| matches!(order.status(), OrderStatus::Pending | OrderStatus::Paid));
        orders.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(b.id.cmp(&a.id)));
        orders.dedup_by_key(|order| order.id);
        orders.truncate(OPEN_ORDERS_SHOWN);
        Ok(orders)
    }

    #[tracing::instrument(skip_all, fields(order = %notice.order_id, provider = %notice.provider))]
    async fn confirm_paid(&self, notice: PaymentNotice) -> Result<Confirmation, ConfirmError> {
        let mut order = self.orders.order(notice.order_id).await?;
        if !is_from_its_session(&order, &notice) {
            return Err(ConfirmError::ReferenceMismatch(order.id));
        }
        if order.status().was_paid() {
            // queued once already; this repairs a receipt lost between the payment and its queueing
            return Ok(Confirmation::AlreadyPaid(order));
        }
        let now = self.clock.now();
        if let Err(refused) = order.pay(now) {
            return Err(self
                .paid_too_late(order.id, now, notice.event, refused)
                .await);
        }
        match self
            .orders
            .mark_paid(order.id, now, notice.event.clone(), notice.hold.clone())
            .await?
        {
            Applied::Changed => {
                // a sale can archive a product sold out for good
                self.notices.stock_changed().await;
                let provider = notice.event.as_ref().map(|event| event.provider);
                let step = OrderStep::Paid;
                self.notices.payment_changed(order.id, step, provider).await;
                if let Some(hold) = notice.hold {
                    tracing::warn!(order = %order.id, reason = %hold.reason, "order paid, on a risk hold");
                    order.hold = Some(RiskHold {
                        reason: hold.reason,
                        since: now,
                    });
                } else {
                    tracing::info!(order = %order.id, "order paid");
                }
                Ok(Confirmation::Paid(order))
            }
            Applied::Replayed => Ok(Confirmation::Replayed),
            Applied::NotPending(status) if status.was_paid() => Ok(Confirmation::AlreadyPaid(
                self.orders.order(order.id).await?,
            )),
            Applied::NotPending(status) => {
                let refused = TransitionError {
                    from: status,
                    to: OrderStatus::Paid,
                };
                Err(self
                    .paid_too_late(order.id, now, notice.event, refused)
                    .await)
            }
        }
    }

    #[tracing::instrument(skip_all, fields(order = %notice.order_id, provider = %notice.provider))]
    async fn await_payment(
        &self,
        notice: PaymentNotice,
        payment_id: String,
        pay_by: DateTime<Utc>,
    ) -> Result<Applied, ConfirmError> {
        let order = self.orders.order(notice.order_id).await?;
        if !is_from_its_session(&order, &notice) {
            return Err(ConfirmError::ReferenceMismatch(order.id));
        }
        let provider = notice.provider;
        let applied = self
            .orders
            .mark_awaiting_payment(order.id, payment_id, pay_by, self.clock.now(), notice.event)
            .await?;
        if applied == Applied::Changed {
            tracing::info!(order = %order.id, %pay_by, "order awaits a payment that confirms later");
            let step = OrderStep::AwaitingPayment;
            self.notices
                .payment_changed(order.id, step, Some(provider))
                .await;
        }
        Ok(applied)
    }

    #[tracing::instrument(skip_all, fields(order = %notice.order_id, provider = %notice.provider))]
    async fn expire(&self, notice: PaymentNotice) -> Result<Release, ReleaseError> {
        let order = self.orders.order(notice.order_id).await?;
        if !is_from_its_session(&order, &notice) {
            return Err(ReleaseError::ReferenceMismatch(order.id));
        }
        self.close(order, Closing::Expired, notice.event).await
    }

    #[tracing::instrument(skip(self))]
    async fn cancel(&self, id: OrderId) -> Result<Release, ReleaseError> {
        let order = self.orders.order(id).await?;
        self.close(order, Closing::Cancelled, None).await
    }

    #[tracing::instrument(skip(self))]
    async fn expire_unpaid(&self, id: OrderId) -> Result<Release, ReleaseError> {
        let order = self.orders.order(id).await?;
        self.close(order, Closing::Expired, None).await
    }

    #[tracing::instrument(skip(self))]
    async fn stale_orders(&self) -> Result<Vec<OrderId>, OrderError> {
        let now = self.clock.now();
        self.orders
            .pending_past_deadline(now - unpaid_lifetime(), now)
            .await
    }

    #[tracing::instrument(skip(self, reason))]
    async fn hold_for_review(&self, id: OrderId, reason: String) -> Result<bool, OrderError> {
        let held = self.orders.hold_for_review(id, reason).await?;
        if held == Applied::Changed {
            tracing::warn!(order = %id, "order held for staff review");
            self.notices.order_changed(id, OrderStep::Held).await;
        }
        Ok(held == Applied::Changed)
    }
}

/// How long an unpaid order lives at most: the payment window and the sweeper's grace.
fn unpaid_lifetime() -> Duration {
    Duration::minutes(PAYMENT_WINDOW_MINUTES + SWEEP_GRACE_MINUTES)
}

impl<K: CheckoutPorts> Checkout<K> {
    /// The first checks, before anything is read: the blocklist, then the cart's size; the
    /// cart's lines merged by product, unless the hint knows one sold out.
    async fn admit(&self, request: &CheckoutRequest) -> Result<Vec<RequestedItem>, CheckoutError> {
        let identities = BuyerIdentities::of(&request.buyer, request.holder.client_ip.as_deref());
        if self
            .blocklist
            .is_blocked(identities, self.clock.now())
            .await?
        {
            tracing::info!("checkout refused: the buyer is on the blocklist");
            return Err(CheckoutError::Blocked);
        }
        if request.items.is_empty() {
            return Err(CheckoutError::EmptyCart);
        }
        if request.items.len() > self.limits.max_lines {
            return Err(CheckoutError::TooManyLines {
                max: self.limits.max_lines,
            });
        }
        let items = merge_lines(&request.items, self.limits.max_quantity_per_product)?;
        if let Some(problems) = self.sold_out_by_hint(&items) {
            return Err(CheckoutError::OutOfStock(problems));
        }
        Ok(items)
    }

    /// The order to place: the request's buyer and holder, the priced cart's amounts, the
    /// drop's terms and, under an idempotency key, the window a repeat is looked for in.
    fn new_order(
        &self,
        request: CheckoutRequest,
        lines: Vec<OrderLine>,
        priced: &PricedCart,
        promo: Option<OrderPromo>,
        now: DateTime<Utc>,
        (account_caps, pay_by): DropTerms,
    ) -> NewOrder {
        let idempotency = request.idempotency.clone().map(|key| KeyedPlacement {
            key,
            fingerprint: request.fingerprint(),
            since: now - Duration::hours(IDEMPOTENCY_WINDOW_HOURS),
        });
        NewOrder {
            lines,
            buyer: request.buyer,
            amounts: Amounts::of(priced),
            promo,
            method: request.method,
            provider: request.provider,
            created_at: now,
            holder: request.holder,
            idempotency,
            pay_by,
            account_caps,
            refund_policy_version: self.refund_policy.clone(),
        }
    }

    /// The answer for an order placed: with its link key, recorded hashed, when the service
    /// has keys.
    async fn placed(&self, order: Order, priced: PricedCart) -> Result<PlacedOrder, CheckoutError> {
        tracing::info!(order = %order.id, total = %order.amounts.total, "order placed");
        let access_key = match &self.keys {
            Some(keys) => {
                let key = keys.key_for(order.id);
                self.orders
                    .set_access_key_hash(order.id, key.hash())
                    .await
                    .map_err(|e| CheckoutError::Unknown(anyhow::Error::new(e)))?;
                Some(key)
            }
            None => None,
        };
        Ok(PlacedOrder {
            order,
            cart: priced,
            access_key,
        })
    }

    /// Why the store refused to place the order, in checkout's words (`known`: the products as
    /// read for it).
    async fn refused(
        &self,
        error: PlaceError,
        items: &[RequestedItem],
        known: &HashMap<ProductId, Product>,
    ) -> CheckoutError {
        match error {
            PlaceError::OutOfStock(short) => self.stock_problems_now(items, short).await,
            PlaceError::Promo(reason) => CheckoutError::Promo(reason),
            PlaceError::TooManyPending(reached) => CheckoutError::TooManyPending {
                reached,
                retry_after: frees_up_in(reached.oldest, self.clock.now(), unpaid_lifetime()),
            },
            PlaceError::AlreadyPlaced(id) => CheckoutError::AlreadyPlaced(id),
            PlaceError::AccountCap(reached) => CheckoutError::AccountCap {
                name: known
                    .get(&reached.product)
                    .map(|p| p.name.clone())
                    .unwrap_or_else(|| format!("Product #{}", reached.product)),
                reached,
            },
            PlaceError::Unknown(error) => CheckoutError::Unknown(error),
        }
    }

    /// A payment for an order that can no longer be paid: its `paid_after_expiry` step is
    /// recorded once (staff hear of it through the outbox) and the refusal is answered.
    async fn paid_too_late(
        &self,
        id: OrderId,
        at: DateTime<Utc>,
        event: Option<ProviderEvent>,
        refused: TransitionError,
    ) -> ConfirmError {
        tracing::error!(order = %id, from = %refused.from, "a payment arrived for an order that can no longer be paid: refund it");
        let provider = event.as_ref().map(|event| event.provider);
        match self.orders.mark_paid_too_late(id, at, event).await {
            Ok(applied) => {
                if applied == Applied::Changed {
                    let step = OrderStep::PaidAfterExpiry;
                    self.notices.payment_changed(id, step, provider).await;
                }
                ConfirmError::Refused(refused)
            }
            Err(error) => error.into(),
        }
    }

    async fn close(
        &self,
        mut order: Order,
        closing: Closing,
        event: Option<ProviderEvent>,
    ) -> Result<Release, ReleaseError> {
        if matches!(
            order.status(),
            OrderStatus::Expired | OrderStatus::Cancelled
        ) {
            return Ok(Release::AlreadyClosed(order));
        }
        if order.review.is_some() {
            return Err(ReleaseError::UnderReview(order.id));
        }
        let now = self.clock.now();
        let transition = match closing {
            Closing::Expired => order.expire(now),
            Closing::Cancelled => order.cancel(now),
        };
        transition.map_err(ReleaseError::Refused)?;
        let provider = event.as_ref().map(|event| event.provider);
        match self.orders.release(order.id, closing, now, event).await? {
            Applied::Changed => {
                tracing::info!(order = %order.id, status = %order.status(), "stock released");
                self.notices.stock_changed().await;
                let step = match closing {
                    Closing::Expired => OrderStep::Expired,
                    Closing::Cancelled => OrderStep::Cancelled,
                };
                self.notices.payment_changed(order.id, step, provider).await;
                Ok(Release::Released(order))
            }
            Applied::Replayed => Ok(Release::Replayed),
            Applied::NotPending(OrderStatus::Expired | OrderStatus::Cancelled) => {
                Ok(Release::AlreadyClosed(self.orders.order(order.id).await?))
            }
            // still pending, so held for review meanwhile
            Applied::NotPending(OrderStatus::Pending) => Err(ReleaseError::UnderReview(order.id)),
            Applied::NotPending(status) => Err(ReleaseError::Refused(TransitionError {
                from: status,
                to: closing.status(),
            })),
        }
    }
}

fn is_from_its_session(order: &Order, notice: &PaymentNotice) -> bool {
    order.payment.provider == notice.provider
        && order.payment.reference.as_deref() == Some(notice.reference.as_str())
}

#[cfg(test)]
#[path = "service_tests.rs"]
mod tests;
