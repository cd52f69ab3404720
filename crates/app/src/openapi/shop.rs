//! The shopper's buying and help calls: checkout (card, PayPal), the Stripe webhook, orders by
//! link, cancel, reviews, Discord, Roblox, promo validation, the help chat and the event
//! stream.

use crate::routes::stripe_webhook;
use crate::routes::{
    chat, checkout, discord_link, events, order_messages, orders, promo, reviews, roblox_names,
};

api_part! {
    #[openapi(
        paths(
            checkout::card,
            checkout::paypal,
            checkout::paypal_return,
            checkout::holdings,
            stripe_webhook::webhook,
            orders::show,
            orders::cancel,
            orders::ready,
            orders::received,
            orders::join_ticket,
            order_messages::list,
            order_messages::post,
            reviews::leave,
            reviews::list,
            discord_link::authorize,
            discord_link::exchange,
            discord_link::identity,
            discord_link::unlink,
            roblox_names::avatar,
            roblox_names::dev_avatar,
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
            dto::checkout::PricedCartResponse,
            dto::chat::ChatJson,
            dto::chat::MessageJson,
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
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use serde_json::Value;

    use super::*;
    use utoipa::OpenApi;

    fn shop() -> Value {
        serde_json::to_value(super::super::document()).unwrap()
    }

    fn operation<'a>(doc: &'a Value, method: &str, path: &str) -> &'a Value {
        let operation = &doc["paths"][path][method];
        assert!(operation.is_object(), "{method} {path} is not documented");
        operation
    }

    #[test]
    fn every_shop_call_is_in_the_document_with_its_errors_in_the_one_shape() {
        let doc = shop();
        let own = serde_json::to_value(ShopDoc::openapi()).unwrap();
        let mut calls = 0;
        for (path, item) in own["paths"].as_object().unwrap() {
            for (method, operation) in item.as_object().unwrap() {
                calls += 1;
                assert_eq!(&doc["paths"][path][method], operation, "{method} {path}");
                for (status, response) in operation["responses"].as_object().unwrap() {
                    if status.starts_with('4') || status.starts_with('5') {
                        assert_eq!(
                            response["content"]["application/json"]["schema"]["$ref"],
                            "#/components/schemas/ErrorBody",
                            "{method} {path} {status}"
                        );
                    }
                }
            }
        }
        assert_eq!(calls, 28);
    }

    #[test]
    fn the_checkout_409_carries_the_priced_cart_and_the_body_refusals_are_listed() {
        let doc = shop();
        assert_eq!(
            doc["components"]["schemas"]["ErrorBody"]["properties"]["cart"]["$ref"],
            "#/components/schemas/PricedCartResponse"
        );
        let card = operation(&doc, "post", "/api/stripe/checkout");
        for status in [
            "200", "400", "403", "409", "413", "415", "422", "429", "502",
        ] {
            assert!(card["responses"][status].is_object(), "checkout {status}");
        }
        assert_eq!(
            card["requestBody"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/CheckoutRequest"
        );
    }

    #[test]
    fn the_webhook_names_its_signature_header_and_events_stream_text() {
        let doc = shop();
        let webhook = operation(&doc, "post", "/api/stripe/webhook");
        let header = webhook["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "Stripe-Signature")
            .expect("the Stripe-Signature header");
        assert_eq!(header["in"], "header");
        assert_eq!(header["required"], true);
        assert!(webhook["responses"]["400"].is_object());
        let events = operation(&doc, "get", "/api/events");
        assert!(events["responses"]["200"]["content"]["text/event-stream"].is_object());
        let description = events["description"].as_str().unwrap();
        for kind in [
            "`ready`",
            "`products`",
            "`chat`",
            "`chat_list`",
            "`order`",
            "`order_message`",
            "`resync`",
            "`ended`",
        ] {
            assert!(description.contains(kind), "{kind}");
        }
        let redirect = operation(&doc, "get", "/api/paypal/return");
        assert!(redirect["responses"]["303"]["headers"]["Location"].is_object());
    }
}
