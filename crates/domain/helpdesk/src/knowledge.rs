//! The shop's own knowledge, written as documents: the ways shoppers ask, and the answer.
//! The texts follow the FAQ, How it works, About, Refund Policy, Terms and Privacy pages, and
//! the handoff as the shop runs it (receipt, order page, claim, private server, "I'm in the
//! game", delivered). Answers are templates (see [`crate::facts`]): the delivery promise and
//! the Discord invite are the shop's facts at answer time, never written here.

/// One piece of the shop's knowledge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Document {
    pub id: &'static str,
    /// How shoppers ask about it, and the words they use: indexed with the answer.
    pub asked_as: &'static str,
    /// A template: see [`crate::facts::render_for`].
    pub answer: &'static str,
    /// A person has to look at it (an order of this shopper's): the answer offers the live
    /// agent and is not confident.
    pub needs_person: bool,
}

const fn doc(id: &'static str, asked_as: &'static str, answer: &'static str) -> Document {
    Document {
        id,
        asked_as,
        answer,
        needs_person: false,
    }
}

const fn person(id: &'static str, asked_as: &'static str, answer: &'static str) -> Document {
    Document {
        id,
        asked_as,
        answer,
        needs_person: true,
    }
}

pub const DOCUMENTS: &[Document] = &[
    doc(
        "greeting",
        "hi hey hello yo good morning good evening sup hiya anyone there",
        "Hi! I can help with prices, stock, delivery, payment and refunds. What would you like \
         to know?",
    ),
    doc(
        "thanks",
        "thanks thank you thx ty great cool awesome ok okay bye goodbye appreciate it",
        "You're welcome! If anything else comes up, just ask.",
    ),
    doc(
        "payment-methods",
        "which payment methods do you accept do you take cards how can I pay payment options pay with card credit \
         card debit card visa mastercard stripe paypal apple pay google pay crypto bitcoin \
         robux gift card pay method checkout payment",
        "You pay by debit or credit card on Stripe's secure payment page; your card details go \
         straight to Stripe and never reach our servers. PayPal is offered at checkout only \
         when the shop has it switched on. A small card processing fee is shown as its own \
         line before you pay.",
    ),
    doc(
        "fees",
        "processing fee card fee extra charge why is the total higher than the price fees tax \
         additional cost surcharge",
        "Card payments carry a small processing fee. It is shown as its own line at checkout, \
         before you pay, so the total you see is the total you pay.",
    ),
    doc(
        "currency",
        "currency prices in us dollars usd euro eur gbp pounds which currency",
        "All prices are in US dollars (USD) and are shown on each product.",
    ),
    doc(
        "delivery-time",
        "how long does delivery take delivery time how fast when will I get receive my items \
         pet order how many minutes wait quick fast delivery speed how soon until arrive \
         arrival",
        "Delivery usually takes under {minutes} minutes after you pay; when many orders come in \
         at once, staff deliver them in turn, in the order they were paid. After paying:\
         {steps}{if orders}Your order's page: {orders}.{else}The receipt e-mail we send when \
         you pay links your order page.{end}",
    ),
    doc(
        "after-paying",
        "what happens after I pay what do I do after paying what now next steps how do I \
         receive collect claim my order items how does delivery work how do you deliver \
         delivered by hand steps get my pet bought purchased ordered paid",
        "After paying:{steps}It usually takes under {minutes} minutes. {if orders}Your \
         order's page: {orders}.{else}The receipt e-mail we send when you pay links your order \
         page.{end}",
    ),
    doc(
        "where-is-my-order",
        "where is my order status of my order order status track follow check my order order \
         page link receipt paid but nothing happened nothing yet still waiting sent progress \
         find my order",
        "{if orders}Your order page shows where your order is, live: {orders}.{else}Your order \
         page shows where your order is, live: open it from the link in the receipt e-mail we \
         sent when you paid (check your spam folder too), or, with an account, from the orders \
         on your profile page.{end}\nAfter paying:{steps}Delivery usually takes under \
         {minutes} minutes; if it has been longer, press 'Talk to Live Agent' and a member of \
         our staff will look at your order.",
    ),
    doc(
        "discord",
        "discord server join discord invite link discord account why do I need discord open a \
         ticket ticket channel link discord do I have to open a ticket my ticket thread add me \
         to my ticket not in the server",
        "You link your Discord account at checkout.{if invite} Join our Discord server: \
         {invite}{end}{if invite tickets}. For each paid order we open a private ticket there \
         ourselves and add you to it, so you do not open one: staff post in it when they pick \
         up your order, with the link to their private server. If you were not in the server \
         when you paid, join it and press \"I joined, add me to my ticket\" on your order page.\
         {end}{if invite no-tickets}, so staff can reach you there. Everything about your \
         order, with the link to staff's private server when they pick it up, is on your order \
         page.{end}{if no-invite tickets} For each paid order we open a private Discord ticket \
         ourselves and add you to it, so you do not open one. Your order page shows the same: \
         when staff pick up your order, their name and the link to their private server. \
         Questions? Ask us here in the help chat.{end}{if no-invite no-tickets} Everything else \
         happens on your order page: when a member of staff picks up your order, it shows their \
         name and the link to their private server. Questions? Ask us here in the help chat, or \
         press 'Talk to Live Agent' to reach our staff.{end}",
    ),
    doc(
        "private-server",
        "private server vip server ps link join the private server which server roblox server \
         game server where do I meet staff in game",
        "When a member of staff picks up your order, your order page{if tickets} and your \
         Discord ticket show{else} shows{end} their name and the link to their private Grow a Garden server \
         (we e-mail you too). Join it with the Roblox account whose username you gave at \
         checkout, press \"I'm in the game\" on your order page, and stay in the server until \
         staff tell you the delivery is complete.",
    ),
    doc(
        "how-to-buy",
        "how do I buy how to order how to purchase place an order checkout steps add to cart \
         buying process",
        "Add what you want to your cart and press Checkout. Enter your Roblox username and \
         e-mail address, link your Discord account and pay by card. Then follow your order on \
         its page (your receipt links it): when a member of staff picks it up, join their \
         private server from there and they hand over your items.{if invite} Join our Discord \
         server too ({invite}), so staff can reach you there.{end}",
    ),
    doc(
        "refunds",
        "refund refunds money back return returns can I get a refund refund policy cancel order \
         chargeback changed my mind give back refund an order that was not delivered undelivered \
         never delivered never received my pet my items failed to deliver could not deliver",
        "If your order was not delivered because of an error on our side (we ran out of the \
         item after you paid, or staff could not complete the delivery), we refund the full \
         amount you paid to the card you used. We cannot refund an order that could not be \
         delivered because the details you gave at checkout were wrong, or because you did not \
         join the private server to receive it. We do not offer refunds for completed \
         purchases: once your items are delivered in game, the order is final. To ask for a \
         refund, press 'Talk to Live Agent' here in the help chat{if invite}, or write to us on \
         our Discord server ({invite}),{end} with your order number; the Refund Policy page has \
         the details.",
    ),
    doc(
        "refund-time",
        "how long does a refund take when will I see my money refund bank statement days",
        "Approved refunds go back to the original card. Your bank may take 5 to 10 business days \
         to show the money on your statement.",
    ),
    doc(
        "safety",
        "is it safe legit scam trust trustworthy secure real reliable safe to buy are you legit \
         is this a scam",
        "Yes, it is safe: card payments run on Stripe's secure payment page, and every order is \
         delivered by a real member of our staff in a private server. We will never ask for your \
         Roblox password, your account, or for you to give us an item first.",
    ),
    doc(
        "password",
        "password do you need my roblox password account login details give my account someone \
         asked for my password staff asked for an item first",
        "We will never ask for your Roblox password, your account, or for you to give us an \
         item first. If anyone claiming to be Garden Shop staff asks, do not do it and tell us: \
         press 'Talk to Live Agent' here in the help chat{if invite}, or write to us on our \
         Discord server ({invite}){end}.",
    ),
    doc(
        "accounts",
        "do I need an account to buy sign up register create account guest checkout without \
         account profile my orders order history log in benefits of an account",
        "No account is needed: you can check out as a guest. With an account you can see all \
         your orders and their status in one place on your profile.",
    ),
    doc(
        "forgot-password",
        "forgot my password reset password cannot log in cant login lost password change \
         password",
        "Use 'Forgot password' on the login page: we e-mail you a reset link that works once, \
         for 60 minutes.",
    ),
    doc(
        "verification-code",
        "verification code email code 6 digit code not received did not get the code resend \
         code verify email",
        "When you register we e-mail you a 6-digit verification code. It is valid for 15 \
         minutes; you can ask for a new one after 60 seconds. Check your spam folder too.",
    ),
    doc(
        "promo-codes",
        "promo code coupon discount code voucher percent off sale code promo not working \
         how to use a promo code",
        "Enter your promo code at checkout after linking your Discord account. Each code can be \
         used once per Discord account, and some codes expire or have a limited number of uses.",
    ),
    doc(
        "dupe-warning",
        "dupe warning duplicate flagged as dupe falsely flagged what does dupe mean dupe risk",
        "For a few pets, the game may wrongly flag the delivered pet as a dupe (a duplicate). \
         We show a warning before you add such a pet to your cart so you can decide before you \
         pay; a flag placed by the game after delivery is not a reason for a refund.",
    ),
    doc(
        "affiliation",
        "are you roblox official affiliated with roblox grow a garden developers official shop \
         owned by",
        "Garden Shop is an independent shop and is not affiliated with, endorsed by or sponsored \
         by Roblox Corporation or the developers of Grow a Garden.",
    ),
    doc(
        "age",
        "under 18 age kid child teen parent guardian young how old do I need to be minor \
         I am 12 13 14 15 16 17 years old",
        "If you are under 18, please ask a parent or guardian before you buy, and let them \
         complete the payment with their card.",
    ),
    doc(
        "details",
        "wrong roblox username typo mistake in my username wrong email change details entered \
         wrong account correct details",
        "We deliver to exactly the Roblox username, e-mail address and Discord account you enter \
         at checkout, so please double-check them before paying.",
    ),
    doc(
        "about",
        "who are you about the shop what is garden shop what do you do tell me about the shop",
        "Garden Shop is a small team of Grow a Garden players. We sell pets, Sheckles, bundles \
         and exclusives at fair prices, and a real member of staff delivers every order in a \
         private server, usually in under {minutes} minutes.",
    ),
    doc(
        "privacy",
        "privacy personal data what data do you collect delete my data cookies information \
         share sell my data",
        "We collect only what we need to run your order (name, e-mail, Roblox username, Discord \
         account). Card details go straight to Stripe. We never sell your data. To see or delete \
         it, press 'Talk to Live Agent' here in the help chat{if invite}, or write to us on our \
         Discord server ({invite}){end}.",
    ),
    doc(
        "mutation-weight",
        "what is a mutation what does mutation mean weight kg what does the weight mean size",
        "A mutation is a special variant of a pet, such as Rainbow or Gold; the weight (in kg) \
         is the pet's in-game weight. Both are shown on the product when they apply.",
    ),
    doc(
        "sheckles-meaning",
        "what are sheckles what is sheckles in game currency money coins",
        "Sheckles are Grow a Garden's in-game currency. We deliver them in game like every other \
         order.",
    ),
    person(
        "live-agent",
        "talk to a human person real person agent live agent staff support contact customer \
         service speak to someone contact you help me",
        "Sure, a member of our staff can help.",
    ),
    person(
        "order-problem",
        "my order never arrived not delivered did not receive didnt get my items missing order \
         order number wrong item charged twice payment failed problem issue complaint ticket \
         not answered waiting long staff not responding",
        "I'm sorry about that: a member of staff needs to look at your order.{if orders} Your \
         order's page: {orders}.{end}",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    use crate::facts::{render_for, ShopFacts};

    fn every_setup() -> Vec<ShopFacts> {
        let invite = Some("https://discord.gg/gardenshop".to_owned());
        [
            (invite.clone(), true),
            (invite, false),
            (None, true),
            (None, false),
        ]
        .into_iter()
        .map(|(discord_invite, discord_tickets)| ShopFacts {
            delivery_minutes: 25,
            discord_invite,
            discord_tickets,
        })
        .collect()
    }

    #[test]
    fn no_answer_hard_codes_a_delivery_time() {
        for document in DOCUMENTS {
            assert!(!document.answer.contains("10 minutes"), "{}", document.id);
        }
        let delivery = DOCUMENTS.iter().find(|d| d.id == "delivery-time").unwrap();
        assert!(delivery.answer.contains("under {minutes} minutes"));
    }

    #[test]
    fn every_answer_renders_cleanly_for_every_setup() {
        let order = chat::AskerOrder {
            number: 7,
            status: "Paid".to_owned(),
            link: "https://shop.example/orders/7".to_owned(),
        };
        let askers = [vec![], vec![order.clone()], vec![order.clone(), order]];
        for facts in every_setup() {
            for (document, orders) in DOCUMENTS
                .iter()
                .flat_map(|d| askers.iter().map(move |orders| (d, orders)))
            {
                let text = render_for(document.answer, &facts, orders);
                let id = document.id;
                assert!(!text.contains(['{', '}']), "{id} ({facts:?}): {text}");
                assert!(!text.contains("  "), "{id} ({facts:?}): {text}");
                assert!(!text.contains(" ."), "{id} ({facts:?}): {text}");
                let lower = text.to_lowercase();
                match &facts.discord_invite {
                    // every sentence about the server carries its link
                    Some(invite) => assert!(
                        !lower.contains("discord server") || text.contains(invite.as_str()),
                        "{id} ({facts:?}): {text}"
                    ),
                    // and without one, the server is not where buyers are sent
                    None => assert!(
                        !lower.contains("discord server") && !lower.contains("open a ticket"),
                        "{id} ({facts:?}): {text}"
                    ),
                }
            }
        }
    }

    #[test]
    fn document_ids_are_unique() {
        let mut ids: Vec<&str> = DOCUMENTS.iter().map(|d| d.id).collect();
        ids.sort_unstable();
        let before = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), before);
    }
}
