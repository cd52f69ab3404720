//! The buyer's mail about an order: the receipt, "delivered" and "refunded", each as plain
//! text and HTML, in the language the order was placed in. Subjects carry the order number
//! only (they are logged): never the link key.

use delivery::{BuyerMail, ScriptKey, ScriptStep};
use l10n::Text;
use lettre::Message;
use orders::{MailKind, Order};

use crate::compose::{escape, Composer, Words};

/// An amount of the order's currency (minor units) as the mail's language writes it.
fn paid_money(order: &Order, minor: i64) -> String {
    let paid = &order.amounts.paid;
    l10n::money(
        order.buyer.language,
        paid.currency.as_str(),
        minor,
        paid.minor_units,
    )
}

impl Composer {
    pub fn buyer_subject(&self, mail: &BuyerMail) -> String {
        let words = Words(mail.order.buyer.language);
        let shop = self.shop_name();
        let id = mail.order.id.to_string();
        let args = [("shop", shop), ("id", id.as_str())];
        words.text(
            match mail.kind {
                MailKind::Receipt => "mail-subject-receipt",
                MailKind::Delivered => "mail-subject-delivered",
                MailKind::Refunded => "mail-subject-refunded",
                MailKind::Claimed => "mail-subject-claimed",
                MailKind::Released => "mail-subject-released",
                MailKind::NoShow => "mail-subject-no-show",
            },
            &args,
        )
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

    /// The items, the amounts (in the currency the buyer paid in, and once the total of record
    /// in the base currency when that is another) and the Roblox username, as text and HTML.
    fn summary(&self, order: &Order) -> (String, String) {
        let mut text = String::new();
        let mut rows = String::new();
        for line in &order.lines {
            let total = paid_money(order, line.unit_price_paid * i64::from(line.quantity.get()));
            text.push_str(&format!(
                "  {} × {}  {total}\n",
                line.quantity.get(),
                line.name,
            ));
            rows.push_str(&format!(
                "<tr><td>{} × {}</td><td style=\"text-align:right\">{}</td></tr>",
                line.quantity.get(),
                escape(&line.name),
                escape(&total)
            ));
        }
        for (label, value) in self.totals(order) {
            text.push_str(&format!("{label}: {value}\n"));
            rows.push_str(&format!(
                "<tr><td>{label}</td><td style=\"text-align:right\">{}</td></tr>",
                escape(&value)
            ));
        }
        (
            text,
            format!("<table cellpadding=\"4\" style=\"border-collapse:collapse\">{rows}</table>"),
        )
    }

    /// The summary's rows under the items: subtotal, discount, fee and total as they were
    /// charged (the fee is what the total paid leaves, so the rows add up to it), the total of
    /// record when the buyer paid in another currency than the base, the Roblox username.
    fn totals(&self, order: &Order) -> Vec<(String, String)> {
        let words = Words(order.buyer.language);
        let paid = order.amounts.paid;
        let charge = order.priced_cart().charge;
        let mut totals = vec![(
            words.say("mail-subtotal"),
            paid_money(order, charge.subtotal),
        )];
        if charge.discount != 0 {
            let code = order
                .promo
                .as_ref()
                .map(|p| format!(" ({})", p.code))
                .unwrap_or_default();
            totals.push((
                words.say("mail-discount"),
                format!("{}{code}", paid_money(order, -charge.discount)),
            ));
        }
        totals.push((
            words.say("mail-fee"),
            paid_money(order, paid.amount - charge.total),
        ));
        totals.push((words.say("mail-total"), paid_money(order, paid.amount)));
        if paid.currency.as_str() != self.base_currency() {
            let of_record = l10n::money(
                order.buyer.language,
                self.base_currency(),
                order.amounts.total.cents(),
                2,
            );
            totals.push((
                words.say("mail-total-of-record"),
                words.text("mail-about", &[("amount", &of_record)]),
            ));
        }
        let roblox = order.buyer.roblox_username.to_string();
        totals.push((words.say("mail-roblox-username"), roblox));
        totals
    }

    fn receipt(&self, mail: &BuyerMail) -> (String, String) {
        let words = Words(mail.order.buyer.language);
        let shop = self.shop_name();
        let id = mail.order.id.to_string();
        let link = &mail.order_link;
        let (items, table) = self.summary(&mail.order);
        let (next_text, next_html) = steps(mail);
        let paid = words.text("mail-receipt-paid", &[("id", &id)]);
        let (thanks, next, we_mail) = (
            words.say("mail-receipt-thanks"),
            words.say("mail-next-heading"),
            words.say("mail-receipt-we-mail"),
        );
        (
            format!(
                "{thanks}\n\n{paid}\n\n{items}\n{next}\n{next_text}\n{we_mail}\n\n{follow}\n{link}\n\n\
                 {shop}\n{url}\n",
                follow = words.say("mail-follow-order"),
                url = self.public_url()
            ),
            format!(
                "<h1 style=\"font-size:20px\">{thanks}</h1><p>{paid}</p>{table}\
                 <p><strong>{next}</strong></p>{next_html}<p>{we_mail}</p>\
                 <p><a href=\"{href}\">{follow}</a> {aside}</p><p>{paste}</p><p>{shop}</p>",
                href = escape(link),
                follow = words.say("mail-follow-order-link"),
                aside = words.say("mail-follow-order-aside"),
                paste = words.html("mail-paste-link", &[("link", link)]),
                shop = escape(shop),
            ),
        )
    }

    fn delivered(&self, mail: &BuyerMail) -> (String, String) {
        let words = Words(mail.order.buyer.language);
        let shop = self.shop_name();
        let id = mail.order.id.to_string();
        let link = &mail.order_link;
        let roblox = mail.order.buyer.roblox_username.to_string();
        let (proof_text, proof_html) = match &mail.proof_picture {
            Some(picture) => (
                format!(
                    "{}\n\n",
                    words.text("mail-delivered-picture", &[("picture", picture)])
                ),
                format!(
                    "<p><a href=\"{p}\">{}</a> ({p})</p>",
                    words.say("mail-delivered-picture-link"),
                    p = escape(picture)
                ),
            ),
            None => (String::new(), String::new()),
        };
        let (items, table) = self.summary(&mail.order);
        let (steps_text, steps_html) = steps(mail);
        let (help_text, help_html) = help(mail);
        let (heading, review) = (
            words.say("mail-delivered-steps-heading"),
            words.say("mail-delivered-review"),
        );
        let missing = |help: &str| words.markup("mail-delivered-missing", &[("help", help)]);
        let page = format!(
            "<a href=\"{}\">{}</a>",
            escape(link),
            words.say("mail-your-order-page")
        );
        (
            format!(
                "{done}\n\n{items}\n{proof_text}{got}\n\n{heading}\n{steps_text}\n{review}\n\n{missing}\n\n\
                 {shop}\n",
                done = words.text("mail-delivered-done", &[("id", &id), ("roblox", &roblox)]),
                got = words.text("mail-delivered-got-text", &[("link", link)]),
                missing = missing(&help_text),
            ),
            format!(
                "<p>{done}</p>{table}{proof_html}<p>{got}</p><p><strong>{heading}</strong></p>\
                 {steps_html}<p>{review}</p><p>{missing}</p><p>{shop}</p>",
                done = words.markup(
                    "mail-delivered-done",
                    &[
                        ("id", &id),
                        ("roblox", &format!("<strong>{}</strong>", escape(&roblox)))
                    ]
                ),
                got = words.markup(
                    "mail-delivered-got-html",
                    &[("page", &page), ("link", &escape(link))]
                ),
                missing = missing(&help_html),
                shop = escape(shop),
            ),
        )
    }

    fn refunded(&self, mail: &BuyerMail) -> (String, String) {
        let words = Words(mail.order.buyer.language);
        let shop = self.shop_name();
        let id = mail.order.id.to_string();
        let link = &mail.order_link;
        let total = paid_money(&mail.order, mail.order.amounts.paid.amount);
        let refunded = words.text("mail-refunded", &[("id", &id), ("total", &total)]);
        let your_order = words.say("mail-your-order");
        (
            format!("{refunded}\n\n{your_order}: {link}\n\n{shop}\n"),
            format!(
                "<p>{refunded}</p><p><a href=\"{link}\">{your_order}</a> ({link})</p><p>{shop}</p>",
                link = escape(link),
                shop = escape(shop),
            ),
        )
    }
}

/// "Join our Discord server" with its link, or the help chat when the shop has no invite.
fn help(mail: &BuyerMail) -> (String, String) {
    let words = Words(mail.order.buyer.language);
    match &mail.discord_invite {
        Some(invite) => (
            words.text("mail-help-discord-text", &[("invite", invite)]),
            words.markup(
                "mail-help-discord-html",
                &[
                    (
                        "server",
                        &format!(
                            "<a href=\"{}\">{}</a>",
                            escape(invite),
                            words.say("mail-help-discord-server")
                        ),
                    ),
                    ("invite", &escape(invite)),
                ],
            ),
        ),
        None => (words.say("mail-help-chat"), words.say("mail-help-chat")),
    }
}

/// A step's title and the sentence on how, in the mail's language (the script's words, by its
/// key: one script, its words in the message files).
fn step_words(mail: &BuyerMail, step: &ScriptStep) -> (String, String) {
    let words = Words(mail.order.buyer.language);
    let (title, detail) = match step.key {
        ScriptKey::Discord => ("mail-step-discord", "mail-step-discord-detail"),
        ScriptKey::Wait => ("mail-step-wait", "mail-step-wait-detail"),
        ScriptKey::Join => ("mail-step-join", "mail-step-join-detail"),
        ScriptKey::Ready => ("mail-step-ready", "mail-step-ready-detail"),
        ScriptKey::Receive => ("mail-step-receive", "mail-step-receive-detail"),
        ScriptKey::Review => ("mail-step-review", "mail-step-review-detail"),
    };
    let detail = Text::new(detail)
        .with("minutes", mail.estimate_minutes)
        .with("tickets", if mail.tickets { "yes" } else { "no" })
        .render(words.0);
    (words.say(title), detail)
}

/// The script from payment to delivery as the order's page numbers it: each step's title (the
/// Discord step linked to the invite), a tick on the steps the order is past, the sentence on
/// how for the others.
fn steps(mail: &BuyerMail) -> (String, String) {
    let done = Words(mail.order.buyer.language).say("mail-step-done");
    let mut text = String::new();
    let mut items = String::new();
    for (index, step) in mail.steps.iter().enumerate() {
        let number = index + 1;
        let (title, detail) = step_words(mail, step);
        let link_text = step
            .link
            .as_ref()
            .map(|link| format!(": {link}"))
            .unwrap_or_default();
        let title_html = match &step.link {
            Some(link) => format!("<a href=\"{}\">{}</a>", escape(link), escape(&title)),
            None => escape(&title),
        };
        if step.done {
            text.push_str(&format!("  {number}. {title}{link_text} \u{2713} {done}\n"));
            items.push_str(&format!(
                "<li><strong>{title_html}</strong> \u{2713} {done}</li>"
            ));
        } else {
            text.push_str(&format!("  {number}. {title}{link_text}\n     {detail}\n"));
            items.push_str(&format!(
                "<li><strong>{title_html}</strong><br>{}</li>",
                escape(&detail)
            ));
        }
    }
    (text, format!("<ol>{items}</ol>"))
}

impl Composer {
    /// Staff let the order go, with their reason: what happens next.
    fn released(&self, mail: &BuyerMail) -> (String, String) {
        let words = Words(mail.order.buyer.language);
        let shop = self.shop_name();
        let id = mail.order.id.to_string();
        let link = &mail.order_link;
        let staff = (mail.staff_name.clone()).unwrap_or_else(|| words.say("mail-the-staff"));
        let reason = (mail.release_reason.clone()).unwrap_or_else(|| words.say("mail-no-reason"));
        let page = format!(
            "<a href=\"{}\">{}</a>",
            escape(link),
            words.say("mail-your-order-page")
        );
        let args = [("staff", staff.as_str()), ("id", &id), ("reason", &reason)];
        let html_args = [
            ("staff", format!("<strong>{}</strong>", escape(&staff))),
            ("id", id.clone()),
            ("reason", format!("&ldquo;{}&rdquo;", escape(&reason))),
            ("page", page),
        ];
        let html_args: Vec<_> = html_args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        (
            format!(
                "{}\n\n{}\n\n{}: {link}\n\n{shop}\n",
                words.text("mail-released-text", &args),
                words.say("mail-released-next-text"),
                words.say("mail-your-order"),
            ),
            format!(
                "<p>{}</p><p>{}</p><p>{}</p><p>{shop}</p>",
                words.markup("mail-released-html", &html_args),
                words.markup("mail-released-next-html", &html_args),
                words.html("mail-paste-link", &[("link", link)]),
                shop = escape(shop),
            ),
        )
    }

    /// The time to join the member of staff's server is up: what to do now.
    fn no_show(&self, mail: &BuyerMail) -> (String, String) {
        let words = Words(mail.order.buyer.language);
        let shop = self.shop_name();
        let id = mail.order.id.to_string();
        let link = &mail.order_link;
        let staff = (mail.staff_name.clone()).unwrap_or_else(|| words.say("mail-a-staff"));
        let minutes = mail.no_show_minutes.to_string();
        let page = format!(
            "<a href=\"{}\">{}</a>",
            escape(link),
            words.say("mail-your-order-page")
        );
        let strong = format!("<strong>{}</strong>", escape(&staff));
        let number = |id: &'static str, args: &[(&'static str, &str)]| {
            args.iter()
                .fold(Text::new(id), |text, (name, value)| match *name {
                    "minutes" => text.with(name, mail.no_show_minutes),
                    _ => text.with(name, *value),
                })
                .render(words.0)
        };
        (
            format!(
                "{}\n\n{link}\n\n{shop}\n",
                number(
                    "mail-no-show-text",
                    &[("staff", &staff), ("minutes", &minutes), ("id", &id)]
                ),
            ),
            format!(
                "<p>{}</p><p>{}</p><p>{}</p><p>{shop}</p>",
                number(
                    "mail-no-show-html",
                    &[("staff", &strong), ("minutes", &minutes), ("id", &id)]
                ),
                words.markup("mail-no-show-join-html", &[("page", &page)]),
                words.html("mail-paste-link", &[("link", link)]),
                shop = escape(shop),
            ),
        )
    }

    fn claimed(&self, mail: &BuyerMail) -> (String, String) {
        let words = Words(mail.order.buyer.language);
        let shop = self.shop_name();
        let id = mail.order.id.to_string();
        let link = &mail.order_link;
        let staff = (mail.staff_name.clone()).unwrap_or_else(|| words.say("mail-a-staff"));
        let roblox = mail.order.buyer.roblox_username.to_string();
        let open = format!(
            "<a href=\"{}\">{}</a>",
            escape(link),
            words.say("mail-claimed-open-link")
        );
        (
            format!(
                "{}\n\n{}\n{link}\n\n{shop}\n",
                words.text(
                    "mail-claimed",
                    &[("staff", &staff), ("id", &id), ("roblox", &roblox)]
                ),
                words.say("mail-claimed-open-text"),
            ),
            format!(
                "<p>{}</p><p>{}</p><p>{}</p><p>{shop}</p>",
                words.markup(
                    "mail-claimed",
                    &[
                        ("staff", &format!("<strong>{}</strong>", escape(&staff))),
                        ("id", &id),
                        ("roblox", &format!("<strong>{}</strong>", escape(&roblox))),
                    ]
                ),
                words.markup("mail-claimed-open-html", &[("open", &open)]),
                words.html("mail-paste-link", &[("link", link)]),
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

    use shared::Language;

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
                language: shared::Language::English,
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
            Some(orders::OrderPromo {
                id: promo::PromoId::new(3),
                code: promo::PromoCode::parse("SAVE10").unwrap(),
                discount: cart_pricing::DiscountPercent::new(10).unwrap(),
            }),
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
            tickets: false,
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
            "Discount: -$2.40 (SAVE10)",
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

    fn in_language(kind: MailKind, language: Language) -> BuyerMail {
        let mut mail = BuyerMail {
            discord_invite: Some("https://discord.gg/garden".into()),
            steps: script(Some("https://discord.gg/garden"), ScriptProgress::default()),
            ..mail(kind, Some("https://shop.example/proof.png"))
        };
        mail.order.buyer.language = language;
        mail
    }

    #[test]
    fn a_portuguese_receipt_has_a_portuguese_subject_and_body() {
        let receipt = in_language(MailKind::Receipt, Language::BrazilianPortuguese);
        let (subject, text) = composer().buyer_text(&receipt);
        assert_eq!(subject, "Seu recibo da Garden Shop do pedido #12");
        assert!(
            text.starts_with("Obrigado pelo seu pedido!\n\nO pedido #12 está pago.\n"),
            "{text}"
        );
        assert!(text.contains("Usuário do Roblox: Builderman"), "{text}");
        assert!(
            text.contains("  2. Aguarde um membro da equipe\n"),
            "{text}"
        );
        assert!(text.contains("menos de 15 minutos."), "{text}");
        let (_, html) = composer().bodies(&receipt);
        assert!(html.contains("<h1 style=\"font-size:20px\">Obrigado pelo seu pedido!</h1>"));
        assert!(
            html.contains("Acompanhe seu pedido</a> (sem login"),
            "{html}"
        );
        assert!(composer().buyer_message(&receipt).is_ok());
    }

    /// Every mail in every other language: its subject and no sentence of its English text
    /// (links, amounts and names aside) left in it.
    #[test]
    fn every_buyer_mail_is_written_in_the_order_s_language() {
        let kinds = [
            MailKind::Receipt,
            MailKind::Delivered,
            MailKind::Refunded,
            MailKind::Claimed,
            MailKind::Released,
            MailKind::NoShow,
        ];
        for kind in kinds {
            let english = in_language(kind, Language::English);
            let (english_subject, english_text) = composer().buyer_text(&english);
            let sentences: Vec<&str> = english_text
                .lines()
                .map(str::trim)
                .filter(|line| line.len() > 24 && !line.starts_with("http"))
                .collect();
            for language in Language::ALL.into_iter().skip(1) {
                let mail = in_language(kind, language);
                let (subject, text) = composer().buyer_text(&mail);
                assert_ne!(subject, english_subject, "{language} {kind:?}");
                for sentence in &sentences {
                    assert!(
                        !text.contains(sentence),
                        "{language} {kind:?} keeps {sentence:?}:\n{text}"
                    );
                }
                let (_, html) = composer().bodies(&mail);
                assert!(!html.contains("{$"), "{language} {kind:?}: {html}");
            }
        }
    }

    /// The order of the Portuguese checkout in the currency tests: 2 × R$ 26,65, the card fee
    /// R$ 4,13, R$ 57,43 paid; US$ 10.75 of record.
    fn paid_in_reais(kind: MailKind, language: Language) -> BuyerMail {
        let mut mail = mail(kind, None);
        mail.order.promo = None;
        mail.order.lines[0].unit_price = Money::parse("5.00").unwrap();
        mail.order.lines[0].unit_price_paid = 2665;
        mail.order.amounts = Amounts {
            subtotal: Money::parse("10.00").unwrap(),
            discount: Money::ZERO,
            fee: Money::parse("0.75").unwrap(),
            total: Money::parse("10.75").unwrap(),
            paid: orders::Paid {
                currency: "BRL".parse().unwrap(),
                rate: "5.34144".parse().unwrap(),
                minor_units: 2,
                amount: 5743,
            },
        };
        mail.order.buyer.language = language;
        mail
    }

    #[test]
    fn a_receipt_paid_in_reais_shows_reais_the_portuguese_way_and_the_dollars_of_record_once() {
        let receipt = paid_in_reais(MailKind::Receipt, Language::BrazilianPortuguese);
        let (_, text) = composer().buyer_text(&receipt);
        for expected in [
            "2 × Raccoon <3  R$\u{a0}53,30\n",
            "Subtotal: R$\u{a0}53,30\n",
            "Taxa de processamento: R$\u{a0}4,13\n",
            "Total: R$\u{a0}57,43\n",
            "Na moeda da loja: ≈ US$\u{a0}10,75\n",
        ] {
            assert!(text.contains(expected), "{expected:?} in\n{text}");
        }
        assert_eq!(text.matches("US$").count(), 1, "{text}");
        let (_, html) = composer().bodies(&receipt);
        assert!(html.contains("R$\u{a0}57,43</td>"), "{html}");
        let english = paid_in_reais(MailKind::Receipt, Language::English);
        let (_, text) = composer().buyer_text(&english);
        assert!(text.contains("Total: R$57.43\n"), "{text}");
        assert!(
            text.contains("In the shop's currency: ≈ $10.75\n"),
            "{text}"
        );
    }

    #[test]
    fn a_receipt_in_the_base_currency_names_no_other_and_german_writes_the_euro_after() {
        let (_, text) = composer().buyer_text(&mail(MailKind::Receipt, None));
        assert!(text.contains("Total: $22.60\n"), "{text}");
        assert!(!text.contains('≈'), "{text}");
        let mut euros = paid_in_reais(MailKind::Receipt, Language::German);
        euros.order.amounts.paid.currency = "EUR".parse().unwrap();
        euros.order.amounts.paid.amount = 1043;
        euros.order.lines[0].unit_price_paid = 470;
        let (_, text) = composer().buyer_text(&euros);
        assert!(text.contains("Gesamt: 10,43\u{a0}€\n"), "{text}");
        let own_base = composer().with_base_currency("eur");
        let (_, text) = own_base.buyer_text(&euros);
        assert!(!text.contains('≈'), "{text}");
    }

    #[test]
    fn a_zero_decimal_currency_is_written_without_decimals() {
        let mut yen = paid_in_reais(MailKind::Receipt, Language::English);
        yen.order.amounts.paid = orders::Paid {
            currency: "JPY".parse().unwrap(),
            rate: "155".parse().unwrap(),
            minor_units: 0,
            amount: 1712,
        };
        yen.order.lines[0].unit_price_paid = 775;
        let (_, text) = composer().buyer_text(&yen);
        assert!(text.contains("2 × Raccoon <3  ¥1,550\n"), "{text}");
        assert!(text.contains("Total: ¥1,712\n"), "{text}");
    }

    #[test]
    fn the_delivered_and_refunded_mails_show_the_amount_in_the_currency_paid() {
        let delivered = paid_in_reais(MailKind::Delivered, Language::BrazilianPortuguese);
        let (_, text) = composer().buyer_text(&delivered);
        assert!(text.contains("Total: R$\u{a0}57,43\n"), "{text}");
        let refunded = paid_in_reais(MailKind::Refunded, Language::BrazilianPortuguese);
        let (_, text) = composer().buyer_text(&refunded);
        assert!(text.contains("R$\u{a0}57,43"), "{text}");
        assert!(!text.contains("US$"), "{text}");
    }
}
