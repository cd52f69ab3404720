//! The shopper's buying and help calls: checkout (card, PayPal), the Stripe webhook, orders by
//! link, cancel, reviews, Discord, Roblox, promo validation, the help chat and the event
//! stream.

use utoipa::OpenApi;

use crate::routes::stripe_webhook;
use crate::routes::{chat, checkout, discord, events, orders, promo, reviews, roblox};

#[derive(OpenApi)]
#[openapi(
    paths(
        checkout::card,
        checkout::paypal,
        checkout::paypal_return,
        stripe_webhook::webhook,
        orders::show,
        orders::cancel,
        reviews::leave,
        reviews::list,
        discord::authorize,
        discord::exchange,
        discord::identity,
        discord::unlink,
        roblox::avatar,
        roblox::dev_avatar,
        promo::validate,
        chat::start_ai,
        chat::start_live,
        chat::send,
        chat::history,
        chat::status,
        chat::end,
        events::stream,
    ),
    components(schemas(
        crate::dto::checkout::PricedCartResponse,
        crate::help_chat::ChatJson,
        crate::help_chat::MessageJson,
    )),
    tags(
        (name = "checkout", description = "Buying: placing an order with a payment provider, \
                                           checking a Roblox username and a promo code."),
        (name = "payment provider", description = "Calls the payment providers make."),
        (name = "orders", description = "A buyer's order: its page (by session, owner or \
                                         link key) and cancelling it while unpaid."),
        (name = "reviews", description = "Verified reviews of delivered orders."),
        (name = "discord", description = "Linking the buyer's Discord account to the session \
                                          (OAuth); checkout and promo codes use it."),
        (name = "chat", description = "The shopper's help chat: the assistant, then a live \
                                       agent. Every call carries the browser's chat session \
                                       id; a chat of another session answers 404."),
        (name = "live updates", description = "Server push: what changed, for this viewer."),
    ),
)]
pub struct ShopDoc;
