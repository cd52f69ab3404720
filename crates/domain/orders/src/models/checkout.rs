//! What checkout is asked and what it answers: the parsed payload, the placed order, a
//! provider's word about a payment and what confirming or releasing did.

use std::collections::BTreeMap;

use cart_pricing::{Conversion, Decimal, PaymentMethod, PricedCart, Quantity};
use catalog::ProductId;
use sha2::{Digest, Sha256};

use crate::idempotency::ScopedKey;
use crate::link_keys::AccessKey;
use crate::{Buyer, Order, OrderHolder, OrderId, PaymentProvider, ProviderEvent};

/// One line of the checkout payload: which product and how many. Everything else the client
/// sends about a product (name, price, stock) is ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestedItem {
    pub product_id: ProductId,
    pub quantity: Quantity,
}

/// The checkout payload, parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckoutRequest {
    pub items: Vec<RequestedItem>,
    /// The promo code as typed; blank means none.
    pub promo_code: Option<String>,
    /// With the Discord identity from the server session, never from the payload.
    pub buyer: Buyer,
    pub method: PaymentMethod,
    pub provider: PaymentProvider,
    /// The client's items total after discount, before the fee, in `currency`.
    pub client_total: Decimal,
    /// The currency the shopper sees and pays in, at the rate the shop offers it now.
    pub currency: Conversion,
    /// The browser session and address placing it, for the caps on unpaid orders.
    pub holder: OrderHolder,
    /// The `Idempotency-Key` it came with, within its browser session: the order it placed in
    /// the last 24 hours answers instead of a new one (see `idempotency`).
    pub idempotency: Option<ScopedKey>,
}

/// A placed order and the priced cart it was placed from (for the provider's line items).
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedOrder {
    pub order: Order,
    pub cart: PricedCart,
    /// The key of the order's link (`/orders/{id}?key=…`), for the checkout's answer and the
    /// success page; `None` when the service was built without [`OrderKeys`].
    pub access_key: Option<AccessKey>,
}

/// A payment provider's word about an order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentNotice {
    /// The order named by the provider's metadata (Stripe's `metadata.order_id`).
    pub order_id: OrderId,
    pub provider: PaymentProvider,
    /// The provider's session or order id, checked against the one stored with the order.
    pub reference: String,
    /// The provider's event, recorded so that a repeated delivery changes nothing; `None` for
    /// confirmations without one (a PayPal capture, the dev page).
    pub event: Option<ProviderEvent>,
    /// The risk hold the payment calls for (a risky payment): the order is paid on hold, so
    /// that it never enters the delivery queue before staff look at it.
    pub hold: Option<crate::NewHold>,
}

/// What a payment confirmation did.
#[derive(Debug, Clone, PartialEq)]
pub enum Confirmation {
    /// The order is now paid.
    Paid(Order),
    /// The order was paid before: nothing changed.
    AlreadyPaid(Order),
    /// This very event was applied before: nothing changed.
    Replayed,
}

/// What an expiry or cancellation did.
#[derive(Debug, Clone, PartialEq)]
pub enum Release {
    /// The order is now expired or cancelled and its stock is back.
    Released(Order),
    /// The order had expired or been cancelled before: nothing changed.
    AlreadyClosed(Order),
    /// This very event was applied before: nothing changed.
    Replayed,
}

impl CheckoutRequest {
    /// A SHA-256 (hex) of what this request asks for, as the server reads it: the payment
    /// method, the buyer (the session's Discord account, the e-mail, the Roblox username), the
    /// promo code, the total the shopper saw and the products with their quantities (in any
    /// order, lines of one product added up). What the server ignores (the browser's product
    /// fields, `discord_id`, `user_id`) and where it comes from (the address) are left out.
    pub fn fingerprint(&self) -> String {
        let mut items: BTreeMap<i64, u64> = BTreeMap::new();
        for item in &self.items {
            *items.entry(item.product_id.get()).or_default() += u64::from(item.quantity.get());
        }
        let items = items
            .iter()
            .map(|(id, qty)| format!("{id}x{qty}"))
            .collect::<Vec<_>>()
            .join(",");
        let promo = self
            .promo_code
            .as_deref()
            .map(|code| code.trim().to_uppercase())
            .unwrap_or_default();
        let text = format!(
            "checkout v2\nmethod={}\ncurrency={}\ndiscord={}\nemail={}\nroblox={}\npromo={}\ntotal={}\nitems={}",
            self.method.as_str(),
            self.currency.code,
            self.buyer
                .discord
                .as_ref()
                .map_or("", |discord| discord.discord_id.as_str()),
            self.buyer.email.as_str(),
            self.buyer.roblox_username.as_str(),
            promo,
            self.client_total.normalize(),
            items,
        );
        hex::encode(Sha256::digest(text.as_bytes()))
    }
}
