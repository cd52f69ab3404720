//! `POST /api/stripe/checkout` and `POST /api/checkout/paypal`: the checkout service prices the
//! cart from the database, reserves its stock, stores the order as pending and opens the
//! payment provider's page (`orders::Checkout::place_and_open`). A request with an
//! `Idempotency-Key` that placed an order in this browser session in the last 24 hours answers
//! that order again (`orders::idempotency`). `GET /api/paypal/return`: the buyer approved a
//! PayPal order; the domain captures it through the same call as Stripe's webhook
//! (`aftersale::apply_payment_event`).

use actix_session::Session;
use actix_web::dev::Payload;
use actix_web::{http::header, web, FromRequest, HttpRequest, HttpResponse};
use aftersale::{Handled, PaymentEvent};
use cart_pricing::{Conversion, PaymentMethod};
use futures::future::LocalBoxFuture;
use orders::gateways::PaymentGateway;
use orders::{
    DropHolders, IdempotencyKey, InvalidIdempotencyKey, OpenedCheckout, OrderHolder, OrderId,
    PaymentProvider, PaymentProviders as _, ReturnUrls, ScopedKey,
};
use paypal::PayPalCheckout;
use shared::UserId;
use std::future::{ready, Ready};
use utoipa::IntoParams;

use super::bundle::data;
use super::discord_link::session_identity;
use super::orders::{order_not_found, remember_order};
use crate::auth::session::LiveSessions;
use crate::checkout::providers::ShopProviders;
use crate::checkout::{self, CardPayments, PublicUrl, ShopCheckout};
use crate::error::IDEMPOTENCY_KEY_FIELD;
use crate::language::RequestLanguage;
use crate::services::AfterSaleService;
use crate::{auth::MaybeUser, client_ip::ClientIp, error::ApiError};
use dto::checkout::{
    CardCheckoutResponse, CheckoutContext, DropHoldingResponse, OrderPayload, PayPalReturn,
    PaypalCheckoutResponse,
};
use dto::responses::JsonBodyRefused;

/// The header a checkout's retries carry (`orders::idempotency`).
pub const IDEMPOTENCY_KEY: &str = "Idempotency-Key";
/// Set (`true`) on the answer to a repeated checkout: the order was placed before.
pub const IDEMPOTENT_REPLAYED: &str = "Idempotent-Replayed";

/// The checkout's optional `Idempotency-Key` header, read within this browser session; the same
/// type is the header's OpenAPI parameter.
#[derive(IntoParams)]
#[into_params(parameter_in = Header)]
pub struct IdempotencyKeyHeader {
    /// One key per press of Complete Payment, sent again with every retry of that press (the
    /// storefront sends a `crypto.randomUUID()`): the same key from the same browser session
    /// within 24 hours answers the order it placed; with another cart, buyer, promo code or
    /// payment method it answers 422. 1 to 255 printable ASCII characters.
    #[param(
        rename = "Idempotency-Key",
        value_type = Option<String>,
        min_length = 1,
        max_length = 255,
        pattern = "^[\\x20-\\x7E]+$",
        example = "0b6f1c2e-5d7a-4f57-9a43-8f0d6c1e2b3a"
    )]
    key: Option<ScopedKey>,
}

impl FromRequest for IdempotencyKeyHeader {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    /// `None` without the header; 422 under `Idempotency-Key` when it is given twice, empty,
    /// longer than 255 characters or not printable ASCII. The scope is the session's own id
    /// (from its cookie), which every session that can check out has: checkout needs the
    /// Discord account linked in a stored session. A request without one is refused for that
    /// before anything is read or placed. A handler takes it as a `Result` and answers its
    /// error where the checkout reads it.
    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(idempotency(req).map(|key| IdempotencyKeyHeader { key }))
    }
}

fn idempotency(req: &HttpRequest) -> Result<Option<ScopedKey>, ApiError> {
    let invalid =
        |error: InvalidIdempotencyKey| ApiError::field(IDEMPOTENCY_KEY_FIELD, error.to_string());
    let mut values = req.headers().get_all(IDEMPOTENCY_KEY);
    let Some(value) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err(ApiError::field(
            IDEMPOTENCY_KEY_FIELD,
            "Send one Idempotency-Key header.",
        ));
    }
    let text = value
        .to_str()
        .map_err(|_| invalid(InvalidIdempotencyKey::NotPrintable))?;
    let key = IdempotencyKey::parse(text).map_err(invalid)?;
    let sessions = req
        .app_data::<web::Data<LiveSessions>>()
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("the sessions are not set up")))?;
    Ok(sessions
        .key_of(req)
        .map(|session| key.scoped(session.as_ref())))
}

/// The session key of the browser's buyer token: a random token the orders placed from this
/// browser session carry, so unpaid orders can be capped per browser.
const BUYER_TOKEN: &str = "buyer_token";

/// This browser session's buyer token, or a new one that the session keeps once an order is
/// placed with it: a refused checkout writes nothing to the session.
fn buyer_token(session: &Session) -> (String, bool) {
    match session.get::<String>(BUYER_TOKEN).ok().flatten() {
        Some(token) => (token, false),
        None => (checkout::random_token(), true),
    }
}

/// Who is checking out (the session, the login, the connection) and where the pages send
/// them back to.
pub struct Buyer {
    checkout: web::Data<ShopCheckout>,
    public_url: web::Data<PublicUrl>,
    session: Session,
    user: MaybeUser,
    client: ClientIp,
    currencies: web::Data<crate::currencies::Currencies>,
    language: RequestLanguage,
}

impl FromRequest for Buyer {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            Ok(Buyer {
                checkout: data(&req)?,
                public_url: data(&req)?,
                session: Session::extract(&req).await?,
                user: MaybeUser::extract(&req).await?,
                client: ClientIp::of(&req),
                currencies: data(&req)?,
                language: RequestLanguage::of(&req),
            })
        })
    }
}

/// An order placed and its payment page opened, for the answer.
struct Placed {
    /// A 200, saying `Idempotent-Replayed: true` when it answers a repeated request.
    answer: actix_web::HttpResponseBuilder,
    url: String,
    order_id: i64,
    order_key: Option<String>,
}

impl Buyer {
    /// The checkout's context, and the new buyer token the session keeps once an order exists.
    fn context(
        &self,
        (method, provider): (PaymentMethod, PaymentProvider),
        idempotency: Option<ScopedKey>,
        currency: Conversion,
    ) -> (CheckoutContext, Option<String>) {
        let (token, new) = buyer_token(&self.session);
        let context = CheckoutContext {
            discord: session_identity(&self.session),
            user_id: self.user.0.as_ref().map(|user| user.id),
            holder: OrderHolder {
                buyer_token: Some(token.clone()),
                client_ip: Some(self.client.to_string()),
                client_net: Some(self.client.network_key()),
            },
            method,
            provider,
            idempotency,
            currency,
            language: self.language.0,
        };
        (context, new.then_some(token))
    }

    /// Places the order and opens `gateway`'s page, which sends the buyer back to `success`
    /// (a path of the shop) when paid; the session remembers the order (and keeps a new buyer
    /// token) once it exists, even when its page then failed and it was cancelled. A repeated
    /// request's session (whose first answer, cookie included, may never have arrived)
    /// remembers the order too, and keeps the token the order was placed with.
    async fn place<G: PaymentGateway>(
        &self,
        key: IdempotencyKeyHeader,
        method: (PaymentMethod, PaymentProvider),
        payload: OrderPayload,
        gateway: &G,
        success: &str,
    ) -> Result<Placed, ApiError> {
        let currency = self
            .currencies
            .conversion(payload.currency.as_deref())
            .ok()
            // a provider with a list of its own (PayPal) pays in no other currency
            .filter(|conversion| gateway.pays_in(&conversion.code))
            .ok_or_else(|| {
                // the code as asked for, cut short: an answer never repeats a long input
                let asked: String = (payload.currency.as_deref().unwrap_or_default().trim())
                    .chars()
                    .take(8)
                    .collect::<String>()
                    .to_uppercase();
                ApiError::CurrencyUnavailable(
                    l10n::Text::new("error-currency-unavailable")
                        .with("currency", asked)
                        .into(),
                )
            })?;
        let (context, new_token) = self.context(method, key.key, currency);
        let request = payload.into_request(context)?;
        let public_url = self.public_url.as_str();
        let urls = |id| ReturnUrls {
            success_url: format!("{public_url}{success}?order_id={id}"),
            cancel_url: format!("{public_url}/cancel?order_id={id}"),
            paid_url: format!("{public_url}/success?order_id={id}"),
        };
        let opened = self.checkout.place_and_open(request, gateway, urls).await;
        let placed = match &opened {
            Ok(opened) => Some(opened.placed.order.id),
            Err(orders::OpenCheckoutError::PaymentFailed { order_id, .. }) => Some(*order_id),
            Err(orders::OpenCheckoutError::Refused(_)) => None,
        };
        let placed_with = match &opened {
            Ok(OpenedCheckout {
                replayed: Some(replayed),
                ..
            }) => replayed.buyer_token.clone(),
            _ => None,
        };
        if let Some(order_id) = placed {
            if let Some(token) = new_token.map(|new| placed_with.unwrap_or(new)) {
                self.session.insert(BUYER_TOKEN, token).map_err(|e| {
                    ApiError::internal(anyhow::anyhow!("could not keep the buyer token: {e}"))
                })?;
            }
            remember_order(&self.session, order_id)?;
        }
        let opened = opened?;
        let mut answer = HttpResponse::Ok();
        if opened.replayed.is_some() {
            answer.insert_header((IDEMPOTENT_REPLAYED, "true"));
        }
        Ok(Placed {
            answer,
            url: opened.redirect_url,
            order_id: opened.placed.order.id.get(),
            order_key: opened.placed.access_key.map(|key| key.expose().to_owned()),
        })
    }
}

/// `GET /api/checkout/holdings`: what this session's buyer holds of the products with a cap.
#[utoipa::path(
    get,
    path = "/api/checkout/holdings",
    tag = "checkout",
    summary = "What this buyer already holds of the capped products",
    description = "For each product with a limit per account (`max_per_account`) that this \
                   session's buyer holds any of, the units held, counted exactly as checkout \
                   counts them against the limit: the most that the Discord account linked in \
                   this session, the logged-in shop account or this browser holds in pending, \
                   paid, delivered and disputed orders, a bundle's parts included. Empty when \
                   nothing is held. Checkout stays the judge. Answered with \
                   `Cache-Control: no-store`.",
    responses(
        (status = 200, description = "The holdings, by product id.", body = [DropHoldingResponse]),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn holdings(
    checkout: web::Data<ShopCheckout>,
    session: Session,
    user: MaybeUser,
) -> Result<HttpResponse, ApiError> {
    let holders = DropHolders {
        discord: session_identity(&session).map(|identity| identity.discord_id),
        user: user.0.as_ref().map(|user| UserId::new(user.id)),
        // only a token an order was placed with (a refused checkout keeps none)
        buyer_token: session.get::<String>(BUYER_TOKEN).ok().flatten(),
    };
    let held = checkout.holdings(holders).await?;
    let body: Vec<DropHoldingResponse> = held.iter().map(DropHoldingResponse::from).collect();
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(body))
}

/// `POST /api/stripe/checkout`: card payment through Stripe Checkout (or the dev page).
#[utoipa::path(
    post,
    path = "/api/stripe/checkout",
    tag = "checkout",
    summary = "Place an order and pay by card",
    description = "Prices the cart from the catalog, reserves its stock, stores the order as \
                   pending and opens the card payment page (Stripe Checkout, or the shop's dev \
                   page without Stripe keys). The buyer's Discord account is the one linked in \
                   this session (`POST /api/discord-auth`), never one from the body. The session \
                   remembers the order, so `GET /api/orders/{id}` opens it without a key. With an \
                   `Idempotency-Key` (one per press of Complete Payment, the same for every retry \
                   of that press), the same key from the same browser session within 24 hours \
                   answers the order it placed instead of placing another.",
    params(IdempotencyKeyHeader),
    request_body = OrderPayload,
    responses(
        (status = 200, description = "The order is placed (or, for a repeated `Idempotency-Key`, was placed by the first request: its page, or the success page once paid); send the shopper to `url`.", body = CardCheckoutResponse,
            headers(("Idempotent-Replayed" = String, description = "`true` when this answers a repeated `Idempotency-Key`."))),
        JsonBodyRefused,
        (status = 403, description = "The buyer is on the blocklist, or a cross-site request.", body = crate::error::ErrorBody),
        (status = 409, description = "The cart cannot be bought as it is: products gone or short of stock (`problems`, one line each), or the total was not the server's (`cart`, the cart as the server prices it); a drop not on sale yet (\"This item drops at …\") or over its limit per account (Discord account, shop account or browser; a drop inside a bundle counts). For a repeated `Idempotency-Key`: its order was cancelled or expired, or (with `Retry-After`) the first request is still opening its payment page.", body = crate::error::ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait, when the first request with this `Idempotency-Key` is still at work."))),
        (status = 422, description = "Missing details (Roblox username, e-mail, linked Discord), a malformed field, an empty cart, too many lines or too many of one product, a promo code that does not apply (`reason`), or an `Idempotency-Key` that is malformed or was used for a different request (`errors.Idempotency-Key`).", body = crate::error::ErrorBody),
        (status = 429, description = "Too many unpaid orders on this Discord account, from this browser or from this address; `Retry-After` says when to try again.", body = crate::error::ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait."))),
        (status = 502, description = "The payment provider could not open its page; the order was cancelled.", body = crate::error::ErrorBody),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn card(
    card: web::Data<CardPayments>,
    buyer: Buyer,
    key: Result<IdempotencyKeyHeader, ApiError>,
    payload: web::Json<OrderPayload>,
) -> Result<HttpResponse, ApiError> {
    let method = (PaymentMethod::Card, card.provider());
    let mut placed = buyer
        .place(
            key?,
            method,
            payload.into_inner(),
            card.get_ref(),
            "/success",
        )
        .await?;
    Ok(placed.answer.json(CardCheckoutResponse {
        url: placed.url,
        order_id: placed.order_id,
        order_key: placed.order_key,
    }))
}

/// `POST /api/checkout/paypal`: PayPal Orders v2, when configured and enabled.
#[utoipa::path(
    post,
    path = "/api/checkout/paypal",
    tag = "checkout",
    summary = "Place an order and pay with PayPal",
    description = "As `POST /api/stripe/checkout`, through PayPal (Orders v2) when the shop has \
                   PayPal configured and enabled: the shopper approves at `approval_url`, and \
                   PayPal sends them back to `GET /api/paypal/return`. `Idempotency-Key` as there.",
    params(IdempotencyKeyHeader),
    request_body = OrderPayload,
    responses(
        (status = 200, description = "The order is placed (or was, by the first request with this `Idempotency-Key`); send the shopper to `approval_url`.", body = PaypalCheckoutResponse,
            headers(("Idempotent-Replayed" = String, description = "`true` when this answers a repeated `Idempotency-Key`."))),
        JsonBodyRefused,
        (status = 403, description = "The buyer is on the blocklist, or a cross-site request.", body = crate::error::ErrorBody),
        (status = 404, description = "PayPal is not available in this shop.", body = crate::error::ErrorBody),
        (status = 409, description = "The cart cannot be bought as it is: products gone or short of stock (`problems`), or the total was not the server's (`cart`); a drop not on sale yet or over its limit per account (Discord account, shop account or browser; a drop inside a bundle counts). For a repeated `Idempotency-Key`: its order was cancelled or expired, or (with `Retry-After`) the first request is still opening its payment page.", body = crate::error::ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait, when the first request with this `Idempotency-Key` is still at work."))),
        (status = 422, description = "Missing details (Roblox username, e-mail, linked Discord), a malformed field, an empty cart, too many lines or too many of one product, a promo code that does not apply (`reason`), or an `Idempotency-Key` that is malformed or was used for a different request (`errors.Idempotency-Key`).", body = crate::error::ErrorBody),
        (status = 429, description = "Too many unpaid orders on this Discord account, from this browser or from this address; `Retry-After` says when to try again.", body = crate::error::ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait."))),
        (status = 502, description = "PayPal could not open its page; the order was cancelled.", body = crate::error::ErrorBody),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn paypal(
    paypal: web::Data<Option<PayPalCheckout>>,
    buyer: Buyer,
    key: Result<IdempotencyKeyHeader, ApiError>,
    payload: web::Json<OrderPayload>,
) -> Result<HttpResponse, ApiError> {
    let Some(gateway) = paypal.get_ref() else {
        return Err(ApiError::NotFound(
            "PayPal is not available in this shop.".into(),
        ));
    };
    let method = (PaymentMethod::Paypal, PaymentProvider::Paypal);
    let mut placed = buyer
        .place(
            key?,
            method,
            payload.into_inner(),
            gateway,
            "/api/paypal/return",
        )
        .await?;
    Ok(placed.answer.json(PaypalCheckoutResponse {
        approval_url: placed.url,
        order_id: placed.order_id,
        order_key: placed.order_key,
    }))
}

/// `GET /api/paypal/return?order_id=42&token=...`: the buyer approved; capture the payment,
/// confirm the order through the same call as Stripe's webhook, and go to /success (or
/// /cancel when nothing was paid).
#[utoipa::path(
    get,
    path = "/api/paypal/return",
    tag = "checkout",
    summary = "PayPal sends the shopper back",
    description = "Where PayPal sends the shopper after they approved: the payment is captured, \
                   the order confirmed, and the browser goes on to `/success?order_id=…` (or \
                   `/cancel?order_id=…` when nothing was paid).",
    params(PayPalReturn),
    responses(
        (status = 303, description = "Captured (or not): on to the shop's success or cancel page.",
            headers(("Location" = String, description = "`/success?order_id={id}` or `/cancel?order_id={id}`."))),
        (status = 400, description = "The PayPal order is not this order's payment.", body = crate::error::ErrorBody),
        (status = 404, description = "PayPal is not available in this shop, or the order does not exist.", body = crate::error::ErrorBody),
        (status = 422, description = "The query string cannot be read (a parameter given twice).", body = crate::error::ErrorBody),
        (status = 502, description = "PayPal could not capture the payment.", body = crate::error::ErrorBody),
    ),
    security(()),
)]
pub async fn paypal_return(
    checkout: web::Data<ShopCheckout>,
    aftersale: web::Data<AfterSaleService>,
    providers: web::Data<ShopProviders>,
    query: web::Query<PayPalReturn>,
) -> Result<HttpResponse, ApiError> {
    let not_found = || ApiError::NotFound(order_not_found());
    if !providers.reaches(PaymentProvider::Paypal) {
        return Err(not_found());
    }
    let id = query
        .order_id
        .as_deref()
        .and_then(|id| id.parse::<i64>().ok())
        .map(OrderId::new)
        .ok_or_else(not_found)?;
    let approved = PaymentEvent::Approved {
        provider: PaymentProvider::Paypal,
        order: id,
        token: query.token.clone().unwrap_or_default(),
    };
    let handled = aftersale::apply_payment_event(
        checkout.get_ref(),
        approved,
        aftersale.get_ref(),
        providers.get_ref(),
    )
    .await?;
    let page = match handled {
        Handled::Captured(captured) if captured.is_success() => "success",
        _ => "cancel",
    };
    Ok(HttpResponse::SeeOther()
        .insert_header((header::LOCATION, format!("/{page}?order_id={id}")))
        .finish())
}
