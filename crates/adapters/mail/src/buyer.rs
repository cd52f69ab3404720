//! The buyer's mail about an order: the receipt, "delivered" and "refunded", each as plain
//! text and HTML. Subjects carry the order number only (they are logged): never the link key.

use delivery::BuyerMail;
use lettre::Message;
use orders::{MailKind, Order};

use crate::compose::{escape, Composer};

fn money(value: cart_pricing::Money) -> String {
    format!("${:.2}", value.as_decimal())
}

impl Composer {
    pub fn buyer_subject(&self, mail: &BuyerMail) -> String {
        let shop = self.shop_name();
        let id = mail.order.id;
        match mail.kind {
            MailKind::Receipt => format!("Your {shop} receipt for order #{id}"),
            MailKind::Delivered => format!("Your {shop} order #{id} has been delivered"),
            MailKind::Refunded => format!("Your {shop} order #{id} has been refunded"),
            MailKind::Claimed => format!("Staff are waiting for you in the game (order #{id})"),
            MailKind::Released => format!("Your {shop} order #{id} is back in line"),
            MailKind::NoShow => format!("Your time to join is up (order #{id})"),
        }
    }

    /// The mail's subject and plain text, as the buyer got them.
    pub fn buyer_text(&self, mail: &BuyerMail) -> (String, String) {
        let (text, _) = self.bodies(mail);
        (self.buyer_subject(mail), text)
    }

    fn bodies(&self, mail: &BuyerMail) -> (String, String) {
        match mail.kind {
            MailKind::Receipt => self.receipt(mail),
            MailKind::Delivered => self.delivered(mail),
            MailKind::Refunded => self.refunded(mail),
            MailKind::Claimed => self.claimed(mail),
            MailKind::Released => self.released(mail),
            MailKind::NoShow => self.no_show(mail),
        }
    }

    pub fn buyer_message(&self, mail: &BuyerMail) -> anyhow::Result<Message> {
        let (text, html) = self.bodies(mail);
        self.build(
            mail.order.buyer.email.as_str(),
            self.buyer_subject(mail),
            text,
            html,
        )
    }

    /// The items, the amounts and the Roblox username, as text and as HTML.
    fn summary(&self, order: &Order) -> (String, String) {
        let mut text = String::new();
        let mut rows = String::new();
        for line in &order.lines {
            text.push_str(&format!(
                "  {} × {}  {}\n",
                line.quantity.get(),
                line.name,
                money(line.total())
            ));
            rows.push_str(&format!(
                "<tr><td>{} × {}</td><td style=\"text-align:right\">{}</td></tr>",
                line.quantity.get(),
                escape(&line.name),
                money(line.total())
            ));
        }
        let amounts = &order.amounts;
        let mut totals = vec![("Subtotal", money(amounts.subtotal))];
        if amounts.discount != cart_pricing::Money::ZERO {
            let code = order
                .promo
                .as_ref()
                .map(|p| format!(" ({})", p.code))
                .unwrap_or_default();
            totals.push(("Discount", format!("-{}{code}", money(amounts.discount))));
        }
        totals.push(("Processing fee", money(amounts.fee)));
        totals.push(("Total", money(amounts.total)));
        for (label, value) in &totals {
            text.push_str(&format!("{label}: {value}\n"));
            rows.push_str(&format!(
                "<tr><td>{label}</td><td style=\"text-align:right\">{}</td></tr>",
                escape(value)
            ));
        }
        let roblox = order.buyer.roblox_username.to_string();
        text.push_str(&format!("Roblox username: {roblox}\n"));
        rows.push_str(&format!(
            "<tr><td>Roblox username</td><td style=\"text-align:right\">{}</td></tr>",
            escape(&roblox)
        ));
        (
            text,
            format!("<table cellpadding=\"4\" style=\"border-collapse:collapse\">{rows}</table>"),
        )
    }

    fn receipt(&self, mail: &BuyerMail) -> (String, String) {
        let shop = self.shop_name();
        let id = mail.order.id;
        let link = &mail.order_link;
        let (items, table) = self.summary(&mail.order);
        let (next_text, next_html) = steps(mail);
        (
            format!(
                "Thank you for your order!\n\n\
                 Order #{id} is paid.\n\n{items}\n\
                 What happens next:\n{next_text}\n\
                 We e-mail you when staff are waiting for you and once it's delivered.\n\n\
                 Follow your order (no login needed; keep this link to yourself):\n{link}\n\n\
                 {shop}\n{url}\n",
                url = self.public_url()
            ),
            format!(
                "<h1 style=\"font-size:20px\">Thank you for your order!</h1>\
                 <p>Order #{id} is paid.</p>{table}\
                 <p><strong>What happens next:</strong></p>{next_html}\
                 <p>We e-mail you when staff are waiting for you and once it's delivered.</p>\
                 <p><a href=\"{link}\">Follow your order</a> (no login needed; keep this link \
                 to yourself)</p><p>Or paste this link into your browser: {link}</p>\
                 <p>{shop}</p>",
                link = escape(link),
                shop = escape(shop),
            ),
        )
    }

    fn delivered(&self, mail: &BuyerMail) -> (String, String) {
        let shop = self.shop_name();
        let id = mail.order.id;
        let link = &mail.order_link;
        let roblox = mail.order.buyer.roblox_username.to_string();
        let (proof_text, proof_html) = match &mail.proof_picture {
            Some(picture) => (
                format!("A picture of the delivery: {picture}\n\n"),
                format!(
                    "<p><a href=\"{p}\">See a picture of the delivery</a> ({p})</p>",
                    p = escape(picture)
                ),
            ),
            None => (String::new(), String::new()),
        };
        let (steps_text, steps_html) = steps(mail);
        (
            format!(
                "Good news: order #{id} has been delivered to {roblox} in Roblox.\n\n\
                 {proof_text}Got everything? Press \"I got my items\" on your order page: \
                 {link}\n\n\
                 Your order's steps:\n{steps_text}\n\
                 Happy with it? Leave a review on the same page: it helps other players \
                 find us.\n\n\
                 Something missing? {help_text}\n\n\
                 {shop}\n",
                help_text = help(mail).0,
            ),
            format!(
                "<p>Good news: order #{id} has been delivered to <strong>{roblox}</strong> in \
                 Roblox.</p>{proof_html}<p>Got everything? Press \"I got my items\" on \
                 <a href=\"{link}\">your order page</a> ({link}).</p>\
                 <p><strong>Your order's steps:</strong></p>{steps_html}\
                 <p>Happy with it? Leave a review on the same page: it helps other players \
                 find us.</p>\
                 <p>Something missing? {help_html}</p><p>{shop}</p>",
                help_html = help(mail).1,
                roblox = escape(&roblox),
                link = escape(link),
                shop = escape(shop),
            ),
        )
    }

    fn refunded(&self, mail: &BuyerMail) -> (String, String) {
        let shop = self.shop_name();
        let id = mail.order.id;
        let link = &mail.order_link;
        let total = money(mail.order.amounts.total);
        (
            format!(
                "Order #{id} has been refunded: {total} goes back to the way you paid. Banks \
                 usually show it within 5 to 10 days.\n\nYour order: {link}\n\n{shop}\n"
            ),
            format!(
                "<p>Order #{id} has been refunded: {total} goes back to the way you paid. \
                 Banks usually show it within 5 to 10 days.</p>\
                 <p><a href=\"{link}\">Your order</a> ({link})</p><p>{shop}</p>",
                link = escape(link),
                shop = escape(shop),
            ),
        )
    }
}

/// "Join our Discord server" with its link, or the help chat when the shop has no invite.
fn help(mail: &BuyerMail) -> (String, String) {
    match &mail.discord_invite {
        Some(invite) => (
            format!("Reply to this e-mail or ask in our Discord server: {invite}"),
            format!(
                "Reply to this e-mail or ask in <a href=\"{i}\">our Discord server</a> ({i}).",
                i = escape(invite)
            ),
        ),
        None => (
            "Reply to this e-mail or open the help chat in the shop.".to_owned(),
            "Reply to this e-mail or open the help chat in the shop.".to_owned(),
        ),
    }
}

/// The script from payment to delivery as the order's page numbers it: each step's title (the
/// Discord step linked to the invite), a tick on the steps the order is past, the sentence on
/// how for the others.
fn steps(mail: &BuyerMail) -> (String, String) {
    let mut text = String::new();
    let mut items = String::new();
    for (index, step) in mail.steps.iter().enumerate() {
        let number = index + 1;
        let title = &step.title;
        let link_text = step
            .link
            .as_ref()
            .map(|link| format!(": {link}"))
            .unwrap_or_default();
        let title_html = match &step.link {
            Some(link) => format!("<a href=\"{}\">{}</a>", escape(link), escape(title)),
            None => escape(title),
        };
        if step.done {
            text.push_str(&format!("  {number}. {title}{link_text} \u{2713} done\n"));
            items.push_str(&format!(
                "<li><strong>{title_html}</strong> \u{2713} done</li>"
            ));
        } else {
            text.push_str(&format!(
                "  {number}. {title}{link_text}\n     {}\n",
                step.detail
            ));
            items.push_str(&format!(
                "<li><strong>{title_html}</strong><br>{}</li>",
                escape(&step.detail)
            ));
        }
    }
    (text, format!("<ol>{items}</ol>"))
}

impl Composer {
    /// Staff let the order go, with their reason: what happens next.
    fn released(&self, mail: &BuyerMail) -> (String, String) {
        let shop = self.shop_name();
        let id = mail.order.id;
        let link = &mail.order_link;
        let staff = mail.staff_name.as_deref().unwrap_or("The member of staff");
        let reason = mail.release_reason.as_deref().unwrap_or("no reason given");
        (
            format!(
                "{staff} could not deliver order #{id} this time and put it back in line: \
                 \"{reason}\"\n\nNothing is lost: your order keeps its place by payment, and \
                 the next member of staff picks it up. When they do, your order page shows their \
                 private server again: join it, then press \"I'm in the game\".\n\n\
                 Your order: {link}\n\n{shop}\n"
            ),
            format!(
                "<p><strong>{staff}</strong> could not deliver order #{id} this time and put it \
                 back in line: &ldquo;{reason}&rdquo;</p><p>Nothing is lost: your order keeps its \
                 place by payment, and the next member of staff picks it up. When they do, \
                 <a href=\"{link}\">your order page</a> shows their private server again: join \
                 it, then press \"I'm in the game\".</p><p>Or paste this link into your \
                 browser: {link}</p><p>{shop}</p>",
                staff = escape(staff),
                reason = escape(reason),
                link = escape(link),
                shop = escape(shop),
            ),
        )
    }

    /// The time to join the member of staff's server is up: what to do now.
    fn no_show(&self, mail: &BuyerMail) -> (String, String) {
        let shop = self.shop_name();
        let id = mail.order.id;
        let link = &mail.order_link;
        let staff = mail.staff_name.as_deref().unwrap_or("A member of staff");
        let minutes = mail.no_show_minutes;
        (
            format!(
                "{staff} has been waiting {minutes} minutes for you in the game to deliver order \
                 #{id}. Join their private server now (the link is on your order page) and press \
                 \"I'm in the game\". If you can't make it, say so on the order page: {staff} \
                 may otherwise put your order back in line, and it will be picked up again \
                 later.\n\n{link}\n\n{shop}\n"
            ),
            format!(
                "<p><strong>{staff}</strong> has been waiting {minutes} minutes for you in the \
                 game to deliver order #{id}.</p><p>Join their private server now (the link is \
                 on <a href=\"{link}\">your order page</a>) and press \"I'm in the game\". If \
                 you can't make it, say so on the order page: they may otherwise put your order \
                 back in line, and it will be picked up again later.</p><p>Or paste this link \
                 into your browser: {link}</p><p>{shop}</p>",
                staff = escape(staff),
                link = escape(link),
                shop = escape(shop),
            ),
        )
    }

    fn claimed(&self, mail: &BuyerMail) -> (String, String) {
        let shop = self.shop_name();
        let id = mail.order.id;
        let link = &mail.order_link;
        let staff = mail.staff_name.as_deref().unwrap_or("A member of staff");
        let roblox = mail.order.buyer.roblox_username.to_string();
        (
            format!(
                "{staff} is ready to deliver order #{id} to {roblox} and is waiting for you in \
                 the game.\n\nOpen your order page for the private server link, join it and \
                 press \"I'm in the game\":\n{link}\n\n{shop}\n"
            ),
            format!(
                "<p><strong>{staff}</strong> is ready to deliver order #{id} to \
                 <strong>{roblox}</strong> and is waiting for you in the game.</p>\
                 <p><a href=\"{link}\">Open your order page</a> for the private server link, \
                 join it and press \"I'm in the game\".</p><p>Or paste this link into your \
                 browser: {link}</p><p>{shop}</p>",
                staff = escape(staff),
                roblox = escape(&roblox),
                link = escape(link),
                shop = escape(shop),
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use cart_pricing::{Money, PaymentMethod, Quantity};
    use catalog::ProductId;
    use chrono::{TimeZone, Utc};
    use delivery::ScriptProgress;
    use orders::{
        Amounts, Buyer, DiscordId, DiscordIdentity, Email, Lifecycle, OrderId, OrderLine,
        OrderStatus, Payment, PaymentProvider, RobloxUsername,
    };

    use super::*;

    fn order() -> Order {
        let at = Utc.with_ymd_and_hms(2026, 11, 24, 12, 0, 0).unwrap();
        Order::restore(
            OrderId::new(12),
            vec![OrderLine {
                product_id: ProductId::new(1),
                name: "Raccoon <3".into(),
                unit_price: Money::parse("12.00").unwrap(),
                unit_price_paid: 1200,
                quantity: Quantity::new(2).unwrap(),
                components: Vec::new(),
            }],
            Buyer {
                discord: Some(DiscordIdentity {
                    discord_id: DiscordId::parse("80351110224678912").unwrap(),
                    username: "kid".into(),
                    avatar_url: None,
                }),
                roblox_username: RobloxUsername::parse("Builderman").unwrap(),
                email: Email::parse("kid@example.com").unwrap(),
                user_id: None,
            },
            Amounts {
                subtotal: Money::parse("24.00").unwrap(),
                discount: Money::parse("2.40").unwrap(),
                fee: Money::parse("1.00").unwrap(),
                total: Money::parse("22.60").unwrap(),
                paid: orders::Paid::in_base(
                    cart_pricing::CurrencyCode::USD,
                    Money::parse("22.60").unwrap(),
                ),
            },
            None,
            Payment {
                method: PaymentMethod::Card,
                provider: PaymentProvider::Stripe,
                reference: None,
                payment_id: None,
            },
            at,
            None,
            Lifecycle::restore(OrderStatus::Paid, Some(at), None, None),
        )
    }

    fn composer() -> Composer {
        Composer::new(
            "Garden Shop",
            "https://shop.example",
            "Shop <shop@example.com>",
        )
        .unwrap()
    }

    fn mail(kind: MailKind, proof: Option<&str>) -> BuyerMail {
        BuyerMail {
            kind,
            order: order(),
            order_link: "https://shop.example/orders/12?key=0123456789abcdef0123456789abcdef"
                .into(),
            proof_picture: proof.map(str::to_owned),
            estimate_minutes: 15,
            discord_invite: None,
            staff_name: Some("Ann <staff>".into()),
            release_reason: Some("My game <crashed>".into()),
            no_show_minutes: 15,
            steps: script(None, ScriptProgress::default()),
        }
    }

    fn script(invite: Option<&str>, progress: ScriptProgress) -> Vec<delivery::ScriptStep> {
        let handoff = delivery::HandoffSettings {
            delivery_minutes: 15,
            discord_invite: invite.map(str::to_owned),
            guild_id: None,
            no_show_minutes: 15,
            tickets: false,
        };
        delivery::order_script(&handoff, 15, progress)
    }

    /// The numbered titles of the plain text's steps: "1. Wait for a member of staff", …
    fn numbered(text: &str) -> Vec<String> {
        text.lines()
            .map(str::trim)
            .filter(|line| line.chars().next().is_some_and(|c| c.is_ascii_digit()))
            .filter_map(|line| line.split_once(". "))
            .map(|(n, rest)| {
                let title = rest.split([':', '\u{2713}']).next().unwrap_or(rest).trim();
                format!("{n}. {title}")
            })
            .collect()
    }

    #[test]
    fn the_receipt_and_delivered_mails_number_the_same_script_and_tick_what_is_done() {
        let invite = Some("https://discord.gg/garden");
        let receipt = BuyerMail {
            steps: script(invite, ScriptProgress::default()),
            ..mail(MailKind::Receipt, None)
        };
        let delivered = BuyerMail {
            steps: script(
                invite,
                ScriptProgress {
                    delivered: true,
                    ..ScriptProgress::default()
                },
            ),
            ..mail(MailKind::Delivered, None)
        };
        let (_, receipt_text) = composer().buyer_text(&receipt);
        let (_, delivered_text) = composer().buyer_text(&delivered);
        let expected = [
            "1. Join our Discord server",
            "2. Wait for a member of staff",
            "3. Join their private server",
            "4. Press \u{201c}I'm in the game\u{201d}",
            "5. Receive your items",
            "6. Leave a review",
        ];
        assert_eq!(numbered(&receipt_text), expected, "{receipt_text}");
        assert_eq!(numbered(&delivered_text), expected, "{delivered_text}");
        assert!(receipt_text.contains("1. Join our Discord server: https://discord.gg/garden"));
        assert!(
            !receipt_text.contains("\u{2713} done"),
            "nothing done at payment"
        );
        assert_eq!(delivered_text.matches("\u{2713} done").count(), 5);
        assert!(delivered_text.contains("  6. Leave a review\n     Tell other players"));
        let (_, html) = composer().bodies(&receipt);
        assert!(
            html.contains("<a href=\"https://discord.gg/garden\">Join our Discord server</a>"),
            "{html}"
        );
        assert_eq!(html.matches("<li>").count(), 6);
    }

    #[test]
    fn the_receipt_has_the_items_amounts_roblox_name_next_steps_and_link_in_both_parts() {
        let receipt = mail(MailKind::Receipt, None);
        let eml =
            String::from_utf8(composer().buyer_message(&receipt).unwrap().formatted()).unwrap();
        assert!(eml.contains("Subject: Your Garden Shop receipt for order #12"));
        assert!(eml.contains("To: kid@example.com"));
        assert!(eml.contains("text/plain") && eml.contains("text/html"));
        for text in [
            "2 × Raccoon <3  $24.00",
            "Discount: -$2.40",
            "Processing fee: $1.00",
            "Total: $22.60",
            "Roblox username: Builderman",
            "What happens next",
            "under 15 minutes",
            "I'm in the game",
            "https://shop.example/orders/12?key=0123456789abcdef0123456789abcdef",
        ] {
            assert!(eml.contains(text), "{text:?} in\n{eml}");
        }
        assert!(eml.contains("Raccoon &lt;3"), "escaped in HTML");
        assert!(!composer()
            .buyer_subject(&receipt)
            .contains("0123456789abcdef"));
    }

    #[test]
    fn the_delivered_mail_links_the_proof_picture_when_there_is_one() {
        let with = mail(
            MailKind::Delivered,
            Some("https://shop.example/media/proofs/a.png"),
        );
        let eml = String::from_utf8(composer().buyer_message(&with).unwrap().formatted()).unwrap();
        assert!(eml.contains("Subject: Your Garden Shop order #12 has been delivered"));
        assert!(eml.contains("https://shop.example/media/proofs/a.png"));
        let without = mail(MailKind::Delivered, None);
        let eml =
            String::from_utf8(composer().buyer_message(&without).unwrap().formatted()).unwrap();
        assert!(!eml.contains("picture of the delivery"));
        let refunded = mail(MailKind::Refunded, None);
        let eml =
            String::from_utf8(composer().buyer_message(&refunded).unwrap().formatted()).unwrap();
        assert!(eml.contains("has been refunded: $22.60"));
    }

    #[test]
    fn the_claim_mail_names_the_staff_member_and_links_the_order_page() {
        let claimed = mail(MailKind::Claimed, None);
        let eml =
            String::from_utf8(composer().buyer_message(&claimed).unwrap().formatted()).unwrap();
        assert!(eml.contains("Subject: Staff are waiting for you in the game (order #12)"));
        assert!(eml.contains("Ann <staff> is ready to deliver order #12 to Builderman"));
        assert!(eml.contains("Ann &lt;staff&gt;"), "escaped in HTML");
        assert!(eml.contains("https://shop.example/orders/12?key=0123456789abcdef0123456789abcdef"));
    }

    #[test]
    fn the_release_mail_gives_the_reason_and_what_happens_next_and_the_no_show_mail_the_time() {
        let released = mail(MailKind::Released, None);
        let eml =
            String::from_utf8(composer().buyer_message(&released).unwrap().formatted()).unwrap();
        assert!(eml.contains("Subject: Your Garden Shop order #12 is back in line"));
        assert!(
            eml.contains("\"My game <crashed>\""),
            "the reason as typed in the text"
        );
        assert!(eml.contains("My game &lt;crashed&gt;"), "escaped in HTML");
        assert!(eml.contains("keeps its place by payment"));
        let no_show = mail(MailKind::NoShow, None);
        let eml =
            String::from_utf8(composer().buyer_message(&no_show).unwrap().formatted()).unwrap();
        assert!(eml.contains("Subject: Your time to join is up (order #12)"));
        assert!(eml.contains("waiting 15 minutes for you"));
        assert!(eml.contains("https://shop.example/orders/12?key=0123456789abcdef0123456789abcdef"));
    }

    #[test]
    fn the_delivered_mail_invites_the_review_the_order_page_offers() {
        let delivered = mail(MailKind::Delivered, None);
        let (_, text) = composer().buyer_text(&delivered);
        assert!(text.contains("Leave a review on the same page"), "{text}");
    }

    #[test]
    fn mail_links_the_discord_server_when_the_shop_has_one_and_the_help_chat_otherwise() {
        let without = mail(MailKind::Delivered, None);
        let eml =
            String::from_utf8(composer().buyer_message(&without).unwrap().formatted()).unwrap();
        assert!(eml.contains("open the help chat"));
        assert!(!eml.contains("discord.gg"));
        let with = BuyerMail {
            discord_invite: Some("https://discord.gg/garden".into()),
            steps: script(Some("https://discord.gg/garden"), ScriptProgress::default()),
            ..mail(MailKind::Receipt, None)
        };
        let eml = String::from_utf8(composer().buyer_message(&with).unwrap().formatted()).unwrap();
        assert!(eml.contains("https://discord.gg/garden"));
        let delivered = BuyerMail {
            discord_invite: Some("https://discord.gg/garden".into()),
            ..mail(MailKind::Delivered, None)
        };
        let eml =
            String::from_utf8(composer().buyer_message(&delivered).unwrap().formatted()).unwrap();
        assert!(eml.contains("ask in our Discord server: https://discord.gg/garden"));
    }
}
