//! The HTML of the stand-ins' pages: server-rendered, no script (the shop's CSP allows none
//! inline); their forms post to the shop's own origin.

use cart_pricing::Money;
use orders::{Order, OrderStatus};

use crate::stand_ins::{encode_query_value, DevDiscord, DEMO_IDENTITIES};

/// Escapes text for HTML content and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

const STYLE: &str = r#"
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; background: #f5f8f4; color: #0f172a;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  display: flex; align-items: flex-start; justify-content: center; padding: 32px 16px; }
main { width: 100%; max-width: 440px; background: #fff; border: 1px solid #e2e8f0;
  border-radius: 16px; box-shadow: 0 10px 30px rgb(15 23 42 / 0.08); padding: 24px; }
.badge { display: inline-block; font-size: 12px; font-weight: 600; letter-spacing: .04em;
  text-transform: uppercase; color: #92400e; background: #fef3c7; border: 1px solid #fde68a;
  border-radius: 999px; padding: 2px 10px; }
h1 { font-size: 22px; margin: 12px 0 4px; }
h2 { font-size: 17px; margin: 20px 0 4px; }
p { margin: 0 0 16px; color: #475569; }
table { width: 100%; border-collapse: collapse; margin: 8px 0 16px; }
td { padding: 6px 0; border-bottom: 1px solid #f1f5f9; }
td.amount { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
tr.total td { font-weight: 700; border-bottom: 0; padding-top: 10px; }
.actions { display: flex; gap: 12px; flex-wrap: wrap; }
.actions form { flex: 1 1 140px; margin: 0; }
button { width: 100%; font: inherit; font-weight: 600; border-radius: 10px; padding: 12px 16px;
  cursor: pointer; border: 1px solid transparent; }
button.primary { background: #15803d; color: #fff; }
button.primary:hover { background: #166534; }
button.secondary { background: #fff; color: #1e293b; border-color: #cbd5e1; }
button.secondary:hover { background: #f8fafc; }
button:focus-visible { outline: 3px solid #86efac; outline-offset: 2px; }
ul.identities { list-style: none; margin: 0; padding: 0; display: grid; gap: 10px; }
ul.identities form { margin: 0; }
ul.identities button { text-align: left; background: #f0fdf4; color: #14532d; border-color: #bbf7d0; }
ul.identities button:hover { background: #dcfce7; }
.note { font-size: 14px; color: #475569; margin-top: 16px; }
"#;

/// Dollars for people to read: `$12.50`.
fn money(money: Money) -> String {
    format!("${:.2}", money.as_decimal())
}

/// What the buyer is charged when it is not the base currency: "BRL 57.43 (5.34144 per $1)",
/// as Stripe's own page would show the charge in the session's currency.
fn charged(order: &Order) -> Option<String> {
    let paid = &order.amounts.paid;
    if paid.rate == cart_pricing::Decimal::ONE {
        return None;
    }
    let amount = cart_pricing::Decimal::new(paid.amount, paid.minor_units);
    Some(format!(
        "{} {amount} ({} per $1)",
        paid.currency,
        paid.rate.normalize()
    ))
}

/// A whole page: `body` in the pages' frame, titled `title`.
fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\">\
         <title>{} · Garden Shop</title><style>{STYLE}</style></head>\
         <body><main>{body}</main></body></html>",
        escape(title)
    )
}

/// The payment page of `order` (`GET /dev/pay/{order_id}`): its lines and amounts, and while
/// it is pending two buttons, Pay (`POST /dev/pay/{id}/pay`) and Cancel
/// (`POST /dev/pay/{id}/cancel`).
pub fn pay_page(order: &Order) -> String {
    let id = order.id;
    let mut rows = String::new();
    for line in &order.lines {
        rows.push_str(&format!(
            "<tr><td>{} × {}</td><td class=\"amount\">{}</td></tr>",
            line.quantity.get(),
            escape(&line.name),
            money(line.total())
        ));
    }
    if order.amounts.discount.cents() > 0 {
        rows.push_str(&format!(
            "<tr><td>Discount</td><td class=\"amount\">−{}</td></tr>",
            money(order.amounts.discount)
        ));
    }
    rows.push_str(&format!(
        "<tr><td>Processing fee</td><td class=\"amount\">{}</td></tr>\
         <tr class=\"total\"><td>Total</td><td class=\"amount\">{}</td></tr>",
        money(order.amounts.fee),
        money(order.amounts.total)
    ));
    if let Some(charged) = charged(order) {
        rows.push_str(&format!(
            "<tr class=\"total\"><td>Charged</td><td class=\"amount\" data-charged>{}</td></tr>",
            escape(&charged)
        ));
    }
    let body = if order.status() == OrderStatus::Pending {
        format!(
            "<span class=\"badge\">Test payment</span><h1>Pay for order #{id}</h1>\
             <p>This is the shop's development payment page: no money moves.</p>\
             <table aria-label=\"Order summary\">{rows}</table>\
             <div class=\"actions\">\
             <form method=\"post\" action=\"/dev/pay/{id}/pay\"><button class=\"primary\" type=\"submit\">Pay</button></form>\
             <form method=\"post\" action=\"/dev/pay/{id}/cancel\"><button class=\"secondary\" type=\"submit\">Cancel</button></form>\
             </div><p class=\"note\">Paying here confirms the order exactly as Stripe's webhook would.</p>"
        )
    } else if matches!(order.status(), OrderStatus::Paid | OrderStatus::Delivered) {
        format!(
            "<span class=\"badge\">Test payment</span><h1>Order #{id}</h1>\
             <p>This order is {} and can no longer be paid.</p>\
             <table aria-label=\"Order summary\">{rows}</table>\
             <h2>What the card holder's bank can do</h2>\
             <p>Try how the shop keeps its money, as Stripe would tell it:</p>\
             <div class=\"actions\">\
             <form method=\"post\" action=\"/dev/pay/{id}/dispute\"><button class=\"secondary\" type=\"submit\">Open a dispute</button></form>\
             <form method=\"post\" action=\"/dev/pay/{id}/fraud-warning\"><button class=\"secondary\" type=\"submit\">Send a fraud warning</button></form>\
             </div><p class=\"note\">A dispute (\"product not received\", due in 7 days) \
             shows on the admin's Disputes page; a fraud warning holds an order not yet \
             delivered, and on a delivered one prepares the evidence for the dispute that may \
             follow (the Disputes page shows it).</p>",
            escape(&order.status().label().to_lowercase())
        )
    } else {
        format!(
            "<span class=\"badge\">Test payment</span><h1>Order #{id}</h1>\
             <p>This order is {} and can no longer be paid.</p>\
             <table aria-label=\"Order summary\">{rows}</table>",
            escape(&order.status().label().to_lowercase())
        )
    };
    page(&format!("Pay for order #{id}"), &body)
}

/// The sign-in page (`GET /dev/discord/authorize`): one button per demo identity, each back to
/// `/discord/callback` with its code and the OAuth `state` unchanged.
pub fn discord_page(state: &str) -> String {
    let oauth_state = escape(state);
    let mut items = String::new();
    for (id, username) in DEMO_IDENTITIES {
        items.push_str(&format!(
            "<li><form method=\"get\" action=\"/discord/callback\">\
             <input type=\"hidden\" name=\"code\" value=\"{}\">\
             <input type=\"hidden\" name=\"state\" value=\"{oauth_state}\">\
             <button type=\"submit\">Continue as {}</button></form></li>",
            escape(&encode_query_value(&DevDiscord::code_for(id))),
            escape(username)
        ));
    }
    let body = format!(
        "<span class=\"badge\">Test sign-in</span><h1>Link a Discord account</h1>\
         <p>This is the shop's development sign-in page: pick a demo Discord account.</p>\
         <ul class=\"identities\" aria-label=\"Demo Discord accounts\">{items}</ul>\
         <p class=\"note\">With discord.client_id set, shoppers sign in with Discord itself.</p>"
    );
    page("Link Discord", &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_for_content_and_attribute_values() {
        assert_eq!(
            escape(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn the_sign_in_page_offers_every_demo_identity_and_carries_the_state_escaped() {
        let html = discord_page("a\"b<c");
        assert!(html.starts_with("<!doctype html>"));
        assert!(html.contains("<title>Link Discord · Garden Shop</title>"));
        for (id, username) in DEMO_IDENTITIES {
            assert!(html.contains(&format!("value=\"dev-{id}\"")), "{id}");
            assert!(
                html.contains(&format!("Continue as {username}")),
                "{username}"
            );
        }
        assert!(html.contains("name=\"state\" value=\"a&quot;b&lt;c\""));
        assert!(!html.contains("a\"b<c"));
    }

    #[test]
    fn money_reads_as_dollars_and_cents() {
        assert_eq!(money(Money::parse("12.5").unwrap_or(Money::ZERO)), "$12.50");
    }
}
