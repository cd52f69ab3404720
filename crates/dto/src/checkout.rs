//! The checkout payload (docs/product.md, Data) and the cart the server prices, as the API reads and sends
//! them.

use std::collections::BTreeMap;
use std::str::FromStr;

use cart_pricing::{Conversion, Decimal, PaymentMethod, PricedCart, Quantity};
use catalog::ProductId;
use orders::{
    Buyer, CheckoutRequest, DiscordIdentity, Email, OrderHolder, PaymentProvider, RequestedItem,
    RobloxUsername, ScopedKey,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::dollars;

/// The message for missing details (docs/product.md, Validation).
pub const MISSING_DETAILS: &str = "Please enter your Roblox username and email, and link Discord.";

/// One line of the spec's order payload; only `id` and `qty` are read (the server knows the
/// rest: name, price). Both are read leniently (a string of digits passes) so that a bad line
/// answers 422 under `items`.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = CheckoutItem)]
pub struct PayloadItem {
    /// The product's id.
    #[schema(value_type = i64, minimum = 1)]
    pub id: serde_json::Value,
    /// How many (1 to 1000).
    #[schema(value_type = i64, minimum = 1, maximum = 1000)]
    pub qty: serde_json::Value,
}

/// The spec's order payload. `discord_id` and `user_id` are ignored: the session decides (the
/// Discord account linked in this session, the logged-in account). Missing or blank details
/// answer 422 with one message and a field each (`roblox_username`, `email`, `discord`).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = CheckoutRequest)]
pub struct OrderPayload {
    /// Where the receipt goes.
    #[serde(default)]
    #[schema(
        required = true,
        nullable = false,
        format = "email",
        example = "buyer@example.com"
    )]
    pub email: Option<String>,
    /// The Roblox account the items are delivered to: 3 to 20 letters and digits with at most
    /// one `_`, not first or last.
    #[serde(default)]
    #[schema(
        required = true,
        nullable = false,
        min_length = 3,
        max_length = 20,
        pattern = "^[A-Za-z0-9]+(_[A-Za-z0-9]+)?$",
        example = "GardenFan_01"
    )]
    pub roblox_username: Option<String>,
    /// The cart: 1 to `checkout.max_lines` lines (50 by default); only ids and quantities are
    /// read.
    #[serde(default)]
    #[schema(required = true, nullable = false)]
    pub items: Option<Vec<PayloadItem>>,
    /// The total the shopper saw, in dollars: the items after the discount, before the payment
    /// method's fee (the priced cart's `total`). When it is not the server's, the answer is 409
    /// with the server's `cart`.
    #[serde(default)]
    #[schema(value_type = f64, required = true, nullable = false, example = 12.5)]
    pub total: Option<serde_json::Number>,
    /// A promo code to apply (checked for the session's Discord account); blank means none.
    #[serde(default)]
    pub promo_code: Option<String>,
    /// The currency the shopper sees and pays in (one of `GET /api/site`'s `currencies`);
    /// absent or blank: the base currency. `total` is in it. One not offered now (unknown, or
    /// its rate too old) answers 422 with code `currency_unavailable`.
    #[serde(default)]
    #[schema(example = "BRL", min_length = 3, max_length = 3)]
    pub currency: Option<String>,
}

/// `POST /api/stripe/checkout`: where to send the shopper to pay, and the order placed.
#[derive(Debug, Serialize, ToSchema)]
pub struct CardCheckoutResponse {
    pub order_id: i64,
    /// The key of the order's link (`/orders/{id}?key=…`), shown once.
    pub order_key: Option<String>,
    /// The payment page: Stripe Checkout's URL, or without Stripe keys the dev page as the
    /// same-origin path `/dev/pay/{order_id}`.
    pub url: String,
}

/// `POST /api/checkout/paypal`: PayPal's approval page, and the order placed.
#[derive(Debug, Serialize, ToSchema)]
pub struct PaypalCheckoutResponse {
    /// PayPal's page where the shopper approves the payment.
    pub approval_url: String,
    pub order_id: i64,
    /// The key of the order's link (`/orders/{id}?key=…`), shown once.
    pub order_key: Option<String>,
}

/// Who is checking out, as the server knows it (never from the payload).
#[derive(Debug, Clone)]
pub struct CheckoutContext {
    /// The Discord account linked in this session.
    pub discord: Option<DiscordIdentity>,
    /// The logged-in account, if any.
    pub user_id: Option<i64>,
    pub holder: OrderHolder,
    pub method: PaymentMethod,
    pub provider: PaymentProvider,
    /// The request's `Idempotency-Key` within this browser session, if it sent one.
    pub idempotency: Option<ScopedKey>,
    /// The currency of the payload's `currency`, at the rate offered now.
    pub currency: Conversion,
    /// The language the request is answered in: the order keeps it for its mails.
    pub language: shared::Language,
}

/// A payload checkout cannot take: answered 422 with `message` and the messages per field.
#[derive(Debug)]
pub struct InvalidPayload {
    pub message: String,
    pub errors: BTreeMap<String, Vec<String>>,
}

#[derive(Default)]
struct Errors(BTreeMap<String, Vec<String>>);

impl Errors {
    fn add(&mut self, field: &str, message: impl Into<String>) {
        self.0
            .entry(field.to_owned())
            .or_default()
            .push(message.into());
    }

    /// 422 led by `message`, or by the first field's message.
    fn into_error(self, message: Option<&str>) -> InvalidPayload {
        let message = message
            .map(str::to_owned)
            .or_else(|| self.0.values().flatten().next().cloned())
            .unwrap_or_else(|| MISSING_DETAILS.to_owned());
        InvalidPayload {
            message,
            errors: self.0,
        }
    }
}

fn blank(text: Option<&str>) -> bool {
    text.is_none_or(|t| t.trim().is_empty())
}

fn decimal(number: &serde_json::Number) -> Option<Decimal> {
    let text = number.to_string();
    Decimal::from_str(&text)
        .or_else(|_| Decimal::from_scientific(&text))
        .ok()
}

fn positive_int(value: &serde_json::Value) -> Option<i64> {
    value
        .as_i64()
        .or_else(|| value.as_str().and_then(|s| s.trim().parse().ok()))
        .filter(|n| *n > 0)
}

impl OrderPayload {
    /// The payload as the checkout service takes it: 422 with [`MISSING_DETAILS`] when the
    /// Roblox username, the e-mail or the Discord link is missing, then 422 per malformed field.
    pub fn into_request(self, context: CheckoutContext) -> Result<CheckoutRequest, InvalidPayload> {
        let mut errors = Errors::default();
        if blank(self.roblox_username.as_deref()) {
            errors.add("roblox_username", "Enter your Roblox username.");
        }
        if blank(self.email.as_deref()) {
            errors.add("email", "Enter your e-mail address.");
        }
        if context.discord.is_none() {
            errors.add("discord", "Link your Discord account.");
        }
        if !errors.0.is_empty() {
            return Err(errors.into_error(Some(MISSING_DETAILS)));
        }

        let roblox = RobloxUsername::parse(self.roblox_username.as_deref().unwrap_or_default())
            .map_err(|e| errors.add("roblox_username", format!("Your Roblox username {e}.")))
            .ok();
        let email = Email::parse(self.email.as_deref().unwrap_or_default())
            .map_err(|_| errors.add("email", "Enter a valid e-mail address."))
            .ok();
        let items: Vec<RequestedItem> = self
            .items
            .unwrap_or_default()
            .iter()
            .filter_map(|item| {
                let id = positive_int(&item.id);
                let quantity = positive_int(&item.qty).and_then(Quantity::new);
                let (Some(id), Some(quantity)) = (id, quantity) else {
                    errors.add(
                        "items",
                        "Every item needs a product id and a quantity of 1 to 1000.",
                    );
                    return None;
                };
                Some(RequestedItem {
                    product_id: ProductId::new(id),
                    quantity,
                })
            })
            .collect();
        let total = self.total.as_ref().and_then(decimal);
        if total.is_none() {
            errors.add("total", "The order total is missing.");
        }
        match (roblox, email, context.discord, total) {
            (Some(roblox_username), Some(email), Some(discord), Some(client_total))
                if errors.0.is_empty() =>
            {
                Ok(CheckoutRequest {
                    items,
                    promo_code: self.promo_code.filter(|code| !code.trim().is_empty()),
                    buyer: Buyer {
                        discord: Some(discord),
                        roblox_username,
                        email,
                        user_id: context.user_id.map(shared::UserId::new),
                        language: context.language,
                    },
                    method: context.method,
                    provider: context.provider,
                    client_total,
                    currency: context.currency,
                    holder: context.holder,
                    idempotency: context.idempotency,
                })
            }
            _ => Err(errors.into_error(None)),
        }
    }
}

/// One line of the cart as the server prices it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PricedLineResponse {
    pub id: i64,
    pub name: String,
    pub unit_price: f64,
    pub qty: u32,
    pub line_total: f64,
    /// The unit price in the cart's `currency`.
    pub unit_price_paid: f64,
}

/// The cart as the server prices it, sent with a 409 when the client's total was off.
/// Money in dollars.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PricedCartResponse {
    pub lines: Vec<PricedLineResponse>,
    pub subtotal: f64,
    /// The promo code's discount, when one applies.
    #[schema(minimum = 1, maximum = 100)]
    pub discount_percent: Option<u8>,
    pub discount: f64,
    /// The subtotal less the discount.
    pub total: f64,
    /// The payment method's fee.
    pub fee: f64,
    /// What the shopper pays: the total plus the fee.
    pub grand_total: f64,
    /// The currency the cart is priced in for the shopper, and every amount in it.
    #[schema(example = "BRL")]
    pub currency: String,
    pub paid: ChargeResponse,
}

/// A cart's amounts in the shopper's currency (major units: 129.9 is R$ 129,90).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ChargeResponse {
    /// Units of the currency one unit of the base currency buys (a decimal string).
    #[schema(example = "5.341440")]
    pub rate: String,
    pub subtotal: f64,
    pub discount: f64,
    /// After the discount, before the fee: what the checkout request's `total` must be.
    pub total: f64,
    pub fee: f64,
    pub grand_total: f64,
}

/// Minor units of a charge as a number in major units.
fn major(charge: &cart_pricing::Charge, minor: i64) -> f64 {
    crate::money::in_major_units(minor, charge.minor_units)
}

impl From<&PricedCart> for PricedCartResponse {
    fn from(cart: &PricedCart) -> Self {
        PricedCartResponse {
            lines: cart
                .lines
                .iter()
                .enumerate()
                .map(|(index, line)| PricedLineResponse {
                    id: line.product_id,
                    name: line.name.clone(),
                    unit_price: dollars(line.unit_price),
                    qty: line.quantity.get(),
                    line_total: dollars(line.total()),
                    unit_price_paid: major(&cart.charge, paid_unit(cart, index)),
                })
                .collect(),
            subtotal: dollars(cart.subtotal),
            discount_percent: cart.discount_percent.map(|p| p.get()),
            discount: dollars(cart.discount),
            total: dollars(cart.total),
            fee: dollars(cart.fee),
            grand_total: dollars(cart.grand_total),
            currency: cart.charge.currency.to_string(),
            paid: ChargeResponse {
                rate: cart.charge.rate.normalize().to_string(),
                subtotal: major(&cart.charge, cart.charge.subtotal),
                discount: major(&cart.charge, cart.charge.discount),
                total: major(&cart.charge, cart.charge.total),
                fee: major(&cart.charge, cart.charge.fee),
                grand_total: major(&cart.charge, cart.charge.grand_total),
            },
        }
    }
}

/// The `index`th line's unit price in the charge's currency.
fn paid_unit(cart: &PricedCart, index: usize) -> i64 {
    cart.charge
        .unit_prices
        .get(index)
        .copied()
        .unwrap_or_default()
}

/// `GET /api/checkout/holdings`: what this session's buyer already holds of one product with
/// a cap per account, counted as checkout counts it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DropHoldingResponse {
    pub product_id: i64,
    /// Units held in pending, paid, delivered and disputed orders, alone and inside bundles:
    /// the most that the session's Discord account, its logged-in shop account or this browser
    /// holds.
    #[schema(minimum = 1)]
    pub held: u32,
    /// The product's cap per account; checkout refuses a unit beyond it.
    #[schema(minimum = 1)]
    pub max_per_account: u32,
}

impl From<&orders::DropHolding> for DropHoldingResponse {
    fn from(holding: &orders::DropHolding) -> Self {
        DropHoldingResponse {
            product_id: holding.product.get(),
            held: holding.held,
            max_per_account: holding.max_per_account,
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PayPalReturn {
    /// The shop's order id (an unknown or malformed one answers 404).
    #[param(value_type = Option<i64>, minimum = 1)]
    pub order_id: Option<String>,
    /// PayPal's order id.
    pub token: Option<String>,
}
