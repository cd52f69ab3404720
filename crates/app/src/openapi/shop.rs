//! The shopper's buying and help calls: checkout (card, PayPal, dev page), the Stripe webhook,
//! orders by link, cancel, reviews, Discord, Roblox, promo validation, the help chat and the
//! event stream.

use utoipa::OpenApi;

#[derive(OpenApi)]
#[openapi(paths(), components(schemas()))]
pub struct ShopDoc;
